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
}
