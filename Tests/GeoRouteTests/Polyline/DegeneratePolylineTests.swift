import Foundation
import GeoCore
import Testing

@testable import GeoRoute

/// A polyline whose 100,000 vertices are all one coordinate (a device parked all day, logging
/// fixes): every operation gives the answer for a single point, in linear time, without trapping.
@Suite("Degenerate polylines")
struct DegeneratePolylineTests {
    static let spot = Coordinate(latitude: 51.5007, longitude: -0.1246)

    @Test func oneHundredThousandIdenticalVertices() throws {
        let line = try Polyline([Coordinate](repeating: Self.spot, count: 100_000))
        #expect(line.length == 0)
        let away = Coordinate(latitude: 51.51, longitude: -0.12)
        let closest = line.closestPoint(to: away)
        #expect(closest.coordinate == Self.spot && closest.distanceAlong == 0)
        #expect(abs(closest.distance - Geodesic.wgs84.distance(from: away, to: Self.spot)) < 1e-6)
        for method in [SimplificationMethod.douglasPeucker, .visvalingamWhyatt] {
            let kept = try line.simplifiedIndices(tolerance: 1, method: method)
            #expect(kept.first == 0 && kept.last == 99_999 && kept.count <= 2, "\(method)")
        }
        #expect(line.coordinate(atDistance: 10) == Self.spot)
        #expect(line.bearing(atDistance: 0).isNaN || line.bearing(atDistance: 0).isFinite)
        #expect(
            try line.sliced(fromDistance: 0, toDistance: 0).coordinates.allSatisfy {
                $0 == Self.spot
            })
        #expect(line.splitAt180thMeridian().count == 1)
        // Runs of repeated vertices inside a line of length: the nearest point is where the scan
        // of every segment finds it, at the same distance along.
        var mixed = [Coordinate]()
        for k in 0..<50 {
            mixed += repeatElement(
                Coordinate(latitude: 51.5 + Double(k) * 0.001, longitude: -0.12), count: 1 + k % 7)
        }
        let runs = try Polyline(mixed)
        for k in 0..<20 {
            let p = Coordinate(latitude: 51.5 + Double(k) * 0.0023, longitude: -0.1195)
            let fast = runs.closestPoint(to: p), scan = runs.closestPointByLinearScan(to: p)
            #expect(abs(fast.distance - scan.distance) < 1e-6)
            #expect(abs(fast.distanceAlong - scan.distanceAlong) < 1e-6)
            let window = runs.closestPoint(to: p, alongDistances: 500...1_500)
            #expect(window.distanceAlong >= 500 - 1e-9 && window.distanceAlong <= 1_500 + 1e-9)
        }
        // Following it: every fix is at the start, and nothing traps.
        let route = try Route(polyline: line, expectedTravelTime: 60)
        var progress = RouteProgress(route: route)
        for second in 0..<100 {
            _ = progress.update(
                with: Location(
                    coordinate: away, timestamp: Date(timeIntervalSince1970: Double(second))))
        }
        #expect(progress.distanceTraveled == 0)
    }
}
