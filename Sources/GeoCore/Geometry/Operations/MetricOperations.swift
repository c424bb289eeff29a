/// Buffers and distances in meters for geometries in longitude (x) and latitude (y) degrees.
///
/// The geometry is mapped to an azimuthal equidistant plane centered on its own extent (exact
/// distances and azimuths from the center, computed with Karney's geodesics), with every edge longer
/// than ``densifySpacing`` first split along its geodesic, so edges are treated as geodesics. GEOS
/// works in that metric plane, and the result is mapped back.
///
/// Accuracy: distances measured in the plane are off by at most the factor `(ρ/R)² / 6`, where ρ is
/// the largest distance of any vertex (of input or result) from the center and R ≈ 6371 km: 0.004 %
/// for geometries within 100 km of their center (4 cm on a 1 km buffer), 0.1 % within 500 km, 0.4 %
/// within 1000 km, 2.6 % at ``metricPlaneLimit`` (2 500 km), beyond which a buffer is refused: the
/// plane cannot represent it faithfully (far beyond, it folds over the antipode). A **point's**
/// buffer is exact at any distance up to the antipode: it is the ``GeodesicCircle`` itself.
/// ``distance(meters:)`` reports the exact geodesic distance between the two points found nearest
/// in the plane, so it is never below the true minimum and exceeds it only by a second-order
/// amount; beyond the limit it measures on the ellipsoid instead: 0 where the geometries meet (a part
/// inside a polygon, crossing edges), else the least distance from a vertex of either to the other's
/// geodesic edges, pruned by a tree of boxes. Results near
/// the 180th meridian keep continuous longitudes (they may pass ±180).
extension Geometry {
    /// Edges longer than this (in meters) are split along their geodesic before they are projected.
    public static let densifySpacing = 10_000.0

    /// How far in meters from the plane's center a metric operation may reach (the geometry's own
    /// extent plus the buffer distance): 2 500 km, where distances in the plane are off by 2.6 %.
    public static let metricPlaneLimit = 2_500_000.0

    /// The points within `meters` of this geometry on the WGS84 ellipsoid, as a longitude/latitude
    /// polygon; negative values erode polygons. A buffer round a pole runs from longitude −180 to
    /// 180 (or back) and is closed along that pole (as ``GeodesicCircle`` closes a circle round a
    /// pole), so it is valid in the longitude/latitude plane as on the globe.
    ///
    /// ```swift
    /// let zone = try Geometry.point(coordinate: lhr).buffer(meters: 5_000)   // a 5 km disc
    /// ```
    /// - Parameters:
    ///   - meters: The buffer distance in meters.
    ///   - style: Caps, joins and segments per quarter circle (see ``BufferStyle``).
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for a latitude outside [-90, 90], a
    ///   longitude beyond ±1e15 or a non-finite position; ``GeoError/Kind-swift.struct/invalidArgument`` for a non-finite distance,
    ///   or when the result would reach farther than ``metricPlaneLimit`` from the geometry's center
    ///   (not for points, whose buffers are exact circles), or for a ring that steps from −180 to
    ///   180 (a box cut at the 180th meridian, whose geodesic edges enclose nothing); or from GEOS.
    public func buffer(
        meters: Double, style: BufferStyle = BufferStyle()
    ) throws(GeoError) -> Geometry {
        guard meters.isFinite else {
            throw GeoError(.invalidArgument, "buffer distance \(meters) m is not finite")
        }
        try validateGeographic()
        if isEmpty { return .polygon([]) }
        if let point = singlePoint {
            guard meters > 0 else { return .polygon([]) }
            return try GeodesicCircle(center: point.coordinate, radius: meters).polygon(
                minimumVertices: 4 * max(1, style.quadrantSegments))
        }
        try refuseFullTurnRings()
        let plane = AzimuthalEquidistant(centeredOn: positions)
        let reach = plane.reach(of: positions) + max(0, meters)
        guard reach <= Self.metricPlaneLimit else {
            throw GeoError(
                .invalidArgument,
                "a buffer of \(meters) m reaches \(String(format: reach < 1e15 ? "%.0f" : "%.3g", reach / 1000)) km from the geometry's center, beyond the \(Int(Self.metricPlaneLimit / 1000)) km the local metric plane represents to \(String(format: "%.1f", plane.scaleError(within: Self.metricPlaneLimit) * 100)) %; buffer smaller parts, or a point, whose buffer is exact at any distance"
            )
        }
        let projected = densified(Self.densifySpacing).mapPositions(plane.forward)
        return try projected.buffer(distance: meters, style: style).mapPositions(plane.inverse)
            .closingPolarRings()
    }

