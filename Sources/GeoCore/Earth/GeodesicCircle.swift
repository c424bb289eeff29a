import Foundation

/// The points within a geodesic distance of a center on the ellipsoid, as a longitude/latitude
/// polygon: a fence's true shape, and the buffer of a point at any distance up to the antipode.
///
/// ```swift
/// let disc = try GeodesicCircle(center: jfk, radius: 5_000_000).polygon()
/// ```
///
/// The boundary is sampled by direct geodesics from the center at evenly spaced azimuths, at least
/// `minimumVertices` of them and at most ``vertexSpacing`` meters apart, so the straight edges of
/// the polygon stay within a few meters of the true circle. The polygon's shape follows the circle:
/// - a circle away from the poles is one ring, with longitudes kept continuous across the 180th
///   meridian (they may pass ±180, as the metric buffers' results do);
/// - a circle around one pole is a ring that runs once round the Earth, from longitude −180 to 180
///   (or back), and is closed along that pole (as Antarctica's outline is), so planar tools,
///   RFC 7946 readers and ``GeographicPolygon`` see the cap;
/// - a circle around both poles is the world, centered on the antipode's longitude, with a hole
///   round the antipode: the points farther than the radius, sampled where the geodesics from
///   the antipode reach the radius (not a circle round the antipode, which would be off by up to
///   34 km on the ellipsoid);
/// - a radius of at least the distance to the antipode is the whole world.
public struct GeodesicCircle: Hashable, Sendable {
    /// The center.
    public var center: Coordinate
    /// The radius in meters on the ellipsoid.
    public var radius: Double
    /// The ellipsoid.
    public var geodesic: Geodesic

    /// Boundary vertices are at most this far apart, in meters (10 km).
    public static let vertexSpacing = 10_000.0

    /// A circle.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for an invalid center;
    ///   ``GeoError/Kind-swift.struct/invalidArgument`` for a negative or non-finite radius.
    public init(center: Coordinate, radius: Double, geodesic: Geodesic = .wgs84) throws(GeoError) {
        self.center = try center.validated()
        guard radius >= 0 && radius.isFinite else {
            throw GeoError(
                .invalidArgument, "circle radius \(radius) m must be finite and not negative")
        }
        self.radius = radius
        self.geodesic = geodesic
    }

    /// The circle as a polygon (see the type's discussion for its shapes).
    ///
    /// - Parameter minimumVertices: The fewest boundary vertices (32 by default, GEOS's circle).
    /// - Complexity: O(vertices) direct geodesics, up to about 4 000 for the largest circles; a
    ///   hole round the antipode takes a few direct and inverse geodesics per vertex.
    public func polygon(minimumVertices: Int = 32) -> Geometry {
        let antipode = Coordinate(
            latitude: -center.latitude, longitude: Angle.normalizedLongitude(center.longitude + 180)
        )
        let toAntipode = geodesic.distance(from: center, to: antipode)
        if radius >= toAntipode {
            return .polygon([Self.world(centeredAt: 0)])
        }
        if radius == 0 { return .polygon([]) }
        let northDistance = geodesic.distance(
            from: center, to: Coordinate(latitude: 90, longitude: center.longitude))
        let southDistance = geodesic.distance(
            from: center, to: Coordinate(latitude: -90, longitude: center.longitude))
        let aroundNorth = radius > northDistance, aroundSouth = radius > southDistance
        if aroundNorth && aroundSouth {
            // The world less the points round the antipode that are farther than the radius.
            let ring = holeRing(
                around: antipode, depth: toAntipode - radius, minimumVertices: minimumVertices)
            return .polygon([Self.world(centeredAt: antipode.longitude), ring])
        }
        var ring = ring(minimumVertices: minimumVertices)
        if aroundNorth || aroundSouth, let start = ring.first, let end = ring.last {
            // A ring round a pole: its longitudes turn through 360°. Started at the 180th
            // meridian, they run from -180 to 180 (or back); it is closed along the pole.
            let turn: Double = end.x > start.x ? 1 : -1
            ring = Geometry.startingAtTheAntimeridian(ring, turn: turn, geodesic: geodesic) ?? ring
            let pole = aroundNorth ? 90.0 : -90.0
            if let first = ring.first, let last = ring.last {
                ring.append(Position(x: last.x, y: pole))
                ring.append(Position(x: first.x, y: pole))
                ring.append(first)
            }
        }
        return .polygon([ring])
    }

