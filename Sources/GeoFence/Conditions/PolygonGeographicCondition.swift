import GeoCore

/// A polygonal geofence with holes, in longitude and latitude, decided exactly.
///
/// ### Containment
/// Edges are straight lines in longitude/latitude, as in GeoJSON and GEOS. A point is inside when it
/// lies inside the exterior ring and outside every hole (the even–odd rule, so rings need not be
/// simple and their orientation does not matter); a point on any ring is inside (``contains(_:)``)
/// and at distance 0. The test is `Predicates.locate(_:inPolygon:holes:)`, whose orientation
/// predicate is exact for all finite doubles, so points on or a nanometer off an edge are never
/// misjudged.
///
/// ### The 180th meridian and the poles
/// Every edge runs the short way round in longitude, so a ring may cross the 180th meridian
/// (`179.9 → -179.9` is an edge 0.2° long). An edge spanning exactly 180° of longitude is ambiguous
/// and rejected. A ring that winds around a pole (its longitudes turn through ±360°) has no inside in
/// longitude/latitude and is rejected too; describe a polar cap with a ``CircularGeographicCondition``
/// centered on the pole. Internally a ring across the 180th meridian is unrolled by adding ±360° to
/// some longitudes, which rounds to at most 2.9e-14° (3 nm); all other rings are used bit for bit.
///
/// ### Distances
/// ``distanceToBoundary(from:)`` is the geodesic distance on WGS84 to the nearest point of the
/// boundary, the same straight longitude/latitude edges that containment uses, so that the sign
/// and the size of ``signedDistance(from:)`` agree (a point inside is never nearer to an edge
/// than the edge it is inside of). Each edge is followed by geodesic pieces
/// (`GeodesicLine.closestPoint(to:)`): an edge is halved until the middle of each piece's
/// straight edge (looked at a quarter, half and three quarters along) lies within
/// ``pieceTolerance`` (5 cm) of the piece's geodesic, at most 12 times; the pieces that stray
/// most are halved first, and a polygon keeps at most 8 pieces per edge plus 1,024 (about 80
/// bytes each), so that memory stays linear in the vertices. The two part by about ℓ² |tan φ| / (8 R)
/// for a piece of length ℓ at latitude φ (2 cm for 1 km at 45°), and more for slanted edges
/// near the equator, so edges of a kilometer or two are one piece. A piece the budget leaves
/// farther from its straight edge (several edges of thousands of kilometers) is measured along
/// the straight edge itself, by a golden-section search of about 60 geodesic solutions.
///
/// Encoded as `{"exterior": [coordinates], "holes": [[coordinates]]}`; decoding validates.
public struct PolygonGeographicCondition: Sendable {
    /// The exterior ring's vertices, without a repeated closing vertex.
    public let exterior: [Coordinate]
    /// The holes' vertices, each without a repeated closing vertex.
    public let holes: [[Coordinate]]

    /// Unrolled planar rings and per-edge geodesics, derived from the vertices.
    let rings: PreparedRings

    /// How far, in meters, the middle of an edge's piece may lie from the piece's geodesic: the
    /// distances follow the straight edges within about this (5 cm).
    public static let pieceTolerance = 0.05
    /// How many times an edge is halved at most (into 4,096 pieces; the polygon's budget of
    /// halvings usually ends it first).
    static let maximumHalvings = 12

