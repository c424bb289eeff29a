import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("Polyline.closestPoint")
struct ClosestPointTests {
    /// Against dense geodesic sampling on seeded random walks in several places (mid-latitudes, near
    /// the poles, across the 180th meridian), with segments from 30 m to 40 km and points up to
    /// 30 km off the line: the distances agree within 1 cm and the reported point lies on the line at
    /// the reported distance along it.
    @Test(arguments: [
        (Coordinate(latitude: 45.8, longitude: 6.9), 1.0),
        (Coordinate(latitude: 78.2, longitude: 15.6), 2.0),
        (Coordinate(latitude: -16.8, longitude: 179.6), 3.0),
        (Coordinate(latitude: -0.2, longitude: -78.5), 4.0),
    ])
    func agreesWithDenseSampling(start: Coordinate, seed: Double) throws {
        var rng = SplitMix64(seed: UInt64(seed))
        let vertices = TestLines.randomWalk(
            count: 30, start: start, minimumStep: 30, maximumStep: 40_000, rng: &rng)
        let line = try Polyline(vertices)
        for _ in 0..<6 {
            let p = TestLines.pointNear(line, maximumOffset: 30_000, rng: &rng)
            let fast = line.closestPoint(to: p)
            let brute = bruteForceNearest(line, to: p)
            #expect(
                abs(fast.distance - brute.distance) <= 0.01,
                "fast \(fast.distance) brute \(brute.distance)")
            #expect(
                abs(Geodesic.wgs84.distance(from: fast.coordinate, to: p) - fast.distance) < 1e-3)
            #expect(
                line.coordinate(atDistance: fast.distanceAlong).isApproximatelyEqual(
                    to: fast.coordinate, toleranceMeters: 1e-3))
            #expect(fast.segmentIndex >= 0 && fast.segmentIndex < line.segmentCount)
        }
    }

    /// The indexed search gives the same segment and point as trying every segment, on a
    /// 3 000-vertex line with many near-ties (a zigzag that folds back on itself).
    @Test func agreesWithLinearScanOnLongLines() throws {
        var rng = SplitMix64(seed: 99)
        let vertices = TestLines.randomWalk(
            count: 3_000, start: Coordinate(latitude: 52.5, longitude: 13.4), minimumStep: 5,
            maximumStep: 400,
            maximumTurn: 150, rng: &rng)
        let line = try Polyline(vertices)
        for _ in 0..<25 {
            let p = TestLines.pointNear(line, maximumOffset: 2_000, rng: &rng)
            let fast = line.closestPoint(to: p)
            let scan = line.closestPointByLinearScan(to: p)
            #expect(abs(fast.distance - scan.distance) < 1e-6)
            #expect(
                fast.coordinate.isApproximatelyEqual(to: scan.coordinate, toleranceMeters: 0.01))
        }
    }

    @Test func pointsOnTheLineAndBeyondItsEnds() throws {
        let line = try Polyline([
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
            Coordinate(latitude: 1, longitude: 1),
        ])
        // A vertex projects onto itself.
        let vertex = line.closestPoint(to: Coordinate(latitude: 0, longitude: 1))
        #expect(vertex.distance < 1e-6)
        #expect(abs(vertex.distanceAlong - line.cumulativeDistances[1]) < 1e-6)
        // Before the start, the start is nearest.
        let before = line.closestPoint(to: Coordinate(latitude: 0, longitude: -0.5))
        #expect(before.distanceAlong == 0 && before.coordinate == line.start)
        // Beyond the end, the end is nearest.
        let after = line.closestPoint(to: Coordinate(latitude: 1.5, longitude: 1))
        #expect(after.distanceAlong == line.length && after.coordinate == line.end)
        #expect(after.segmentIndex == 1)
        // A point on the equator between the first two vertices projects onto the equator.
        let middle = line.closestPoint(to: Coordinate(latitude: 0.001, longitude: 0.5))
        #expect(
            abs(middle.coordinate.latitude) < 1e-9 && abs(middle.coordinate.longitude - 0.5) < 1e-7)
        #expect(middle.segmentIndex == 0)
    }

    @Test func degenerateLines() throws {
        let single = try Polyline([Coordinate(latitude: 10, longitude: 20)])
        let p = single.closestPoint(to: Coordinate(latitude: 10, longitude: 21))
        #expect(p.coordinate == single.start && p.distanceAlong == 0 && p.segmentIndex == 0)
        #expect(
            abs(
                p.distance
                    - Geodesic.wgs84.distance(
                        from: single.start, to: Coordinate(latitude: 10, longitude: 21))) < 1e-9)

        let repeated = try Polyline(
            Array(repeating: Coordinate(latitude: 1, longitude: 2), count: 4))
        #expect(repeated.length == 0)
        #expect(
            repeated.closestPoint(to: Coordinate(latitude: 1, longitude: 3)).coordinate
                == repeated.start)

        let nan = single.closestPoint(to: Coordinate(latitude: .nan, longitude: 0))
        #expect(nan.distance.isNaN)
    }

    /// Restricting the search to a range of distances picks the right pass of a line that comes back
    /// along itself.
    @Test func searchWithinADistanceRange() throws {
        let a = Coordinate(latitude: 40, longitude: -3),
            b = Coordinate(latitude: 40, longitude: -2.9)
        let line = try Polyline([a, b, a])  // out and back
        let p = Coordinate(latitude: 40.0001, longitude: -2.95)
        let outward = line.closestPoint(to: p, alongDistances: 0...(line.length / 2 - 1))
        let back = line.closestPoint(to: p, alongDistances: (line.length / 2 + 1)...line.length)
        #expect(outward.segmentIndex == 0 && back.segmentIndex == 1)
        #expect(abs(outward.distance - back.distance) < 1e-6)
        #expect(abs(outward.distanceAlong + back.distanceAlong - line.length) < 1e-3)
    }
}

@Suite("Polyline.closestPoint within a range")
struct ClosestPointRangeTests {
    /// Against dense sampling of only the stretch between the two distances.
    @Test func staysInsideTheRange() throws {
        var rng = SplitMix64(seed: 77)
        let line = try Polyline(
            TestLines.randomWalk(
                count: 20, start: Coordinate(latitude: 40, longitude: -105), minimumStep: 200,
                maximumStep: 3_000, rng: &rng))
        for _ in 0..<20 {
            let a = rng.uniform(0, line.length), b = rng.uniform(0, line.length)
            let range = min(a, b)...max(a, b)
            let p = TestLines.pointNear(line, maximumOffset: 2_000, rng: &rng)
            let fast = line.closestPoint(to: p, alongDistances: range)
            #expect(
                fast.distanceAlong >= range.lowerBound - 1e-6
                    && fast.distanceAlong <= range.upperBound + 1e-6)
            let slice = try line.sliced(
                fromDistance: range.lowerBound, toDistance: range.upperBound)
            let brute = bruteForceNearest(slice, to: p)
            #expect(
                abs(fast.distance - brute.distance) < 0.01, "\(fast.distance) vs \(brute.distance)")
        }
    }
}