    /// The boundary as a closed ring, clockwise seen from above (azimuths increase), longitudes
    /// continuous from the first vertex.
    func ring(minimumVertices: Int) -> [Position] {
        Self.closedRing(
            vertices: vertexCount(around: radius, minimum: minimumVertices),
            continuingFrom: center.longitude
        ) { azimuth in
            geodesic.direct(from: center, azimuth: azimuth, distance: radius).coordinate
        }
    }

    /// How many vertices a ring round a distance of `reach` meters takes: at least `minimum`
    /// (and 4), and at most ``vertexSpacing`` apart on a sphere of the equatorial radius.
    private func vertexCount(around reach: Double, minimum: Int) -> Int {
        let a = geodesic.equatorialRadius
        let circumference = 2 * Double.pi * a * abs(sin(min(reach / a, Double.pi)))
        return max(minimum, 4, Int((circumference / Self.vertexSpacing).rounded(.up)))
    }

    /// A closed ring of `vertices` points, `point(azimuth)` at evenly spaced azimuths from 0°,
    /// with longitudes continuous from the first one (itself continuous with `reference`); the
    /// closing vertex is the first one again, or one turn further round a pole.
    private static func closedRing(
        vertices count: Int, continuingFrom reference: Double,
        _ point: (_ azimuth: Double) -> Coordinate
    ) -> [Position] {
        var ring = [Position]()
        ring.reserveCapacity(count + 1)
        var unrolled = 0.0
        for k in 0..<count {
            let c = point(Double(k) * 360 / Double(count))
            if let previous = ring.last {
                unrolled += Angle.longitudeDifference(from: previous.x, to: c.longitude)
                ring.append(Position(x: ring[0].x + unrolled, y: c.latitude))
            } else {
                ring.append(
                    Position(
                        x: reference + Angle.longitudeDifference(from: reference, to: c.longitude),
                        y: c.latitude))
            }
        }
        if let first = ring.first, let last = ring.last {
            unrolled += Angle.longitudeDifference(from: last.x, to: first.x)
            ring.append(Position(x: first.x + unrolled, y: first.y))
        }
        return ring
    }

    /// The boundary of the points farther than the radius from the center, round the antipode
    /// (at distance `depth` + radius from the center, the farthest point): where each geodesic
    /// from the antipode, at evenly spaced azimuths, reaches the distance `radius` from the
    /// center.
    ///
    /// This is not a geodesic circle round the antipode: on the ellipsoid the distance from the
    /// center falls off unevenly round it (a circle of radius `depth` there is off by up to
    /// 34 km). Each crossing is found by Newton's method on the distance from the center along
    /// the geodesic from the antipode (its derivative is the cosine between that geodesic and the
    /// one from the center), kept within a bracket that starts at `depth` (by the triangle
    /// inequality the distance cannot have fallen to the radius sooner), to a tenth of a
    /// millimeter.
    func holeRing(around antipode: Coordinate, depth: Double, minimumVertices: Int) -> [Position] {
        let farthest = depth + radius
        return Self.closedRing(
            vertices: vertexCount(around: depth, minimum: minimumVertices),
            continuingFrom: antipode.longitude
        ) { azimuth in
            // f(t): the distance from the center at t along the ray, less the radius, with its
            // derivative and the point.
            func evaluate(_ t: Double) -> (f: Double, slope: Double, point: Coordinate) {
                let ray = geodesic.direct(from: antipode, azimuth: azimuth, distance: t)
                let back = geodesic.inverse(from: center, to: ray.coordinate)
                let slope = cos((ray.finalAzimuth - back.finalAzimuth) * (.pi / 180))
                return (back.distance - radius, slope, ray.coordinate)
            }
            // f(depth) ≥ 0; move the far end out until f ≤ 0 there (at the latest near the
            // center, the rays' far end).
            var low = depth, high = Swift.min(farthest, depth * 2 + 1_000)
            var at = evaluate(high)
            while at.f > 0 && high < farthest {
                low = high
                high = Swift.min(farthest, high * 2)
                at = evaluate(high)
            }
            var t = high
            var iterations = 0
            while abs(at.f) >= 1e-4 && high - low >= 1e-4 && iterations < 100 {
                iterations += 1
                if at.f > 0 { low = t } else { high = t }
                let newton = t - at.f / at.slope
                t = at.slope < -0.05 && newton > low && newton < high ? newton : (low + high) / 2
                at = evaluate(t)
            }
            return at.point
        }
    }

    /// The whole world as a ring, spanning 360° of longitude centered on a longitude.
    static func world(centeredAt longitude: Double) -> [Position] {
        let west = longitude - 180, east = longitude + 180
        return [
            Position(x: west, y: -90), Position(x: east, y: -90), Position(x: east, y: 90),
            Position(x: west, y: 90), Position(x: west, y: -90),
        ]
    }
}
