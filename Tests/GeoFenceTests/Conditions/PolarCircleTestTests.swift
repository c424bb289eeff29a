import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoFence

@Suite("PolarCircleTest: the cheap test near the poles")
struct PolarCircleTestTests {
    /// Seeded circles within 10° of either pole (some centered on it), radii log-uniform from 1 m to
    /// 300 km, points at random bearings and distances up to 2 radii: a cheap verdict is always the
    /// geodesic answer.
    @Test func verdictsAgreeWithGeodesics() throws {
        var rng = SplitMix64(seed: 31)
        var decided = 0, undecided = 0
        for i in 0..<600 {
            let magnitude = i % 10 == 0 ? 90 : rng.uniform(80, 90)
            let center = Coordinate(
                latitude: rng.nextUnit() < 0.5 ? magnitude : -magnitude,
                longitude: rng.uniform(-180, 180))
            let radius = exp(rng.uniform(log(1), log(300_000)))
            let circle = try CircularGeographicCondition(center: center, radius: radius)
            let test = try #require(PolarCircleTest(circle))
            for _ in 0..<10 {
                let point = center.coordinate(
                    atDistance: radius * rng.uniform(0, 2), bearing: rng.uniform(0, 360))
                let s = Geodesic.wgs84.distance(from: center, to: point)
                let (u, v) = PolarCircleTest.chart(
                    latitude: point.latitude, longitude: point.longitude, pole: test.pole)
                switch test.verdict(u: u, v: v) {
                case .inside:
                    #expect(s <= radius, "inside claimed at s=\(s) r=\(radius) center \(center)")
                    decided += 1
                case .outside:
                    #expect(s > radius, "outside claimed at s=\(s) r=\(radius) center \(center)")
                    decided += 1
                case .undecided:
                    undecided += 1
                }
            }
        }
        #expect(decided > 20 * undecided)
    }

    /// The ratio of the chart bounds stays below 2e-3 within 5° of a pole for ρ up to 100 km, as the
    /// documentation says: points 0.2 % inside or outside the radius are decided cheaply.
    @Test func boundIsTightNearThePoles() throws {
        for latitude in [85.0, 88, 89.9, 90, -87] {
            let center = Coordinate(latitude: latitude, longitude: 30)
            let circle = try CircularGeographicCondition(center: center, radius: 88_000)
            let test = try #require(PolarCircleTest(circle))
            for bearing in stride(from: 0.0, to: 360, by: 30) {
                for (factor, expected) in [
                    (0.998, CircleVerdict.inside), (1.002, .outside),
                ] {
                    let point = center.coordinate(atDistance: 88_000 * factor, bearing: bearing)
                    let (u, v) = PolarCircleTest.chart(
                        latitude: point.latitude, longitude: point.longitude, pole: test.pole)
                    #expect(
                        test.verdict(u: u, v: v) == expected,
                        "latitude \(latitude) bearing \(bearing)")
                }
            }
        }
        // Beyond 45° from the pole the chart is not used.
        #expect(
            PolarCircleTest(
                try CircularGeographicCondition(
                    center: Coordinate(latitude: 30, longitude: 0), radius: 10)) == nil)
    }
}
