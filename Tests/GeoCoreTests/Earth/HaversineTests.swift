import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("Haversine")
struct HaversineTests {
    /// The haversine error band stated in its documentation, on seeded random pairs.
    @Test func haversineErrorBound() {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<20_000 {
            let a = Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            let b = Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            let exact = a.distance(to: b)
            guard exact > 1 else { continue }
            let relative = (Haversine.distance(from: a, to: b) - exact) / exact
            #expect(relative >= -0.00447 && relative <= 0.00562)
        }
    }
}
