import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("Polyline.sliced and reversed")
struct SlicingTests {
    @Test func slicesFollowTheLine() throws {
        var rng = SplitMix64(seed: 21)
        let line = try Polyline(
            TestLines.randomWalk(
                count: 40, start: Coordinate(latitude: 35, longitude: 139), minimumStep: 10,
                maximumStep: 20_000, rng: &rng))
        for _ in 0..<30 {
            let a = rng.uniform(-100, line.length + 100), b = rng.uniform(-100, line.length + 100)
            let (from, to) = (min(a, b), max(a, b))
            let slice = try line.sliced(fromDistance: from, toDistance: to)
            let clampedFrom = min(max(from, 0), line.length),
                clampedTo = min(max(to, 0), line.length)
            // The slice is as long as the stretch it covers and starts and ends where it should.
            #expect(abs(slice.length - (clampedTo - clampedFrom)) < 1e-6)
            #expect(
                slice.start.isApproximatelyEqual(
                    to: line.coordinate(atDistance: from), toleranceMeters: 1e-9))
            #expect(
                slice.end.isApproximatelyEqual(
                    to: line.coordinate(atDistance: to), toleranceMeters: 1e-9))
            // Points along the slice are points along the line.
            let d = rng.uniform(0, slice.length)
            #expect(
                slice.coordinate(atDistance: d).isApproximatelyEqual(
                    to: line.coordinate(atDistance: clampedFrom + d), toleranceMeters: 1e-6))
        }
    }

    @Test func sliceAtVerticesKeepsThem() throws {
        let vertices = [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 0.01),
            Coordinate(latitude: 0.01, longitude: 0.01),
            Coordinate(latitude: 0.01, longitude: 0.02),
        ]
        let line = try Polyline(vertices)
        let slice = try line.sliced(
            fromDistance: line.cumulativeDistances[1], toDistance: line.cumulativeDistances[3])
        #expect(slice.coordinates == Array(vertices[1...3]))
        let point = try line.sliced(fromDistance: 5, toDistance: 5)
        #expect(point.coordinates.count == 1)
        let whole = try line.sliced(fromDistance: -1, toDistance: .infinity)
        #expect(whole.coordinates == vertices)
    }

    @Test func badDistancesThrow() throws {
        let line = try Polyline([
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
        ])
        #expect(throws: GeoError.self) { try line.sliced(fromDistance: 10, toDistance: 5) }
        #expect(throws: GeoError.self) { try line.sliced(fromDistance: .nan, toDistance: 5) }
    }

    @Test func reversedTravelsBackwards() throws {
        var rng = SplitMix64(seed: 22)
        let line = try Polyline(
            TestLines.randomWalk(
                count: 25, start: Coordinate(latitude: -45, longitude: 170), minimumStep: 100,
                maximumStep: 50_000, rng: &rng))
        let back = line.reversed()
        #expect(back.coordinates == line.coordinates.reversed())
        #expect(abs(back.length - line.length) < 1e-6)
        for _ in 0..<20 {
            let d = rng.uniform(0, line.length)
            #expect(
                back.coordinate(atDistance: line.length - d).isApproximatelyEqual(
                    to: line.coordinate(atDistance: d), toleranceMeters: 1e-6))
        }
        #expect(back.reversed() == line)
    }
}
