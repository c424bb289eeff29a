import GeoCore
import GeoTestSupport
import Testing

@Suite("Overlay")
struct OverlayTests {
    static func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Geometry {
        .polygon(exterior: [
            Position(x: x0, y: y0), Position(x: x1, y: y0), Position(x: x1, y: y1),
            Position(x: x0, y: y1),
        ])
    }

    /// Areas of the four boolean operations on random axis-aligned rectangles against the exact
    /// rectangle arithmetic.
    @Test func areasOfRandomRectangles() throws {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<200 {
            let ax = rng.uniform(0, 10), ay = rng.uniform(0, 10), aw = rng.uniform(1, 10),
                ah = rng.uniform(1, 10)
            let bx = rng.uniform(0, 10), by = rng.uniform(0, 10), bw = rng.uniform(1, 10),
                bh = rng.uniform(1, 10)
            let a = Self.rectangle(ax, ay, ax + aw, ay + ah),
                b = Self.rectangle(bx, by, bx + bw, by + bh)
            let overlap =
                max(0, min(ax + aw, bx + bw) - max(ax, bx))
                * max(0, min(ay + ah, by + bh) - max(ay, by))
            let tolerance = 1e-9 * (aw * ah + bw * bh)
            #expect(abs(try a.intersection(b).planarArea - overlap) < tolerance)
            #expect(abs(try a.union(b).planarArea - (aw * ah + bw * bh - overlap)) < tolerance)
            #expect(abs(try a.subtracting(b).planarArea - (aw * ah - overlap)) < tolerance)
            #expect(
                abs(try a.symmetricDifference(b).planarArea - (aw * ah + bw * bh - 2 * overlap))
                    < tolerance)
        }
    }

    @Test func unaryUnionMergesOverlaps() throws {
        let parts = Geometry.multiPolygon(
            [Self.rectangle(0, 0, 2, 2), Self.rectangle(1, 1, 3, 3)].compactMap {
                if case .polygon(let rings) = $0 { rings } else { nil }
            })
        let merged = try parts.unaryUnion()
        #expect(merged.type == .polygon)
        #expect(abs(merged.planarArea - 7) < 1e-12)
        #expect(try Self.rectangle(0, 0, 1, 1).intersection(Self.rectangle(2, 2, 3, 3)).isEmpty)
    }
}
