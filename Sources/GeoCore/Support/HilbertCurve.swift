/// The Hilbert curve on a 2¹⁶ × 2¹⁶ grid: a numbering of cells in which consecutive numbers are
/// always neighboring cells, so sorting things by it keeps neighbors together in memory.
///
/// The fence index renumbers its fences along the curve of their centers, so the fences a tile of
/// points touches sit in a few cache lines rather than all over memory.
package enum HilbertCurve {
    /// The curve's index of cell (x, y), x and y in [0, 2¹⁶) (higher bits are ignored).
    ///
    /// Walks the quadrants from the coarsest level down: each level adds which of the four quadrants
    /// the cell is in, in curve order, and rotates or reflects the cell's coordinates into that
    /// quadrant's frame so the next level sees the standard orientation.
    /// - Complexity: O(16).
    package static func index(x: UInt32, y: UInt32) -> UInt32 {
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

    /// The index of a point of the unit square [0, 1]² (clamped; NaN counts as 0), on the same grid.
    package static func index(unitX x: Double, unitY y: Double) -> UInt32 {
        func cell(_ v: Double) -> UInt32 { v > 0 ? UInt32(min(65_535, v * 65_535)) : 0 }
        return index(x: cell(x), y: cell(y))
    }
}