    /// Throws for a polygon ring that encloses something only when a step of exactly 360°
    /// (`-180 → 180`) is a full turn (a box cut at the 180th meridian, the whole-world box): as
    /// geodesics, the metric operations' edges, such a ring runs out and back along one meridian.
    func refuseFullTurnRings() throws(GeoError) {
        var index = 0
        var failure: GeoError?
        try? forEachPolygon { rings in
            defer { index += 1 }
            for (r, ring) in rings.enumerated() where failure == nil {
                guard let prepared = try? GeographicPolygon.prepare(ring, name: ""),
                    prepared.fullTurns
                else { continue }
                let which = r == 0 ? "exterior ring" : "hole \(r - 1)"
                failure = GeoError(
                    .invalidArgument,
                    "polygon \(index)'s \(which) steps a full turn of longitude (-180 to 180: a box cut at the 180th meridian); with geodesic edges it runs out and back along one meridian, so it has no buffer, distance or simplification in meters: write a ring round the pole with vertices less than 180 degrees apart, or buffer the pole's point"
                )
            }
        }
        if let failure { throw failure }
    }

    /// The polygons with each exterior ring that runs once round a pole (its longitudes turn
    /// through 360°, as a buffer round a pole maps back from the plane) closed along that pole,
    /// with continuous longitudes from −180 to 180 (or back), as ``GeodesicCircle`` closes a
    /// circle round a pole: so the cap is a valid polygon in the longitude/latitude plane too, and
    /// means the same on the globe. Polygons with a hole that runs round a pole (a band) are left
    /// as they are.
    func closingPolarRings() -> Geometry {
        func closed(_ rings: [[Position]]) -> [[Position]] {
            func turns(_ ring: [Position]) -> ([Position], Int) {
                guard var previous = ring.first else { return (ring, 0) }
                var unrolled = [previous]
                unrolled.reserveCapacity(ring.count + 2)
                for p in ring.dropFirst() {
                    let x = previous.x + Angle.normalizedLongitude(p.x - previous.x)
                    previous = Position(x: x, y: p.y, z: p.z)
                    unrolled.append(previous)
                }
                let turn = ((unrolled[unrolled.count - 1].x - unrolled[0].x) / 360).rounded()
                return (unrolled, turn.isFinite ? Int(turn) : 0)
            }
            // The holes with continuous longitudes, each with its range.
            let holes = rings.dropFirst().map(turns)
            guard let exterior = rings.first, exterior.count >= 4,
                holes.allSatisfy({ $0.1 == 0 })
            else { return rings }
            let holeRanges = holes.compactMap { hole -> (low: Double, high: Double)? in
                let xs = hole.0.map(\.x)
                guard let low = xs.min(), let high = xs.max() else { return nil }
                return (low, high)
            }
            let (unrolled, turn) = turns(exterior)
            guard abs(turn) == 1 else { return rings }
            let meanLatitude = exterior.reduce(0) { $0 + $1.y } / Double(exterior.count)
            let pole = meanLatitude >= 0 ? 90.0 : -90.0
            func closedAlongThePole(_ shell: [Position]) -> [[Position]]? {
                guard let first = shell.first, let last = shell.last else { return nil }
                var ring = shell
                ring.append(Position(x: last.x, y: pole))
                ring.append(Position(x: first.x, y: pole))
                ring.append(first)
                // Holes (which do not run round the pole) moved by whole turns to start within
                // the shell's turn (where they lie under it unless they straddle its first
                // meridian).
                let start = min(first.x, last.x)
                let moved = holes.map { continuous, _ -> [Position] in
                    guard let low = continuous.map(\.x).min() else { return continuous }
                    let shift = 360 * ((start - low) / 360).rounded(.up)
                    return continuous.map { Position(x: $0.x + shift, y: $0.y, z: $0.z) }
                }
                return [ring] + moved
            }
            // Whether a hole straddles a meridian: a continuous shell starts at one none does.
            func straddled(_ x: Double) -> Bool {
                holeRanges.contains { low, high in
                    let y = x - 360 * ((x - low) / 360).rounded(.down)
                    return y > low && y < high
                }
            }
            /// The continuous shell started at its first vertex on a meridian no hole
            /// straddles (its last vertex is its first a turn later).
            func clearOfHoles(_ shell: [Position]) -> [Position] {
                let n = shell.count
                guard n >= 3,
                    let j = (0..<(n - 1)).first(where: { !straddled(shell[$0].x) }), j > 0
                else { return shell }
                let t = 360 * Double(turn)
                return Array(shell[j..<(n - 1)])
                    + shell[0...j].map { Position(x: $0.x + t, y: $0.y, z: $0.z) }
            }
            // From −180 to 180 where the shell crosses the 180th meridian once and no hole
            // straddles it; else with the longitudes continuous from a vertex on a meridian no
            // hole straddles (which stays valid in the plane, though beyond ±180).
            if let shell = Self.startingAtTheAntimeridian(unrolled, turn: Double(turn)),
                let closed = closedAlongThePole(shell),
                closed.dropFirst().allSatisfy({ $0.allSatisfy { abs($0.x) <= 180 } })
            {
                return closed
            }
            return closedAlongThePole(clearOfHoles(unrolled)) ?? rings
        }
        switch self {
        case .polygon(let rings): return .polygon(closed(rings))
        case .multiPolygon(let polygons): return .multiPolygon(polygons.map(closed))
        default: return self
        }
    }

