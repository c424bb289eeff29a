import GeoCore
import GeoTestSupport
import Testing

@Suite("Convex hull")
struct ConvexHullTests {
    /// Andrew's monotone chain with exact orientation: the brute-force oracle.
    static func oracleHull(_ points: [Position]) -> Set<Position> {
        let ps = Set(points.map { Position(x: $0.x, y: $0.y) }).sorted {
            ($0.x, $0.y) < ($1.x, $1.y)
        }
        guard ps.count > 2 else { return Set(ps) }
        func chain(_ seq: [Position]) -> [Position] {
            var h = [Position]()
            for p in seq {
                while h.count >= 2 && Predicates.orient2d(h[h.count - 2], h[h.count - 1], p) <= 0 {
                    h.removeLast()
                }
                h.append(p)
            }
            return h
        }
        return Set(chain(ps).dropLast() + chain(ps.reversed()).dropLast())
    }

    @Test func matchesMonotoneChainOnRandomPoints() throws {
        var rng = SplitMix64(seed: 11)
        for round in 0..<40 {
            let n = 3 + round * 5
            let points = (0..<n).map { _ in
                Position(
                    x: (rng.uniform(-100, 100) * 8).rounded() / 8,
                    y: (rng.uniform(-100, 100) * 8).rounded() / 8)
            }
            let hull = try Geometry.multiPoint(points).convexHull()
            guard case .polygon(let rings) = hull else {
                Issue.record("hull of \(n) points is a \(hull.type)")
                continue
            }
            #expect(Set(rings[0].dropLast()) == Self.oracleHull(points))
            let prepared = try PreparedGeometry(hull)
            #expect(try prepared.covers(points).allSatisfy { $0 })
        }
    }

    @Test func degenerateInputs() throws {
        #expect(try Geometry.multiPoint([]).convexHull().isEmpty)
        #expect(
            try Geometry.multiPoint([Position(x: 1, y: 1), Position(x: 1, y: 1)]).convexHull()
                == .point(x: 1, y: 1))
        let line = try Geometry.multiPoint([
            Position(x: 0, y: 0), Position(x: 1, y: 1), Position(x: 2, y: 2),
        ]).convexHull()
        #expect(line.type == .lineString)
        // Cluster footprints are built from coordinates.
        let members = [
            Coordinate(latitude: 48.85, longitude: 2.35),
            Coordinate(latitude: 48.87, longitude: 2.30),
            Coordinate(latitude: 48.83, longitude: 2.29),
        ]
        #expect(try Geometry.multiPoint(coordinates: members).convexHull().type == .polygon)
    }
}
