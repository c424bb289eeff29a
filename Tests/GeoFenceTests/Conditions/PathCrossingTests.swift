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
            let passes = PathCrossing.find(.circle(circle), along: path, depth: 0)
            #expect(passes.count <= 1)
            let found = passes.first
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
        #expect(PathCrossing.find(.circle(circle), along: path, depth: 50).count == 1)
        #expect(PathCrossing.find(.circle(circle), along: path, depth: 150).isEmpty)
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
        let passes = PathCrossing.find(.polygon(square), along: across, depth: 0)
        #expect(passes.count == 1)
        let found = try #require(passes.first)
        let truth = try #require(Self.sampled(.polygon(square), across.line, steps: 20_000))
        #expect(abs(found.entryFraction - truth.first) <= 1e-4)
        #expect(abs(found.exitFraction - truth.last) <= 1e-4)
        // The same path between two fixes at one place is no path.
        let here = Location(coordinate: center, timestamp: Date(timeIntervalSince1970: 0))
        #expect(PathCrossing.Path(from: here, to: here) == nil)
    }

    /// A path through a U-shaped fence, or through a polygon and its hole, passes through twice:
    /// two enters and two exits where sampling puts them; a notch narrower than the margin does
    /// not count as leaving.
    @Test func severalPassesThroughOnePolygon() throws {
        func path(_ a: Coordinate, _ b: Coordinate) throws -> PathCrossing.Path {
            try #require(
                PathCrossing.Path(
                    from: Location(coordinate: a, timestamp: Date(timeIntervalSince1970: 0)),
                    to: Location(coordinate: b, timestamp: Date(timeIntervalSince1970: 600))))
        }
        func c(_ lon: Double, _ lat: Double) -> Coordinate {
            Coordinate(latitude: lat, longitude: lon)
        }
        // A U open to the north: its notch spans longitudes 0.03 to 0.07 above latitude 0.03.
        let u = try PolygonGeographicCondition(exterior: [
            c(0, 0), c(0.1, 0), c(0.1, 0.1), c(0.07, 0.1), c(0.07, 0.03), c(0.03, 0.03),
            c(0.03, 0.1), c(0, 0.1),
        ])
        let across = try path(c(-0.05, 0.05), c(0.15, 0.05))
        let passes = PathCrossing.find(.polygon(u), along: across, depth: 0)
        #expect(passes.count == 2)
        for (pass, (entry, exit)) in zip(passes, [(0.0, 0.03), (0.07, 0.1)]) {
            #expect(
                abs(pass.entry.longitude - entry) < 1e-7 && abs(pass.exit.longitude - exit) < 1e-7)
            #expect(abs(pass.entry.latitude - 0.05) < 1e-4)
        }
        #expect(passes[0].exitFraction < passes[1].entryFraction)
        // Each arm is 3.3 km wide (1.67 km deep on the path): a margin of 1.5 km keeps both
        // passes, one of 2 km neither.
        #expect(PathCrossing.find(.polygon(u), along: across, depth: 1_500).count == 2)
        #expect(PathCrossing.find(.polygon(u), along: across, depth: 2_000).isEmpty)
        // A notch 1.1 km wide takes the path only 0.55 km outside: with a margin of 1 km that is
        // not leaving, and the two passes are one, from the first entry to the last exit.
        let narrow = try PolygonGeographicCondition(exterior: [
            c(0, 0), c(0.1, 0), c(0.1, 0.1), c(0.055, 0.1), c(0.055, 0.03), c(0.045, 0.03),
            c(0.045, 0.1), c(0, 0.1),
        ])
        #expect(PathCrossing.find(.polygon(narrow), along: across, depth: 300).count == 2)
        let one = PathCrossing.find(.polygon(narrow), along: across, depth: 1_000)
        #expect(one.count == 1)
        #expect(abs((one.first?.entry.longitude ?? 1) - 0) < 1e-7)
        #expect(abs((one.first?.exit.longitude ?? 0) - 0.1) < 1e-7)
        // Through a square with a square hole: in, out through the hole, in, out.
        let holed = try PolygonGeographicCondition(
            exterior: [c(0, 0), c(0.1, 0), c(0.1, 0.1), c(0, 0.1)],
            holes: [[c(0.04, 0.04), c(0.06, 0.04), c(0.06, 0.06), c(0.04, 0.06)]])
        let throughHole = PathCrossing.find(
            .polygon(holed), along: try path(c(-0.05, 0.05), c(0.15, 0.05)), depth: 0)
        #expect(throughHole.count == 2)
        #expect(abs((throughHole.first?.exit.longitude ?? 0) - 0.04) < 1e-7)
        #expect(abs((throughHole.last?.entry.longitude ?? 0) - 0.06) < 1e-7)
    }
}