    /// Creates a polygon condition.
    ///
    /// Rings may be open or closed (first vertex repeated at the end); the closing vertex is dropped.
    ///
    /// - Parameters:
    ///   - exterior: At least three distinct vertices.
    ///   - holes: Rings cut out of the polygon, at least three distinct vertices each.
    /// - Throws: `GeoError.Kind.invalidCoordinate` naming the ring and vertex of a bad
    ///   coordinate; `GeoError.Kind.invalidArgument` for a ring with fewer than three
    ///   distinct vertices, an edge spanning exactly 180° of longitude, a ring around a pole, a
    ///   box cut at the 180th meridian (a ring that steps from −180 to 180 and has no inside,
    ///   extra vertices on its cut or along the pole included), or a ring that has no inside by
    ///   the even–odd rule (its vertices lie on one line, or it goes out and back along its own
    ///   edges; a figure eight has one). A ring of more than 1,024 vertices whose area in the
    ///   plane is exactly 0 is refused as having no inside, without the full test.
    /// - Complexity: O(n) geodesic set-ups for n vertices, plus O(n²) exact orientation tests
    ///   for a ring whose area in the plane is exactly 0.
    public init(exterior: [Coordinate], holes: [[Coordinate]] = []) throws(GeoError) {
        let outer = try Self.prepare(exterior, name: "exterior ring")
        var inner = [PreparedRing]()
        for (index, hole) in holes.enumerated() {
            let ring = try Self.prepare(hole, name: "hole \(index)")
            // Move the hole by whole turns to where the exterior is (rings across the 180th meridian).
            let turns = Int(((outer.midX - ring.midX) / 360).rounded())
            inner.append(turns == 0 ? ring : ring.shifted(byTurns: turns))
        }
        self.exterior = outer.vertices
        self.holes = inner.map(\.vertices)
        rings = PreparedRings(exterior: outer, holes: inner)
    }

    // MARK: - Queries

    /// Where a point lies: inside, on the boundary or outside, exactly (see the type's discussion).
    ///
    /// - Returns: `PointLocation.exterior` for an invalid coordinate.
    /// - Complexity: O(n) for n vertices in all rings.
    public func locate(_ point: Coordinate) -> PointLocation {
        guard point.isValid else { return .exterior }
        let x: Double
        if point.longitude >= rings.minX && point.longitude <= rings.maxX {
            x = point.longitude
        } else if point.longitude + 360 >= rings.minX && point.longitude + 360 <= rings.maxX {
            x = point.longitude + 360
        } else if point.longitude - 360 >= rings.minX && point.longitude - 360 <= rings.maxX {
            x = point.longitude - 360
        } else {
            return .exterior
        }
        guard point.latitude >= rings.minY && point.latitude <= rings.maxY else {
            return .exterior
        }
        return Predicates.locate(
            Position(x: x, y: point.latitude), inPolygon: rings.exterior.positions,
            holes: rings.holes.map(\.positions))
    }

    /// Whether a point lies inside or on the boundary.
    ///
    /// - Complexity: O(n) for n vertices.
    public func contains(_ point: Coordinate) -> Bool {
        locate(point) != .exterior
    }

    /// The geodesic distance in meters from a point to the nearest point of any ring (its edges
    /// straight in longitude and latitude, followed by geodesic pieces: see the type's discussion).
    ///
    /// - Returns: NaN for an invalid coordinate.
    /// - Complexity: O(n) chord bounds, then a few `closestPoint` solutions (each 2–5 `geod_inverse`)
    ///   for the edges the bounds cannot rule out.
    public func distanceToBoundary(from point: Coordinate) -> Double {
        guard point.isValid else { return .nan }
        return rings.boundaryDistance(from: point, upTo: .infinity)
    }

    /// The signed geodesic distance in meters from a point to the boundary: negative inside, 0 on the
    /// boundary, positive outside.
    ///
    /// - Returns: NaN for an invalid coordinate.
    public func signedDistance(from point: Coordinate) -> Double {
        guard point.isValid else { return .nan }
        switch locate(point) {
        case .boundary: return 0
        case .interior: return -distanceToBoundary(from: point)
        case .exterior: return distanceToBoundary(from: point)
        }
    }

    /// The smallest longitude/latitude box holding every vertex; it crosses the 180th meridian
    /// (`west > east`) when the polygon does.
    public var bounds: BoundingBox {
        BoundingBox(
            west: Angle.normalizedLongitude(rings.minX), south: rings.minY,
            east: Angle.normalizedLongitude(rings.maxX), north: rings.maxY)
    }

