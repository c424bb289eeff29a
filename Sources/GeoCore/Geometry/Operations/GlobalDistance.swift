import Foundation

/// The geodesic distance on WGS84 between two longitude/latitude geometries of any extent, with
/// edges taken as geodesics: what ``Geometry/distance(meters:)`` answers beyond the metric plane.
///
/// The distance is 0 when the geometries meet: a part of one inside a polygon of the other, or an
/// edge of one crossing an edge of the other. Otherwise two geodesic segments that do not cross are
/// nearest at an end of one of them, so the distance is the least over the vertices of each of
/// their distance to the other's edges and isolated points (``GeodesicLine/closestPoint(to:)``).
///
/// - Pruning: every piece (edge or point) sits in an Earth-centered box that holds its whole
///   geodesic: the points within arc length t of one end and L − t of the other lie within
///   √(L² − c²)/2 of the chord c. The chord from a point to a box, or between two boxes, bounds
///   every geodesic between them from below (``lowerBound(chord:)``), so pieces are visited through
///   a tree of boxes, nearest first, and skipped once their bound reaches the best distance found.
///   The bound is within 1.3 % of the geodesic, so the pieces measured are those within that of
///   the least distance: few for outlines and routes, many for dense lines that run parallel
///   thousands of kilometers apart.
/// - Crossings: a geodesic is a great circle on the auxiliary sphere (parametric latitude) up to
///   its shift in longitude, which moves its interior off the great circle through its mapped ends
///   by less than 0.2 f σ² (σ its arc, up to 2 radians; measured on random geodesics with
///   GeographicLib). Two edges whose ends lie on opposite sides of each other's great circle by
///   more than twice that cross; ends on one side by as much show they do not. The pairs left in
///   that band (nearly touching, or edges longer than 12,700 km) get their closest approach by a
///   golden-section search along one edge of the distance to the other, to a micrometer.
struct GlobalDistance {
    /// An isolated point (`line` nil, `end` = `start`) or a geodesic edge.
    struct Piece {
        var start: Coordinate
        var end: Coordinate
        var line: GeodesicLine?
        /// An Earth-centered box (meters) that holds every point of the piece.
        var low: SIMD3<Double>
        var high: SIMD3<Double>
        /// The ends on the auxiliary sphere, unit vectors.
        var auxiliaryStart: SIMD3<Double>
        var auxiliaryEnd: SIMD3<Double>
        /// The unit normal of the great circle through them.
        var normal: SIMD3<Double>
        /// How far (as a sine) the edge may stray from that great circle; infinite where the
        /// great circle does not describe it (points, edges of an arc over 2 radians or too short
        /// for their normal to be known).
        var band: Double
    }

    /// A node of the box tree: the union of the boxes of its children.
    struct Node {
        var low: SIMD3<Double>
        var high: SIMD3<Double>
    }

    /// Children per node.
    static let fanout = 8

    let pieces: [Piece]
    /// Boxes of each level above the pieces; `levels[0]` groups `fanout` pieces per node, the last
    /// level has one node.
    let levels: [[Node]]

    /// The edges (consecutive positions of lines and rings) and isolated points of a geometry whose
    /// positions are valid longitudes and latitudes, in order, so that neighbouring pieces share
    /// boxes well.
    init(_ geometry: Geometry) {
        var pieces = [Piece]()
        func add(_ ps: [Position]) {
            let coordinates = ps.map(\.coordinate.normalized)
            if coordinates.count == 1 { pieces.append(Self.piece(coordinates[0], coordinates[0])) }
            for i in coordinates.indices.dropFirst() {
                pieces.append(Self.piece(coordinates[i - 1], coordinates[i]))
            }
        }
        func collect(_ g: Geometry) {
            switch g {
            case .point(let p): if let p { add([p]) }
            case .multiPoint(let ps): ps.forEach { add([$0]) }
            case .lineString(let ps): add(ps)
            case .multiLineString(let lines): lines.forEach(add)
            case .polygon(let rings): rings.forEach(add)
            case .multiPolygon(let polygons): polygons.forEach { $0.forEach(add) }
            case .geometryCollection(let members): members.forEach(collect)
            }
        }
        collect(geometry)
        self.pieces = pieces
        var levels = [[Node]]()
        var below = pieces.map { Node(low: $0.low, high: $0.high) }
        repeat {
            var level = [Node]()
            level.reserveCapacity((below.count + Self.fanout - 1) / Self.fanout)
            for first in stride(from: 0, to: below.count, by: Self.fanout) {
                var node = below[first]
                for child in below[first..<min(below.count, first + Self.fanout)] {
                    node.low = pointwiseMin(node.low, child.low)
                    node.high = pointwiseMax(node.high, child.high)
                }
                level.append(node)
            }
            levels.append(level)
            below = level
        } while below.count > 1
        self.levels = levels
    }

