internal import CPROJ
import Foundation

/// One geodesic, set up once so that many points along it are cheap: positions at distances, and
/// the point of the segment closest to another point.
///
/// ```swift
/// let segment = Geodesic.wgs84.line(from: jfk, to: lhr)
/// segment.position(atDistance: segment.length / 2).coordinate     // the midpoint
/// segment.closestPoint(to: reykjavik).distance                     // meters off the line
/// ```
public struct GeodesicLine: Sendable {
    /// The starting point.
    public let start: Coordinate
    /// The azimuth at the start in degrees clockwise from north.
    public let initialAzimuth: Double
    /// The length in meters, for a line built between two points (``Geodesic/line(from:to:)``);
    /// otherwise the distance given to ``Geodesic/line(from:azimuth:distance:)``.
    public let length: Double
    /// The ellipsoid.
    public let geodesic: Geodesic

    private let storage: Storage

    init(geodesic: Geodesic, start: Coordinate, end: Coordinate) {
        self.geodesic = geodesic
        self.start = start
        var raw = geod_geodesicline()
        withUnsafePointer(to: geodesic.cStorage.raw) { g in
            geod_inverseline(
                &raw, g, start.latitude, start.longitude, end.latitude, end.longitude,
                Storage.capabilities)
        }
        let storage = Storage(raw)
        self.storage = storage
        initialAzimuth = storage.raw.azi1
        length = storage.raw.s13
    }

    init(geodesic: Geodesic, start: Coordinate, azimuth: Double, distance: Double) {
        self.geodesic = geodesic
        self.start = start
        var raw = geod_geodesicline()
        withUnsafePointer(to: geodesic.cStorage.raw) { g in
            geod_directline(
                &raw, g, start.latitude, start.longitude, azimuth, distance, Storage.capabilities)
        }
        let storage = Storage(raw)
        self.storage = storage
        initialAzimuth = storage.raw.azi1
        length = storage.raw.s13
    }

    /// A point on the geodesic (or its extension beyond either end).
    public struct Point: Hashable, Sendable {
        /// Where it is; longitude in [-180, 180].
        public var coordinate: Coordinate
        /// The forward azimuth of the geodesic there, in degrees.
        public var azimuth: Double

        /// Creates a point.
        public init(coordinate: Coordinate, azimuth: Double) {
            self.coordinate = coordinate
            self.azimuth = azimuth
        }
    }

    /// The point a distance along the geodesic from ``start``; negative or beyond ``length`` extends the
    /// geodesic.
    /// - Complexity: O(1); about 0.3 µs. Wraps `geod_position`.
    public func position(atDistance distance: Double) -> Point {
        var lat = 0.0, lon = 0.0, azi = 0.0
        withUnsafePointer(to: storage.raw) { line in geod_position(line, distance, &lat, &lon, &azi)
        }
        return Point(coordinate: Coordinate(latitude: lat, longitude: lon), azimuth: azi)
    }

    /// The point of a segment nearest another point, and how far it is.
    public struct Projection: Hashable, Sendable {
        /// The nearest point of the segment.
        public var coordinate: Coordinate
        /// Its distance along the segment from ``GeodesicLine/start`` in meters, in [0, length].
        public var distanceAlong: Double
        /// The geodesic distance in meters from the given point to ``coordinate``.
        public var distance: Double

        /// Creates a projection.
        public init(coordinate: Coordinate, distanceAlong: Double, distance: Double) {
            self.coordinate = coordinate
            self.distanceAlong = distanceAlong
            self.distance = distance
        }
    }

    /// The point of the segment from ``start`` over ``length`` meters nearest to a point, on the
    /// ellipsoid.
    ///
    /// Both ends are candidates, and so is the foot of the geodesic perpendicular found from the
    /// better end (see `foot(of:alongSegmentOfLength:startingAt:geodesic:position:)`); the nearest
    /// of them is returned. Accurate to well under a millimeter for segments up to a few thousand
    /// kilometers with the point within a few hundred kilometers of them; for a point more than a
    /// quarter of the Earth away the nearest point can be ambiguous and the better end or foot is
    /// returned.
    ///
    /// - Complexity: O(1): typically 2–5 geodesic inverse solutions (a few µs).
    public func closestPoint(to point: Coordinate) -> Projection {
        var best = candidate(atDistance: 0, for: point)
        let endCandidate = candidate(atDistance: length, for: point)
        if endCandidate.distance < best.distance { best = endCandidate }
        guard length > 0, point.isValid else { return best }
        guard
            let foot = GeodesicLine.foot(
                of: point, alongSegmentOfLength: length, startingAt: best.distanceAlong,
                geodesic: geodesic, position: position(atDistance:))
        else { return best }
        return foot.distance < best.distance ? foot : best
    }