    // MARK: - Preparation

    /// A ring's vertices and their unrolled planar positions: x is the longitude plus 360° times the
    /// vertex's count of whole turns, so that every edge runs the short way round.
    struct PreparedRing: Sendable {
        var vertices: [Coordinate]
        var turns: [Int]
        var positions: [Position]
        var minX: Double, maxX: Double, minY: Double, maxY: Double
        var midX: Double { (minX + maxX) / 2 }

        init(vertices: [Coordinate], turns: [Int]) {
            self.vertices = vertices
            self.turns = turns
            positions = zip(vertices, turns).map { v, k in
                Position(x: k == 0 ? v.longitude : v.longitude + Double(k) * 360, y: v.latitude)
            }
            minX = positions.map(\.x).min() ?? 0
            maxX = positions.map(\.x).max() ?? 0
            minY = positions.map(\.y).min() ?? 0
            maxY = positions.map(\.y).max() ?? 0
        }

        /// The same ring moved east by whole turns (each x computed afresh from the longitude).
        func shifted(byTurns k: Int) -> PreparedRing {
            PreparedRing(vertices: vertices, turns: turns.map { $0 + k })
        }
    }

    private static func prepare(_ ring: [Coordinate], name: String) throws(GeoError) -> PreparedRing
    {
        var vertices = ring
        if vertices.count > 1 && vertices[0] == vertices[vertices.count - 1] {
            vertices.removeLast()
        }
        for (i, vertex) in vertices.enumerated() {
            do throws(GeoError) {
                _ = try vertex.validated()
            } catch {
                throw GeoError(.invalidCoordinate, "\(name), vertex \(i): \(error.message)")
            }
        }
        guard Set(vertices).count >= 3 else {
            throw GeoError(
                .invalidArgument,
                "\(name) has \(Set(vertices).count) distinct vertices; a ring needs at least 3")
        }
        // Unroll: each edge goes the short way round; count whole turns.
        var turn = 0
        var turns = [Int]()
        turns.reserveCapacity(vertices.count)
        for i in vertices.indices {
            if i > 0 {
                turn += try turnStep(
                    from: vertices[i - 1], to: vertices[i], index: i - 1, name: name)
            }
            turns.append(turn)
        }
        turn += try turnStep(
            from: vertices[vertices.count - 1], to: vertices[0], index: vertices.count - 1,
            name: name)
        guard turn == 0 else {
            throw GeoError(
                .invalidArgument,
                "\(name) winds around a pole (its longitudes turn through \(turn * 360)°); use a circular condition centered on the pole"
            )
        }
        let ring = PreparedRing(vertices: vertices, turns: turns)
        // A box cut at ±180 (-180 → 180 along a parallel) unrolls onto one meridian, extra
        // vertices on its cut or along the pole included (out and back along the pole); so
        // does any ring whose vertices lie on one line. None has an inside: their area in the
        // plane is exactly 0. A figure eight's area nets to 0 too, but it has an inside (the
        // even–odd rule counts both lobes), so a ring of area 0 is refused only when it covers
        // every piece of its boundary an even number of times.
        let p = ring.positions
        var twiceArea = 0.0
        for i in p.indices {
            let j = i + 1 < p.count ? i + 1 : 0
            twiceArea += p[i].x * p[j].y - p[j].x * p[i].y
        }
        guard twiceArea != 0 || Self.coversSomePieceOnce(p) else {
            let fullTurn = vertices.indices.contains {
                abs(vertices[($0 + 1) % vertices.count].longitude - vertices[$0].longitude) == 360
            }
            throw GeoError(
                .invalidArgument,
                fullTurn
                    ? "\(name) steps a full turn of longitude (-180 to 180: a box cut at the 180th meridian) and has no inside as edges that run the short way round; use a circular condition centered on the pole"
                    : "\(name) has no inside: its vertices lie on one line in longitude and latitude, or it goes out and back along its own edges"
            )
        }
        guard ring.maxX - ring.minX < 360 else {
            throw GeoError(
                .invalidArgument,
                "\(name) spans \(ring.maxX - ring.minX)° of longitude; a ring must span less than 360°"
            )
        }
        return ring
    }

