import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("Polyline.simplified")
struct SimplificationTests {
    @Test func simplifiedKeepsTheChosenVertices() throws {
        var rng = SplitMix64(seed: 8)
        let points = TestLines.randomWalk(
            count: 300, start: Coordinate(latitude: 10, longitude: 10), minimumStep: 1,
            maximumStep: 50, rng: &rng)
        var line = try Polyline(points)
        for method in [SimplificationMethod.douglasPeucker, .visvalingamWhyatt] {
            let kept = try line.simplifiedIndices(tolerance: 5, method: method)
            let simple = try line.simplified(tolerance: 5, method: method)
            #expect(simple.coordinates == kept.map { points[$0] })
            #expect(simple.length <= line.length + 1e-6)
        }
        #expect(SimplificationMethod.douglasPeucker.description == "Douglas-Peucker")
        try line.simplify(tolerance: 5)
        #expect(line.coordinates.count < points.count)
    }

    @Test func badTolerancesThrow() throws {
        let line = try Polyline([
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 1),
        ])
        for tolerance in [-1, Double.nan, -Double.infinity] {
            #expect(throws: GeoError.self) { try line.simplified(tolerance: tolerance) }
        }
        #expect(try line.simplified(tolerance: 1) == line)
        let single = try Polyline([Coordinate(latitude: 0, longitude: 0)])
        #expect(try single.simplifiedIndices(tolerance: 1, method: .visvalingamWhyatt) == [0])
    }
}
