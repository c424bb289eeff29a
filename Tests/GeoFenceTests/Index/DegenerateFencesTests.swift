import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoFence

/// Fences piled on one center, the input that makes a spatial index degenerate: every query still
/// gives the brute-force answer, and nothing grows faster than the answers themselves.
@Suite("Degenerate fences")
struct DegenerateFencesTests {
    static let center = Coordinate(latitude: 46.948, longitude: 7.447)

    /// 100,000 circles around one center, radii 50 m to 5 km in seeded order.
    /// A hundred thousand circles (a quarter of that under the sanitizers).
    static let pileCount = TestScale.steps(100_000, minimum: 25_000)

    static func piledCircles() throws -> [CircularGeographicCondition] {
        var rng = SplitMix64(seed: 31)
        return try (0..<pileCount).map { _ throws(GeoError) in
            try CircularGeographicCondition(center: center, radius: rng.uniform(50, 5_000))
        }
    }

    @Test func oneHundredThousandFencesAtOneCenter() throws {
        let circles = try Self.piledCircles()
        let index = try GeofenceIndex(circles: circles)
        var rng = SplitMix64(seed: 32)
        for _ in 0..<40 {
            let point = Geodesic.wgs84.direct(
                from: Self.center, azimuth: rng.uniform(0, 360), distance: rng.uniform(0, 6_000)
            ).coordinate
            let d = Geodesic.wgs84.distance(from: Self.center, to: point)
            let expected = circles.indices.filter { circles[$0].radius >= d }
            let found = index.fences(containing: point).compactMap { fence in
                Int(fence.identifier)
            }
            #expect(found.sorted() == expected, "\(d) m")
        }
        // Counts for many points at once, and the k nearest for a k as large as the index.
        let points = (0..<200).map { i in
            Geodesic.wgs84.direct(
                from: Self.center, azimuth: Double(i) * 1.8, distance: Double(i) * 27
            ).coordinate
        }
        let counts = try index.fenceCounts(containing: points, threads: 2)
        for (point, count) in zip(points, counts) {
            let d = Geodesic.wgs84.distance(from: Self.center, to: point)
            #expect(count == circles.filter { $0.radius >= d }.count)
        }
        let probe = Coordinate(latitude: 46.96, longitude: 7.46)
        let nearest = try index.nearest(Self.pileCount, to: probe)
        #expect(nearest.count == Self.pileCount)
        let d = Geodesic.wgs84.distance(from: Self.center, to: probe)
        // Signed distance to a circle's boundary is d − radius: the largest circles first.
        let order = circles.indices.sorted {
            (d - circles[$0].radius, $0) < (d - circles[$1].radius, $1)
        }
        #expect(nearest.map(\.fence) == order)
    }
}
