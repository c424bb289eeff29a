internal import CPROJ
import Foundation

/// Geodesics on an ellipsoid of revolution: shortest paths, their lengths and azimuths, points along
/// them, and the area of polygons they bound.
///
/// Meridian solves geodesic problems with Charles Karney's algorithms (*Algorithms for geodesics*,
/// J. Geodesy 87, 43–55, 2013, doi:10.1007/s00190-012-0578-z) as implemented in PROJ's `geodesic.h`.
/// On WGS84 they are accurate to about 15 nanometers for any pair of points, including nearly
/// antipodal ones where Vincenty's method fails to converge.
///
/// ```swift
/// let jfk = Coordinate(latitude: 40.6413, longitude: -73.7781)
/// let lhr = Coordinate(latitude: 51.4700, longitude: -0.4543)
/// let line = Geodesic.wgs84.inverse(from: jfk, to: lhr)
/// print(line.distance, line.initialAzimuth, line.finalAzimuth)  // 5554539.9… 51.36… 108.2…
/// ```
///
/// Invalid input never traps: NaN or infinite inputs, and latitudes beyond ±90°, give NaN results.
///
/// ### Which distance to use
/// - `Geodesic` (this type): exact on the ellipsoid; about 1 µs a call. The default everywhere.
/// - ``Haversine``: a sphere of the IUGG mean radius; up to 0.56 % off, a few times faster.
/// - ``LocalPlane``: a flat approximation for short distances in hot loops; see its error bound.
public struct Geodesic: Sendable, Hashable {
    /// The ellipsoid's equatorial radius (semi-major axis) in meters.
    public let equatorialRadius: Double
    /// The ellipsoid's flattening `(a - b) / a`; negative for a prolate ellipsoid, 0 for a sphere.
    public let flattening: Double

    private let storage: Storage

    /// The C state, for other wrappers in GeoCore.
    var cStorage: Storage { storage }

    /// The WGS84 ellipsoid: a = 6 378 137 m, 1/f = 298.257 223 563 (NIMA TR8350.2, 3rd ed., 2000).
    public static let wgs84 = Geodesic(
        uncheckedEquatorialRadius: WGS84.equatorialRadius, flattening: WGS84.flattening)

    /// The GRS80 ellipsoid: a = 6 378 137 m, 1/f = 298.257 222 101 (Moritz, *Geodetic Reference
    /// System 1980*, Bulletin Géodésique 54, 1980).
    public static let grs80 = Geodesic(
        uncheckedEquatorialRadius: WGS84.equatorialRadius,
        flattening: 1 / WGS84.grs80InverseFlattening)

