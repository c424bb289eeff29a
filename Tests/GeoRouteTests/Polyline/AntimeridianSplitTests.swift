import Foundation
import GeoCore
import Testing

@testable import GeoRoute

@Suite("Polyline.splitAt180thMeridian")
struct AntimeridianSplitTests {
    @Test func lineThatNeverCrossesIsReturnedAsIs() throws {
        let line = try Polyline([
            Coordinate(latitude: 0, longitude: 170), Coordinate(latitude: 5, longitude: 179.9),
        ])
        #expect(line.splitAt180thMeridian() == [line])
    }

    @Test func crossingPointLiesOnTheGeodesic() throws {
        let fiji = Coordinate(latitude: -17.7, longitude: 177.4),
            samoa = Coordinate(latitude: -13.8, longitude: -171.8)
        let tonga = Coordinate(latitude: -21.1, longitude: -175.2)
        let line = try Polyline([fiji, samoa, tonga])
        let pieces = line.splitAt180thMeridian()
        #expect(pieces.count == 2)
        #expect(pieces[0].start == fiji && pieces[0].end.longitude == 180)
        #expect(
            pieces[1].start.longitude == -180
                && pieces[1].coordinates.dropFirst() == [samoa, tonga])
        #expect(pieces[0].end.latitude == pieces[1].start.latitude)
        // The cut point is on the Fiji–Samoa geodesic: the lengths add up.
        let cut = pieces[0].end
        #expect(
            abs(fiji.distance(to: cut) + cut.distance(to: samoa) - fiji.distance(to: samoa)) < 1e-5)
        #expect(abs(pieces[0].length + pieces[1].length - line.length) < 1e-5)
    }

    @Test func crossingBackAndForth() throws {
        let vertices = [170.0, -170, 175, -175, 160].enumerated().map {
            Coordinate(latitude: Double($0.offset), longitude: $0.element)
        }
        let line = try Polyline(vertices)
        let pieces = line.splitAt180thMeridian()
        #expect(pieces.count == 5)
        for piece in pieces {
            for (a, b) in zip(piece.coordinates, piece.coordinates.dropFirst()) {
                #expect(abs(a.longitude - b.longitude) <= 180)
            }
            #expect(piece.coordinates.allSatisfy { $0.isValid })
        }
        #expect(abs(pieces.map(\.length).reduce(0, +) - line.length) < 1e-4)
    }

    @Test func vertexOnTheMeridianTakesItsSide() throws {
        let line = try Polyline([
            Coordinate(latitude: 0, longitude: 179), Coordinate(latitude: 0, longitude: 180),
            Coordinate(latitude: 0, longitude: -179),
        ])
        let pieces = line.splitAt180thMeridian()
        #expect(pieces.count == 2)
        #expect(pieces[0].coordinates.map(\.longitude) == [179, 180])
        #expect(pieces[1].coordinates.map(\.longitude) == [-180, -179])
    }
}
