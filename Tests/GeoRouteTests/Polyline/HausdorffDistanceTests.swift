import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("Hausdorff distance")
struct HausdorffDistanceTests {
    /// The directed distance is the largest dense-sampling distance from a vertex to the other line.
    @Test func matchesBruteForce() throws {
        var rng = SplitMix64(seed: 61)
        for _ in 0..<3 {
            let start = Coordinate(
                latitude: rng.uniform(-60, 60), longitude: rng.uniform(-180, 180))
            let a = try Polyline(
                TestLines.randomWalk(
                    count: 8, start: start, minimumStep: 100, maximumStep: 3_000, rng: &rng))
            let b = try Polyline(
                TestLines.randomWalk(
                    count: 8, start: start, minimumStep: 100, maximumStep: 3_000, rng: &rng))
            let expectedAB = a.coordinates.map { bruteForceNearest(b, to: $0).distance }.max() ?? 0
            let expectedBA = b.coordinates.map { bruteForceNearest(a, to: $0).distance }.max() ?? 0
            #expect(abs(a.directedHausdorffDistance(to: b) - expectedAB) < 0.01)
            #expect(abs(a.discreteHausdorffDistance(to: b) - max(expectedAB, expectedBA)) < 0.01)
            // Densifying only adds points to measure from, and a discrete Fréchet coupling is never
            // shorter than the Hausdorff distance between the vertex sets.
            let dense = try a.hausdorffDistance(to: b, maximumSpacing: 50)
            #expect(dense >= a.discreteHausdorffDistance(to: b) - 1e-9)
            #expect(a.discreteFrechetDistance(to: b) >= a.discreteHausdorffDistance(to: b) - 1e-9)
        }
    }

    @Test func aBumpIsFoundBetweenVertices() throws {
        // b has a 2 km detour in the middle of a's long straight segment.
        let a = try Polyline([
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
        ])
        let b = try Polyline([
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 0.4),
            Coordinate(latitude: 0.018, longitude: 0.5), Coordinate(latitude: 0, longitude: 0.6),
            Coordinate(latitude: 0, longitude: 1),
        ])
        let bump = Coordinate(latitude: 0.018, longitude: 0.5).distance(
            to: Coordinate(latitude: 0, longitude: 0.5))
        #expect(abs(a.discreteHausdorffDistance(to: b) - bump) < 0.01)
        #expect(a.directedHausdorffDistance(to: b) < 1e-6)
        #expect(throws: GeoError.self) { try a.hausdorffDistance(to: b, maximumSpacing: 0) }
    }
}
