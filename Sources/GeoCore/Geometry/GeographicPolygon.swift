import Foundation

/// A longitude/latitude polygon prepared for point-in-polygon tests **on the globe**: the answer
/// for polygons that cross the 180th meridian, that contain a pole, and that were cut at the 180th
/// meridian as RFC 7946 recommends.
///
/// ```swift
/// let fiji = try GeographicPolygon(country.geometry)     // a MultiPolygon cut at ±180°
/// fiji.contains(Coordinate(latitude: -16.8, longitude: 180))          // true: the cut is inside
/// let box = try GeographicPolygon(Geometry(wkt: "POLYGON ((170 -10, -170 -10, -170 10, 170 10, 170 -10))"))
/// box.contains(Coordinate(latitude: 0, longitude: 179))  // true; planar `contains` says false
/// ```
///
/// ### The model
/// Positions are x = longitude, y = latitude in degrees (GeoJSON's order). Edges are straight lines
/// in longitude and latitude, as RFC 7946 and GEOS define them and as maps such as Natural Earth
/// are drawn, but on the globe rather than on the plane:
/// - **Every edge runs the short way round in longitude**, so a ring may cross the 180th meridian
///   (`179 → -179` is an edge 2° long). An edge spanning exactly 180° of longitude is ambiguous
///   and refused.
/// - **A ring that winds once around a pole** (its longitudes turn through ±360°, such as a ring
///   along the 80th parallel) bounds the smaller of the two caps it separates, as
///   ``Geometry/geodesicArea(on:)`` counts it, unless it reaches one of the poles: then it bounds
///   the cap of that pole, however large. A ring that winds more than once is refused.
/// - **A ring that runs along a pole** (edges from longitude −180 to 180 at latitude −90, as
///   Antarctica's outline in Natural Earth) bounds the region that contains that pole.
/// - **The poles are points**: a pole is interior when the polygon surrounds it, on the boundary
///   when a ring only reaches it, whatever the longitude given.
/// - **Parts that meet at the 180th meridian** (Fiji, Russia, any polygon cut there) are one
///   region: a point on the shared cut is interior when both sides are inside (decided by probing
///   10⁻⁹° to either side).
///
/// Holes are subtracted whatever their orientation; ring orientation is never needed. The
/// orientation test is ``Predicates/orient2d(_:_:_:)``, exact for the coordinates as stored; rings
/// across the 180th meridian are unrolled by adding ±360° to some longitudes, which rounds them by
/// at most 2.9e-14° (3 nm).
///
/// These edges are not geodesics: ``Geometry/geodesicArea(on:)`` and the metric operations take
/// edges as geodesics, which part from the straight longitude/latitude edge by about
/// ℓ² |tan φ| / (8R) for an edge of length ℓ at latitude φ (2 cm for 1 km at 45°, 2 m for 10 km).
/// Points closer than that to a long edge may be judged differently by the two.
///
/// - Complexity: Building is O(n) for n vertices; each query O(n).
public struct GeographicPolygon: Sendable, Hashable {
    /// One ring, unrolled: `x[i]` is the longitude of vertex `i` made continuous along the
    /// short-way edges, so the closing edge ends at `x[0] + 360 · winding`.
    struct Ring: Sendable, Hashable {
        var x: [Double]
        var y: [Double]
        /// −1, 0 or 1: how many times the ring turns round the Earth eastward.
        var winding: Int
        /// Whether a winding ring bounds the northern cap (then every ray to the north pole
        /// crosses its virtual closing edge along the pole).
        var capIsNorth: Bool
        /// Where each pole lies relative to the ring's region.
        var northPole: PointLocation
        var southPole: PointLocation
        /// Whether steps of exactly 360° were read as full turns (a box from −180 to 180, which
        /// would collapse onto one meridian otherwise).
        var fullTurns = false
    }

    /// One polygon: an exterior ring and holes.
    struct Part: Sendable, Hashable {
        var exterior: Ring
        var holes: [Ring]
    }

    let parts: [Part]

    /// The probe distance in degrees used on the 180th meridian.
    static let cutProbe = 1e-9

