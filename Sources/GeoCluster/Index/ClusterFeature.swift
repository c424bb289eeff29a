import GeoCore

/// A cluster of points as a ``ClusterIndex`` returns it.
///
/// Clusters compare equal when all their fields are equal; the ``id`` alone identifies a cluster
/// within its index (it is what ``ClusterIndex/children(of:)``, ``ClusterIndex/leaves(of:limit:offset:)``
/// and ``ClusterIndex/expansionZoom(of:)`` take).
public struct Cluster: Hashable, Sendable, Codable {
    /// The cluster id. Without clustering identifiers it is supercluster's `cluster_id`, which
    /// encodes the zoom and position the cluster was formed at; it stays the same at every zoom
    /// where the cluster is shown unchanged.
    public var id: Int
    /// The center: the point-count-weighted mean of the members in projected (Web-Mercator)
    /// coordinates, in degrees.
    public var coordinate: Coordinate
    /// The number of points in the cluster (at least 2 with the default options).
    public var pointCount: Int
    /// The clustering identifier shared by every point of the cluster, if the index has them.
    public var clusteringIdentifier: String?
    /// The value folded from the cluster's elements by the index's ``ClusterAggregation`` (for
    /// example a sum, or counts per kind); `nil` if the index was built without one.
    public var aggregate: JSONValue?

    /// Creates a cluster value.
    public init(
        id: Int, coordinate: Coordinate, pointCount: Int, clusteringIdentifier: String? = nil,
        aggregate: JSONValue? = nil
    ) {
        self.id = id
        self.coordinate = coordinate
        self.pointCount = pointCount
        self.clusteringIdentifier = clusteringIdentifier
        self.aggregate = aggregate
    }

    /// supercluster's `point_count_abbreviated` as text: the count itself below 1000, tenths of
    /// thousands below 10 000 (`"1.1k"`, `"1k"`, 9950 gives `"10k"`), whole thousands above
    /// (`"12k"`); halves round up.
    public var abbreviatedPointCount: String {
        Cluster.abbreviate(pointCount)
    }

    /// supercluster's GeoJSON properties of a cluster: `cluster: true`, `cluster_id`,
    /// `point_count` and `point_count_abbreviated` (a number below 1000 and text above, as
    /// supercluster writes it), plus `category` when the cluster has a clustering identifier.
    /// `GeoRender` draws a point with these properties as a cluster bubble.
    public var geoJSONProperties: [String: JSONValue] {
        var object: [String: JSONValue] = [
            "cluster": true, "cluster_id": .integer(id), "point_count": .integer(pointCount),
            "point_count_abbreviated": pointCount < 1000
                ? .integer(pointCount) : .string(abbreviatedPointCount),
        ]
        if let category = clusteringIdentifier { object["category"] = .string(category) }
        return object
    }

    static func abbreviate(_ count: Int) -> String {
        if count >= 10_000 {
            return "\(SuperclusterProjection.jsRound(Double(count) / 1000))k"
        }
        if count >= 1000 {
            let tenths = SuperclusterProjection.jsRound(Double(count) / 100)
            return tenths % 10 == 0 ? "\(tenths / 10)k" : "\(tenths / 10).\(tenths % 10)k"
        }
        return "\(count)"
    }
}

/// A point of a ``ClusterIndex`` that is shown on its own: the caller's element and where it is.
public struct ClusterPoint<Element> {
    /// The element as it was given to the index.
    public var element: Element
    /// The element's position in the array the index was built from.
    public var index: Int
    /// The element's coordinate as the coordinate accessor gave it.
    public var coordinate: Coordinate

    /// Creates a point value.
    public init(element: Element, index: Int, coordinate: Coordinate) {
        self.element = element
        self.index = index
        self.coordinate = coordinate
    }
}

extension ClusterPoint: Sendable where Element: Sendable {}
extension ClusterPoint: Equatable where Element: Equatable {}
extension ClusterPoint: Hashable where Element: Hashable {}

/// One thing to draw: a cluster or a single point.
public enum ClusterFeature<Element> {
    /// Several points drawn as one.
    case cluster(Cluster)
    /// A point drawn on its own.
    case point(ClusterPoint<Element>)

    /// The cluster, for ``cluster(_:)``.
    @inlinable
    public var cluster: Cluster? {
        if case .cluster(let cluster) = self { cluster } else { nil }
    }

    /// The point, for ``point(_:)``.
    @inlinable
    public var point: ClusterPoint<Element>? {
        if case .point(let point) = self { point } else { nil }
    }

    /// Where to draw it.
    @inlinable
    public var coordinate: Coordinate {
        switch self {
        case .cluster(let cluster): cluster.coordinate
        case .point(let point): point.coordinate
        }
    }

    /// How many points it stands for (1 for a point).
    @inlinable
    public var pointCount: Int {
        switch self {
        case .cluster(let cluster): cluster.pointCount
        case .point: 1
        }
    }
}

extension ClusterFeature: Sendable where Element: Sendable {}
extension ClusterFeature: Equatable where Element: Equatable {}
extension ClusterFeature: Hashable where Element: Hashable {}