    /// A ring with continuous longitudes that turns once round a pole (`turn` ±1: its last
    /// longitude is its first plus 360 · `turn`), started where it crosses the 180th meridian (a
    /// position inserted there, on the edge's geodesic, as the metric operations read edges) and
    /// moved by whole turns: its longitudes run from −180 to 180 (or 180 to −180), as RFC 7946
    /// readers take them, whatever longitude the ring started at. Its last position is its first
    /// a turn later, as in `ring`. `nil` unless the ring crosses the 180th meridian exactly once
    /// (a ring that hooks back across it would be cut through by its closure along the pole).
    static func startingAtTheAntimeridian(
        _ ring: [Position], turn: Double, geodesic: Geodesic = .wgs84
    ) -> [Position]? {
        let n = ring.count
        guard n >= 2 else { return nil }
        // k(x) counts the 180th meridians (odd multiples of 180) at or west of x.
        func k(_ x: Double) -> Double { ((x + 180) / 360).rounded(.down) }
        let crossings = (0..<(n - 1)).filter { k(ring[$0].x) != k(ring[$0 + 1].x) }
        guard crossings.count == 1, let j = crossings.first else { return nil }
        let a = ring[j], b = ring[j + 1]
        let v = 360 * max(k(a.x), k(b.x)) - 180
        let crossing = Position(
            x: v, y: Self.latitude(crossing: v, from: a, to: b, geodesic), z: a.z)
        // From the crossing to the ring's end, on from its start a turn later, back to the
        // crossing a turn later (a vertex on either meridian is the crossing itself: kept once).
        let end = v + 360 * turn
        var rotated = [crossing]
        rotated += ring[(j + 1)...].filter { $0.x != v && $0.x != end }
        rotated += ring[1..<(j + 1)].map { Position(x: $0.x + 360 * turn, y: $0.y, z: $0.z) }
            .filter { $0.x != end }
        rotated.append(Position(x: end, y: crossing.y, z: crossing.z))
        let shift = (turn > 0 ? -180 : 180) - v
        return rotated.map { Position(x: $0.x + shift, y: $0.y, z: $0.z) }
    }

    /// The latitude where the geodesic from `a` to `b` (continuous longitudes, less than 180°
    /// apart) reaches longitude `v`, which lies between theirs: by bisection along the line,
    /// to the last bit of the distance.
    private static func latitude(
        crossing v: Double, from a: Position, to b: Position, _ geodesic: Geodesic
    ) -> Double {
        if a.x == v { return a.y }
        if b.x == v { return b.y }
        let start = Coordinate(latitude: a.y, longitude: a.x)
        let line = geodesic.inverse(from: start, to: Coordinate(latitude: b.y, longitude: b.x))
        var low = 0.0, high = line.distance
        var latitude = a.y + (v - a.x) / (b.x - a.x) * (b.y - a.y)
        for _ in 0..<64 {
            let middle = (low + high) / 2
            guard middle > low, middle < high else { break }
            let c = geodesic.direct(
                from: start, azimuth: line.initialAzimuth, distance: middle
            ).coordinate
            latitude = c.latitude
            let x = a.x + Angle.longitudeDifference(from: a.x, to: c.longitude)
            // Past v when x has gone beyond it in the edge's direction.
            if (x - v) * (b.x - a.x) >= 0 { high = middle } else { low = middle }
        }
        return latitude
    }

