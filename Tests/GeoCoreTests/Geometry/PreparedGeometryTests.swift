import Foundation
import GeoCore
import GeoTestSupport
import Testing

@Suite("Prepared geometry")
struct PreparedGeometryTests {
    /// A star-shaped 1000-vertex polygon with a hole, as the benchmark uses.
    static func star(vertices: Int, seed: UInt64) -> Geometry {
        var rng = SplitMix64(seed: seed)
        var ring = (0..<vertices).map { i -> Position in
            let a = Double(i) / Double(vertices) * 2 * .pi
            let r = rng.uniform(50, 100)
            return Position(x: r * cos(a), y: r * sin(a))
        }
        ring.append(ring[0])
        let hole = [
            Position(x: -10, y: -10), Position(x: -10, y: 10), Position(x: 10, y: 10),
            Position(x: 10, y: -10), Position(x: -10, y: -10),
        ]
        return .polygon([ring, hole])
    }

    @Test func pointTestsMatchExactLocation() throws {
        let polygon = Self.star(vertices: 1_000, seed: 1)
        let prepared = try PreparedGeometry(polygon)
        var rng = SplitMix64(seed: 2)
        var points = (0..<4_000).map { _ in
            Position(x: rng.uniform(-110, 110), y: rng.uniform(-110, 110))
        }
        points += [Position(x: 10, y: 0), Position(x: -10, y: -10)]  // on the hole's boundary
        let contains = try prepared.contains(points)
        let covers = try prepared.covers(points)
        for (i, p) in points.enumerated() {
            let location = polygon.locate(p)
            #expect(contains[i] == (location == .interior), "\(p)")
            #expect(covers[i] == (location != .exterior), "\(p)")
        }
        #expect(try prepared.contains(points[0]) == contains[0])
        #expect(
            try !prepared.contains(Position(x: 10, y: 0)) && prepared.covers(Position(x: 10, y: 0)))
        #expect(throws: GeoError.self) { try prepared.contains(Position(x: .nan, y: 0)) }
        #expect(throws: GeoError.self) {
            try prepared.contains([Position(x: 0, y: 0), Position(x: .infinity, y: 0)])
        }
    }

    /// The pure-Swift point index agrees with GEOS's prepared predicates, including points exactly on
    /// edges, on vertices and on horizontal edges, for polygons and multi-polygons.
    @Test func pointIndexAgreesWithGEOS() throws {
        let shapes = [
            Self.star(vertices: 500, seed: 7),
            try Geometry(
                wkt:
                    "MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 8, 8 8, 8 2, 2 2)), ((20 0, 30 0, 25 8, 20 0)), ((12 12, 14 12, 14 14, 12 12)))"
            ),
            try Geometry(wkt: "POLYGON ((0 0, 4 0, 4 1, 3 1, 3 3, 1 3, 1 1, 0 1, 0 0))"),
        ]
        var rng = SplitMix64(seed: 17)
        for shape in shapes {
            let prepared = try PreparedGeometry(shape)
            var probes = shape.positions
            for _ in 0..<1_500 {
                probes.append(Position(x: rng.uniform(-110, 110), y: rng.uniform(-110, 110)))
                probes.append(
                    Position(
                        x: Double(Int(rng.next() % 36)) - 3, y: Double(Int(rng.next() % 20)) - 3))
                probes.append(
                    Position(
                        x: rng.uniform(-3, 33), y: [0.0, 1, 2, 3, 8, 10, 12][Int(rng.next() % 7)]))
            }
            let contains = try prepared.contains(probes), covers = try prepared.covers(probes)
            for (i, p) in probes.enumerated() {
                #expect(contains[i] == (try prepared.contains(.point(p))), "\(p) in \(shape.type)")
                #expect(covers[i] == (try prepared.intersects(.point(p))), "\(p) in \(shape.type)")
                #expect(try prepared.locate(p) == shape.locate(p))
            }
        }
    }

    @Test func geometryPredicatesMatchUnprepared() throws {
        let polygon = Self.star(vertices: 200, seed: 3)
        let prepared = try PreparedGeometry(polygon)
        var rng = SplitMix64(seed: 4)
        for _ in 0..<100 {
            let a = Position(x: rng.uniform(-110, 110), y: rng.uniform(-110, 110))
            let line = Geometry.lineString([
                a, Position(x: a.x + rng.uniform(-30, 30), y: a.y + rng.uniform(-30, 30)),
            ])
            #expect(try prepared.contains(line) == polygon.contains(line))
            #expect(try prepared.covers(line) == polygon.covers(line))
            #expect(try prepared.intersects(line) == polygon.intersects(line))
            #expect(try prepared.crosses(line) == polygon.crosses(line))
            #expect(try prepared.touches(line) == polygon.touches(line))
            #expect(try prepared.isDisjoint(with: line) == polygon.isDisjoint(with: line))
            #expect(try prepared.isWithin(line) == polygon.isWithin(line))
            #expect(try prepared.overlaps(line) == polygon.overlaps(line))
            #expect(try prepared.isCovered(by: line) == polygon.isCovered(by: line))
            #expect(
                try prepared.containsProperly(line) == polygon.relate(line, pattern: "T**FF*FF*"))
        }
    }

    @Test func badGeometryFailsAtPreparation() {
        #expect(throws: GeoError.self) {
            try PreparedGeometry(
                .polygon([
                    [
                        Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1),
                        Position(x: 0, y: 1),
                    ]
                ]))
        }
    }
}
