import GeoCore

/// What a feature reads from the index, copied out for one entity reference: a cluster's center,
/// count and id, or a point's input index and coordinate.
@usableFromInline
struct GatheredEntity {
    /// A cluster's projected x and y, or a point's latitude and longitude.
    @usableFromInline var a: Double
    @usableFromInline var b: Double
    /// A cluster's id (with the partition's offset), or a point's input index.
    @usableFromInline var n: Int
    /// A cluster's point count.
    @usableFromInline var count: UInt32
    @usableFromInline var isCluster: Bool

    @inlinable
    init(a: Double, b: Double, n: Int, count: UInt32, isCluster: Bool) {
        self.a = a
        self.b = b
        self.n = n
        self.count = count
        self.isCluster = isCluster
    }
}

extension ClusterIndex {
    /// The number of references ``forEachFeature(ofBlock:in:_:)`` gathers at once.
    @inlinable
    static var gatherBlock: Int { 64 }

    /// Calls `body` with the feature of each entity reference of a partition (at most
    /// ``gatherBlock`` of them), in order.
    ///
    /// A query's references come in search-tree order, so each feature's data (a cluster's center,
    /// count and id; a point's element and coordinate) sits somewhere else in memory. The block is
    /// first copied out in a loop that does nothing but load, so that its cache misses overlap,
    /// and the features are then made from the copies: a world query pays about one memory
    /// latency per block instead of one or more per feature.
    ///
    /// - Throws: What `body` throws; the copies not yet handed out are released.
    @inlinable
    func forEachFeature<E: Error>(
        ofBlock refs: UnsafeBufferPointer<UInt32>, in partition: Partition,
        _ body: (ClusterFeature<Element>) throws(E) -> Void
    ) throws(E) {
        let count = refs.count
        guard count > 0 else { return }
        let h = partition.hierarchy
        let inputCount = h.inputCount
        try withUnsafeTemporaryAllocation(of: GatheredEntity.self, capacity: count) {
            (gathered) throws(E) in
            try withUnsafeTemporaryAllocation(of: Element.self, capacity: count) {
                (pointElements) throws(E) in
                guard let gathered = gathered.baseAddress,
                    let pointElements = pointElements.baseAddress
                else { return }
                // Load everything first: one pass whose misses overlap.
                for i in 0..<count {
                    let ref = Int(refs[i])
                    if ref >= inputCount {
                        let c = ref - inputCount
                        (gathered + i).initialize(
                            to: GatheredEntity(
                                a: h.clusterX[c], b: h.clusterY[c],
                                n: h.clusterID[c] + partition.idOffset, count: h.clusterCount[c],
                                isCluster: true))
                    } else {
                        let index = partition.inputIndex(ref)
                        let c = coordinates[index]
                        (gathered + i).initialize(
                            to: GatheredEntity(
                                a: c.latitude, b: c.longitude, n: index, count: 0, isCluster: false)
                        )
                        (pointElements + i).initialize(to: elements[index])
                    }
                }
                // Then make the features; a point's element is moved out of its copy.
                var next = 0
                defer {
                    // After a throw: release the element copies not handed out.
                    while next < count {
                        if !gathered[next].isCluster {
                            (pointElements + next).deinitialize(count: 1)
                        }
                        next += 1
                    }
                }
                while next < count {
                    let g = gathered[next]
                    let i = next
                    next += 1
                    if g.isCluster {
                        try body(
                            .cluster(
                                cluster(id: g.n, x: g.a, y: g.b, count: g.count, in: partition)))
                    } else {
                        try body(
                            .point(
                                ClusterPoint(
                                    element: (pointElements + i).move(), index: g.n,
                                    coordinate: Coordinate(latitude: g.a, longitude: g.b))))
                    }
                }
            }
        }
    }

    /// Calls `body` with each feature of a partition inside a box at a zoom, in the order of
    /// ``ClusterHierarchy/forEachEntity(west:south:east:north:zoom:_:)``, gathering them in
    /// blocks (see ``forEachFeature(ofBlock:in:_:)``).
    @inlinable
    func forEachFeature<E: Error>(
        in partition: Partition, west: Double, south: Double, east: Double, north: Double,
        zoom: Double, _ body: (ClusterFeature<Element>) throws(E) -> Void
    ) throws(E) {
        let block = Self.gatherBlock
        try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: block) {
            (buffer) throws(E) in
            guard let base = buffer.baseAddress else { return }
            var filled = 0
            try partition.hierarchy.forEachEntity(
                west: west, south: south, east: east, north: north, zoom: zoom
            ) { (ref) throws(E) in
                base[filled] = ref
                filled += 1
                if filled == block {
                    filled = 0
                    try forEachFeature(
                        ofBlock: UnsafeBufferPointer(start: base, count: block), in: partition, body
                    )
                }
            }
            try forEachFeature(
                ofBlock: UnsafeBufferPointer(start: base, count: filled), in: partition, body)
        }
    }
}
