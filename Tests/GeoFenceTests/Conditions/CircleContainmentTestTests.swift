import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoFence

@Suite("CircleContainmentTest: the proven bound of the cheap test")
struct CircleContainmentTestTests {
    /// Seeded random circles worldwide (a third at |latitude| ≥ 70°, up to 0.01° from a pole; a third
    /// within 1° of the 180th meridian), radii log-uniform from 1 m to 2 000 km, points at random
    /// bearings and geodesic distances up to 3 radii (on both sides of the 180th meridian). Checks
    /// the theorem against `geod_inverse`: within 9/8 of the radius
    /// k_lo · d ≤ s ≤ k_hi · d, and for every point a cheap "inside" or "outside" is the geodesic
    /// answer.
    @Test func boundHoldsAgainstBruteForceGeodesics() throws {
        var rng = SplitMix64(seed: 2024)
        var checkedBound = 0, decided = 0, undecided = 0
        for i in 0..<1_500 {
            let latitude: Double, longitude: Double
            switch i % 3 {
            case 0: (latitude, longitude) = (rng.uniform(-89.99, 89.99), rng.uniform(-180, 180))
            case 1:
                let magnitude = rng.uniform(70, 89.99)
                (latitude, longitude) = (
                    rng.nextUnit() < 0.5 ? magnitude : -magnitude, rng.uniform(-180, 180)
                )
            default:
                let offset = rng.uniform(0, 1)
                (latitude, longitude) = (
                    rng.uniform(-80, 80), rng.nextUnit() < 0.5 ? 180 - offset : -180 + offset
                )
            }
            let radius = exp(rng.uniform(log(1), log(2_000_000)))
            let center = Coordinate(latitude: latitude, longitude: longitude)
            let test = CircleContainmentTest(
                try CircularGeographicCondition(center: center, radius: radius))
            for _ in 0..<12 {
                let u = rng.nextUnit() < 0.7 ? rng.uniform(0.9, 1.1) : rng.uniform(0, 3)
                let point = center.coordinate(atDistance: u * radius, bearing: rng.uniform(0, 360))
                let s = Geodesic.wgs84.distance(from: center, to: point)
                let d = test.approximateDistance(to: point)
                if s <= radius * 9 / 8 {
                    // geod_inverse is within 15 nm of the true distance.
                    #expect(
                        test.lowerRatio * d <= s + 1e-7,
                        "lower bound at \(center) r=\(radius) s=\(s) d=\(d)")
                    #expect(
                        s <= test.upperRatio * d + 1e-7,
                        "upper bound at \(center) r=\(radius) s=\(s) d=\(d)")
                    #expect(abs(d - s) <= test.relativeErrorBound * d + 1e-7)
                    checkedBound += 1
                }
                switch test.verdict(for: point) {
                case .inside:
                    #expect(s <= radius, "cheap inside but s=\(s) > r=\(radius) at \(center)")
                    decided += 1
                case .outside:
                    #expect(s > radius, "cheap outside but s=\(s) <= r=\(radius) at \(center)")
                    decided += 1
                case .undecided:
                    undecided += 1
                }
                #expect(test.contains(point) == (s <= radius))
            }
        }
        #expect(checkedBound > 10_000)
        #expect(decided > undecided)
    }

    /// Points exactly on the circle and a micrometer either side: the cheap test must defer to the
    /// exact distance rather than guess.
    @Test func pointsOnTheBoundaryGoToTheExactPath() throws {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<300 {
            let center = Coordinate(
                latitude: rng.uniform(-85, 85), longitude: rng.uniform(-180, 180))
            let radius = exp(rng.uniform(log(10), log(50_000)))
            let point = center.coordinate(atDistance: radius, bearing: rng.uniform(0, 360))
            let s = Geodesic.wgs84.distance(from: center, to: point)
            for r in [s, s.nextDown, s.nextUp, s - 1e-6, s + 1e-6] where r >= 0 {
                let test = CircleContainmentTest(
                    try CircularGeographicCondition(center: center, radius: r))
                #expect(test.verdict(for: point) == .undecided)
                #expect(test.contains(point) == (s <= r))
            }
        }
    }

    /// At the latitudes and radii of typical geofences the bound is tight: fewer than 1 in 200
    /// candidates spread over 0–2 radii needs the exact geodesic.
    @Test func boundIsTightForTypicalFences() throws {
        var rng = SplitMix64(seed: 7)
        var undecided = 0, total = 0
        for _ in 0..<400 {
            let center = Coordinate(
                latitude: rng.uniform(-60, 60), longitude: rng.uniform(-180, 180))
            let radius = exp(rng.uniform(log(50), log(5_000)))
            let test = CircleContainmentTest(
                try CircularGeographicCondition(center: center, radius: radius))
            for _ in 0..<50 {
                let point = center.coordinate(
                    atDistance: rng.uniform(0, 2) * radius, bearing: rng.uniform(0, 360))
                if test.verdict(for: point) == .undecided { undecided += 1 }
                total += 1
            }
        }
        #expect(Double(undecided) / Double(total) < 0.005, "\(undecided) of \(total) undecided")
    }

    /// The table of ε in `CircleContainmentTest`'s documentation.
    @Test(arguments: [
        (100.0, 45.0, 1.8e-5), (1_000, 45, 1.8e-4), (5_000, 45, 8.9e-4), (1_000, 60, 3.1e-4),
        (1_000, 80, 1.0e-3),
        (100_000, 45, 1.8e-2), (100, 0, 1.6e-10), (1_000, 0, 1.6e-8), (5_000, 0, 3.9e-7),
        (5_000, 80, 5.0e-3),
    ])
    func documentedEpsilon(radius: Double, latitude: Double, epsilon: Double) throws {
        let test = CircleContainmentTest(
            try CircularGeographicCondition(
                center: Coordinate(latitude: latitude, longitude: 0), radius: radius))
        #expect(
            abs(test.relativeErrorBound - epsilon) <= 0.06 * epsilon,
            "ε = \(test.relativeErrorBound)")
    }

    /// Near a pole nothing is declared outside by the cheap test (P → 0), yet the answer is exact.
    @Test func polesFallBackToTheExactPath() throws {
        let pole = Coordinate(latitude: 90, longitude: 0)
        let test = CircleContainmentTest(
            try CircularGeographicCondition(center: pole, radius: 10_000))
        #expect(test.lowerRatio == 0 || test.relativeErrorBound > 0)
        for longitude in stride(from: -180.0, through: 180, by: 45) {
            let inside = Coordinate(latitude: 89.92, longitude: longitude)
            let outside = Coordinate(latitude: 89.90, longitude: longitude)
            #expect(
                test.contains(inside) == (Geodesic.wgs84.distance(from: pole, to: inside) <= 10_000)
            )
            #expect(
                test.contains(outside)
                    == (Geodesic.wgs84.distance(from: pole, to: outside) <= 10_000))
        }
    }
}