    /// Prepares the polygonal parts of a geometry (a polygon, a multipolygon, or a collection of
    /// them, whose points and lines have no inside and add nothing). An empty geometry contains
    /// nothing.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a point or line geometry or a
    ///   collection without polygons, a ring with fewer than three distinct vertices, an edge that
    ///   spans exactly 180° of longitude, or a ring that winds around a pole more than once;
    ///   ``GeoError/Kind-swift.struct/invalidCoordinate`` for a vertex whose latitude is outside
    ///   [-90, 90] or that is not finite. Messages name the polygon, ring and vertex.
    public init(_ geometry: Geometry) throws(GeoError) {
        var polygons = [[[Position]]]()
        try Self.collectPolygons(geometry, into: &polygons, inCollection: false)
        // An empty polygonal geometry contains nothing; anything else needs a polygon.
        guard !polygons.isEmpty || geometry.isEmpty else {
            throw GeoError(
                .invalidArgument, "a \(geometry.type) has no polygon to contain points")
        }
        var parts = [Part]()
        for (p, rings) in polygons.enumerated() where !(rings.first?.isEmpty ?? true) {
            let place = polygons.count > 1 ? "polygon \(p) " : ""
            var prepared = [Ring]()
            for (r, ring) in rings.enumerated() {
                let name = place + (r == 0 ? "exterior ring" : "hole \(r - 1)")
                prepared.append(try Self.prepare(ring, name: name))
            }
            parts.append(Part(exterior: prepared[0], holes: Array(prepared.dropFirst())))
        }
        self.parts = parts
    }

    /// Where a coordinate lies on the globe: inside, on the boundary or outside.
    ///
    /// - Returns: ``PointLocation/exterior`` for a coordinate with a latitude outside [-90, 90] or
    ///   a value that is not finite; longitudes are taken modulo 360°.
    /// - Complexity: O(n) for n vertices.
    public func locate(_ coordinate: Coordinate) -> PointLocation {
        let lat = coordinate.latitude, lon = coordinate.longitude
        guard lat.isFinite, lon.isFinite, abs(lat) <= 90 else { return .exterior }
        let location = locateInParts(latitude: lat, longitude: lon)
        // A point on the 180th meridian that is inside on both sides is inside the union.
        guard location == .boundary, abs(lat) < 90,
            abs(Angle.normalizedLongitude(lon)) == 180
        else { return location }
        let east = locateInParts(latitude: lat, longitude: -180 + Self.cutProbe)
        let west = locateInParts(latitude: lat, longitude: 180 - Self.cutProbe)
        return east == .interior && west == .interior ? .interior : .boundary
    }

    /// Whether a coordinate lies inside or on the boundary (see ``locate(_:)``).
    public func contains(_ coordinate: Coordinate) -> Bool {
        locate(coordinate) != .exterior
    }

    private func locateInParts(latitude: Double, longitude: Double) -> PointLocation {
        var onBoundary = false
        for part in parts {
            switch Self.locate(latitude: latitude, longitude: longitude, in: part) {
            case .interior: return .interior
            case .boundary: onBoundary = true
            case .exterior: continue
            }
        }
        return onBoundary ? .boundary : .exterior
    }

    private static func locate(
        latitude: Double, longitude: Double, in part: Part
    ) -> PointLocation {
        let outer = locate(latitude: latitude, longitude: longitude, in: part.exterior)
        guard outer != .exterior else { return .exterior }
        var onBoundary = outer == .boundary
        for hole in part.holes {
            switch locate(latitude: latitude, longitude: longitude, in: hole) {
            case .interior: return .exterior
            case .boundary: onBoundary = true
            case .exterior: continue
            }
        }
        return onBoundary ? .boundary : .interior
    }