    /// The one position of a point, or of a multipoint of one point.
    private var singlePoint: Position? {
        switch self {
        case .point(let p): p
        case .multiPoint(let ps) where ps.count == 1: ps[0]
        default: nil
        }
    }

    /// The geodesic distance in meters on WGS84 between this geometry and another (both in
    /// longitude/latitude); 0 if they intersect, infinity if either is empty.
    ///
    /// Within ``metricPlaneLimit`` of their joint center the two are measured in the metric plane
    /// (see above: the geodesic between the points found nearest there). Beyond it edges are
    /// geodesics on the ellipsoid: 0 when an edge of one crosses an edge of the other or a part of
    /// one lies in a polygon of the other (judged by ``GeographicPolygon``, whose edges are straight
    /// in longitude and latitude), else the least over the vertices of each of the distance to the
    /// other's edges (``GeodesicLine/closestPoint(to:)``), within a micrometer.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for a latitude outside [-90, 90] or a
    ///   non-finite position; ``GeoError/Kind-swift.struct/invalidArgument`` for a ring that steps
    ///   from −180 to 180 (a box cut at the 180th meridian, whose geodesic edges enclose nothing);
    ///   or from GEOS.
    /// - Complexity: in the plane, that of GEOS's distance. Beyond, O((n + m) log(n + m)) geodesic
    ///   solutions for n and m vertices when few edges are about equally near (a tree of boxes
    ///   prunes the rest), up to O(n · m) when many are; and O(p · m) for the containment test
    ///   of p parts against m polygon vertices.
    public func distance(meters other: Geometry) throws(GeoError) -> Double {
        try validateGeographic()
        try other.validateGeographic()
        if isEmpty || other.isEmpty { return .infinity }
        try refuseFullTurnRings()
        try other.refuseFullTurnRings()
        let all = positions + other.positions
        let plane = AzimuthalEquidistant(centeredOn: all)
        guard plane.reach(of: all) <= Self.metricPlaneLimit else {
            return exactDistance(to: other)
        }
        let a = densified(Self.densifySpacing).mapPositions(plane.forward)
        let b = other.densified(Self.densifySpacing).mapPositions(plane.forward)
        guard let (p, q) = try a.nearestPoints(to: b) else { return .infinity }
        if p.x == q.x && p.y == q.y { return 0 }
        return plane.geodesic.distance(
            from: plane.inverse(p).coordinate, to: plane.inverse(q).coordinate)
    }

    /// A simplified copy of a longitude/latitude geometry with the tolerance in meters on the WGS84
    /// ellipsoid; every vertex of the result is a vertex of this geometry, unchanged.
    ///
    /// The geometry is mapped to the azimuthal equidistant plane centered on its extent and simplified
    /// there by GEOS (see ``simplified(tolerance:preservingTopology:)``); the kept vertices are then
    /// taken from the original, so no coordinate moves. Distances in the plane carry the scale error
    /// described above ((ρ/R)²/6, 0.004 % within 100 km of the center).
    ///
    /// - Parameters:
    ///   - meters: The largest distance in meters a removed vertex may lie from the result; ≥ 0.
    ///   - preservingTopology: `true` (the default) never lets the result cross itself or its other
    ///     parts (`GEOSTopologyPreserveSimplify_r`); `false` runs plain Douglas-Peucker.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a negative or non-finite tolerance;
    ///   ``GeoError/Kind-swift.struct/invalidCoordinate`` for a position that is not a valid longitude
    ///   and latitude, ``GeoError/Kind-swift.struct/invalidArgument`` for a ring that steps from
    ///   −180 to 180 (a box cut at the 180th meridian, whose geodesic edges enclose nothing: use
    ///   the planar simplification); or from GEOS.
    /// - Complexity: O(n) geodesic solutions to project, then that of the planar simplification.
    public func simplified(
        meters: Double, preservingTopology: Bool = true
    ) throws(GeoError) -> Geometry {
        guard meters.isFinite && meters >= 0 else {
            throw GeoError(
                .invalidArgument,
                "simplification tolerance \(meters) m must be finite and non-negative")
        }
        try validateGeographic()
        try refuseFullTurnRings()
        if isEmpty { return self }
        let plane = AzimuthalEquidistant(centeredOn: positions)
        var originals = [PlanarKey: Position]()
        let projected = mapPositions { p in
            let q = plane.forward(p)
            originals[PlanarKey(q)] = originals[PlanarKey(q)] ?? p
            return q
        }
        let simplified = try projected.simplified(
            tolerance: meters, preservingTopology: preservingTopology)
        // GEOS keeps a subset of the input vertices bit for bit, in order; each is mapped back to
        // its own original, found along the same line or ring: two originals may project to one
        // point (180 and -180 where a country is cut at the 180th meridian). Parts GEOS dropped
        // or reshaped fall back to the first original of the point.
        return Self.originals(
            of: simplified, along: projected, in: self,
            otherwise: { q in originals[PlanarKey(q)] ?? plane.inverse(q) })
    }

