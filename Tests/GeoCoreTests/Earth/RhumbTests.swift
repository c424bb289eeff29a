import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("Rhumb")
struct RhumbTests {
    /// The rhumb direct problem inverts the rhumb inverse problem.
    @Test func rhumbRoundTrip() {
        var rng = SplitMix64(seed: 12)
        for _ in 0..<2_000 {
            let a = Coordinate(latitude: rng.uniform(-80, 80), longitude: rng.uniform(-180, 180))
            let b = Coordinate(latitude: rng.uniform(-80, 80), longitude: rng.uniform(-180, 180))
            let line = Rhumb.wgs84.inverse(from: a, to: b)
            let end = Rhumb.wgs84.direct(from: a, azimuth: line.azimuth, distance: line.distance)
            #expect(end.isApproximatelyEqual(to: b, toleranceMeters: 1e-3))
        }
        // Due east along the equator the rhumb line is the equator itself.
        let east = Rhumb.wgs84.inverse(
            from: Coordinate(latitude: 0, longitude: 0), to: Coordinate(latitude: 0, longitude: 90))
        #expect(
            abs(
                east.distance
                    - Geodesic.wgs84.distance(
                        from: Coordinate(latitude: 0, longitude: 0),
                        to: Coordinate(latitude: 0, longitude: 90))) < 1e-6)
        #expect(
            Rhumb.wgs84.direct(
                from: Coordinate(latitude: 80, longitude: 0), azimuth: 0, distance: 2_000_000
            ).latitude.isNaN)
    }
}
