import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoFence

/// Where the geodesic between two fixes enters and leaves a fence, against dense sampling of the
/// path.
@Suite("PathCrossing")
struct PathCrossingTests {
    /// The first and last fractions of the path inside the fence, by sampling every `1/steps`.
    static func sampled(
        _ condition: GeographicCondition, _ line: GeodesicLine, steps: Int
    ) -> (first: Double, last: Double, deepest: Double)? {
        var first: Double?, last = 0.0, deepest = Double.infinity
        for k in 0...steps {
            let f = Double(k) / Double(steps)
            let d = condition.signedDistance(
                from: line.position(atDistance: f * line.length).coordinate)
            deepest = min(deepest, d)
            if d <= 0 {
                if first == nil { first = f }
                last = f
            }
        }
        return first.map { ($0, last, deepest) }
    }

    @Test func circlesAgreeWithSampling() throws {
        var rng = SplitMix64(seed: 12)
        var crossings = 0
        for _ in 0..<60 {
            let center = Coordinate(
                latitude: rng.uniform(-70, 70), longitude: rng.uniform(-180, 180))
            let radius = rng.uniform(200, 5_000)
            let circle = try CircularGeographicCondition(center: center, radius: radius)
            let a = Geodesic.wgs84.direct(
                from: center, azimuth: rng.uniform(0, 360), distance: radius * rng.uniform(1.5, 4))
            let b = Geodesic.wgs84.direct(
                from: center, azimuth: rng.uniform(0, 360), distance: radius * rng.uniform(1.5, 4))
            let from = Location(coordinate: a.coordinate, timestamp: Date(timeIntervalSince1970: 0))
            let to = Location(coordinate: b.coordinate, timestamp: Date(timeIntervalSince1970: 60))
            let path = try #require(PathCrossing.Path(from: from, to: to))
            let found = PathCrossing.find(.circle(circle), along: path, depth: 0)
            let truth = Self.sampled(.circle(circle), path.line, steps: 20_000)
            // Sampling every 1/20 000 of the path resolves the crossings to its spacing.
            let spacing = 1.0 / 20_000
            switch (found, truth) {
            case (let found?, let truth?):
                crossings += 1
                #expect(abs(found.entryFraction - truth.first) <= spacing + 1e-6)
                #expect(abs(found.exitFraction - truth.last) <= spacing + 1e-6)
                #expect(found.deepest <= truth.deepest + 1e-3)
                #expect(abs(circle.signedDistance(from: found.entry)) < 0.01)
                #expect(abs(circle.signedDistance(from: found.exit)) < 0.01)
            case (nil, let truth?):
                // A grazing pass shallower than the sampling can tell is all that may be missed.
                #expect(truth.deepest > -0.01, "missed a crossing \(truth.deepest) m deep")
            case (let found?, nil):
                #expect(found.deepest > -0.01, "a crossing sampling never saw")
            case (nil, nil):
                break
            }
        }
        #expect(crossings > 10)
    }

    /// A crossing shallower than the asked depth does not count; a polygon is crossed where
    /// sampling says.
    @Test func depthAndPolygons() throws {
        let center = Coordinate(latitude: 10, longitude: 20)
        let circle = try CircularGeographicCondition(center: center, radius: 1_000)
        // A chord 900 m from the center: 100 m deep at its middle.
        let mid = Geodesic.wgs84.direct(from: center, azimuth: 0, distance: 900).coordinate
        let a = Geodesic.wgs84.direct(from: mid, azimuth: 270, distance: 3_000).coordinate
        let b = Geodesic.wgs84.direct(from: mid, azimuth: 90, distance: 3_000).coordinate
        let path = try #require(
            PathCrossing.Path(
                from: Location(coordinate: a, timestamp: Date(timeIntervalSince1970: 0)),
                to: Location(coordinate: b, timestamp: Date(timeIntervalSince1970: 60))))
        #expect(PathCrossing.find(.circle(circle), along: path, depth: 50) != nil)
        #expect(PathCrossing.find(.circle(circle), along: path, depth: 150) == nil)
        let square = try PolygonGeographicCondition(exterior: [
            Coordinate(latitude: 9.99, longitude: 19.99),
            Coordinate(latitude: 9.99, longitude: 20.01),
            Coordinate(latitude: 10.01, longitude: 20.01),
            Coordinate(latitude: 10.01, longitude: 19.99),
        ])
        let across = try #require(
            PathCrossing.Path(
                from: Location(
                    coordinate: Coordinate(latitude: 10, longitude: 19.9),
                    timestamp: Date(timeIntervalSince1970: 0)),
                to: Location(
                    coordinate: Coordinate(latitude: 10, longitude: 20.1),
                    timestamp: Date(timeIntervalSince1970: 60))))
        let found = try #require(PathCrossing.find(.polygon(square), along: across, depth: 0))
        let truth = try #require(Self.sampled(.polygon(square), across.line, steps: 20_000))
        #expect(abs(found.entryFraction - truth.first) <= 1e-4)
        #expect(abs(found.exitFraction - truth.last) <= 1e-4)
        // The same path between two fixes at one place is no path.
        let here = Location(coordinate: center, timestamp: Date(timeIntervalSince1970: 0))
        #expect(PathCrossing.Path(from: here, to: here) == nil)
    }
}