    /// The piece from `a` to `b` (a point when they are equal).
    static func piece(_ a: Coordinate, _ b: Coordinate) -> Piece {
        let p = WGS84.earthCentered(a), q = WGS84.earthCentered(b)
        let u = auxiliary(a), v = auxiliary(b)
        let line: GeodesicLine? = a == b ? nil : Geodesic.wgs84.line(from: a, to: b)
        // Every point of the edge is within arc length t of one end and L − t of the other, so
        // within √(L² − c²)/2 of the chord; a meter and a relative 10⁻⁹ cover the rounding.
        let d = q - p
        let chord = (d * d).sum().squareRoot()
        let length = line?.length ?? 0
        let reach =
            (Swift.max(0, length * length - chord * chord)).squareRoot() / 2 * (1 + 1e-9) + 1
        let cross = SIMD3(
            u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
        let sine = (cross * cross).sum().squareRoot()
        let arc = atan2(sine, (u * v).sum())
        let band =
            line == nil || arc > 2 || sine < 1e-9
            ? Double.infinity : 0.5 * WGS84.flattening * arc * arc + 1e-12 + 1e-15 / sine
        return Piece(
            start: a, end: b, line: line, low: pointwiseMin(p, q) - reach,
            high: pointwiseMax(p, q) + reach, auxiliaryStart: u, auxiliaryEnd: v,
            normal: sine > 0 ? cross / sine : .zero, band: band)
    }

    /// A coordinate's unit vector on the auxiliary sphere: parametric latitude β, tan β =
    /// (1 − f) tan φ, and the longitude.
    static func auxiliary(_ c: Coordinate) -> SIMD3<Double> {
        let (sinPhi, cosPhi) = Angle.sinCos(degrees: c.latitude)
        let (sinLambda, cosLambda) = Angle.sinCos(degrees: c.longitude)
        let y = (1 - WGS84.flattening) * sinPhi
        let r = (y * y + cosPhi * cosPhi).squareRoot()
        let (sinBeta, cosBeta) = (y / r, cosPhi / r)
        return SIMD3(cosBeta * cosLambda, cosBeta * sinLambda, sinBeta)
    }

    /// The squared chord from a point to a box (0 inside).
    static func distanceSquared(
        _ p: SIMD3<Double>, _ low: SIMD3<Double>, _ high: SIMD3<Double>
    )
        -> Double
    {
        let g = pointwiseMax(pointwiseMax(low - p, p - high), .zero)
        return (g * g).sum()
    }

    /// The squared chord between two boxes (0 when they meet).
    static func distanceSquared(
        _ low: SIMD3<Double>, _ high: SIMD3<Double>, _ otherLow: SIMD3<Double>,
        _ otherHigh: SIMD3<Double>
    ) -> Double {
        let g = pointwiseMax(pointwiseMax(otherLow - high, low - otherHigh), .zero)
        return (g * g).sum()
    }

    /// Calls `body` with each piece whose box passes at every level: `near` gives a lower bound
    /// (meters) for a box, and a box is visited while that bound is below `bound()`, nearer boxes
    /// first, so a bound that shrinks on the way prunes the rest.
    func forEachPiece(
        near: (SIMD3<Double>, SIMD3<Double>) -> Double, within bound: () -> Double,
        _ body: (Piece) -> Void
    ) {
        func visit(level: Int, node: Int) {
            let first = node * Self.fanout
            let childCount = level == 0 ? pieces.count : levels[level - 1].count
            withUnsafeTemporaryAllocation(of: (Double, Int).self, capacity: Self.fanout) {
                children in
                var n = 0
                for child in first..<min(childCount, first + Self.fanout) {
                    let d =
                        level == 0
                        ? near(pieces[child].low, pieces[child].high)
                        : near(levels[level - 1][child].low, levels[level - 1][child].high)
                    if d < bound() {
                        children[n] = (d, child)
                        n += 1
                    }
                }
                for i in 1..<max(1, n) {
                    var j = i
                    while j > 0 && children[j - 1].0 > children[j].0 {
                        children.swapAt(j - 1, j)
                        j -= 1
                    }
                }
                for (d, child) in children[0..<n] where d < bound() {
                    if level == 0 {
                        body(pieces[child])
                    } else {
                        visit(level: level - 1, node: child)
                    }
                }
            }
        }
        guard let root = levels.last?.first, near(root.low, root.high) < bound() else { return }
        visit(level: levels.count - 1, node: 0)
    }

    /// A lower bound (meters) on the geodesic between two points of the ellipsoid whose chord is at
    /// least `chord`: the chord itself, or, far apart, the arc round the polar radius b. Every
    /// point of the ellipsoid lies between b and a from the center, so radial projection onto the
    /// sphere of radius b (which shortens curves outside it) moves each end by at most a − b, and
    /// the projected ends are at least chord − 2(a − b) apart; the geodesic is at least b times
    /// their angle. Within 1.3 % of the geodesic up to 16,000 km (4 % nearer the antipode;
    /// measured on random pairs with GeographicLib), where the chord falls short by a third at
    /// 10,000 km.
    static func lowerBound(chord: Double) -> Double {
        let b = WGS84.polarRadius, gap = 2 * (WGS84.equatorialRadius - WGS84.polarRadius)
        let x = (chord - gap) / (2 * b)
        guard x > 0 else { return chord }
        return Swift.max(chord, 2 * b * asin(Swift.min(1, x)) * (1 - 1e-12))
    }

    /// The geodesic distance (meters) from a coordinate to a piece.
    static func distance(from c: Coordinate, to piece: Piece) -> Double {
        guard let line = piece.line else {
            return Geodesic.wgs84.distance(from: c, to: piece.start)
        }
        return line.closestPoint(to: c).distance
    }

    /// Whether two edges cross: `true` or `false` when their ends decide it (see the type's
    /// discussion), `nil` when they lie within each other's band.
    static func crosses(_ a: Piece, _ b: Piece) -> Bool? {
        let margin = a.band + b.band
        guard margin.isFinite else { return nil }
        let s1 = (b.normal * a.auxiliaryStart).sum(), s2 = (b.normal * a.auxiliaryEnd).sum()
        let t1 = (a.normal * b.auxiliaryStart).sum(), t2 = (a.normal * b.auxiliaryEnd).sum()
        if (s1 > margin && s2 > margin) || (s1 < -margin && s2 < -margin)
            || (t1 > margin && t2 > margin) || (t1 < -margin && t2 < -margin)
        {
            return false
        }
        guard min(abs(s1), abs(s2), abs(t1), abs(t2)) > margin else { return nil }
        // Each arc meets the other's great circle once, at a positive mix of its ends: the same
        // point, or antipodal ones.
        let p = abs(s1) * a.auxiliaryEnd + abs(s2) * a.auxiliaryStart
        let q = abs(t1) * b.auxiliaryEnd + abs(t2) * b.auxiliaryStart
        let cosine = (p * q).sum() / ((p * p).sum() * (q * q).sum()).squareRoot()
        if cosine > 0.5 { return true }
        if cosine < -0.5 { return false }
        return nil
    }

    /// The closest approach (meters) of two edges: the least over the first of the distance to the
    /// second, sampled at 17 points and refined by a golden-section search around the best.
    static func closestApproach(_ a: GeodesicLine, _ b: GeodesicLine) -> Double {
        func h(_ t: Double) -> Double {
            b.closestPoint(to: a.position(atDistance: t).coordinate).distance
        }
        let samples = 16
        var best = (value: h(0), at: 0)
        for i in 1...samples {
            let value = h(a.length * Double(i) / Double(samples))
            if value < best.value { best = (value, i) }
        }
        let low = a.length * Double(max(0, best.at - 1)) / Double(samples)
        let high = a.length * Double(min(samples, best.at + 1)) / Double(samples)
        return min(best.value, GoldenSection.minimum(from: low, to: high, width: 1e-6, h))
    }

    /// The least distance (meters) from the vertices of `self`'s pieces to the pieces of `other`,
    /// never above `best` (the best found so far, which prunes).
    func vertexDistance(to other: GlobalDistance, best: Double) -> Double {
        var best = best
        for (i, piece) in pieces.enumerated() {
            // A chain's inner vertices end one edge and start the next: measured once.
            let chainEnds =
                piece.line != nil && (i + 1 == pieces.count || pieces[i + 1].start != piece.end)
            for end in 0..<(chainEnds ? 2 : 1) {
                if best == 0 { return 0 }
                let c = end == 0 ? piece.start : piece.end
                let p = WGS84.earthCentered(c)
                other.forEachPiece(
                    near: { Self.lowerBound(chord: Self.distanceSquared(p, $0, $1).squareRoot()) },
                    within: { best }
                ) { candidate in
                    best = min(best, Self.distance(from: c, to: candidate))
                }
            }
        }
        return best
    }

    /// The least closest approach over the edge pairs of `self` and `other` that may come nearer
    /// than `best`: 0 as soon as two cross.
    func edgeDistance(to other: GlobalDistance, best: Double) -> Double {
        var best = best
        for piece in pieces {
            guard let line = piece.line else { continue }
            if best == 0 { return 0 }
            other.forEachPiece(
                near: {
                    Self.lowerBound(
                        chord: Self.distanceSquared(piece.low, piece.high, $0, $1).squareRoot())
                },
                within: { best }
            ) { candidate in
                guard let otherLine = candidate.line, best > 0 else { return }
                switch Self.crosses(piece, candidate) {
                case true?: best = 0
                case false?: break
                case nil: best = min(best, Self.closestApproach(line, otherLine))
                }
            }
        }
        return best
    }
}