    /// Creates a geodesic calculator for a custom ellipsoid.
    ///
    /// The algorithms stay accurate to round-off for |f| ≤ 1/50 and remain usable (errors of order f⁶
    /// of the distance) up to |f| ≈ 1/5.
    ///
    /// - Parameters:
    ///   - equatorialRadius: The semi-major axis `a` in meters; finite and positive.
    ///   - flattening: `f = (a - b) / a`; finite and below 1 (0 for a sphere, negative for prolate).
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` naming the bad value.
    public init(equatorialRadius: Double, flattening: Double) throws(GeoError) {
        guard equatorialRadius.isFinite && equatorialRadius > 0 else {
            throw GeoError(
                .invalidArgument,
                "equatorial radius \(equatorialRadius) m must be finite and positive")
        }
        guard flattening.isFinite && flattening < 1 else {
            throw GeoError(.invalidArgument, "flattening \(flattening) must be finite and below 1")
        }
        self.init(uncheckedEquatorialRadius: equatorialRadius, flattening: flattening)
    }

    private init(uncheckedEquatorialRadius a: Double, flattening f: Double) {
        equatorialRadius = a
        flattening = f
        storage = Storage(a: a, f: f)
    }

    /// The polar radius (semi-minor axis) `b = a (1 - f)` in meters.
    public var polarRadius: Double { equatorialRadius * (1 - flattening) }

    public static func == (lhs: Geodesic, rhs: Geodesic) -> Bool {
        lhs.equatorialRadius == rhs.equatorialRadius && lhs.flattening == rhs.flattening
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(equatorialRadius)
        hasher.combine(flattening)
    }

    /// The C state of `geod_init`, computed once per ellipsoid and read-only afterwards.
    final class Storage: Sendable {
        let raw: geod_geodesic

        init(a: Double, f: Double) {
            var g = geod_geodesic()
            geod_init(&g, a, f)
            raw = g
        }
    }
}

// MARK: - Results

/// Optional quantities a geodesic solution can also compute; each costs some extra time.
public struct GeodesicQuantities: OptionSet, Sendable, Hashable {
    /// The bits of the set.
    public let rawValue: UInt8
    /// A set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The reduced length `m12` in meters.
    public static let reducedLength = GeodesicQuantities(rawValue: 1 << 0)
    /// The geodesic scales `M12` and `M21` (dimensionless).
    public static let geodesicScale = GeodesicQuantities(rawValue: 1 << 1)
    /// The area `S12` between the geodesic and the equator in square meters.
    public static let area = GeodesicQuantities(rawValue: 1 << 2)
    /// Everything above.
    public static let all: GeodesicQuantities = [.reducedLength, .geodesicScale, .area]
}

/// The solution of the inverse geodesic problem: the shortest path between two points.
///
/// Azimuths are in degrees clockwise from north, in [-180, 180]. When a point is at a pole, its
/// azimuth is taken as the limit approaching the pole along the meridian of the given longitude;
/// when the points coincide, the azimuths describe a geodesic leaving along the meridian.
public struct GeodesicInverse: Hashable, Sendable {
    /// The first point, its longitude reduced to [-180, 180] (or as given when unrolled).
    public var start: Coordinate
    /// The second point, its longitude reduced to [-180, 180] (or `start.longitude` plus the
    /// longitude traveled, when unrolled).
    public var end: Coordinate
    /// The length of the geodesic in meters.
    public var distance: Double
    /// The azimuth of the geodesic at ``start`` in degrees.
    public var initialAzimuth: Double
    /// The azimuth of the geodesic at ``end`` in degrees (the forward azimuth, not the back azimuth).
    public var finalAzimuth: Double
    /// The arc length on the auxiliary sphere in degrees.
    public var arcLength: Double
    /// The reduced length `m12` in meters, when requested.
    public var reducedLength: Double?
    /// The geodesic scale `M12` of point 2 relative to point 1, when requested.
    public var geodesicScale12: Double?
    /// The geodesic scale `M21` of point 1 relative to point 2, when requested.
    public var geodesicScale21: Double?
    /// The area `S12` in square meters between the geodesic from point 1 to point 2 and the equator
    /// (counter-clockwise positive), when requested.
    public var area: Double?
}

/// The solution of the direct geodesic problem: where a geodesic of a given start, azimuth and length
/// ends.
public struct GeodesicDirect: Hashable, Sendable {
    /// The end point; its longitude is reduced to [-180, 180] unless the longitude was unrolled.
    public var coordinate: Coordinate
    /// The forward azimuth at ``coordinate`` in degrees.
    public var finalAzimuth: Double
    /// The arc length on the auxiliary sphere in degrees.
    public var arcLength: Double
    /// The reduced length `m12` in meters, when requested.
    public var reducedLength: Double?
    /// The geodesic scale `M12`, when requested.
    public var geodesicScale12: Double?
    /// The geodesic scale `M21`, when requested.
    public var geodesicScale21: Double?
    /// The area `S12` in square meters, when requested.
    public var area: Double?
}

// MARK: - The two geodesic problems

extension Geodesic {
    /// Solves the inverse problem: the shortest path between two points.
    ///
    /// - Parameters:
    ///   - start: The first point.
    ///   - end: The second point.
    ///   - quantities: Extra outputs to compute (none by default).
    ///   - unrollingLongitude: If `true`, ``GeodesicInverse/start`` keeps the given longitude and
    ///     ``GeodesicInverse/end`` is `start` plus the longitude difference traveled, instead of both
    ///     being reduced to [-180, 180] (GeographicLib's `LONG_UNROLL`).
    /// - Returns: Distance, azimuths and arc length; NaN throughout for NaN input.
    /// - Complexity: O(1); about 1 µs. Wraps `geod_geninverse`.
    public func inverse(
        from start: Coordinate,
        to end: Coordinate,
        including quantities: GeodesicQuantities = [],
        unrollingLongitude: Bool = false
    ) -> GeodesicInverse {
        var s12 = 0.0, azi1 = 0.0, azi2 = 0.0
        var m12 = Double.nan, bigM12 = Double.nan, bigM21 = Double.nan, area = Double.nan
        let a12 = withUnsafePointer(to: storage.raw) { g in
            withOptionalOutputs(quantities, &m12, &bigM12, &bigM21, &area) {
                pm12, pM12, pM21, pS12 in
                geod_geninverse(
                    g, start.latitude, start.longitude, end.latitude, end.longitude,
                    &s12, &azi1, &azi2, pm12, pM12, pM21, pS12)
            }
        }
        let lon1: Double, lon2: Double
        if unrollingLongitude {
            lon1 = start.longitude
            lon2 =
                start.longitude
                + Angle.longitudeDifference(from: start.longitude, to: end.longitude)
        } else {
            lon1 = Angle.normalizedLongitude(start.longitude)
            lon2 = Angle.normalizedLongitude(end.longitude)
        }
        return GeodesicInverse(
            start: Coordinate(latitude: start.latitude, longitude: lon1),
            end: Coordinate(latitude: end.latitude, longitude: lon2),
            distance: s12, initialAzimuth: azi1, finalAzimuth: azi2, arcLength: a12,
            reducedLength: quantities.contains(.reducedLength) ? m12 : nil,
            geodesicScale12: quantities.contains(.geodesicScale) ? bigM12 : nil,
            geodesicScale21: quantities.contains(.geodesicScale) ? bigM21 : nil,
            area: quantities.contains(.area) ? area : nil)
    }

    /// Solves the direct problem: where a geodesic that leaves a point at an azimuth ends after a
    /// distance.
    ///
    /// - Parameters:
    ///   - start: The starting point.
    ///   - azimuth: Degrees clockwise from north at `start`.
    ///   - distance: Meters along the geodesic; negative goes backwards.
    ///   - quantities: Extra outputs to compute (none by default).
    ///   - unrollingLongitude: If `true`, the end longitude is not reduced to [-180, 180] but tells how
    ///     often the geodesic went round the Earth (GeographicLib's `LONG_UNROLL`).
    /// - Returns: The end point and azimuth; NaN for NaN or infinite input.
    /// - Complexity: O(1); under 1 µs. Wraps `geod_gendirect`.
    public func direct(
        from start: Coordinate,
        azimuth: Double,
        distance: Double,
        including quantities: GeodesicQuantities = [],
        unrollingLongitude: Bool = false
    ) -> GeodesicDirect {
        var lat2 = 0.0, lon2 = 0.0, azi2 = 0.0
        var m12 = Double.nan, bigM12 = Double.nan, bigM21 = Double.nan, area = Double.nan
        let flags =
            unrollingLongitude ? UInt32(GEOD_LONG_UNROLL.rawValue) : UInt32(GEOD_NOFLAGS.rawValue)
        let a12 = withUnsafePointer(to: storage.raw) { g in
            withOptionalOutputs(quantities, &m12, &bigM12, &bigM21, &area) {
                pm12, pM12, pM21, pS12 in
                geod_gendirect(
                    g, start.latitude, start.longitude, azimuth, flags, distance,
                    &lat2, &lon2, &azi2, nil, pm12, pM12, pM21, pS12)
            }
        }
        return GeodesicDirect(
            coordinate: Coordinate(latitude: lat2, longitude: lon2),
            finalAzimuth: azi2, arcLength: a12,
            reducedLength: quantities.contains(.reducedLength) ? m12 : nil,
            geodesicScale12: quantities.contains(.geodesicScale) ? bigM12 : nil,
            geodesicScale21: quantities.contains(.geodesicScale) ? bigM21 : nil,
            area: quantities.contains(.area) ? area : nil)
    }

    /// The geodesic distance between two points in meters.
    ///
    /// - Complexity: O(1); about 1 µs. Wraps `geod_inverse`.
    public func distance(from start: Coordinate, to end: Coordinate) -> Double {
        var s12 = Double.nan
        withUnsafePointer(to: storage.raw) { g in
            geod_inverse(
                g, start.latitude, start.longitude, end.latitude, end.longitude, &s12, nil, nil)
        }
        return s12
    }

    /// The geodesic distance between two points on WGS84 in meters; shorthand for
    /// `Geodesic.wgs84.distance(from:to:)`.
    public static func distance(from start: Coordinate, to end: Coordinate) -> Double {
        wgs84.distance(from: start, to: end)
    }

    /// Passes pointers for the requested optional outputs and `nil` for the rest, so PROJ skips the
    /// work of quantities nobody asked for.
    private func withOptionalOutputs<R>(
        _ quantities: GeodesicQuantities,
        _ m12: inout Double, _ bigM12: inout Double, _ bigM21: inout Double, _ area: inout Double,
        _ body: (
            UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?,
            UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?
        ) -> R
    ) -> R {
        if quantities.isEmpty { return body(nil, nil, nil, nil) }
        return withUnsafeMutablePointer(to: &m12) { pm12 in
            withUnsafeMutablePointer(to: &bigM12) { pM12 in
                withUnsafeMutablePointer(to: &bigM21) { pM21 in
                    withUnsafeMutablePointer(to: &area) { pS12 in
                        body(
                            quantities.contains(.reducedLength) ? pm12 : nil,
                            quantities.contains(.geodesicScale) ? pM12 : nil,
                            quantities.contains(.geodesicScale) ? pM21 : nil,
                            quantities.contains(.area) ? pS12 : nil)
                    }
                }
            }
        }
    }
}

// MARK: - Points along a geodesic

extension Geodesic {
    /// Points evenly spaced along the geodesic between two points, both ends included.
    ///
    /// - Parameters:
    ///   - start: The first point (returned first, as given).
    ///   - end: The last point (returned last, as given).
    ///   - count: How many points, at least 2.
    /// - Returns: `count` points at distances `i / (count - 1)` of the way.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` if `count` is below 2, or
    ///   ``GeoError/Kind-swift.struct/invalidCoordinate`` if an end point is invalid.
    /// - Complexity: O(count). Wraps `geod_inverseline` and `geod_position`.
    public func points(
        from start: Coordinate, to end: Coordinate, count: Int
    ) throws(GeoError) -> [Coordinate] {
        guard count >= 2 else {
            throw GeoError(.invalidArgument, "point count \(count) must be at least 2")
        }
        _ = try start.validated()
        _ = try end.validated()
        var line = geod_geodesicline()
        withUnsafePointer(to: storage.raw) { g in
            geod_inverseline(
                &line, g, start.latitude, start.longitude, end.latitude, end.longitude,
                UInt32(GEOD_LATITUDE.rawValue | GEOD_LONGITUDE.rawValue | GEOD_DISTANCE_IN.rawValue)
            )
        }
        let total = line.s13
        var result = [Coordinate]()
        result.reserveCapacity(count)
        result.append(start)
        for i in 1..<(count - 1) {
            var lat = 0.0, lon = 0.0
            geod_position(&line, total * Double(i) / Double(count - 1), &lat, &lon, nil)
            result.append(Coordinate(latitude: lat, longitude: lon))
        }
        result.append(end)
        return result
    }

