import GeoCore
import Testing

@Suite("Geodesic area and length of geometries")
struct GeodesicMeasuresTests {
    /// A 1° × 1° cell on the equator: 12 308 778 361.469 m² and 443 770.917 m (GeographicLib 2.1
    /// `PolygonArea`, as in GeodesicTests).
    @Test func equatorialCell() throws {
        let cell = Geometry.polygon(exterior: [
            Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1), Position(x: 0, y: 1),
        ])
        #expect(abs(try cell.geodesicArea() - 12_308_778_361.469) < 0.1)
        #expect(abs(try cell.geodesicPerimeter() - 443_770.917) < 1e-3)
        #expect(try cell.geodesicLength() == 0)
        // Orientation does not matter; a hole subtracts; a multipolygon adds.
        let clockwise = Geometry.polygon(exterior: [
            Position(x: 0, y: 0), Position(x: 0, y: 1), Position(x: 1, y: 1), Position(x: 1, y: 0),
        ])
        #expect(abs(try clockwise.geodesicArea() - 12_308_778_361.469) < 0.1)
        let both = Geometry.multiPolygon([
            [
                Geometry.closedRingForTests([
                    Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1),
                    Position(x: 0, y: 1),
                ])
            ],
            [
                Geometry.closedRingForTests([
                    Position(x: 10, y: 0), Position(x: 11, y: 0), Position(x: 11, y: 1),
                    Position(x: 10, y: 1),
                ])
            ],
        ])
        #expect(abs(try both.geodesicArea() - 2 * 12_308_778_361.469) < 0.2)
    }

    /// GeographicLib's GeodSolve example: JFK to Singapore Changi is 15 347 628 m.
    @Test func lineLength() throws {
        let jfk = Position(x: -(73 + 46 / 60.0 + 44 / 3600.0), y: 40 + 38 / 60.0 + 23 / 3600.0)
        let sin = Position(x: 103 + 59 / 60.0 + 22 / 3600.0, y: 1 + 21 / 60.0 + 33 / 3600.0)
        #expect(abs(try Geometry.lineString([jfk, sin]).geodesicLength() - 15_347_628) < 0.5)
        let twice = Geometry.multiLineString([[jfk, sin], [sin, jfk]])
        #expect(abs(try twice.geodesicLength() - 2 * 15_347_628) < 1)
        #expect(throws: GeoError.self) {
            try Geometry.lineString([Position(x: 0, y: 95), Position(x: 1, y: 0)]).geodesicLength()
        }
    }

    /// Every measure checks every position, even those of parts it does not measure.
    @Test func invalidPositionsAreRejectedEverywhere() {
        let badPoint = Geometry.point(Position(x: .nan, y: .nan))
        let badLine = Geometry.lineString([Position(x: 0, y: 0), Position(x: 1e308, y: 1e308)])
        for geometry in [badPoint, badLine, .geometryCollection([badPoint])] {
            #expect(throws: GeoError.self) { try geometry.geodesicArea() }
            #expect(throws: GeoError.self) { try geometry.geodesicPerimeter() }
            #expect(throws: GeoError.self) { try geometry.geodesicLength() }
        }
    }
}

extension Geometry {
    static func closedRingForTests(_ ring: [Position]) -> [Position] { ring + [ring[0]] }
}