    /// `simplified`'s positions as the positions of `original` they came from: each point, line
    /// or ring of `simplified` is matched, in order, along a point, line or ring of `projected`
    /// (the positions of `original` as `simplified` was made from them), the next one in order
    /// that holds all its positions in order (Douglas–Peucker may drop a hole or an island);
    /// where none does, `otherwise` maps a position.
    private static func originals(
        of simplified: Geometry, along projected: Geometry, in original: Geometry,
        otherwise: (Position) -> Position
    ) -> Geometry {
        // A kept path along one path of the input: its originals, or nil if it is not along it.
        func along(_ kept: [Position], _ from: [Position], _ originals: [Position]) -> [Position]? {
            guard from.count == originals.count else { return nil }
            var i = 0
            var result = [Position]()
            result.reserveCapacity(kept.count)
            for q in kept {
                while i < from.count, from[i].x != q.x || from[i].y != q.y { i += 1 }
                guard i < from.count else { return nil }
                result.append(originals[i])
                i += 1
            }
            return result
        }
        // Kept paths along the input's paths, each along the next one that holds it.
        func paths(
            _ kept: [[Position]], _ from: [[Position]], _ originals: [[Position]]
        )
            -> [[Position]]
        {
            guard from.count == originals.count else { return kept.map { $0.map(otherwise) } }
            var next = 0
            return kept.map { path in
                for j in next..<from.count {
                    if let found = along(path, from[j], originals[j]) {
                        next = j + 1
                        return found
                    }
                }
                return path.map(otherwise)
            }
        }
        switch (simplified, projected, original) {
        case (.point(let k?), .point(let f?), .point(let o?)) where k.x == f.x && k.y == f.y:
            return .point(o)
        case (.multiPoint(let k), .multiPoint(let f), .multiPoint(let o)):
            return .multiPoint(along(k, f, o) ?? k.map(otherwise))
        case (.lineString(let k), .lineString(let f), .lineString(let o)):
            return .lineString(paths([k], [f], [o])[0])
        case (.multiLineString(let k), .multiLineString(let f), .multiLineString(let o)):
            return .multiLineString(paths(k, f, o))
        case (.polygon(let k), .polygon(let f), .polygon(let o)):
            return .polygon(paths(k, f, o))
        case (.multiPolygon(let k), .multiPolygon(let f), .multiPolygon(let o))
        where f.count == o.count:
            // Each kept polygon along the next input polygon whose shell holds its shell.
            var next = 0
            return .multiPolygon(
                k.map { polygon in
                    guard let shell = polygon.first else { return polygon }
                    for j in next..<f.count
                    where f[j].count == o[j].count && !f[j].isEmpty
                        && along(shell, f[j][0], o[j][0]) != nil
                    {
                        next = j + 1
                        return paths(polygon, f[j], o[j])
                    }
                    return polygon.map { $0.map(otherwise) }
                })
        case (.geometryCollection(let k), .geometryCollection(let f), .geometryCollection(let o))
        where k.count == f.count && f.count == o.count:
            return .geometryCollection(
                k.indices.map {
                    originals(of: k[$0], along: f[$0], in: o[$0], otherwise: otherwise)
                })
        default:
            return simplified.mapPositions(otherwise)
        }
    }

    /// The exact geodesic distance between two geometries too large for the plane (see
    /// ``GlobalDistance``): 0 when a part of one lies in a polygon of the other or their edges
    /// cross, else the least distance from a vertex of either to the other.
    private func exactDistance(to other: Geometry) -> Double {
        if Self.somePart(of: self, liesIn: other) || Self.somePart(of: other, liesIn: self) {
            return 0
        }
        let a = GlobalDistance(self), b = GlobalDistance(other)
        var best = a.vertexDistance(to: b, best: .infinity)
        best = b.vertexDistance(to: a, best: best)
        return a.edgeDistance(to: b, best: best)
    }