    /// Points along the geodesic between two points, evenly spaced so that no gap exceeds a distance.
    ///
    /// - Parameters:
    ///   - start: The first point.
    ///   - end: The last point.
    ///   - maximumSpacing: The largest allowed gap in meters; finite and positive.
    /// - Returns: At least the two end points.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a spacing that is not finite and
    ///   positive; ``GeoError/Kind-swift.struct/invalidCoordinate`` for an invalid end point.
    /// - Complexity: O(distance / maximumSpacing).
    public func points(
        from start: Coordinate, to end: Coordinate, maximumSpacing: Double
    ) throws(GeoError) -> [Coordinate] {
        guard maximumSpacing.isFinite && maximumSpacing > 0 else {
            throw GeoError(
                .invalidArgument, "spacing \(maximumSpacing) m must be finite and positive")
        }
        let total = distance(from: try start.validated(), to: try end.validated())
        let segments = max(1, Int((total / maximumSpacing).rounded(.up)))
        return try points(from: start, to: end, count: segments + 1)
    }
}

// MARK: - Polygons

/// The area and perimeter of a polygon on the ellipsoid.
public struct PolygonMeasurement: Hashable, Sendable {
    /// The area in square meters (holes subtracted).
    public var area: Double
    /// The total length in meters of all rings (exterior and holes).
    public var perimeter: Double
}

