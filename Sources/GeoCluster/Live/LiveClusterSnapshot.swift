import Foundation
import GeoCore

/// A ``LiveClusterIndex`` as it was at one moment: immutable, `Sendable`, O(1) to take, and
/// queried like a ``ClusterIndex``.
///
/// Results come in level order (insertion order of each feature's first element) per clustering
/// identifier; a point's ``ClusterPoint/element`` is its key and its ``ClusterPoint/index`` its
/// insertion serial.
public struct LiveClusterSnapshot<Key: Hashable & Sendable>: Sendable {
    @usableFromInline let core: LiveCore
    @usableFromInline let keys: ChunkedArray<Key?>

    /// The options of the index.
    public var options: ClusterOptions { core.options }

    /// The number of elements.
    public var count: Int { core.count }

    /// A number that grows with every batch applied to the index: two snapshots taken from one
    /// index (not from copies of it changed apart) with the same version hold the same clusters.
    public var version: Int { core.version }

    /// The level a zoom reads: `floor(zoom)` clamped to minZoom...maxZoom+1; `nil` for NaN.
    @usableFromInline
    func level(atZoom zoom: Double) -> Int? {
        guard !zoom.isNaN else { return nil }
        let lowest = Double(options.minZoom), highest = Double(options.maxZoom + 1)
        return Int(max(lowest, min(zoom.rounded(.down), highest)))
    }

    /// The clusters and points inside a box at a zoom, as ``ClusterIndex/clusters(in:zoom:)-(BoundingBox,_)``
    /// selects them (the box normalized as supercluster normalizes it, across the 180th meridian
    /// in two parts).
    ///
    /// - Complexity: O(k log n) for k features, plus O(log n) per grid column of the box that holds
    ///   a record.
    public func clusters(in box: BoundingBox, zoom: Double) -> [ClusterFeature<Key>] {
        var result = [ClusterFeature<Key>]()
        forEachFeature(
            west: box.west, south: box.south, east: box.east, north: box.north, zoom: zoom
        ) {
            if let f = feature($0, $1, $2) { result.append(f) }
        }
        return result
    }

    /// The clusters and points inside a region at a zoom.
    public func clusters(in region: CoordinateRegion, zoom: Double) -> [ClusterFeature<Key>] {
        clusters(in: region.boundingBox, zoom: zoom)
    }

    /// Calls `body` with each record (partition, serial, record) inside a box at a zoom.
    @usableFromInline
    func forEachFeature(
        west: Double, south: Double, east: Double, north: Double, zoom: Double,
        _ body: (Int, Int32, LiveRecord) -> Void
    ) {
        guard let level = level(atZoom: zoom) else { return }
        let boxes = LiveCore.projectedBoxes(west: west, south: south, east: east, north: north)
        for p in core.partitions.indices {
            var found = [(Int32, LiveRecord)]()
            for (minX, minY, maxX, maxY) in boxes {
                records(partition: p, level: level, minX: minX, minY: minY, maxX: maxX, maxY: maxY)
                {
                    found.append(($0, $1))
                }
            }
            found.sort { $0.0 < $1.0 }
            for (s, record) in found { body(p, s, record) }
        }
    }

    /// Calls `body` with each record of a level whose float32 position is inside a projected box
    /// (bounds included), column by column of the level's grid, skipping empty columns.
    func records(
        partition p: Int, level: Int, minX: Double, minY: Double, maxX: Double, maxY: Double,
        _ body: (Int32, LiveRecord) -> Void
    ) {
        guard minX <= maxX, minY <= maxY else { return }
        let grid = core.partitions[p].grids[level - options.minZoom]
        let size = core.cellSize(level: level)
        let limit = Double(1 << 23)
        func index(_ v: Double) -> Int { Int(max(0, min(limit, (v / size).rounded(.down)))) }
        let cx1 = index(maxX), cy0 = index(minY), cy1 = index(maxY)
        var cx = index(minX)
        while cx <= cx1 {
            var next = cx + 1
            grid.forEach(
                from: LiveGridEntry(cell: LiveCore.key(cx, cy0), member: false, serial: 0)
            ) { entry in
                let ex = Int(entry.cell >> 32), ey = Int(entry.cell & 0xFFFF_FFFF)
                if ex != cx {
                    next = ex
                    return false
                }
                if ey > cy1 { return false }
                let record = core.record(entry.serial, level: level)
                let x = Double(record.fx), y = Double(record.fy)
                if x >= minX && x <= maxX && y >= minY && y <= maxY { body(entry.serial, record) }
                return true
            }
            if next == cx + 1 {
                // Seek the next column that holds a record.
                guard
                    let entry = grid.first(
                        from: LiveGridEntry(
                            cell: LiveCore.key(cx + 1, 0), member: false, serial: 0))
                else { return }
                next = Int(entry.cell >> 32)
            }
            cx = next
        }
    }

    /// The public value of a record (`nil` only for a removed element, which has none).
    @inlinable
    func feature(_ p: Int, _ s: Int32, _ record: LiveRecord) -> ClusterFeature<Key>? {
        guard record.id & 31 != 0 else {
            guard let key = keys[Int(s)] else { return nil }
            return .point(
                ClusterPoint(
                    element: key, index: Int(s), coordinate: core.details[Int(s)].coordinate))
        }
        return .cluster(
            Cluster(
                id: record.id,
                coordinate: Coordinate(
                    latitude: SuperclusterProjection.latitude(y: record.y),
                    longitude: SuperclusterProjection.longitude(x: record.x)),
                pointCount: Int(record.count),
                clusteringIdentifier: core.partitions[p].identifier,
                aggregate: record.aggregate))
    }
}
