import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("LocalPlane")
struct LocalPlaneTests {
    /// LocalPlane's error stays under the documented table on seeded random pairs.
    @Test func localPlaneErrorBound() {
        var rng = SplitMix64(seed: 10)
        for _ in 0..<20_000 {
            let a = Coordinate(latitude: rng.uniform(-60, 60), longitude: rng.uniform(-180, 180))
            let d = rng.uniform(1, 10_000)
            let b = a.coordinate(atDistance: d, bearing: rng.uniform(0, 360))
            guard abs(b.latitude) <= 60 else { continue }
            #expect(abs(LocalPlane.distance(from: a, to: b) - d) / d < 4e-7)
        }
    }
}