extension Geodesic {
    /// The area and perimeter of a polygon whose edges are geodesics.
    ///
    /// Each ring may be given open or closed (first point repeated at the end), in either
    /// orientation. Which of the two regions a ring separates is its own is read as
    /// ``GeographicPolygon`` reads it, so that `area` measures what `contains` holds:
    /// - a ring that does not wind round a pole bounds the side that is inside it in longitude and
    ///   latitude (edges taken the short way round), on the side its orientation puts that inside,
    ///   so that rings larger than a hemisphere (the hole left round the antipode of a wide
    ///   buffer) and rings whose long geodesic edges bulge past half the Earth are measured as they
    ///   are; a ring whose inside as written covers less than 5 % of the Earth bounds the smaller
    ///   side (the same side for any proper ring; an invalid ring crossing itself in lobes of about
    ///   equal size never measures as the rest of the Earth);
    /// - a ring that winds once round a pole and reaches one of the poles (as a cap cut along the
    ///   pole is written, and ``GeodesicCircle`` writes a circle round a pole) bounds that pole's
    ///   cap, however large (a cap too small for the sign of its geodesic area to tell, under a
    ///   square meter per vertex, is the side nearer its area with straight edges); a winding ring
    ///   that reaches neither bounds the smaller cap;
    /// - a ring that only encloses something when a step of exactly 360° (`-180 → 180`, or
    ///   `0 → 360` as written) is read as a full turn, such as the whole-world box or a cap cut at
    ///   the 180th meridian (`(-180 30, 180 30, 180 90, -180 90)`), has no geodesic reading: its
    ///   edges are taken as straight in longitude and latitude for its area and its perimeter
    ///   (parallels and meridians exactly; other edges by 16-point Gauss–Legendre quadrature);
    /// - a ring ``GeographicPolygon`` refuses (fewer than three distinct points, an edge of exactly
    ///   180° of longitude) bounds the smaller side.
    ///
    /// An exterior that encloses nothing (under 1 m²) but has holes stands for the whole
    /// ellipsoid, 4πc² (c the authalic radius), less the holes. Holes subtract their area; the
    /// perimeter adds all rings. The area is never negative (0 for holes larger than their
    /// exterior, an invalid polygon).
    ///
    /// - Parameters:
    ///   - exterior: The outer ring.
    ///   - holes: Inner rings, each inside `exterior`.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the first invalid vertex.
    /// - Complexity: O(total vertices). Wraps `geod_polygon_addpoint` and `geod_polygon_compute`;
    ///   accurate to about 0.1 m² per edge (Karney 2013, §6) for the smaller side, and to the
    ///   Earth's area's rounding (about 0.06 m²) for the larger.
    public func measure(
        exterior: [Coordinate], holes: [[Coordinate]] = []
    ) throws(GeoError) -> PolygonMeasurement {
        try measure(rings: [exterior] + holes, written: nil)
    }

