import GeoCore
import GeoTestSupport
import Testing

@Suite("Linear referencing")
struct LinearReferencingTests {
    @Test func interpolateAndProjectAreInverse() throws {
        let line = Geometry.lineString([
            Position(x: 0, y: 0), Position(x: 3, y: 4), Position(x: 3, y: 10),
        ])  // length 11
        #expect(try line.interpolate(distance: 5) == Position(x: 3, y: 4))
        #expect(try line.interpolate(distance: 8) == Position(x: 3, y: 7))
        #expect(try line.interpolate(fraction: 1) == Position(x: 3, y: 10))
        #expect(try line.interpolate(distance: 99) == Position(x: 3, y: 10))  // clamped
        var rng = SplitMix64(seed: 6)
        for _ in 0..<100 {
            let d = rng.uniform(0, 11)
            let p = try line.interpolate(distance: d)
            #expect(abs(try line.project(p) - d) < 1e-9)
            #expect(abs(try line.projectFraction(p) - d / 11) < 1e-9)
        }
        #expect(try line.project(Position(x: 100, y: 4)) == 5)  // nearest point is the corner
    }

    @Test func onlyLinesCanBeReferenced() {
        #expect(throws: GeoError.self) { try Geometry.point(x: 0, y: 0).interpolate(distance: 1) }
        #expect(throws: GeoError.self) { try Geometry.lineString([]).project(Position(x: 0, y: 0)) }
        #expect(throws: GeoError.self) {
            try Geometry.lineString([Position(x: 0, y: 0), Position(x: 1, y: 0)]).interpolate(
                distance: .nan)
        }
    }
}
