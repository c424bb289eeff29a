import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("Polyline bounds")
struct BoundsTests {
    /// The highest latitude of the JFK–Singapore geodesic, 87.495021°, and the lowest of Cape Town to
    /// Melbourne, −58.241830°, and the highest of Paris to Vancouver, 68.365775°: computed with
    /// GeographicLib 2.1 (Python) by sampling each geodesic every 77 m or less
    /// (`Geodesic.WGS84.InverseLine(...).Position(s)`), not from the vertices.
    @Test func geodesicsBulgeTowardsThePoles() throws {
        let polar = try Polyline([jfk, changi]).boundingBox
        #expect(abs(polar.north - 87.495021) < 1e-5)
        #expect(abs(polar.south - changi.latitude) < 1e-12)
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        let vancouver = Coordinate(latitude: 49.2827, longitude: -123.1207)
        #expect(abs(try Polyline([paris, vancouver]).boundingBox.north - 68.365775) < 1e-5)
        let capeTown = Coordinate(latitude: -33.9, longitude: 18.4),
            melbourne = Coordinate(latitude: -37.8, longitude: 144.96)
        let southern = try Polyline([capeTown, melbourne]).boundingBox
        #expect(abs(southern.south - -58.241830) < 1e-5)
        #expect(southern.north == -33.9)
        #expect(southern.west == 18.4 && southern.east == 144.96)
    }

    /// Dense sampling of the line stays inside the box, and the box touches the samples on every side.
    @Test func boxContainsDenseSamples() throws {
        var rng = SplitMix64(seed: 41)
        for start in [
            Coordinate(latitude: 70, longitude: -30), Coordinate(latitude: -5, longitude: 178),
        ] {
            let line = try Polyline(
                TestLines.randomWalk(
                    count: 12, start: start, minimumStep: 10_000, maximumStep: 800_000, rng: &rng))
            let box = line.boundingBox
            let region = line.boundingRegion
            var north = -90.0, south = 90.0
            for k in 0...4_000 {
                let p = line.coordinate(atDistance: line.length * Double(k) / 4_000)
                #expect(
                    box.contains(
                        Coordinate(
                            latitude: min(max(p.latitude, box.south), box.north),
                            longitude: p.longitude)))
                #expect(p.latitude <= box.north + 1e-9 && p.latitude >= box.south - 1e-9)
                #expect(
                    region.contains(
                        Coordinate(
                            latitude: min(max(p.latitude, box.south), box.north),
                            longitude: p.longitude)))
                north = max(north, p.latitude); south = min(south, p.latitude)
            }
            #expect(box.north - north < 0.01 && south - box.south < 0.01)
        }
    }

    @Test func crossingThe180thMeridian() throws {
        let fiji = Coordinate(latitude: -17.7, longitude: 177.4),
            samoa = Coordinate(latitude: -13.8, longitude: -171.8)
        let line = try Polyline([fiji, samoa])
        let box = line.boundingBox
        #expect(box.crosses180thMeridian)
        #expect(box.west == 177.4 && box.east == -171.8)
        let region = line.boundingRegion
        #expect(abs(region.span.longitudeDelta - 10.8) < 1e-9)
        #expect(
            abs(abs(region.center.longitude) - 177.2) < 1e-9
                || abs(region.center.longitude + 177.2) < 1e-9)
        let rect = line.boundingMapRect
        #expect(rect.spans180thMeridian)
        #expect(abs(rect.width - 10.8 / 360 * MapSize.world.width) < 1e-3)
        #expect(rect.minX >= 0 && rect.minX < MapSize.world.width)
        // A line that goes all the way round covers every longitude.
        let round = try Polyline(
            [0, 100, -160, -40, 10].map { Coordinate(latitude: 0, longitude: Double($0)) })
        #expect(round.boundingBox.west == -180 && round.boundingBox.east == 180)
    }

    @Test func mapRectMatchesMapKitForAPlainLine() throws {
        let a = Coordinate(latitude: 10, longitude: 10),
            b = Coordinate(latitude: 10, longitude: 10.5)
        let c = Coordinate(latitude: 10.5, longitude: 10.5)
        let line = try Polyline([a, b, c])
        let rect = line.boundingMapRect
        let nw = MapPoint(Coordinate(latitude: line.boundingBox.north, longitude: 10))
        let se = MapPoint(Coordinate(latitude: 10, longitude: 10.5))
        #expect(abs(rect.minX - nw.x) < 1e-6 && abs(rect.maxX - se.x) < 1e-6)
        #expect(abs(rect.minY - nw.y) < 1e-6 && abs(rect.maxY - se.y) < 1e-6)
        #expect(!rect.spans180thMeridian)
    }
}