    /// ``measure(exterior:holes:)`` of rings whose sides are read from their positions as written
    /// (`written`, longitudes not reduced, so that a step of 360° stays one), or from the rings
    /// themselves when `nil`.
    func measure(
        rings: [[Coordinate]], written: [[Position]]?
    ) throws(GeoError)
        -> PolygonMeasurement
    {
        guard let exterior = rings.first else { return PolygonMeasurement(area: 0, perimeter: 0) }
        func positions(_ i: Int) -> [Position] {
            written?[i] ?? rings[i].map { Position(x: $0.longitude, y: $0.latitude) }
        }
        let outer = try ringMeasurement(exterior, written: positions(0))
        var holesArea = 0.0
        var perimeter = outer.perimeter
        for i in rings.indices.dropFirst() {
            let inner = try ringMeasurement(rings[i], written: positions(i))
            holesArea += inner.area
            perimeter += inner.perimeter
        }
        // Holes in an exterior that encloses nothing: the exterior is the whole-world box.
        let whole = 4 * Double.pi * storage.raw.c2
        let outerArea = holesArea > 0 && outer.area < 1 ? whole - outer.area : outer.area
        return PolygonMeasurement(area: max(0, outerArea - holesArea), perimeter: perimeter)
    }

    /// The length in meters of a path of geodesic segments.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the first invalid vertex.
    /// - Complexity: O(n) geodesic inverse solutions.
    public func length(of path: [Coordinate]) throws(GeoError) -> Double {
        var total = 0.0
        for i in path.indices {
            _ = try validatedVertex(path[i], index: i)
            if i > 0 { total += distance(from: path[i - 1], to: path[i]) }
        }
        return total
    }

