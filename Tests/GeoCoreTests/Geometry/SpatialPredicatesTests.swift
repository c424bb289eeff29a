import GeoCore
import GeoTestSupport
import Testing

@Suite("Spatial predicates and DE-9IM")
struct SpatialPredicatesTests {
    static let square = Geometry.polygon(exterior: [
        Position(x: 0, y: 0), Position(x: 10, y: 0), Position(x: 10, y: 10), Position(x: 0, y: 10),
    ])

    @Test func knownRelations() throws {
        let inner = Geometry.polygon(exterior: [
            Position(x: 2, y: 2), Position(x: 4, y: 2), Position(x: 4, y: 4), Position(x: 2, y: 4),
        ])
        #expect(try Self.square.relate(inner).matrix == "212FF1FF2")
        #expect(try Self.square.contains(inner) && inner.isWithin(Self.square))
        #expect(try Self.square.covers(inner) && inner.isCovered(by: Self.square))
        #expect(try !Self.square.touches(inner))
        let edge = Geometry.lineString([Position(x: 0, y: 0), Position(x: 10, y: 0)])
        #expect(
            try !Self.square.contains(edge) && Self.square.covers(edge) && Self.square.touches(edge)
        )
        let crossing = Geometry.lineString([Position(x: -5, y: 5), Position(x: 15, y: 5)])
        #expect(try Self.square.crosses(crossing) && Self.square.intersects(crossing))
        let neighbor = Geometry.polygon(exterior: [
            Position(x: 5, y: 5), Position(x: 15, y: 5), Position(x: 15, y: 15),
            Position(x: 5, y: 15),
        ])
        #expect(try Self.square.overlaps(neighbor))
        #expect(try Self.square.isDisjoint(with: .point(x: 20, y: 20)))
        let rotated = try Geometry(wkt: "POLYGON ((10 10, 0 10, 0 0, 10 0, 10 10))")
        #expect(try Self.square.isTopologicallyEqual(to: rotated) && Self.square != rotated)
        #expect(try Self.square.normalized() == rotated.normalized())
        #expect(try Self.square.relate(inner, pattern: "T*****FF*"))
        #expect(throws: GeoError.self) { try Self.square.relate(inner, pattern: "TTT") }
        #expect(throws: GeoError.self) { try IntersectionMatrix("212F11FF") }
    }

    /// Every predicate agrees with its DE-9IM definition on random pairs.
    @Test func predicatesAgreeWithTheirPatterns() throws {
        var rng = SplitMix64(seed: 14)
        func randomGeometry() -> Geometry {
            let x = rng.uniform(0, 10).rounded(), y = rng.uniform(0, 10).rounded(),
                w = rng.uniform(1, 6).rounded(), h = rng.uniform(1, 6).rounded()
            switch rng.next() % 3 {
            case 0: return .point(x: x, y: y)
            case 1: return .lineString([Position(x: x, y: y), Position(x: x + w, y: y + h)])
            default:
                return .polygon(exterior: [
                    Position(x: x, y: y), Position(x: x + w, y: y), Position(x: x + w, y: y + h),
                    Position(x: x, y: y + h),
                ])
            }
        }
        for _ in 0..<300 {
            let a = randomGeometry(), b = randomGeometry()
            let m = try a.relate(b)
            #expect(try a.intersects(b) == !(try m.matches("FF*FF****")))
            #expect(try a.contains(b) == (try m.matches("T*****FF*")))
            #expect(try a.isWithin(b) == (try m.matches("T*F**F***")))
            #expect(try a.covers(b) == (try b.isCovered(by: a)))
            #expect(try a.isDisjoint(with: b) == !(try a.intersects(b)))
        }
    }
}
