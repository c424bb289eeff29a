import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

/// The banded edge index behind prepared point tests, against a brute-force crossing-number rule
/// over every edge with the same exact orientation test.
@Suite("PointInPolygonIndex")
struct PointInPolygonIndexTests {
    /// Every edge tested: on an edge is the boundary; otherwise an odd number of edges crossed by
    /// the ray to the east is the interior.
    static func bruteForce(_ rings: [[Position]], _ p: Position) -> PointLocation {
        var inside = false
        for ring in rings {
            for (a, b) in zip(ring, ring.dropFirst()) {
                let o = Predicates.orient2d(a, b, p)
                if o == 0 && min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x)
                    && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
                {
                    return .boundary
                }
                // Half-open in y, so that a vertex on the ray counts once.
                if (a.y > p.y) != (b.y > p.y) {
                    // The crossing is east of p when p is on the left of an upward edge.
                    if (b.y > a.y) == (o > 0) { inside.toggle() }
                }
            }
        }
        return inside ? .interior : .exterior
    }

    @Test func agreesWithEveryEdgeTested() throws {
        var rng = SplitMix64(seed: 44)
        for shape in 0..<30 {
            // Star polygons with a hole, some with integer vertices (many points exactly on edges,
            // vertices and horizontal edges).
            let integral = shape % 2 == 0
            var ring = (0..<(4 + Int(rng.next() % 60))).map { i -> Position in
                let angle = Double(i) / 64 * 2 * .pi + rng.uniform(0, 0.05)
                let r = rng.uniform(10, 30)
                let x = r * cos(angle), y = r * sin(angle)
                return integral ? Position(x: x.rounded(), y: y.rounded()) : Position(x: x, y: y)
            }
            ring.append(ring[0])
            let hole = [
                Position(x: -3, y: -3), Position(x: -3, y: 3), Position(x: 3, y: 3),
                Position(x: 3, y: -3), Position(x: -3, y: -3),
            ]
            let rings = [ring, hole]
            let index = try #require(PointInPolygonIndex(.polygon(rings)))
            for _ in 0..<600 {
                let p =
                    integral
                    ? Position(
                        x: Double(Int(rng.next() % 70) - 35), y: Double(Int(rng.next() % 70) - 35))
                    : Position(x: rng.uniform(-35, 35), y: rng.uniform(-35, 35))
                #expect(
                    index.locate(p.x, p.y) == Self.bruteForce(rings, p), "\(p) in shape \(shape)")
            }
            for vertex in ring { #expect(index.locate(vertex.x, vertex.y) == .boundary) }
        }
        // Only polygonal geometries are indexed.
        #expect(PointInPolygonIndex(.point(Position(x: 0, y: 0))) == nil)
        #expect(PointInPolygonIndex(.polygon([])) == nil)
    }
}