    private func ringMeasurement(
        _ ring: [Coordinate], written: [Position]
    ) throws(GeoError)
        -> PolygonMeasurement
    {
        var count = ring.count
        if count > 1 && ring[0] == ring[count - 1] { count -= 1 }
        var polygon = geod_polygon()
        geod_polygon_init(&polygon, 0)
        for i in 0..<count {
            let c = try validatedVertex(ring[i], index: i)
            withUnsafePointer(to: storage.raw) { g in
                geod_polygon_addpoint(g, &polygon, c.latitude, c.longitude)
            }
        }
        // Signed: the smaller side, positive when it lies to the left (counterclockwise).
        var signed = 0.0, perimeter = 0.0
        withUnsafePointer(to: storage.raw) { g in
            _ = geod_polygon_compute(g, &polygon, 0, 1, &signed, &perimeter)
        }
        let whole = 4 * Double.pi * storage.raw.c2
        let smaller = abs(signed), larger = whole - smaller
        // Below this the sign of the area is rounding (Karney: about 0.1 m² per edge).
        let orientationKnown = smaller > Double(count)
        func side(left: Bool) -> Double { (signed >= 0) == left ? smaller : larger }
        switch GeographicPolygon.region(of: written) {
        case .smaller:
            return PolygonMeasurement(area: smaller, perimeter: perimeter)
        case .inside(let left, let share):
            // The larger side only for a ring whose inside is large as written: a ring that
            // crosses itself with lobes of about equal size (an invalid polygon) may have its
            // two orientations disagree, and must not measure as the rest of the Earth.
            let area = orientationKnown && share >= 0.05 ? side(left: left) : smaller
            return PolygonMeasurement(area: area, perimeter: perimeter)
        case .cap(let left, let share):
            // A cap too small (or too nearly whole) for the sign to tell: the side nearer the
            // cap's area with edges straight in longitude and latitude.
            let area =
                orientationKnown
                ? side(left: left)
                : abs(smaller - share * whole) <= abs(larger - share * whole) ? smaller : larger
            return PolygonMeasurement(area: area, perimeter: perimeter)
        case .lonLatEdges(let x, let y):
            let measured = lonLatMeasure(x: x, y: y)
            return PolygonMeasurement(area: measured.area, perimeter: measured.perimeter)
        }
    }