    /// Whether a closed ring of unrolled positions covers some piece of its boundary an odd number
    /// of times, that is, whether it has an inside by the even–odd rule: its edges are cut at
    /// every vertex that lies on them (exactly, by ``Predicates/orient2d(_:_:_:)``) and the pieces
    /// counted without regard to direction. A ring that goes out and back along the same edges
    /// covers each piece twice.
    ///
    /// - Complexity: O(n²) for n vertices; rings of more than 1,024 vertices are taken to have
    ///   no inside (it is asked only of rings whose area is exactly 0).
    static func coversSomePieceOnce(_ p: [Position]) -> Bool {
        guard p.count <= 1024 else { return false }
        struct Piece: Hashable {
            var ax: Double, ay: Double, bx: Double, by: Double
        }
        var counts = [Piece: Int]()
        for i in p.indices {
            let a = p[i], b = p[i + 1 < p.count ? i + 1 : 0]
            guard a.x != b.x || a.y != b.y else { continue }
            // The vertices on the edge, ordered along it by their parameter's numerator.
            let dx = b.x - a.x, dy = b.y - a.y
            var stops = [(t: Double, x: Double, y: Double)]()
            for v in p where Predicates.orient2d(a, b, v) == 0 {
                let inX = (min(a.x, b.x)...max(a.x, b.x)).contains(v.x)
                let inY = (min(a.y, b.y)...max(a.y, b.y)).contains(v.y)
                if inX && inY { stops.append(((v.x - a.x) * dx + (v.y - a.y) * dy, v.x, v.y)) }
            }
            stops.sort { $0.t < $1.t }
            for k in stops.indices.dropFirst() {
                let u = stops[k - 1], w = stops[k]
                guard u.x != w.x || u.y != w.y else { continue }
                let piece =
                    (u.x, u.y) < (w.x, w.y)
                    ? Piece(ax: u.x, ay: u.y, bx: w.x, by: w.y)
                    : Piece(ax: w.x, ay: w.y, bx: u.x, by: u.y)
                counts[piece, default: 0] += 1
            }
        }
        return counts.values.contains { $0 % 2 == 1 }
    }

    /// −1, 0 or +1 turns for the edge from `a` to `b` taken the short way round.
    private static func turnStep(
        from a: Coordinate, to b: Coordinate, index: Int, name: String
    ) throws(GeoError) -> Int {
        let raw = b.longitude - a.longitude
        if abs(raw) == 180 {
            throw GeoError(
                .invalidArgument,
                "\(name), edge from vertex \(index) spans exactly 180° of longitude (\(a.longitude) to \(b.longitude)), so its direction is ambiguous; add a vertex"
            )
        }
        return raw > 180 ? -1 : raw < -180 ? 1 : 0
    }
}

// MARK: - Derived geometry

extension PolygonGeographicCondition {
    /// The planar rings for containment, and the geodesic edges with bounding spheres for distances.
    struct PreparedRings: Sendable {
        let exterior: PreparedRing
        let holes: [PreparedRing]
        let minX: Double, maxX: Double, minY: Double, maxY: Double
        let edges: [Edge]

        /// One piece of an edge as a geodesic, with the center and radius of a sphere that holds
        /// it: every point of a piece of length ℓ is within ℓ/2 (along it) of its midpoint.
        struct Edge: Sendable {
            let start: Coordinate
            let end: Coordinate
            /// The geodesic's midpoint, and its Earth-centered position.
            let middle: Coordinate
            let midpoint: SIMD3<Double>
            let halfLength: Double
            /// The straight edge's ends (unrolled degrees).
            let from: Position, to: Position
            /// 0 for a piece within ``PolygonGeographicCondition/pieceTolerance`` of its straight
            /// edge; otherwise how far beyond the geodesic the straight edge may reach (twice the
            /// largest strayal seen, and the tolerance), and the distance is measured along the
            /// straight edge itself.
            let stray: Double

