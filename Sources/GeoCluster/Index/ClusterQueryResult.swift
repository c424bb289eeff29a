import GeoCore

/// The clusters and points of a box query as a lazy collection: it holds 4 bytes per result and
/// makes each ``ClusterFeature`` only when it is read (its iterator, 64 at a time).
///
/// A tile or GeoJSON server that serializes a world query once pays for the features it writes,
/// not for an array of them; ``ClusterIndex/forEachFeature(west:south:east:north:zoom:_:)``
/// streams them without even the 4 bytes. The order is supercluster's `getClusters` order.
public struct ClusterQueryResult<Element>: RandomAccessCollection {
    /// The index the result reads from.
    @usableFromInline let index: ClusterIndex<Element>
    /// For each partition that has results, its position in the index and where its results end.
    @usableFromInline let partitionEnds: [(partition: Int, end: Int)]
    /// The entities, partition after partition.
    @usableFromInline let refs: [UInt32]

    @usableFromInline
    init(index: ClusterIndex<Element>, partitionEnds: [(partition: Int, end: Int)], refs: [UInt32])
    {
        self.index = index
        self.partitionEnds = partitionEnds
        self.refs = refs
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { refs.count }

    /// The feature at a position, made when read.
    ///
    /// - Complexity: O(log p) for p clustering identifiers (O(1) without them).
    @inlinable
    public subscript(position: Int) -> ClusterFeature<Element> {
        var lo = 0, hi = partitionEnds.count - 1
        while lo < hi {
            let mid = (lo + hi) >> 1
            if partitionEnds[mid].end <= position { lo = mid + 1 } else { hi = mid }
        }
        return index.feature(refs[position], inPartition: partitionEnds[lo].partition)
    }

    /// Reads the features in order, finding each partition once; it makes them a block at a time
    /// (64 references are read from the index before their features are made), so that their
    /// memory reads overlap.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let result: ClusterQueryResult
        @usableFromInline var position = 0
        @usableFromInline var segment = 0
        /// The features made ahead, and the next one of them to hand out.
        @usableFromInline var ahead: [ClusterFeature<Element>] = []
        @usableFromInline var aheadNext = 0

        @usableFromInline
        init(result: ClusterQueryResult) { self.result = result }

        @inlinable
        public mutating func next() -> ClusterFeature<Element>? {
            if aheadNext < ahead.count {
                defer { aheadNext += 1 }
                return ahead[aheadNext]
            }
            guard position < result.refs.count else { return nil }
            while position >= result.partitionEnds[segment].end { segment += 1 }
            // The next block, within the current partition.
            let end = Swift.min(
                position + ClusterIndex<Element>.gatherBlock, result.partitionEnds[segment].end)
            let partition = result.index.partitions[result.partitionEnds[segment].partition]
            ahead.removeAll(keepingCapacity: true)
            aheadNext = 1
            result.refs.withUnsafeBufferPointer { refs in
                result.index.forEachFeature(
                    ofBlock: UnsafeBufferPointer(rebasing: refs[position..<end]), in: partition
                ) { ahead.append($0) }
            }
            position = end
            return ahead.first
        }
    }

    /// An iterator over the features, in order.
    @inlinable
    public func makeIterator() -> Iterator { Iterator(result: self) }
}

extension ClusterQueryResult: Sendable where Element: Sendable {}

extension ClusterIndex {
    /// The clusters and points inside a box at a zoom as a lazy collection: the same features, in
    /// the same order, as ``clusters(west:south:east:north:zoom:)``, each made when it is read.
    ///
    /// - Complexity: O(√n + k) for k results; 4 bytes per result.
    public func features(
        west: Double, south: Double, east: Double, north: Double, zoom: Double
    ) -> ClusterQueryResult<Element> {
        var refs = [UInt32]()
        var ends = [(partition: Int, end: Int)]()
        for (p, partition) in partitions.enumerated() {
            partition.hierarchy.forEachEntity(
                west: west, south: south, east: east, north: north, zoom: zoom
            ) { refs.append($0) }
            if ends.last?.end != refs.count { ends.append((p, refs.count)) }
        }
        return ClusterQueryResult(index: self, partitionEnds: ends, refs: refs)
    }

    /// The clusters and points inside a bounding box at a zoom as a lazy collection; see
    /// ``features(west:south:east:north:zoom:)``. A box with `west > east` crosses the 180th
    /// meridian.
    public func features(in box: BoundingBox, zoom: Double) -> ClusterQueryResult<Element> {
        features(west: box.west, south: box.south, east: box.east, north: box.north, zoom: zoom)
    }

    /// Calls `body` with each cluster and point inside a box at a zoom, in the order of
    /// ``clusters(west:south:east:north:zoom:)``, without collecting them: nothing is allocated
    /// per result.
    ///
    /// - Complexity: O(√n + k) for k results.
    /// - Throws: What `body` throws; the walk stops there.
    @inlinable
    public func forEachFeature<E: Error>(
        west: Double, south: Double, east: Double, north: Double, zoom: Double,
        _ body: (ClusterFeature<Element>) throws(E) -> Void
    ) throws(E) {
        for partition in partitions {
            try forEachFeature(
                in: partition, west: west, south: south, east: east, north: north, zoom: zoom,
                body)
        }
    }

    /// Calls `body` with each cluster and point inside a bounding box at a zoom; see
    /// ``forEachFeature(west:south:east:north:zoom:_:)``.
    @inlinable
    public func forEachFeature<E: Error>(
        in box: BoundingBox, zoom: Double, _ body: (ClusterFeature<Element>) throws(E) -> Void
    ) throws(E) {
        try forEachFeature(
            west: box.west, south: box.south, east: box.east, north: box.north, zoom: zoom, body)
    }
}
