import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("LocalPlane")
struct LocalPlaneTests {
    /// LocalPlane's error stays within each cell of its documented table (distance band × latitude
    /// band, maximum relative error) on seeded random pairs, the reference being PROJ's geodesic.
    /// The table gives measured maxima, so each cell allows a fifth more than it states.
    @Test(
        arguments: [
            (1_000.0, 60.0, 3.5e-9), (1_000, 80, 3.4e-8), (1_000, 89, 2.9e-6),
            (10_000, 60, 3.4e-7), (10_000, 80, 3.4e-6), (10_000, 89, 3.2e-4),
            (100_000, 60, 3.4e-5), (100_000, 80, 3.4e-4), (100_000, 89, 1.9e-2),
        ])
    func localPlaneErrorBound(distance: Double, latitude: Double, documented: Double) {
        var rng = SplitMix64(seed: UInt64(distance) &* 31 &+ UInt64(latitude))
        var worst = 0.0, checked = 0
        while checked < 5_000 {
            let a = Coordinate(
                latitude: rng.uniform(-latitude, latitude), longitude: rng.uniform(-180, 180))
            let b = a.coordinate(
                atDistance: rng.uniform(distance / 10, distance), bearing: rng.uniform(0, 360))
            guard abs(b.latitude) <= latitude else { continue }
            let d = Geodesic.distance(from: a, to: b)
            let error = abs(LocalPlane.distance(from: a, to: b) - d) / d
            if !(error <= worst) { worst = error }
            checked += 1
        }
        #expect(
            worst <= 1.2 * documented, "worst \(worst) for ≤ \(distance) m, |lat| ≤ \(latitude)°")
        // The table is not loose either: the worst error seen reaches a tenth of the entry.
        #expect(
            worst >= documented / 10, "worst \(worst) for ≤ \(distance) m, |lat| ≤ \(latitude)°")
    }
}