            init(
                _ line: GeodesicLine, from start: Coordinate, _ from: Position,
                to end: Coordinate, _ to: Position, deviation: Double
            ) {
                self.start = start
                self.end = end
                middle = line.position(atDistance: line.length / 2).coordinate
                midpoint = EllipsoidMetric.cartesian(middle)
                halfLength = line.length / 2
                self.from = from
                self.to = to
                stray =
                    deviation > PolygonGeographicCondition.pieceTolerance
                    ? 2 * deviation + PolygonGeographicCondition.pieceTolerance : 0
            }

            /// The piece's geodesic (made when a query needs it, so that a polygon keeps about
            /// 100 bytes per piece).
            var line: GeodesicLine { Geodesic.wgs84.line(from: start, to: end) }

            /// The distance from a point to the piece: to its geodesic when that is within the
            /// tolerance of the straight edge, else to the straight edge itself, by a golden-section
            /// search along it (about 60 geodesic solutions; only pieces that the budget of
            /// halvings left far from their edges).
            func distance(to point: Coordinate) -> Double {
                guard stray > 0 else { return line.closestPoint(to: point).distance }
                func at(_ t: Double) -> Double {
                    Geodesic.wgs84.distance(
                        from: point,
                        to: Coordinate(
                            latitude: from.y + (to.y - from.y) * t,
                            longitude: Angle.normalizedLongitude(from.x + (to.x - from.x) * t)))
                }
                return min(at(0), at(1), GoldenSection.minimum(from: 0, to: 1, width: 1e-12, at))
            }
        }

        init(exterior: PreparedRing, holes: [PreparedRing]) {
            self.exterior = exterior
            self.holes = holes
            // Holes lie inside the exterior in any valid polygon, but the bounds need not rely on it.
            minX = holes.reduce(exterior.minX) { min($0, $1.minX) }
            maxX = holes.reduce(exterior.maxX) { max($0, $1.maxX) }
            minY = holes.reduce(exterior.minY) { min($0, $1.minY) }
            maxY = holes.reduce(exterior.maxY) { max($0, $1.maxY) }
            // Every edge starts as one piece; round by round, the pieces farthest from their
            // straight edges are halved first, while the budget of halvings lasts, so that no
            // edge is left unrefined because others came first.
            var pieces = [Piece]()
            for ring in [exterior] + holes {
                let v = ring.vertices, p = ring.positions
                for i in v.indices {
                    let j = (i + 1) % v.count
                    // The closing edge's unrolled end is the first vertex moved by whole turns
                    // to where the ring left off.
                    var b = p[j]
                    b.x += ((p[i].x - b.x) / 360).rounded() * 360
                    pieces.append(Piece(from: v[i], p[i], to: v[j], b, depth: 0))
                }
            }
            var budget = 7 * pieces.count + 1_024
            for _ in 0..<PolygonGeographicCondition.maximumHalvings where budget > 0 {
                let wanting = pieces.indices.filter {
                    pieces[$0].deviation > PolygonGeographicCondition.pieceTolerance
                        && pieces[$0].depth < PolygonGeographicCondition.maximumHalvings
                }.sorted { pieces[$0].deviation > pieces[$1].deviation }
                guard !wanting.isEmpty else { break }
                var halve = [Bool](repeating: false, count: pieces.count)
                for i in wanting.prefix(budget) { halve[i] = true }
                budget -= min(budget, wanting.count)
                var next = [Piece]()
                next.reserveCapacity(pieces.count + wanting.count)
                for (i, piece) in pieces.enumerated() {
                    if halve[i] {
                        next += piece.halves()
                    } else {
                        next.append(piece)
                    }
                }
                pieces = next
            }
            edges = pieces.map(\.edge)
        }