    /// Ray casting along the meridian from the point to the north pole, in the strip of longitude
    /// and latitude: the point is inside when the ray crosses the ring's edges an odd number of
    /// times. Edges along the north pole count as crossings (the strip ends there), and a ring
    /// whose cap is the northern one adds its virtual closing edge along the pole.
    private static func locate(
        latitude: Double, longitude: Double, in ring: Ring
    ) -> PointLocation {
        if latitude == 90 { return ring.northPole }
        if latitude == -90 { return ring.southPole }
        var inside = ring.winding != 0 && ring.capIsNorth
        let n = ring.x.count
        let close = Double(ring.winding) * 360
        for i in 0..<n {
            var ax = ring.x[i], ay = ring.y[i]
            var bx = i + 1 < n ? ring.x[i + 1] : ring.x[0] + close
            var by = i + 1 < n ? ring.y[i + 1] : ring.y[0]
            if ax > bx { swap(&ax, &bx); swap(&ay, &by) }
            // The point's longitude in the edge's frame: in [ax, ax + 360).
            var px = longitude
            let turns = ((ax - px) / 360).rounded(.up)
            if turns != 0 { px += turns * 360 }
            if px >= ax + 360 { px -= 360 }
            if px < ax { px += 360 }
            guard px <= bx else { continue }
            if ax == bx {
                // An edge along a meridian: on it, or no crossing.
                if latitude >= min(ay, by) && latitude <= max(ay, by) { return .boundary }
                continue
            }
            let side = Predicates.orient2d(ax, ay, bx, by, px, latitude)
            if side == 0 { return .boundary }
            // Half-open in longitude, so a ray through a vertex counts one of its two edges.
            if side < 0 && px < bx { inside.toggle() }
        }
        return inside ? .interior : .exterior
    }

    // MARK: - Preparation

    /// The polygons of a geometry; points and lines inside a collection have no inside and add
    /// nothing, but a point or line given alone is refused.
    private static func collectPolygons(
        _ geometry: Geometry, into polygons: inout [[[Position]]], inCollection: Bool
    ) throws(GeoError) {
        switch geometry {
        case .polygon(let rings): polygons.append(rings)
        case .multiPolygon(let list): polygons += list
        case .geometryCollection(let members):
            for member in members {
                try collectPolygons(member, into: &polygons, inCollection: true)
            }
        default:
            if geometry.isEmpty || inCollection { return }
            throw GeoError(
                .invalidArgument,
                "geographic containment needs polygons; a \(geometry.type) has no inside")
        }
    }

    /// Unrolls a ring and works out its winding, its cap and the poles' places.
    ///
    /// A step of exactly 360° between two vertices (`-180 → 180`, as planar boxes spanning every
    /// longitude are written) means the same meridian, unless that reading leaves the ring without
    /// three distinct points (a box from −180 to 180 would collapse): then it means a full turn.
    static func prepare(_ ring: [Position], name: String) throws(GeoError) -> Ring {
        do {
            return try prepare(ring, name: name, fullTurns: false)
        } catch let error where error.kind == .invalidArgument && error.message.contains("distinct")
        {
            return try prepare(ring, name: name, fullTurns: true)
        }
    }

