import GeoCore
import GeoTestSupport
import Testing

/// The local metric plane behind the `meters:` operations, checked through its observable effects:
/// a point's buffer centered on itself is exact (distances from the center are exact), and a two-point
/// geometry's buffer is symmetric about the middle.
@Suite("Azimuthal equidistant plane")
struct AzimuthalEquidistantTests {
    @Test func distancesFromTheCenterAreExactEverywhere() throws {
        var rng = SplitMix64(seed: 31)
        for _ in 0..<20 {
            let c = Position(x: rng.uniform(-180, 180), y: rng.uniform(-89, 89))
            let radius = rng.uniform(1, 2_000_000)
            let disc = try Geometry.point(c).buffer(
                meters: radius, style: BufferStyle(quadrantSegments: 2))
            for p in disc.positions {
                let d = Geodesic.wgs84.distance(from: c.coordinate, to: p.coordinate)
                #expect(abs(d - radius) < 1e-6 * radius, "\(c) r \(radius): \(d)")
            }
        }
    }
}
