import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

/// Visvalingam–Whyatt the slow way: recompute every effective area as a geodesic triangle area
/// (`Geodesic.measure`) after each removal and drop the smallest (the earliest on ties).
private func naiveVisvalingam(_ points: [Coordinate], tolerance: Double) throws -> [Int] {
    var alive = Array(points.indices)
    while alive.count > 2 {
        var smallest = Double.infinity, at = -1
        for k in 1..<(alive.count - 1) {
            let area = try Geodesic.wgs84.measure(exterior: [
                points[alive[k - 1]], points[alive[k]], points[alive[k + 1]],
            ]).area
            if area < smallest { (smallest, at) = (area, k) }
        }
        guard smallest < tolerance * tolerance else { break }
        alive.remove(at: at)
    }
    return alive
}

@Suite("Visvalingam-Whyatt")
struct VisvalingamWhyattTests {
    @Test(arguments: [1.0, 2.0, 3.0])
    func matchesTheNaiveAlgorithm(seed: Double) throws {
        var rng = SplitMix64(seed: UInt64(seed) * 13)
        let start = Coordinate(latitude: rng.uniform(-70, 70), longitude: rng.uniform(-180, 180))
        let points = TestLines.randomWalk(
            count: 60, start: start, minimumStep: 5, maximumStep: 80, maximumTurn: 50, rng: &rng)
        let line = try Polyline(points)
        for tolerance in [2.0, 10.0, 30.0] {
            let fast = try line.simplifiedIndices(tolerance: tolerance, method: .visvalingamWhyatt)
            #expect(
                fast == (try naiveVisvalingam(points, tolerance: tolerance)),
                "tolerance \(tolerance)")
        }
    }

    @Test func dropsSmallTrianglesFirst() throws {
        let a = Coordinate(latitude: 0, longitude: 0)
        // a 50 m² bump (base 200 m)
        let b = a.coordinate(atDistance: 100, bearing: 90).coordinate(atDistance: 0.5, bearing: 0)
        let c = a.coordinate(atDistance: 200, bearing: 90)
        // a 1500 m² bump
        let d = c.coordinate(atDistance: 100, bearing: 90).coordinate(atDistance: 15, bearing: 0)
        let e = c.coordinate(atDistance: 200, bearing: 90)
        let line = try Polyline([a, b, c, d, e])
        #expect(
            try line.simplifiedIndices(tolerance: 10, method: .visvalingamWhyatt) == [0, 2, 3, 4])
        #expect(
            try line.simplifiedIndices(tolerance: 5, method: .visvalingamWhyatt) == [0, 1, 2, 3, 4])
        #expect(try line.simplifiedIndices(tolerance: 100, method: .visvalingamWhyatt) == [0, 4])
    }
}