    private static func prepare(
        _ ring: [Position], name: String, fullTurns: Bool
    ) throws(GeoError) -> Ring {
        var points = ring
        if points.count > 1, let first = points.first, let last = points.last,
            first.x == last.x && first.y == last.y
        {
            points.removeLast()
        }
        var x = [Double](), y = [Double]()
        x.reserveCapacity(points.count)
        y.reserveCapacity(points.count)
        for (i, p) in points.enumerated() {
            guard p.x.isFinite, p.y.isFinite, abs(p.y) <= 90 else {
                throw GeoError(
                    .invalidCoordinate,
                    "\(name) vertex \(i) (\(p.x), \(p.y)) is not a longitude and latitude: the latitude must be within [-90, 90] and both finite"
                )
            }
            guard abs(p.x) <= Angle.largestReducibleLongitude else {
                throw GeoError(
                    .invalidCoordinate,
                    "\(name) vertex \(i): longitude \(p.x) is too large to reduce to [-180, 180] (beyond ±1e15)"
                )
            }
            if i > 0 {
                let raw = p.x - points[i - 1].x
                var step = Angle.normalizedLongitude(raw)
                if fullTurns && abs(raw) == 360 { step = raw }
                guard abs(step) != 180 || abs(p.y) == 90 || abs(y[y.count - 1]) == 90 else {
                    throw GeoError(
                        .invalidArgument,
                        "\(name): the edge to vertex \(i) spans exactly 180° of longitude, which could go either way round"
                    )
                }
                // The vertex's own longitude plus whole turns, so that vertices of a ring that
                // does not cross the 180th meridian keep their exact value (summing the steps
                // would move them by ulps and put points on a vertex off it); a step along one
                // meridian (such as −180 → 180) keeps the previous value exactly.
                let unrolled = x[x.count - 1] + step
                let turns = ((unrolled - p.x) / 360).rounded()
                x.append(step == 0 ? x[x.count - 1] : turns == 0 ? p.x : p.x + turns * 360)
            } else {
                x.append(Angle.normalizedLongitude(p.x))
            }
            y.append(p.y)
        }
        let distinct = Set(zip(x, y).map { SIMD2($0.0, $0.1) })
        guard distinct.count >= 3 else {
            throw GeoError(
                .invalidArgument, "\(name) has \(distinct.count) distinct vertices; a ring needs 3")
        }
        // The closing edge, and with it the winding.
        let closingRaw = points[0].x - points[points.count - 1].x
        var closingStep = Angle.normalizedLongitude(closingRaw)
        if fullTurns && abs(closingRaw) == 360 { closingStep = closingRaw }
        let total = x[x.count - 1] + closingStep - x[0]
        // Each step is at most half a turn, so this holds for any ring the checks above let
        // through; it keeps the conversion below from trapping whatever happens.
        guard total.isFinite, abs(total) < 1e15 else {
            throw GeoError(
                .invalidCoordinate, "\(name) has longitudes too large to follow round the globe")
        }
        let winding = Int((total / 360).rounded())
        guard abs(winding) <= 1 else {
            throw GeoError(
                .invalidArgument,
                "\(name) winds \(abs(winding)) times around a pole; a ring may wind at most once")
        }
        // A winding ring bounds the smaller cap: the north one when ∫ sin φ dλ along the ring has
        // the sign of its winding (see the type's documentation).
        var capIsNorth = false
        let touchesNorth = y.contains(90), touchesSouth = y.contains(-90)
        if winding != 0 && touchesNorth != touchesSouth {
            // A winding ring that reaches a pole says which cap it means: that pole's.
            capIsNorth = touchesNorth
        } else if winding != 0 {
            capIsNorth = sineIntegral(x: x, y: y, winding: winding) * Double(winding) >= 0
        }
        var result = Ring(
            x: x, y: y, winding: winding, capIsNorth: capIsNorth, northPole: .exterior,
            southPole: .exterior, fullTurns: fullTurns)
        result.northPole = poleLocation(result, pole: 90)
        result.southPole = poleLocation(result, pole: -90)
        return result
    }

    /// ∮ sin φ dλ (λ in radians) along a ring's edges straight in longitude and latitude
    /// (unrolled degrees), the closing edge going `winding` whole turns on: exactly, edge by edge,
    /// as Δλ sin((φ₁ + φ₂)/2) sin(h)/h with h = (φ₂ − φ₁)/2.
    static func sineIntegral(x: [Double], y: [Double], winding: Int) -> Double {
        var s = 0.0
        let close = Double(winding) * 360
        for i in x.indices {
            let j = i + 1 < x.count ? i + 1 : 0
            let a = y[i] * .pi / 180, b = y[j] * .pi / 180
            let half = (b - a) / 2
            let factor = abs(half) < 1e-8 ? 1 : sin(half) / half
            let dx = (j == 0 ? x[0] + close : x[j]) - x[i]
            s += sin((a + b) / 2) * factor * dx * .pi / 180
        }
        return s
    }

