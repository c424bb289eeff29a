import Foundation
import GeoCore
import Testing

@testable import GeoRoute

/// A 3-step route of about 3 km through Paris used by the route and progress tests.
func parisRoute() throws -> Route {
    let start = Coordinate(latitude: 48.8606, longitude: 2.3376)  // the Louvre
    let a = start.coordinate(atDistance: 1_000, bearing: 90)
    let b = a.coordinate(atDistance: 1_200, bearing: 0)
    let c = b.coordinate(atDistance: 800, bearing: 270)
    let line = try Polyline([start, a, b, c])
    let d = line.cumulativeDistances
    return try Route(
        polyline: line,
        steps: [
            RouteStep(instruction: "Head east", range: 0...d[1]),
            RouteStep(instruction: "Turn left", range: d[1]...d[2]),
            RouteStep(instruction: "Turn left again", range: d[2]...d[3]),
        ],
        transportType: .cycling, expectedTravelTime: 600)
}

@Suite("Route")
struct RouteTests {
    @Test func stepsAndTimes() throws {
        let route = try parisRoute()
        #expect(abs(route.distance - 3_000) < 0.01)
        #expect(abs((route.averageSpeed ?? 0) - route.distance / 600) < 1e-12)
        #expect(route.stepIndex(atDistance: -1) == nil)
        #expect(route.stepIndex(atDistance: 0) == 0)
        #expect(route.stepIndex(atDistance: 999) == 0)
        #expect(route.stepIndex(atDistance: 1_500) == 1)
        #expect(route.stepIndex(atDistance: 5_000) == 2)
        #expect(abs(route.expectedTravelTime(fromDistance: route.distance / 4) - 450) < 1e-9)
        #expect(route.expectedTravelTime(fromDistance: -10) == 600)
        #expect(route.expectedTravelTime(fromDistance: 1e9) == 0)
        #expect(
            route.steps[1].distance == route.steps[1].range.upperBound
                - route.steps[1].range.lowerBound)
    }

    @Test func inconsistentRoutesThrow() throws {
        let line = try parisRoute().polyline
        #expect(throws: GeoError.self) { try Route(polyline: line, expectedTravelTime: -1) }
        #expect(throws: GeoError.self) { try Route(polyline: line, expectedTravelTime: .nan) }
        #expect(throws: GeoError.self) {
            try Route(
                polyline: line, steps: [RouteStep(instruction: "x", range: 0...10_000)],
                expectedTravelTime: 1)
        }
        #expect(throws: GeoError.self) {
            try Route(
                polyline: line,
                steps: [
                    RouteStep(instruction: "b", range: 100...200),
                    RouteStep(instruction: "a", range: 0...100),
                ],
                expectedTravelTime: 1)
        }
        #expect(throws: GeoError.self) {
            try Route(
                polyline: line, steps: [RouteStep(instruction: "x", distance: -5, range: 0...10)],
                expectedTravelTime: 1)
        }
    }

    @Test func codableRoundTripValidates() throws {
        let route = try parisRoute()
        let data = try JSONEncoder().encode(route)
        #expect(try JSONDecoder().decode(Route.self, from: data) == route)
        var json = try #require(String(data: data, encoding: .utf8))
        json = json.replacingOccurrences(
            of: "\"expectedTravelTime\":600", with: "\"expectedTravelTime\":-600")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Route.self, from: Data(json.utf8))
        }
    }
}
