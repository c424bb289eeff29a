import Foundation
import GeoCore

/// Hierarchical map-marker clustering with supercluster 8.0.1's results: the same clusters, ids,
/// centers and result order.
///
/// Build the index once from your elements and a coordinate accessor; it is immutable afterwards
/// (and `Sendable` when `Element` is), so any number of threads can query it.
///
/// ```swift
/// let index = try ClusterIndex(stations, coordinate: { $0.coordinate })
/// for feature in index.clusters(in: BoundingBox(west: -10, south: 35, east: 30, north: 60), zoom: 5) {
///     switch feature {
///     case .cluster(let cluster): draw(cluster.coordinate, label: cluster.abbreviatedPointCount)
///     case .point(let point): draw(point.element)
///     }
/// }
/// ```
///
/// Elements may carry a clustering identifier (MapKit's `clusteringIdentifier`): only elements with
/// the same identifier merge, each identifier clusters exactly as an index of its elements alone
/// would, and elements whose identifier is `nil` are never clustered.
///
/// - Complexity: building is O(n log n) per zoom level; a box query is O(√n + k) for k results.
public struct ClusterIndex<Element> {
    /// The elements, as given.
    public let elements: [Element]
    /// The options the index was built with.
    public let options: ClusterOptions
    /// The coordinate of each element (NaN for one without).
    @usableFromInline let coordinates: [Coordinate]
    /// One hierarchy per clustering identifier, in order of first appearance.
    @usableFromInline let partitions: [Partition]
    /// Each cluster's ``Cluster/aggregate`` by id, when the index was built with an aggregation.
    @usableFromInline private(set) var aggregateValues: [Int: JSONValue] = [:]

    /// The points of one clustering identifier and their hierarchy.
    @usableFromInline
    struct Partition: Sendable {
        /// The identifier; `nil` for the unclustered elements of an index with identifiers, or for
        /// the single partition of an index without.
        @usableFromInline var identifier: String?
        /// Input index of each of the partition's points; `nil` means the identity (a single
        /// partition).
        @usableFromInline var members: [Int]?
        /// Added to the partition's cluster ids so that ids of different partitions never collide.
        @usableFromInline var idOffset: Int
        @usableFromInline var hierarchy: ClusterHierarchy

        @inlinable
        func inputIndex(_ local: Int) -> Int { members?[local] ?? local }
    }

    /// Builds an index.
    ///
    /// - Parameters:
    ///   - elements: The things to cluster.
    ///   - options: Radius, extent, zoom range, minimum points and tree leaf size.
    ///   - coordinate: Where an element is; `nil` (or a NaN or infinite value) leaves it out, as a
    ///     GeoJSON feature without geometry: it keeps its index, which still counts in cluster ids.
    ///     Longitudes are not wrapped and latitudes not clamped, as in supercluster.
    ///   - clusteringIdentifier: An element's category; only elements with the same identifier
    ///     merge, and elements with `nil` stay unclustered. Omit it to cluster everything together.
    ///   - aggregation: How each cluster's ``Cluster/aggregate`` is folded from its elements
    ///     (supercluster's `map`/`reduce`); omit it for none. For typed values computed on demand see
    ///     ``aggregates(map:reduce:)``.
    ///   - build: Threads and neighbor search used while building; they do not change the result.
    /// - Throws: `GeoError.Kind.invalidArgument` for invalid options (see
    ///   ``ClusterOptions/validated()``) or more than 2³¹ elements.
    /// - Complexity: O(n log n) per zoom level.
    public init(
        _ elements: [Element], options: ClusterOptions = .default,
        coordinate: (Element) -> Coordinate?,
        clusteringIdentifier: ((Element) -> String?)? = nil,
        aggregation: ClusterAggregation<Element>? = nil,
        build: ClusterBuildOptions = ClusterBuildOptions()
    ) throws(GeoError) {
        try self.init(
            elements,
            coordinates: elements.map {
                coordinate($0) ?? Coordinate(latitude: .nan, longitude: .nan)
            },
            options: options, clusteringIdentifier: clusteringIdentifier, build: build)
        if let aggregation {
            let start = BuildProfiler.now()
            aggregateValues = aggregates(map: aggregation.map, reduce: aggregation.reduce).values
            let end = BuildProfiler.now()
            aggregationSpan = ClusterBuildProfile.Span(
                phase: .aggregates, zoom: -1, items: aggregateValues.count, lane: .build,
                nanoseconds: end.wall &- start.wall, cpuNanoseconds: end.cpu &- start.cpu,
                isSplit: false)
        }
    }

    /// How long the aggregates took, when the index was built with an aggregation.
    private var aggregationSpan: ClusterBuildProfile.Span?

