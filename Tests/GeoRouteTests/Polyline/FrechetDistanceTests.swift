import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

/// The discrete Fréchet distance by its recursive definition (Eiter & Mannila 1994), memoised.
private func recursiveFrechet(_ a: [Coordinate], _ b: [Coordinate]) -> Double {
    var memo = [Int: Double]()
    func c(_ i: Int, _ j: Int) -> Double {
        if let v = memo[i * b.count + j] { return v }
        let d = a[i].distance(to: b[j])
        let v: Double
        if i == 0 && j == 0 {
            v = d
        } else if i == 0 {
            v = max(c(0, j - 1), d)
        } else if j == 0 {
            v = max(c(i - 1, 0), d)
        } else {
            v = max(min(c(i - 1, j), c(i - 1, j - 1), c(i, j - 1)), d)
        }
        memo[i * b.count + j] = v
        return v
    }
    return c(a.count - 1, b.count - 1)
}

@Suite("Discrete Fréchet distance")
struct FrechetDistanceTests {
    @Test func matchesTheRecursiveDefinition() throws {
        var rng = SplitMix64(seed: 51)
        for _ in 0..<10 {
            let start = Coordinate(
                latitude: rng.uniform(-60, 60), longitude: rng.uniform(-180, 180))
            let a = TestLines.randomWalk(
                count: Int(rng.uniform(1, 25)), start: start, minimumStep: 10, maximumStep: 500,
                rng: &rng)
            let b = TestLines.randomWalk(
                count: Int(rng.uniform(1, 25)), start: start, minimumStep: 10, maximumStep: 500,
                rng: &rng)
            let d = try Polyline(a).discreteFrechetDistance(to: Polyline(b))
            #expect(abs(d - recursiveFrechet(a, b)) < 1e-9)
            #expect(abs(d - (try Polyline(b).discreteFrechetDistance(to: Polyline(a)))) < 1e-9)
        }
    }

    @Test func orderMatters() throws {
        let a = try Polyline((0...4).map { Coordinate(latitude: 0, longitude: Double($0) * 0.01) })
        #expect(a.discreteFrechetDistance(to: a) == 0)
        // Reversed, the walkers start at opposite ends: at least the length apart.
        #expect(abs(a.discreteFrechetDistance(to: a.reversed()) - a.length) < 1e-6)
        #expect(a.discreteHausdorffDistance(to: a.reversed()) < 1e-6)
        // A copy 0.001° further north: the walkers stay one meridian step apart.
        let b = try Polyline(
            a.coordinates.map { Coordinate(latitude: 0.001, longitude: $0.longitude) })
        let step = Coordinate(latitude: 0, longitude: 0).distance(
            to: Coordinate(latitude: 0.001, longitude: 0))
        #expect(abs(a.discreteFrechetDistance(to: b) - step) < 1e-9)
    }
}