        /// A piece of a straight edge while the edges are refined: its ends (as coordinates and
        /// unrolled positions), its geodesic, and how far the straight edge strays from it.
        private struct Piece {
            let a: Coordinate, pa: Position, b: Coordinate, pb: Position
            let edge: Edge
            let deviation: Double
            let depth: Int

            init(from a: Coordinate, _ pa: Position, to b: Coordinate, _ pb: Position, depth: Int) {
                (self.a, self.pa, self.b, self.pb) = (a, pa, b, pb)
                self.depth = depth
                let line = Geodesic.wgs84.line(from: a, to: b)
                // The straight edge and the geodesic may cross at the middle (an edge across
                // the equator at a slant, by symmetry), so three places are looked at. A piece
                // too short to stray (under 200 m, away from the poles: at most 5 mm) is not.
                var worst = 0.0
                if line.length >= 200 || max(abs(pa.y), abs(pb.y)) > 80 {
                    for t in [0.25, 0.5, 0.75] {
                        let at = Coordinate(
                            latitude: pa.y + (pb.y - pa.y) * t,
                            longitude: Angle.normalizedLongitude(pa.x + (pb.x - pa.x) * t))
                        worst = max(worst, line.closestPoint(to: at).distance)
                    }
                }
                deviation = worst
                edge = Edge(line, from: a, pa, to: b, pb, deviation: worst)
            }

            func halves() -> [Piece] {
                let mid = Position(x: (pa.x + pb.x) / 2, y: (pa.y + pb.y) / 2)
                let middle = Coordinate(
                    latitude: mid.y, longitude: Angle.normalizedLongitude(mid.x))
                return [
                    Piece(from: a, pa, to: middle, mid, depth: depth + 1),
                    Piece(from: middle, mid, to: b, pb, depth: depth + 1),
                ]
            }
        }

        /// The geodesic distance from a point to the nearest edge if it is at most `limit`; otherwise
        /// some value above `limit` (a proven lower bound of the true distance).
        ///
        /// Edges whose bounding sphere is farther than the best distance so far (by the chord, a lower
        /// bound of any geodesic distance) are skipped without a geodesic solution.
        func boundaryDistance(from point: Coordinate, upTo limit: Double) -> Double {
            let p = EllipsoidMetric.cartesian(point)
            var bounds = [(lower: Double, index: Int)]()
            bounds.reserveCapacity(edges.count)
            for (i, edge) in edges.enumerated() {
                bounds.append(
                    (
                        EllipsoidMetric.chordLowerBound(p, edge.midpoint) - edge.halfLength
                            - edge.stray, i
                    ))
            }
            bounds.sort { $0.lower < $1.lower || ($0.lower == $1.lower && $0.index < $1.index) }
            var best = Double.infinity
            for (lower, index) in bounds {
                if lower >= best || lower > limit { break }
                best = min(best, edges[index].distance(to: point))
            }
            if best.isFinite { return best }
            return max(bounds.first?.lower ?? .infinity, limit.nextUp)
        }
    }
}

// MARK: - Equality and coding

extension PolygonGeographicCondition: Hashable {
    /// Polygons are equal when their rings have the same vertices in the same order.
    public static func == (lhs: PolygonGeographicCondition, rhs: PolygonGeographicCondition) -> Bool
    {
        lhs.exterior == rhs.exterior && lhs.holes == rhs.holes
    }

    /// Hashes the rings' vertices.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(exterior)
        hasher.combine(holes)
    }
}

extension PolygonGeographicCondition: Codable {
    private enum CodingKeys: String, CodingKey { case exterior, holes }

    /// Decodes and validates a polygon.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with the validation message.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let exterior = try container.decode([Coordinate].self, forKey: .exterior)
        let holes = try container.decodeIfPresent([[Coordinate]].self, forKey: .holes) ?? []
        do {
            try self.init(exterior: exterior, holes: holes)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(exterior, forKey: .exterior)
        if !holes.isEmpty { try container.encode(holes, forKey: .holes) }
    }
}
