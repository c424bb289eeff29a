/// The Hilbert curve on a 2¹⁶ × 2¹⁶ grid: a numbering of cells in which consecutive numbers are
/// always neighboring cells, so sorting things by it keeps neighbors together in memory.
///
/// The fence index renumbers its fences along the curve of their centers, so the fences a tile of
/// points touches sit in a few cache lines rather than all over memory.
package enum HilbertCurve {
    /// The curve's index of cell (x, y), x and y in [0, 2¹⁶) (higher bits are ignored).
    ///
    /// Four bits of x and y at a time, through ``nibbleTable``: the same index as
    /// ``levelByLevelIndex(x:y:)`` in four table reads instead of sixteen dependent steps.
    /// - Complexity: O(1).
    @inline(__always)
    package static func index(x: UInt32, y: UInt32) -> UInt32 {
        nibbleTable.withUnsafeBufferPointer { table in
            var state = 0
            var d: UInt32 = 0
            for shift in stride(from: UInt32(12), through: 0, by: -4) {
                let nibbles = Int((x >> shift) & 15) << 4 | Int((y >> shift) & 15)
                let entry = table[state << 8 | nibbles]
                d = d << 8 | UInt32(entry & 0xFF)
                state = Int(entry >> 8)
            }
            return d
        }
    }

    /// The curve's index of cell (x, y), level by level (the definition ``index(x:y:)`` follows).
    ///
    /// Walks the quadrants from the coarsest level down: each level adds which of the four quadrants
    /// the cell is in, in curve order, and rotates or reflects the cell's coordinates into that
    /// quadrant's frame so the next level sees the standard orientation.
    /// - Complexity: O(16).
    package static func levelByLevelIndex(x: UInt32, y: UInt32) -> UInt32 {
        let n: UInt32 = 1 << 16
        var x = x & (n - 1), y = y & (n - 1)
        var d: UInt32 = 0
        var s = n >> 1
        while s > 0 {
            let rx: UInt32 = x & s != 0 ? 1 : 0
            let ry: UInt32 = y & s != 0 ? 1 : 0
            d &+= s &* s &* ((3 &* rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = n &- 1 &- x
                    y = n &- 1 &- y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }

    /// Four levels of ``levelByLevelIndex(x:y:)`` at once. The frame a level leaves for the levels
    /// below is one of four: the raw bits, swapped, complemented, or both (swaps and complements
    /// commute), so entry `state << 8 | xNibble << 4 | yNibble` holds the eight index bits of the
    /// nibbles read in frame `state` (bit 1: swapped, bit 0: complemented) and, above them, the
    /// frame for the next four levels.
    static let nibbleTable: [UInt16] = (0..<1024).map { entry in
        var swapped = entry >> 9 & 1, complemented = entry >> 8 & 1
        var x = UInt32(entry >> 4 & 15), y = UInt32(entry & 15)
        if complemented == 1 { (x, y) = (x ^ 15, y ^ 15) }
        if swapped == 1 { (x, y) = (y, x) }
        var d: UInt32 = 0
        var s: UInt32 = 8
        while s > 0 {
            let rx: UInt32 = x & s != 0 ? 1 : 0
            let ry: UInt32 = y & s != 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    (x, y) = (15 - x, 15 - y)
                    complemented ^= 1
                }
                (x, y) = (y, x)
                swapped ^= 1
            }
            s >>= 1
        }
        return UInt16(d) | UInt16(swapped << 1 | complemented) << 8
    }

    /// The index of a point of the unit square [0, 1]² (clamped; NaN counts as 0), on the same grid.
    package static func index(unitX x: Double, unitY y: Double) -> UInt32 {
        index(x: cell(x), y: cell(y))
    }

    /// The grid column (or row) of a coordinate of the unit square: ⌊v · 65 535⌋ clamped to
    /// 0...65 535 (NaN counts as 0), as ``index(unitX:unitY:)`` places points.
    @inlinable
    package static func cell(_ v: Double) -> UInt32 { v > 0 ? UInt32(min(65_535, v * 65_535)) : 0 }
}