    private func candidate(atDistance s: Double, for point: Coordinate) -> Projection {
        let at = position(atDistance: s).coordinate
        return Projection(
            coordinate: at, distanceAlong: s, distance: geodesic.distance(from: at, to: point))
    }

    /// When the foot iteration stops: a step shorter than this, in meters along the segment.
    ///
    /// Newton's method converges quadratically here, so the foot found is far closer than this to
    /// the true one; its distance from the point is off by (1 µm)² / (2d) at worst.
    package static let footTolerance = 1e-6

    /// The foot of the geodesic perpendicular from a point to a geodesic segment: the one place
    /// Meridian finds the nearest point of a geodesic segment (``closestPoint(to:)``, polyline
    /// snapping and Douglas–Peucker use it).
    ///
    /// Newton's method on the distance s along the segment: from a candidate, the geodesic to the
    /// point leaves at an angle θ to the segment, and the along-track correction is the spherical
    /// `atan(tan(d/R) · cos θ) · R` (R the mean radius; `d · cos θ` beyond a quarter of the Earth).
    /// At the answer θ = 90°, where the geodesic distance is stationary, so the converged point is
    /// exact on the ellipsoid whatever sphere steered the steps. The foot is clamped to
    /// [0, `length`]; the iteration stops when a step is below ``footTolerance``.
    ///
    /// - Parameters:
    ///   - point: The point to project.
    ///   - length: The segment's length in meters.
    ///   - guess: Where along the segment to start, in meters.
    ///   - geodesic: The ellipsoid.
    ///   - position: The segment's point and forward azimuth at a distance from its start.
    /// - Returns: The foot, or `nil` when 30 steps do not settle (a point so far away that the
    ///   nearest point is ambiguous); callers then compare the ends.
    package static func foot(
        of point: Coordinate, alongSegmentOfLength length: Double, startingAt guess: Double,
        geodesic: Geodesic, position: (Double) -> Point
    ) -> Projection? {
        let radius = WGS84.meanRadius  // only steers the iteration; the answer is ellipsoidal
        var s = min(max(guess.isNaN ? 0 : guess, 0), length)
        for _ in 0..<30 {
            let here = position(s)
            let toPoint = geodesic.inverse(from: here.coordinate, to: point)
            if toPoint.distance == 0 {
                return Projection(coordinate: here.coordinate, distanceAlong: s, distance: 0)
            }
            let theta = (toPoint.initialAzimuth - here.azimuth) * (.pi / 180)
            let sigma = toPoint.distance / radius
            let step =
                sigma < .pi / 2
                ? atan(tan(sigma) * cos(theta)) * radius : toPoint.distance * cos(theta)
            let next = min(max(s + step, 0), length)
            if abs(next - s) < footTolerance {
                return Projection(
                    coordinate: here.coordinate, distanceAlong: s, distance: toPoint.distance)
            }
            s = next
        }
        return nil
    }

    /// The C state of `geod_inverseline`/`geod_directline`; immutable after initialization.
    final class Storage: Sendable {
        let raw: geod_geodesicline

        init(_ raw: geod_geodesicline) { self.raw = raw }

        static let capabilities = UInt32(
            GEOD_LATITUDE.rawValue | GEOD_LONGITUDE.rawValue | GEOD_AZIMUTH.rawValue
                | GEOD_DISTANCE_IN.rawValue)
    }
}

extension Geodesic {
    /// The geodesic between two points, ready for positions along it and nearest-point queries.
    ///
    /// - Complexity: O(1); about 1.5 µs. Wraps `geod_inverseline`.
    public func line(from start: Coordinate, to end: Coordinate) -> GeodesicLine {
        GeodesicLine(geodesic: self, start: start, end: end)
    }

    /// The geodesic that leaves a point at an azimuth, with a length.
    ///
    /// - Complexity: O(1). Wraps `geod_directline`.
    public func line(from start: Coordinate, azimuth: Double, distance: Double) -> GeodesicLine {
        GeodesicLine(geodesic: self, start: start, azimuth: azimuth, distance: distance)
    }
}
