import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

/// Seeded test geometry shared by the GeoRoute tests.
enum TestLines {
    /// A random walk of `count` vertices from `start`: each step `minimumStep...maximumStep` meters
    /// along a geodesic, turning by up to `maximumTurn` degrees.
    static func randomWalk(
        count: Int, start: Coordinate, minimumStep: Double, maximumStep: Double,
        maximumTurn: Double = 60, rng: inout SplitMix64
    ) -> [Coordinate] {
        var result = [start]
        var bearing = rng.uniform(0, 360)
        for _ in 1..<count {
            bearing += rng.uniform(-maximumTurn, maximumTurn)
            let step = rng.uniform(minimumStep, maximumStep)
            result.append(result[result.count - 1].coordinate(atDistance: step, bearing: bearing))
        }
        return result
    }

    /// A point at a random distance up to `maximumOffset` meters from a random point of the line.
    static func pointNear(
        _ line: Polyline, maximumOffset: Double, rng: inout SplitMix64
    ) -> Coordinate {
        let on = line.coordinate(atDistance: rng.uniform(0, line.length))
        return on.coordinate(
            atDistance: rng.uniform(0, maximumOffset), bearing: rng.uniform(0, 360))
    }
}

/// The nearest point of a polyline by dense geodesic sampling: every segment is sampled at 400
/// points, then the best sample of each segment is refined by golden-section search to 0.1 mm.
/// Independent of the segment index and of `GeodesicLine.closestPoint`.
func bruteForceNearest(_ line: Polyline, to point: Coordinate) -> (distance: Double, along: Double)
{
    var best = (distance: Double.infinity, along: 0.0)
    let geodesic = Geodesic.wgs84
    for i in 0..<max(1, line.segmentCount) {
        guard line.segmentCount > 0 else {
            return (geodesic.distance(from: line.coordinates[0], to: point), 0)
        }
        let a = line.coordinates[i], b = line.coordinates[i + 1]
        let segment = geodesic.line(from: a, to: b)
        let samples = 400
        let step = segment.length / Double(samples)
        func distance(_ s: Double) -> Double {
            geodesic.distance(from: segment.position(atDistance: s).coordinate, to: point)
        }
        var bestS = 0.0, bestD = Double.infinity
        for k in 0...samples {
            let s = Double(k) * step
            let d = distance(s)
            if d < bestD { (bestS, bestD) = (s, d) }
        }
        var lo = max(0, bestS - step), hi = min(segment.length, bestS + step)
        let ratio = (5.0.squareRoot() - 1) / 2
        while hi - lo > 1e-4 {
            let m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo)
            if distance(m1) < distance(m2) { hi = m2 } else { lo = m1 }
        }
        for s in [lo, hi, bestS] {
            let d = distance(s)
            if d < best.distance { best = (d, line.cumulativeDistances[i] + s) }
        }
    }
    return best
}
