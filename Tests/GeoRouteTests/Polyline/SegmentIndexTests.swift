import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("Segment index")
struct SegmentIndexTests {
    /// The chord bound never exceeds the exact geodesic distance from a point to a segment, for
    /// segments from a meter to 2 000 km and points near and far, and is within the segment's margin
    /// of it for nearby points.
    @Test func boundsAreLowerBounds() throws {
        var rng = SplitMix64(seed: 88)
        for _ in 0..<200 {
            let a = Coordinate(latitude: rng.uniform(-85, 85), longitude: rng.uniform(-180, 180))
            let b = a.coordinate(
                atDistance: pow(10, rng.uniform(0, 6.3)), bearing: rng.uniform(0, 360))
            let line = try Polyline([a, b])
            let p = line.coordinate(atDistance: rng.uniform(0, line.length))
                .coordinate(atDistance: pow(10, rng.uniform(-1, 6)), bearing: rng.uniform(0, 360))
            let (px, py, pz) = SegmentIndex.ecef(p)
            let bound = line.search.index.segmentBound(0, px, py, pz)
            let exact = Geodesic.wgs84.line(from: a, to: b).closestPoint(to: p).distance
            #expect(bound <= exact + 1e-9, "bound \(bound) exact \(exact)")
            // Tight to the spheroid margin, √(L² − c²)/2 ≈ L²/(7R), plus the millimeter of slack.
            if exact < 1_000 {
                #expect(exact - bound < line.length * line.length / (6 * 6_371_000) + 0.01)
            }
        }
    }

    @Test func nearestMatchesTheLinearScanOnEveryRange() throws {
        var rng = SplitMix64(seed: 89)
        let line = try Polyline(
            TestLines.randomWalk(
                count: 300, start: Coordinate(latitude: -23.5, longitude: -46.6), minimumStep: 10,
                maximumStep: 500,
                maximumTurn: 120, rng: &rng))
        for _ in 0..<40 {
            let p = TestLines.pointNear(line, maximumOffset: 3_000, rng: &rng)
            let low = Int(rng.uniform(0, 299)), high = min(298, low + Int(rng.uniform(0, 100)))
            let fast = try #require(line.search.index.nearest(to: p, segments: low...high))
            let scan = try #require(
                line.search.index.nearestByLinearScan(to: p, segments: low...high))
            #expect(abs(fast.distance - scan.distance) < 1e-6)
        }
        #expect(line.search.index.nearest(to: line.start, segments: 400...500) == nil)
    }
}
