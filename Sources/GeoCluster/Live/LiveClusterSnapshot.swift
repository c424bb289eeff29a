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

    /// The clustering identifier (category) of a point of this snapshot: the one its element was
    /// inserted with, found by the point's serial (``ClusterPoint/index``); `nil` when the element
    /// has none, or when the point is not one of this snapshot's elements.
    ///
    /// A ``Cluster`` carries its own ``Cluster/clusteringIdentifier``.
    ///
    /// - Complexity: O(1).
    public func clusteringIdentifier(of point: ClusterPoint<Key>) -> String? {
        guard point.index >= 0, point.index < core.elements.count,
            keys[point.index] == point.element
        else { return nil }
        let e = core.elements[point.index]
        guard e.isPresent else { return nil }
        return core.partitions[Int(e.partition)].identifier
    }

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
    @inlinable
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
    @inlinable
    public func clusters(in region: CoordinateRegion, zoom: Double) -> [ClusterFeature<Key>] {
        clusters(in: region.boundingBox, zoom: zoom)
    }

    /// Calls `body` with each record (partition, serial, record) inside a box at a zoom, in serial
    /// order within each partition.
    @usableFromInline
    func forEachFeature(
        west: Double, south: Double, east: Double, north: Double, zoom: Double,
        _ body: (Int, Int32, LiveRecord) -> Void
    ) {
        guard let level = level(atZoom: zoom) else { return }
        let boxes = LiveCore.projectedBoxes(west: west, south: south, east: east, north: north)
        for p in core.partitions.indices {
            records(partition: p, level: level, boxes: boxes) { body(p, $0, $1) }
        }
    }

    /// Calls `body` with each record of a level whose float32 position is inside one of the
    /// projected boxes (bounds included; once for each box that holds it), in serial order.
    ///
    /// The grid gives the serials filed in the cells each box covers, in cell order; sorted (with
    /// the box's index), their records are read in the order they are stored rather than at
    /// random, and each is checked against its box exactly.
    func records(
        partition p: Int, level: Int, boxes: [(Double, Double, Double, Double)],
        _ body: (Int32, LiveRecord) -> Void
    ) {
        var keys = [UInt64]()
        for (b, (minX, minY, maxX, maxY)) in boxes.enumerated() {
            serials(partition: p, level: level, minX: minX, minY: minY, maxX: maxX, maxY: maxY) {
                keys.append(UInt64(UInt32(bitPattern: $0)) << 8 | UInt64(b))
            }
        }
        RadixSort.sort(&keys, bits: 0..<40)
        for key in keys {
            let s = Int32(truncatingIfNeeded: key >> 8)
            let (minX, minY, maxX, maxY) = boxes[Int(key & 0xFF)]
            let record = core.record(s, level: level)
            let x = Double(record.fx), y = Double(record.fy)
            if x >= minX && x <= maxX && y >= minY && y <= maxY { body(s, record) }
        }
    }

    /// Calls `body` with the serial of each record of a level filed in a cell that a projected
    /// box covers (records in the box's edge cells may lie outside it), column by column of the
    /// level's grid, skipping empty columns.
    func serials(
        partition p: Int, level: Int, minX: Double, minY: Double, maxX: Double, maxY: Double,
        _ body: (Int32) -> Void
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
                body(entry.serial)
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
