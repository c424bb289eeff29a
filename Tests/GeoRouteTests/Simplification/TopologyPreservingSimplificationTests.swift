import Foundation
import GeoCore
import GeoRoute
import GeoTestSupport
import Testing

@Suite("Topology-preserving simplification")
struct TopologyPreservingSimplificationTests {
    /// A seeded random walk of `count` steps of 5–40 m near a latitude.
    private func walk(seed: UInt64, count: Int, latitude: Double) -> [Coordinate] {
        var rng = SplitMix64(seed: seed)
        var here = Coordinate(latitude: latitude, longitude: rng.uniform(-180, 180))
        var heading = rng.uniform(0, 360)
        var points = [here]
        for _ in 1..<count {
            heading += rng.uniform(-35, 35)
            here = here.coordinate(atDistance: rng.uniform(5, 40), bearing: heading)
            points.append(here)
        }
        return points
    }

    /// The smallest geodesic distance from a point to a polyline (every segment, exactly).
    private func distance(from point: Coordinate, to line: [Coordinate]) -> Double {
        var best = Double.infinity
        for i in 1..<line.count {
            best = min(
                best,
                Geodesic.wgs84.line(from: line[i - 1], to: line[i]).closestPoint(to: point).distance
            )
        }
        return best
    }

    /// On random walks: the result keeps the ends and a subset of the vertices, every dropped vertex lies
    /// within the tolerance (plus the plane's 1e-6 scale error) of the result, and the result is a
    /// simple line whenever the original is.
    @Test func keepsSimpleLinesSimple() throws {
        var simpleOriginals = 0
        for seed in UInt64(0)..<40 {
            let points = walk(seed: seed, count: 60, latitude: Double(seed % 7) * 12 - 30)
            let line = try Polyline(points)
            guard try Geometry.lineString(coordinates: points).isSimple() else { continue }
            simpleOriginals += 1
            for tolerance in [15.0, 40, 120] {
                let kept = try line.simplifiedIndices(
                    tolerance: tolerance, method: .topologyPreserving)
                #expect(kept.first == 0 && kept.last == points.count - 1)
                #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 })
                let result = kept.map { points[$0] }
                #expect(
                    try Geometry.lineString(coordinates: result).isSimple(),
                    "seed \(seed) tolerance \(tolerance)")
                let keptSet = Set(kept)
                for i in points.indices where !keptSet.contains(i) {
                    #expect(distance(from: points[i], to: result) <= tolerance * (1 + 1e-6) + 1e-6)
                }
            }
        }
        #expect(simpleOriginals > 5)
    }

    /// A line whose outgoing leg humps over the tip of a spike on its way back: plain Douglas–Peucker
    /// flattens the hump (30 m < 35 m) and the flattened leg crosses the spike; the topology-preserving
    /// method keeps the hump.
    @Test func hairpinThatDouglasPeuckerBreaks() throws {
        let (m, n) = LocalPlane.radiiOfCurvature(atLatitudeRadians: 45 * .pi / 180)
        func at(_ x: Double, _ y: Double) -> Coordinate {
            Coordinate(
                latitude: 45 + y / m * 180 / .pi,
                longitude: 7 + x / (n * cos(45 * .pi / 180)) * 180 / .pi)
        }
        let points = [
            at(0, 0), at(500, 30), at(1000, 0), at(1000, -50), at(600, -50), at(500, 15),
            at(400, -50), at(0, -50),
        ]
        #expect(try Geometry.lineString(coordinates: points).isSimple())
        let line = try Polyline(points)
        let plain = try line.simplifiedIndices(tolerance: 35, method: .douglasPeucker)
        #expect(!plain.contains(1))
        #expect(try !Geometry.lineString(coordinates: plain.map { points[$0] }).isSimple())
        let kept = try line.simplifiedIndices(tolerance: 35, method: .topologyPreserving)
        #expect(kept.contains(1))
        #expect(try Geometry.lineString(coordinates: kept.map { points[$0] }).isSimple())
    }

    @Test func shortLinesAndValidation() throws {
        let two = try Polyline([
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 0.001),
        ])
        #expect(try two.simplifiedIndices(tolerance: 10, method: .topologyPreserving) == [0, 1])
        #expect(throws: GeoError.self) {
            try two.simplified(tolerance: -1, method: .topologyPreserving)
        }
        // A straight line of many vertices collapses to its ends.
        let straight = try Polyline(
            (0...50).map { Coordinate(latitude: 10, longitude: 20 + Double($0) * 1e-4) })
        #expect(
            try straight.simplifiedIndices(tolerance: 5, method: .topologyPreserving) == [0, 50])
    }
}
