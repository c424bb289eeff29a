import Testing

@testable import GeoCore

@Suite("HilbertCurve")
struct HilbertCurveTests {
    /// On a 64 × 64 corner of the grid the indices are exactly 0..<4096 and consecutive indices are
    /// neighboring cells.
    @Test func visitsNeighbors() {
        var cells = [(UInt32, UInt32, UInt32)]()
        for x in UInt32(0)..<64 {
            for y in UInt32(0)..<64 { cells.append((HilbertCurve.index(x: x, y: y), x, y)) }
        }
        cells.sort { $0.0 < $1.0 }
        #expect(cells.map(\.0) == Array(0..<4_096))
        for i in 1..<cells.count {
            let dx = Int(cells[i].1) - Int(cells[i - 1].1),
                dy = Int(cells[i].2) - Int(cells[i - 1].2)
            #expect(abs(dx) + abs(dy) == 1)
        }
        #expect(HilbertCurve.index(x: 0, y: 0) == 0)
        #expect(HilbertCurve.index(x: 65_535, y: 0) == UInt32.max)
    }

    /// The table-driven index is the level-by-level definition: on every cell of a 256 × 256
    /// corner, along the grid's edges, and on seeded random cells (with higher bits set).
    @Test func tableEqualsLevelByLevel() {
        for x in UInt32(0)..<256 {
            for y in UInt32(0)..<256 {
                #expect(
                    HilbertCurve.index(x: x, y: y) == HilbertCurve.levelByLevelIndex(x: x, y: y))
            }
        }
        var state: UInt64 = 0x4D59_5DF4_D0F3_3173
        var mismatches = 0
        for i in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let x = UInt32(truncatingIfNeeded: state >> 32)
            let y = i % 7 == 0 ? 65_535 : UInt32(truncatingIfNeeded: state)
            if HilbertCurve.index(x: x, y: y) != HilbertCurve.levelByLevelIndex(x: x, y: y) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }
}
