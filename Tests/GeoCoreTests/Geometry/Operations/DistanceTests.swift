import Foundation
import GeoCore
import GeoTestSupport
import Testing

@Suite("Planar distances")
struct DistanceTests {
    /// Point-to-polyline distance against a brute-force minimum over segments.
    @Test func pointToLineMatchesBruteForce() throws {
        var rng = SplitMix64(seed: 4)
        let line = (0..<30).map { _ in Position(x: rng.uniform(-50, 50), y: rng.uniform(-50, 50)) }
        let g = Geometry.lineString(line)
        func segmentDistance(_ p: Position, _ a: Position, _ b: Position) -> Double {
            let dx = b.x - a.x, dy = b.y - a.y
            let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
            let qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y
            return (qx * qx + qy * qy).squareRoot()
        }
        for _ in 0..<200 {
            let p = Position(x: rng.uniform(-60, 60), y: rng.uniform(-60, 60))
            let oracle =
                (1..<line.count).map { segmentDistance(p, line[$0 - 1], line[$0]) }.min()
                ?? .infinity
            let d = try g.distance(to: .point(p))
            #expect(abs(d - oracle) < 1e-9 * max(1, oracle))
            #expect(try g.isWithinDistance(oracle * 1.000001 + 1e-12, of: .point(p)))
            let nearest = try #require(try g.nearestPoints(to: .point(p)))
            #expect(nearest.1 == p)
            #expect(
                abs(
                    ((nearest.0.x - p.x) * (nearest.0.x - p.x) + (nearest.0.y - p.y)
                        * (nearest.0.y - p.y))
                        .squareRoot() - oracle) < 1e-9 * max(1, oracle))
        }
        #expect(try g.distance(to: .point(nil)) == .infinity)
        #expect(try g.nearestPoints(to: .polygon([])) == nil)
    }

    /// Hausdorff and Fréchet distances of two lines with known answers: for parallel lines offset by
    /// 1, both are 1; for a line and its reverse, Fréchet is the line's length while Hausdorff is 0.
    @Test func hausdorffAndFrechet() throws {
        let a = Geometry.lineString([Position(x: 0, y: 0), Position(x: 10, y: 0)])
        let b = Geometry.lineString([Position(x: 0, y: 1), Position(x: 10, y: 1)])
        #expect(try a.hausdorffDistance(to: b) == 1)
        #expect(try a.frechetDistance(to: b) == 1)
        let reversed = Geometry.lineString([Position(x: 10, y: 0), Position(x: 0, y: 0)])
        #expect(try a.hausdorffDistance(to: reversed) == 0)
        #expect(try a.frechetDistance(to: reversed) == 10)
        // JTS's documented example: densifying finds the true Hausdorff distance 47.8..., where the
        // vertices alone give 22.36.
        let l1 = try Geometry(wkt: "LINESTRING (0 0, 100 0, 10 100, 10 100)")
        let l2 = try Geometry(wkt: "LINESTRING (0 100, 0 10, 80 10)")
        #expect(abs(try l1.hausdorffDistance(to: l2) - 22.360679774997898) < 1e-9)
        #expect(abs(try l1.hausdorffDistance(to: l2, densifyFraction: 0.001) - 47.8) < 0.1)
        #expect(throws: GeoError.self) { try l1.hausdorffDistance(to: l2, densifyFraction: 0) }
    }
}