    /// The area and perimeter of a ring whose edges are straight in longitude and latitude
    /// (degrees, unrolled, not winding): the area |∮ Z(φ) dλ|, Z(φ) the area per radian of
    /// longitude of the zone from the equator to φ; the perimeter ∫ √(M² dφ² + N² cos² φ dλ²).
    /// Exact along parallels and meridians; 16-point Gauss–Legendre quadrature on edges whose
    /// latitude changes.
    private func lonLatMeasure(x: [Double], y: [Double]) -> (area: Double, perimeter: Double) {
        let a = storage.raw.a, f = storage.raw.f
        let b = a * (1 - f), e2 = f * (2 - f)
        // atanh(e s) / e, also for a sphere and a prolate ellipsoid.
        func atanhe(_ s: Double) -> Double {
            if e2 > 0 {
                let e = e2.squareRoot()
                return atanh(e * s) / e
            }
            if e2 < 0 {
                let e = (-e2).squareRoot()
                return atan(e * s) / e
            }
            return s
        }
        func zone(_ latitude: Double) -> Double {
            let s = Angle.sinCos(degrees: latitude).sin
            return b * b / 2 * (s / (1 - e2 * s * s) + atanhe(s))
        }
        // The meridian's and the prime vertical's radii of curvature.
        func radii(_ latitude: Double) -> (m: Double, n: Double, cos: Double) {
            let (s, c) = Angle.sinCos(degrees: latitude)
            let w = 1 - e2 * s * s
            return (a * (1 - e2) / (w * w.squareRoot()), a / w.squareRoot(), c)
        }
        let n = x.count
        var sum = 0.0, perimeter = 0.0
        for i in 0..<n {
            let j = i + 1 < n ? i + 1 : 0
            let dx = (x[j] - x[i]) * .pi / 180, dy = (y[j] - y[i]) * .pi / 180
            if dy == 0 {
                sum += zone(y[i]) * dx
                let r = radii(y[i])
                perimeter += r.n * r.cos * abs(dx)
                continue
            }
            var integral = 0.0, length = 0.0
            for (node, weight) in Self.gaussLegendre16 {
                let latitude = y[i] + (y[j] - y[i]) * (1 + node) / 2
                integral += weight / 2 * zone(latitude)
                let r = radii(latitude)
                let along = (r.m * dy) * (r.m * dy) + (r.n * r.cos * dx) * (r.n * r.cos * dx)
                length += weight / 2 * along.squareRoot()
            }
            sum += integral * dx
            perimeter += length
        }
        return (abs(sum), perimeter)
    }

    /// The nodes and weights of 16-point Gauss–Legendre quadrature on [−1, 1].
    private static let gaussLegendre16: [(Double, Double)] = {
        let half: [(Double, Double)] = [
            (0.0950125098376374, 0.1894506104550685),
            (0.2816035507792589, 0.1826034150449236),
            (0.4580167776572274, 0.1691565193950025),
            (0.6178762444026438, 0.1495959888165767),
            (0.7554044083550030, 0.1246289712555339),
            (0.8656312023878318, 0.0951585116824928),
            (0.9445750230732326, 0.0622535239386479),
            (0.9894009349916499, 0.0271524594117541),
        ]
        return half + half.map { (-$0.0, $0.1) }
    }()

    private func validatedVertex(_ c: Coordinate, index: Int) throws(GeoError) -> Coordinate {
        do throws(GeoError) {
            return try c.validated()
        } catch {
            throw GeoError(.invalidCoordinate, "vertex \(index): \(error.message)")
        }
    }
}
