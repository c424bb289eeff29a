import Foundation
import GeoCore

/// How ``ClusterIndex/spiderfy(_:zoom:layout:)`` lays out the points of a cluster around it, in
/// screen points of a map whose world is `tileSize · 2^zoom` points wide.
public struct SpiderfyLayout: Hashable, Sendable, Codable {
    /// Up to this many points go on one circle; more go on a spiral (default 8).
    public var circleLimit: Int
    /// The distance between neighboring points on the circle, in screen points (default 25).
    public var circleSpacing: Double
    /// The distance between neighboring points along the spiral, in screen points (default 28).
    public var spiralSpacing: Double
    /// The spiral's distance from the center where it starts, in screen points (default 11).
    public var spiralStart: Double
    /// How far the spiral moves out per turn, in screen points (default 30).
    public var spiralGrowthPerTurn: Double
    /// The map's tile size in screen points (default 256, as MapKit's and raster maps).
    public var tileSize: Double

    /// Creates a layout.
    public init(
        circleLimit: Int = 8, circleSpacing: Double = 25, spiralSpacing: Double = 28,
        spiralStart: Double = 11,
        spiralGrowthPerTurn: Double = 30, tileSize: Double = 256
    ) {
        self.circleLimit = circleLimit
        self.circleSpacing = circleSpacing
        self.spiralSpacing = spiralSpacing
        self.spiralStart = spiralStart
        self.spiralGrowthPerTurn = spiralGrowthPerTurn
        self.tileSize = tileSize
    }

    /// The offsets of `count` points from the center, in screen points (x east, y south).
    ///
    /// Up to ``circleLimit`` points sit on a circle whose circumference gives each ``circleSpacing``
    /// (with room for two more, so that two points do not sit on top of the center); more points
    /// follow an Archimedean spiral `r = spiralStart + spiralGrowthPerTurn · θ / 2π`, one every
    /// ``spiralSpacing`` of arc.
    public func offsets(count: Int) -> [(x: Double, y: Double)] {
        guard count > 0 else { return [] }
        if count <= circleLimit {
            let radius = circleSpacing * Double(count + 2) / (2 * Double.pi)
            let step = 2 * Double.pi / Double(count)
            return (0..<count).map { i in
                let angle = Double(i) * step - Double.pi / 2
                return (radius * cos(angle), radius * sin(angle))
            }
        }
        var result = [(x: Double, y: Double)]()
        result.reserveCapacity(count)
        var angle = 0.0
        for _ in 0..<count {
            let radius = spiralStart + spiralGrowthPerTurn * angle / (2 * Double.pi)
            result.append((radius * cos(angle), radius * sin(angle)))
            angle += spiralSpacing / max(radius, 1e-9)
        }
        return result
    }
}

/// A point of a spiderfied cluster: the point and where to draw it.
public struct SpiderfyLeg<Element> {
    /// The point, with its true coordinate.
    public var point: ClusterPoint<Element>
    /// Where to draw it: displaced from the cluster's center on a circle or spiral. Draw a line from
    /// the cluster's center to here.
    public var coordinate: Coordinate

    /// Creates a leg.
    public init(point: ClusterPoint<Element>, coordinate: Coordinate) {
        self.point = point
        self.coordinate = coordinate
    }
}

extension SpiderfyLeg: Sendable where Element: Sendable {}
extension SpiderfyLeg: Equatable where Element: Equatable {}
extension SpiderfyLeg: Hashable where Element: Hashable {}

extension ClusterIndex {
    /// Lays the points of a cluster out around its center so that each can be seen and tapped: the
    /// usual answer to a cluster that never splits because its points share one location (its
    /// ``expansionZoom(of:)`` is `maxZoom + 1`).
    ///
    /// Points keep ``leaves(of:limit:offset:)`` order; the displaced coordinates are the offsets of
    /// ``SpiderfyLayout/offsets(count:)`` from the cluster's center at `zoom`, so they sit the same
    /// number of screen points away at that zoom.
    ///
    /// - Throws: `GeoError.Kind.notFound` for an unknown id;
    ///   `GeoError.Kind.invalidArgument` for a zoom that is not finite.
    /// - Complexity: O(k log n) for k points.
    public func spiderfy(
        _ id: Int, zoom: Double, layout: SpiderfyLayout = SpiderfyLayout()
    ) throws(GeoError)
        -> [SpiderfyLeg<Element>]
    {
        guard zoom.isFinite else { throw GeoError(.invalidArgument, "zoom \(zoom) is not finite") }
        guard let center = clusterCenter(id) else {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
        let points = try leaves(of: id, limit: .max)
        let scale = layout.tileSize * exp2(zoom)
        let cx = SuperclusterProjection.x(longitude: center.longitude) * scale
        let cy = SuperclusterProjection.y(latitude: center.latitude) * scale
        return zip(points, layout.offsets(count: points.count)).map { point, offset in
            let x = (cx + offset.x) / scale, y = (cy + offset.y) / scale
            let coordinate = Coordinate(
                latitude: SuperclusterProjection.latitude(y: y),
                longitude: SuperclusterProjection.longitude(x: x))
            return SpiderfyLeg(point: point, coordinate: coordinate)
        }
    }

    /// The center of a cluster.
    func clusterCenter(_ id: Int) -> Coordinate? {
        guard let (partition, local) = locate(id),
            let c = partition.hierarchy.cluster(withID: local)
        else { return nil }
        return cluster(c, in: partition).coordinate
    }
}
