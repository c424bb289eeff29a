import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("Polyline.resampled")
struct ResamplingTests {
    @Test func samplesAreEvenlySpacedAlongTheLine() throws {
        var rng = SplitMix64(seed: 31)
        let line = try Polyline(
            TestLines.randomWalk(
                count: 30, start: Coordinate(latitude: 51.5, longitude: -0.1), minimumStep: 5,
                maximumStep: 3_000, rng: &rng))
        let spacing = 250.0
        let samples = try line.resampled(every: spacing)
        let expectedCount = Int((line.length / spacing).rounded(.down)) + 1 + 1
        #expect(samples.coordinates.count == expectedCount)
        for (k, c) in samples.coordinates.dropLast().enumerated() {
            #expect(
                c.isApproximatelyEqual(
                    to: line.coordinate(atDistance: Double(k) * spacing), toleranceMeters: 1e-6))
        }
        #expect(samples.start == line.start && samples.end == line.end)
        // Cutting corners never makes the line longer.
        #expect(samples.length <= line.length + 1e-6)
    }

    @Test func exactMultipleEndsOnTheLastVertex() throws {
        let a = Coordinate(latitude: 0, longitude: 0)
        let b = a.coordinate(atDistance: 1_000, bearing: 90)
        let line = try Polyline([a, b])
        let samples = try line.resampled(every: line.length / 4)
        #expect(samples.coordinates.count == 5)
        #expect(samples.end == b)
    }

    /// A line whose summed length rounds a hair past a multiple of the spacing (10 km in ten
    /// 1 km steps measures 10000.00000000005 m) ends on its last vertex, without a second point
    /// 50 picometers on.
    @Test func roundingPastAMultipleAddsNoPoint() throws {
        // The first bearing whose ten steps sum to a hair more than 10 km.
        var found: Polyline?
        for bearing in stride(from: 0.0, to: 360, by: 1) {
            var points = [Coordinate(latitude: 10, longitude: 20)]
            for _ in 0..<10 {
                points.append(
                    points[points.count - 1].coordinate(atDistance: 1_000, bearing: bearing))
            }
            let line = try Polyline(points)
            if line.length > 10_000 {
                found = line
                break
            }
        }
        let line = try #require(found)
        #expect(line.length - 10_000 < 1e-6)
        let samples = try line.resampled(every: 1_000)
        #expect(samples.coordinates.count == 11)
        #expect(samples.end == line.end)
        // A line shorter than a nanometer keeps its start and its end.
        let start = Coordinate(latitude: 10, longitude: 20)
        let tiny = try Polyline([start, start.coordinate(atDistance: 4e-10, bearing: 90)])
        let both = try tiny.resampled(every: 1).coordinates
        #expect(both.first == tiny.start && both.last == tiny.end && both.count == 2)
        // A real remainder still gets its end point.
        #expect(try line.resampled(every: 999.9).coordinates.count == 12)
    }

    @Test func badSpacingThrows() throws {
        let line = try Polyline([
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 10),
        ])
        for spacing in [0, -1, Double.nan, .infinity, 1e-6] {
            #expect(throws: GeoError.self) { try line.resampled(every: spacing) }
        }
        let single = try Polyline([Coordinate(latitude: 0, longitude: 0)])
        #expect(try single.resampled(every: 10).coordinates.count == 1)
    }
}
