import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoFence

@Suite("EllipsoidMetric: the facts the proofs rest on")
struct EllipsoidMetricTests {
    /// Points within a geodesic distance of a center lie in the proven box of `reach`, at any
    /// latitude and across the 180th meridian; the chord never exceeds the geodesic distance.
    @Test func reachBoxAndChord() {
        var rng = SplitMix64(seed: 8)
        for i in 0..<3_000 {
            let latitude = i % 3 == 0 ? rng.uniform(80, 89.9) : rng.uniform(-80, 80)
            let center = Coordinate(
                latitude: latitude,
                longitude: i % 2 == 0 ? rng.uniform(179, 180) : rng.uniform(-180, 180))
            let d = exp(rng.uniform(log(1), log(500_000)))
            let point = center.coordinate(
                atDistance: d * rng.uniform(0, 1), bearing: rng.uniform(0, 360))
            let reach = EllipsoidMetric.reach(d, around: center.latitude)
            #expect(abs(point.latitude - center.latitude) <= reach.latitude)
            if let lon = reach.longitude {
                var dLon = abs(point.longitude - center.longitude)
                if dLon > 180 { dLon = 360 - dLon }
                #expect(dLon <= lon, "center \(center) d \(d)")
            }
            let s = Geodesic.wgs84.distance(from: center, to: point)
            let chord = EllipsoidMetric.chordLowerBound(
                EllipsoidMetric.cartesian(center), EllipsoidMetric.cartesian(point))
            #expect(chord <= s)
            #expect(chord >= s * (1 - 1e-3) - 1e-3)  // and close to it for short lines
        }
    }

    /// M₀ = a(1 − e²) and a²/b (WGS84: 6 335 439.327 m and 6 399 593.626 m), and the extremes of M and P
    /// on a band, from the band's trigonometry or its Taylor series, agree far inside the 1e-12
    /// widening the bounds carry.
    @Test func radiiAndExtremes() {
        #expect(abs(EllipsoidMetric.minimumMeridionalRadius - 6_335_439.327) < 1e-3)
        #expect(abs(EllipsoidMetric.maximumRadius - 6_399_593.626) < 1e-3)
        var rng = SplitMix64(seed: 9)
        for _ in 0..<500 {
            let phi = EllipsoidMetric.Latitude(degrees: rng.uniform(-89, 89))
            let delta = rng.uniform(0, 0.01)
            let fast = EllipsoidMetric.extremes(around: phi, halfWidth: delta)
            let slow = EllipsoidMetric.extremes(low: phi.radians - delta, high: phi.radians + delta)
            #expect(
                abs(fast.mMin / slow.mMin - 1) < 1e-13 && abs(fast.mMax / slow.mMax - 1) < 1e-13)
            #expect(
                abs(fast.pMin / slow.pMin - 1) < 1e-13 && abs(fast.pMax / slow.pMax - 1) < 1e-13)
            #expect(fast.mMin <= fast.mMax && fast.pMin <= fast.pMax)
        }
    }
}
