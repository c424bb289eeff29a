import Foundation
import GeoCore

extension LiveClusterSnapshot {
    /// The serial, zoom and partition of a cluster id, when a cluster of this snapshot has it.
    private func locate(_ id: Int) -> (serial: Int32, zoom: Int, partition: Int)? {
        let zoom = (id & 31) - 1
        let serial = id >> 5
        guard zoom >= options.minZoom, zoom <= options.maxZoom, serial >= 0,
            serial < core.elements.count
        else { return nil }
        let e = core.elements[serial]
        guard e.isPresent, core.formation(Int32(serial), zoom: zoom) != nil else {
            return nil
        }
        return (Int32(serial), zoom, Int(e.partition))
    }

    /// The records a cluster was formed from, in level order: its first record and the records it
    /// absorbed.
    private func childRecords(
        _ id: Int
    ) throws(GeoError) -> (
        partition: Int, children: [(Int32, LiveRecord)]
    ) {
        guard let (s, zoom, p) = locate(id) else {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
        let level = zoom + 1
        let origin = core.record(s, level: level)
        var members = [Int32]()
        core.forEachNear(partition: p, level: level, x: origin.x, y: origin.y) { entry in
            guard entry.isMember, entry.serial > s else { return }
            let m = core.elements[Int(entry.serial)]
            if m.claimer == s && Int(m.depth) == level { members.append(entry.serial) }
        }
        members.sort()
        return (p, [(s, origin)] + members.map { ($0, core.record($0, level: level)) })
    }

    /// The clusters and points a cluster was formed from, one zoom deeper, in level order.
    ///
    /// - Throws: `GeoError.Kind.notFound` for an id no cluster of this snapshot has.
    /// - Complexity: O(k log n) for the records in the cluster's radius.
    public func children(of id: Int) throws(GeoError) -> [ClusterFeature<Key>] {
        let (p, children) = try childRecords(id)
        return children.compactMap { feature(p, $0.0, $0.1) }
    }

    /// The points of a cluster, depth first through its children, skipping `offset` of them and
    /// returning at most `limit` (as ``ClusterIndex/leaves(of:limit:offset:)``).
    ///
    /// - Throws: `GeoError.Kind.notFound` for an id no cluster of this snapshot has.
    public func leaves(
        of id: Int, limit: Int = 10, offset: Int = 0
    ) throws(GeoError)
        -> [ClusterPoint<Key>]
    {
        var result = [ClusterPoint<Key>]()
        var skipped = 0
        try appendLeaves(
            of: id, limit: max(0, limit), offset: max(0, offset), skipped: &skipped,
            into: &result)
        return result
    }

    private func appendLeaves(
        of id: Int, limit: Int, offset: Int, skipped: inout Int,
        into result: inout [ClusterPoint<Key>]
    ) throws(GeoError) {
        guard result.count < limit else { return }
        let (p, children) = try childRecords(id)
        for (s, record) in children {
            if record.id & 31 != 0 {
                let count = Int(record.count)
                if skipped + count <= offset {
                    skipped += count
                } else {
                    try appendLeaves(
                        of: record.id, limit: limit, offset: offset, skipped: &skipped,
                        into: &result)
                }
            } else if skipped < offset {
                skipped += 1
            } else if case .point(let point)? = feature(p, s, record) {
                result.append(point)
            }
            if result.count == limit { break }
        }
    }

    /// The first zoom at which a cluster shows more than one child, at most `maxZoom + 1` (as
    /// ``ClusterIndex/expansionZoom(of:)``).
    ///
    /// - Throws: `GeoError.Kind.notFound` for an id no cluster of this snapshot has.
    public func expansionZoom(of id: Int) throws(GeoError) -> Int {
        var id = id
        guard var zoom = locate(id)?.zoom else {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
        while zoom <= options.maxZoom {
            let children = try childRecords(id).children
            zoom += 1
            guard children.count == 1, children[0].1.id & 31 != 0 else { break }
            id = children[0].1.id
        }
        return zoom
    }

    /// The features of the XYZ tile `z/x/y` in tile pixels, as ``ClusterIndex/tile(z:x:y:)`` gives
    /// them; `nil` when there are none.
    ///
    /// - Complexity: O(k log n) for k features.
    public func tile(z: Int, x: Int, y: Int) -> ClusterTile<Key>? {
        guard let level = level(atZoom: Double(z)) else { return nil }
        let z2 = exp2(Double(z))
        let p = options.radius / options.extent
        let tx = Double(x), ty = Double(y)
        let top = (ty - p) / z2
        let bottom = (ty + 1 + p) / z2
        let extent = options.extent
        var features = [ClusterTileFeature<Key>]()
        for partition in core.partitions.indices {
            func add(minX: Double, maxX: Double, originX: Double) {
                records(partition: partition, level: level, boxes: [(minX, top, maxX, bottom)]) {
                    s, record in
                    guard let feature = feature(partition, s, record) else { return }
                    let px: Double, py: Double
                    if case .point(let point) = feature {
                        px = SuperclusterProjection.x(longitude: point.coordinate.longitude)
                        py = SuperclusterProjection.y(latitude: point.coordinate.latitude)
                    } else {
                        (px, py) = (record.x, record.y)
                    }
                    features.append(
                        ClusterTileFeature(
                            x: SuperclusterProjection.jsRound(extent * (px * z2 - originX)),
                            y: SuperclusterProjection.jsRound(extent * (py * z2 - ty)),
                            feature: feature))
                }
            }
            add(minX: (tx - p) / z2, maxX: (tx + 1 + p) / z2, originX: tx)
            if x == 0 { add(minX: 1 - p / z2, maxX: 1, originX: z2) }
            if Double(x) == z2 - 1 { add(minX: 0, maxX: p / z2, originX: -1) }
        }
        return features.isEmpty ? nil : ClusterTile(features: features)
    }

    /// The tile's features, as ``tile(z:x:y:)`` gives them.
    public func tile(_ tile: TileID) -> ClusterTile<Key>? {
        self.tile(z: tile.zoom, x: tile.x, y: tile.y)
    }

    /// The feature that holds the element with a serial at a level.
    @inlinable
    func feature(containing serial: Int32, level: Int) -> ClusterFeature<Key>? {
        guard serial >= 0, Int(serial) < core.elements.count,
            let s = core.container(of: serial, level: level)
        else { return nil }
        let p = Int(core.elements[Int(s)].partition)
        return feature(p, s, core.record(s, level: level))
    }
}