    /// Where a pole lies relative to a ring: inside when the ring surrounds it (a winding ring
    /// whose cap it is, or edges along it covering all 360° of longitude), on the boundary when
    /// the ring only reaches it, outside otherwise.
    private static func poleLocation(_ ring: Ring, pole: Double) -> PointLocation {
        let n = ring.x.count
        let close = Double(ring.winding) * 360
        var touches = false
        var covered = 0.0
        for i in 0..<n where ring.y[i] == pole {
            touches = true
            let j = i + 1 < n ? i + 1 : 0
            if ring.y[j] == pole {
                let bx = i + 1 < n ? ring.x[i + 1] : ring.x[0] + close
                covered += bx - ring.x[i]
            }
        }
        if touches {
            // A winding ring that reaches the pole of its own cap surrounds it, the reaching part
            // being a cut along a meridian (as Antarctica's outline is cut at ±180°); so do edges
            // along the pole that turn through a full circle. Otherwise the ring only touches it.
            if ring.winding != 0 && ring.capIsNorth == (pole > 0) { return .interior }
            return abs(covered) >= 360 - 1e-9 ? .interior : .boundary
        }
        if ring.winding != 0 { return ring.capIsNorth == (pole > 0) ? .interior : .exterior }
        return .exterior
    }
}

extension Geometry {
    /// Where a coordinate lies relative to this polygonal geometry **on the globe**: across the
    /// 180th meridian, at the poles and across RFC 7946 cuts (see ``GeographicPolygon``). For many
    /// queries against one geometry, prepare a ``GeographicPolygon`` once.
    ///
    /// - Throws: As ``GeographicPolygon/init(_:)``.
    /// - Complexity: O(n) for n vertices.
    public func geographicLocation(of coordinate: Coordinate) throws(GeoError) -> PointLocation {
        try GeographicPolygon(self).locate(coordinate)
    }

    /// Whether a coordinate lies inside or on this polygonal geometry **on the globe** (see
    /// ``GeographicPolygon``).
    ///
    /// - Throws: As ``GeographicPolygon/init(_:)``.
    public func containsGeographically(_ coordinate: Coordinate) throws(GeoError) -> Bool {
        try GeographicPolygon(self).contains(coordinate)
    }
}

// MARK: - Which side a ring measures

extension GeographicPolygon {
    /// Which of the two regions a ring separates is its own, for measures whose edges are
    /// geodesics (see ``Geodesic/measure(exterior:holes:)``).
    enum RingRegion: Equatable {
        /// The smaller region (a ring this type refuses, or one too thin to have an inside).
        case smaller
        /// The region inside the ring as written: to the left of the ring as given
        /// (counterclockwise seen from above) or to its right, and its share of the Earth with
        /// edges straight in longitude and latitude on a sphere.
        case inside(left: Bool, share: Double)
        /// The cap of the pole a winding ring reaches: to its `left` or right, and its share of
        /// the Earth with edges straight in longitude and latitude on a sphere (for a cap too
        /// small for the geodesic area's sign to tell).
        case cap(left: Bool, share: Double)
        /// The region inside edges straight in longitude and latitude (unrolled degrees), for a
        /// ring that encloses nothing when read with geodesic edges.
        case lonLatEdges(x: [Double], y: [Double])
    }

    /// The region of a ring as written (longitudes not reduced; the first vertex may be
    /// repeated at the end), read as ``locate(_:)`` reads it.
    static func region(of ring: [Position]) -> RingRegion {
        guard let prepared = try? prepare(ring, name: "ring") else { return .smaller }
        let x = prepared.x, y = prepared.y
        let s = sineIntegral(x: x, y: y, winding: prepared.winding)
        if prepared.winding != 0 {
            let north = y.contains(90), south = y.contains(-90)
            guard north != south, !prepared.fullTurns else { return .smaller }
            // Going east, the north lies to the left. The north cap's share of a sphere is
            // (2πw − ∮ sin φ dλ) / 4πw for a ring that turns w = ±1 times.
            let w = Double(prepared.winding)
            let northShare = (2 * .pi * w - s) / (4 * .pi * w)
            return .cap(left: (w > 0) == north, share: north ? northShare : 1 - northShare)
        }
        if prepared.fullTurns { return .lonLatEdges(x: x, y: y) }
        // The inside's share of a sphere, counterclockwise positive: −∮ sin φ dλ / 4π. A ring
        // too thin for it to tell has no inside to pick.
        let share = -s / (4 * .pi)
        guard abs(share) > 1e-9 else { return .smaller }
        return .inside(left: share > 0, share: abs(share))
    }
}