    /// Whether a vertex of some part of `g` lies in a polygon of `other` (by
    /// ``GeographicPolygon``). A part whose edges do not cross the polygon's lies wholly in it or
    /// wholly out of it, so one vertex per part decides; crossings are found apart.
    /// - Complexity: O(p · m) for p parts of `g` and m vertices of `other`'s polygons.
    private static func somePart(of g: Geometry, liesIn other: Geometry) -> Bool {
        func polygons(_ g: Geometry) -> [[[Position]]] {
            switch g {
            case .polygon(let rings): [rings]
            case .multiPolygon(let ps): ps
            case .geometryCollection(let members): members.flatMap(polygons)
            default: []
            }
        }
        func firstVertices(_ g: Geometry) -> [Position] {
            switch g {
            case .point(let p): p.map { [$0] } ?? []
            case .multiPoint(let ps): ps
            case .lineString(let ps): Array(ps.prefix(1))
            case .multiLineString(let lines): lines.compactMap(\.first)
            case .polygon(let rings): Array((rings.first ?? []).prefix(1))
            case .multiPolygon(let ps): ps.compactMap { $0.first?.first }
            case .geometryCollection(let members): members.flatMap(firstVertices)
            }
        }
        let areas = polygons(other)
        guard !areas.isEmpty, let polygon = try? GeographicPolygon(.multiPolygon(areas)) else {
            return false
        }
        return firstVertices(g).contains { polygon.contains($0.coordinate.normalized) }
    }

    /// A projected position's x and y as a dictionary key (z is carried separately).
    private struct PlanarKey: Hashable {
        let x: Double, y: Double
        init(_ p: Position) { x = p.x; y = p.y }
    }

    /// Throws unless every position is a valid longitude/latitude (finite, latitude within ±90,
    /// longitude within ±1e15, beyond which no fraction of a degree is left to reduce).
    package func validateGeographic() throws(GeoError) {
        if let (p, path) = firstNonFinitePosition() {
            throw GeoError(
                .invalidCoordinate,
                "\(path) (\(p.x), \(p.y)\(p.z.map { ", \($0)" } ?? "")) is not finite")
        }
        var bad: Position?
        forEachPosition { p in if bad == nil && abs(p.y) > 90 { bad = p } }
        if let bad {
            throw GeoError(
                .invalidCoordinate,
                "latitude \(bad.y) of position (\(bad.x), \(bad.y)) is outside [-90, 90]")
        }
        forEachPosition { p in
            if bad == nil && abs(p.x) > Angle.largestReducibleLongitude { bad = p }
        }
        if let bad {
            throw GeoError(
                .invalidCoordinate,
                "longitude \(bad.x) of position (\(bad.x), \(bad.y)) is too large to reduce to [-180, 180] (beyond ±1e15)"
            )
        }
    }

    /// The geometry with geodesic intermediate points on every edge longer than `spacing` meters.
    func densified(_ spacing: Double) -> Geometry {
        func line(_ ps: [Position]) -> [Position] {
            guard ps.count >= 2 else { return ps }
            var out = [ps[0]]
            for i in 1..<ps.count {
                let a = ps[i - 1], b = ps[i]
                let length = Geodesic.wgs84.distance(from: a.coordinate, to: b.coordinate)
                if length > spacing,
                    let points = try? Geodesic.wgs84.points(
                        from: a.coordinate, to: b.coordinate,
                        count: Int((length / spacing).rounded(.up)) + 1)
                {
                    // Keep longitudes continuous with the edge's start.
                    for c in points.dropFirst().dropLast() {
                        out.append(
                            Position(
                                x: a.x + Angle.longitudeDifference(from: a.x, to: c.longitude),
                                y: c.latitude))
                    }
                }
                out.append(b)
            }
            return out
        }
        switch self {
        case .point, .multiPoint: return self
        case .lineString(let ps): return .lineString(line(ps))
        case .polygon(let rings): return .polygon(rings.map(line))
        case .multiLineString(let lines): return .multiLineString(lines.map(line))
        case .multiPolygon(let polygons): return .multiPolygon(polygons.map { $0.map(line) })
        case .geometryCollection(let members):
            return .geometryCollection(members.map { $0.densified(spacing) })
        }
    }
}