    /// Where the build's time went: the spans of every partition's build, then the aggregates.
    package var buildProfile: ClusterBuildProfile {
        var profile = ClusterBuildProfile()
        for partition in partitions {
            let part = partition.hierarchy.profile
            profile.spans += part.spans
            profile.nanoseconds += part.nanoseconds
            profile.largestPairCount = max(profile.largestPairCount, part.largestPairCount)
        }
        if let aggregationSpan {
            profile.spans.append(aggregationSpan)
            profile.nanoseconds += aggregationSpan.nanoseconds
        }
        return profile
    }

    /// Builds an index from elements and their coordinates (NaN for none).
    init(
        _ elements: [Element], coordinates: [Coordinate], options: ClusterOptions,
        clusteringIdentifier: ((Element) -> String?)?, build: ClusterBuildOptions
    ) throws(GeoError) {
        let options = try options.validated()
        guard elements.count < 1 << 31 else {
            throw GeoError(
                .invalidArgument, "\(elements.count) elements are more than the 2^31 an index holds"
            )
        }
        self.elements = elements
        self.options = options
        self.coordinates = coordinates
        guard let clusteringIdentifier else {
            partitions = [
                Partition(
                    identifier: nil, members: nil, idOffset: 0,
                    hierarchy: ClusterHierarchy(
                        options: options, coordinates: coordinates, build: build))
            ]
            return
        }
        // Group by identifier, in order of first appearance; nil is a group of its own.
        var order = [String?]()
        var groups = [String?: [Int]]()
        for (i, element) in elements.enumerated() {
            let key = clusteringIdentifier(element)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(i)
        }
        var partitions = [Partition]()
        var offset = 0
        for key in order {
            let members = groups[key] ?? []
            let hierarchy = ClusterHierarchy(
                options: options, coordinates: members.map { coordinates[$0] },
                clusters: key != nil, build: build)
            partitions.append(
                Partition(identifier: key, members: members, idOffset: offset, hierarchy: hierarchy)
            )
            // Ids of a partition of n elements are below (n << 5) + 32 + n.
            offset += (members.count << 5) + 32 + members.count
        }
        self.partitions = partitions
    }

    /// The number of elements.
    public var count: Int { elements.count }

    /// The partition and local id of a cluster id.
    func locate(_ id: Int) -> (partition: Partition, localID: Int)? {
        var lo = 0, hi = partitions.count
        while hi - lo > 1 {
            let mid = (lo + hi) >> 1
            if partitions[mid].idOffset <= id { lo = mid } else { hi = mid }
        }
        guard lo < partitions.count, id >= partitions[lo].idOffset else { return nil }
        return (partitions[lo], id - partitions[lo].idOffset)
    }

    /// The public value of an entity of a partition.
    @inlinable
    func feature(_ ref: UInt32, in partition: Partition) -> ClusterFeature<Element> {
        let h = partition.hierarchy
        if h.isCluster(ref) {
            return .cluster(cluster(h.clusterIndex(ref), in: partition))
        }
        let index = partition.inputIndex(Int(ref))
        return .point(point(index))
    }

    /// The public value of an entity of the partition at a position (the partition is borrowed,
    /// not copied).
    @inlinable
    func feature(_ ref: UInt32, inPartition p: Int) -> ClusterFeature<Element> {
        feature(ref, in: partitions[p])
    }

    @inlinable
    func cluster(_ c: Int, in partition: Partition) -> Cluster {
        let h = partition.hierarchy
        return cluster(
            id: h.clusterID[c] + partition.idOffset, x: h.clusterX[c], y: h.clusterY[c],
            count: h.clusterCount[c], in: partition)
    }

    /// The cluster with an id (the partition's offset included), a projected center and a point
    /// count, read from the tables: its coordinate unprojected, its identifier and aggregate.
    @inlinable
    func cluster(id: Int, x: Double, y: Double, count: UInt32, in partition: Partition) -> Cluster {
        Cluster(
            id: id,
            coordinate: Coordinate(
                latitude: SuperclusterProjection.latitude(y: y),
                longitude: SuperclusterProjection.longitude(x: x)),
            pointCount: Int(count),
            clusteringIdentifier: partition.identifier,
            aggregate: aggregateValues.isEmpty ? nil : aggregateValues[id])
    }

    @inlinable
    func point(_ index: Int) -> ClusterPoint<Element> {
        ClusterPoint(
            element: elements[index], index: index,
            coordinate: coordinates[index])
    }
}

extension ClusterIndex: Sendable where Element: Sendable {}

extension ClusterIndex where Element == Coordinate {
    /// Builds an index of coordinates.
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` for invalid options.
    public init(
        _ coordinates: [Coordinate], options: ClusterOptions = .default,
        build: ClusterBuildOptions = ClusterBuildOptions()
    ) throws(GeoError) {
        // The coordinates are their own coordinate list: one buffer, shared.
        try self.init(
            coordinates, coordinates: coordinates, options: options, clusteringIdentifier: nil,
            build: build)
    }
}
