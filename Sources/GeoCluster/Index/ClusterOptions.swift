import GeoCore

/// The order in which a cluster's members are summed into its center and folded into its
/// aggregate.
public enum ClusterMemberOrder: String, Hashable, Sendable, Codable, CaseIterable {
    /// supercluster's: the origin, then the other members in the order the level's k-d tree visits
    /// them. Centers are then bit-identical to supercluster 8.0.1's in its projected plane (and
    /// in longitude; latitudes go through `exp` and `atan`, whose last bit can differ between
    /// libraries); the order depends on the tree over the whole level.
    case supercluster
    /// Input order: the origin, then the other members in the order of their first elements in the
    /// input (for a ``LiveClusterIndex``, insertion order). It depends only on the cluster's own
    /// members, which is what lets a live index keep its clusters equal to a rebuild's without
    /// rebuilding any tree.
    case insertion
}

/// The parameters of a ``ClusterIndex``, with supercluster's names and defaults.
///
/// ```swift
/// let options = try ClusterOptions(radius: 60, maxZoom: 14).validated()
/// ```
public struct ClusterOptions: Hashable, Sendable, Codable {
    /// The cluster radius in pixels of a tile ``extent`` pixels wide (default 40).
    public var radius: Double
    /// The width of a tile in pixels that ``radius`` is measured in (default 512).
    public var extent: Double
    /// The lowest zoom level with a cluster level (default 0).
    public var minZoom: Int
    /// The highest zoom level with clusters (default 16, at most 30); zoom `maxZoom + 1` shows every
    /// point on its own.
    public var maxZoom: Int
    /// The least number of points a cluster holds (default 2). Above 2, a point with too few
    /// neighbors claims them so that they stay unclustered at that zoom, as in supercluster.
    public var minPoints: Int
    /// The leaf size of the per-zoom search trees (default 64, clamped to 2...65535). It changes the
    /// order of query results, never their content when ``minPoints`` is 2.
    public var nodeSize: Int
    /// The order a cluster's members are summed into its center and folded into its aggregate
    /// (default ``ClusterMemberOrder/supercluster``). It changes centers in their last bits and
    /// the result of an order-sensitive aggregation, never membership, counts or ids.
    public var memberOrder: ClusterMemberOrder

    /// Creates options; every parameter defaults to supercluster's default.
    public init(
        radius: Double = 40, extent: Double = 512, minZoom: Int = 0, maxZoom: Int = 16,
        minPoints: Int = 2, nodeSize: Int = 64, memberOrder: ClusterMemberOrder = .supercluster
    ) {
        self.radius = radius
        self.extent = extent
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minPoints = minPoints
        self.nodeSize = nodeSize
        self.memberOrder = memberOrder
    }

    /// Reads options; a missing member takes its default, so supercluster's option objects
    /// (which name only what they change) decode.
    ///
    /// - Throws: `DecodingError` for a member of the wrong type.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = ClusterOptions()
        radius = try c.decodeIfPresent(Double.self, forKey: .radius) ?? d.radius
        extent = try c.decodeIfPresent(Double.self, forKey: .extent) ?? d.extent
        minZoom = try c.decodeIfPresent(Int.self, forKey: .minZoom) ?? d.minZoom
        maxZoom = try c.decodeIfPresent(Int.self, forKey: .maxZoom) ?? d.maxZoom
        minPoints = try c.decodeIfPresent(Int.self, forKey: .minPoints) ?? d.minPoints
        nodeSize = try c.decodeIfPresent(Int.self, forKey: .nodeSize) ?? d.nodeSize
        memberOrder =
            try c.decodeIfPresent(ClusterMemberOrder.self, forKey: .memberOrder) ?? d.memberOrder
    }

    /// supercluster's defaults.
    public static let `default` = ClusterOptions()

    /// These options, if they are usable.
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` naming the option: a radius or extent that is
    ///   not positive and finite, an extent beyond 2⁴⁰ pixels, `maxZoom` outside 0...30 (cluster
    ///   ids keep the zoom in five bits), `minZoom` outside 0...maxZoom, a negative `minPoints`
    ///   or a `nodeSize` below 1.
    public func validated() throws(GeoError) -> ClusterOptions {
        guard radius.isFinite && radius > 0 else {
            throw GeoError(
                .invalidArgument, "radius \(radius) is not a positive finite number of pixels")
        }
        guard extent.isFinite && extent > 0 else {
            throw GeoError(
                .invalidArgument, "extent \(extent) is not a positive finite number of pixels")
        }
        // Tile pixels are integers, exact up to 2^53 as supercluster's are: an extent up to 2^40
        // keeps every feature within reach of a tile below that.
        guard extent <= 0x1p40 else {
            throw GeoError(
                .invalidArgument,
                "extent \(extent) is more than 2^40 pixels (tile pixels are exact integers)")
        }
        guard (0...30).contains(maxZoom) else {
            throw GeoError(.invalidArgument, "maxZoom \(maxZoom) is outside 0...30")
        }
        guard minZoom >= 0 && minZoom <= maxZoom else {
            throw GeoError(
                .invalidArgument, "minZoom \(minZoom) is outside 0...\(maxZoom) (maxZoom)")
        }
        guard minPoints >= 0 else {
            throw GeoError(.invalidArgument, "minPoints \(minPoints) is negative")
        }
        guard nodeSize >= 1 else {
            throw GeoError(.invalidArgument, "nodeSize \(nodeSize) is below 1")
        }
        return self
    }

    /// The clustering radius at a zoom in projected units (the world is 1 wide):
    /// `radius / (extent · 2^zoom)`.
    func projectedRadius(atZoom zoom: Int) -> Double {
        radius / (extent * Double(sign: .plus, exponent: zoom, significand: 1))
    }
}
