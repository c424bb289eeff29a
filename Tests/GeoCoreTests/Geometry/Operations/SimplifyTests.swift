import Foundation
import GeoCore
import GeoTestSupport
import Testing

@Suite("Simplification")
struct SimplifyTests {
    static func randomWalk(_ rng: inout SplitMix64, count: Int) -> [Position] {
        var p = Position(x: 0, y: 0)
        var result = [p]
        for _ in 1..<count {
            p = Position(x: p.x + rng.uniform(0, 2), y: p.y + rng.uniform(-1, 1))
            result.append(p)
        }
        return result
    }

    /// Douglas-Peucker keeps a subset of the vertices, both ends, and stays within the tolerance.
    @Test func douglasPeuckerStaysWithinTolerance() throws {
        var rng = SplitMix64(seed: 21)
        for tolerance in [0.1, 0.5, 2.0] {
            let line = Self.randomWalk(&rng, count: 400)
            let g = Geometry.lineString(line)
            guard
                case .lineString(let kept) = try g.simplified(
                    tolerance: tolerance, preservingTopology: false)
            else {
                Issue.record("not a line")
                continue
            }
            #expect(kept.first == line.first && kept.last == line.last)
            #expect(Set(kept).isSubset(of: Set(line)))
            #expect(kept.count < line.count)
            // Every removed vertex lies within the tolerance of the simplified line.
            let simplified = Geometry.lineString(kept)
            for p in line { #expect(try simplified.distance(to: .point(p)) <= tolerance + 1e-9) }
        }
        #expect(
            try Geometry.lineString([
                Position(x: 0, y: 0), Position(x: 1, y: 0.1), Position(x: 2, y: 0),
            ]).simplified(tolerance: 0)
                == .lineString([Position(x: 0, y: 0), Position(x: 1, y: 0.1), Position(x: 2, y: 0)])
        )
    }

    /// Topology-preserving simplification keeps a polygon with a hole valid where plain Douglas-Peucker
    /// lets the hole escape.
    @Test func topologyIsPreserved() throws {
        var ring = [Position]()
        for i in 0..<200 {
            let a = Double(i) / 200 * 2 * .pi
            let r = 100 + (i % 2 == 0 ? 3.0 : -3.0)
            ring.append(Position(x: r * cos(a), y: r * sin(a)))
        }
        ring.append(ring[0])
        let hole = [
            Position(x: 95, y: -1), Position(x: 98.5, y: 0), Position(x: 95, y: 1),
            Position(x: 95, y: -1),
        ]
        let polygon = Geometry.polygon([ring, hole])
        #expect(try polygon.isValid())
        let tp = try polygon.simplified(tolerance: 8, preservingTopology: true)
        #expect(try tp.isValid())
        #expect(tp.positionCount < polygon.positionCount)
        var mutable = polygon
        try mutable.simplify(tolerance: 8)
        #expect(mutable == tp)
        #expect(throws: GeoError.self) { try polygon.simplified(tolerance: -1) }
        #expect(throws: GeoError.self) { try polygon.simplified(tolerance: .nan) }
    }

    /// Runs of a repeated vertex (a receiver left on a desk) are one vertex to the
    /// topology-preserving simplifier: a million-vertex pile is linear, not quadratic, and the
    /// result is what the distinct vertices give.
    @Test func repeatedVerticesAreOneVertex() throws {
        let pile = Geometry.lineString(Array(repeating: Position(x: 1, y: 2), count: 1_000_000))
        #expect(
            try pile.simplified(tolerance: 1)
                == .lineString([Position(x: 1, y: 2), Position(x: 1, y: 2)]))
        var rng = SplitMix64(seed: 21)
        for _ in 0..<50 {
            let distinct = (0..<40).map { _ in
                Position(x: rng.uniform(0, 10), y: rng.uniform(0, 10))
            }
            let repeated = distinct.flatMap { p in
                Array(repeating: p, count: 1 + Int(rng.next() % 4))
            }
            #expect(
                try Geometry.lineString(repeated).simplified(tolerance: 0.5)
                    == (try Geometry.lineString(distinct).simplified(tolerance: 0.5)))
        }
        let ring =
            [Position(x: 0, y: 0)] + Array(repeating: Position(x: 1, y: 0), count: 100_000)
            + [Position(x: 1, y: 1), Position(x: 0, y: 0), Position(x: 0, y: 0)]
        #expect(
            try Geometry.polygon([ring]).simplified(tolerance: 0.1)
                == .polygon([
                    [
                        Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1),
                        Position(x: 0, y: 0),
                    ]
                ]))
    }
}
