import Foundation
import GeoCore

/// Where a ``PointTree``'s positions lie on a grid of each cube face: a nearest query starts in
/// the cells around itself and widens the block of cells it has read until the ball its answers
/// must lie in is inside the block, without walking the tree.
///
/// The cells are those of the curve keys' grid at a coarser level (`side` × `side` per face,
/// about 8 positions each), so each cell's positions are one run of the curve-ordered records,
/// and a row of cells is one run of ``ranges``.
///
/// A block of cells is the part of its face between four planes through the Earth's center
/// (u = const and v = const). Every point of the ellipsoid within chord c of the query is within
/// angle θ of it as seen from the center, sin(θ/2) ≤ c / 2b (b the polar radius: the chord is at
/// least 2√(ρ₁ρ₂) sin(θ/2) for points ρ₁, ρ₂ ≥ b from the center), so the ball is inside the block
/// when the query's angle to each of the four planes exceeds θ. A ball that reaches the face's
/// edge is left to the tree.
struct CellGrid: Sendable {
    /// The grid's level: `side` = 2^level cells along a face's side.
    let level: Int
    let side: Int
    /// The records of each cell, [start, end), row-major per face: cell (face, row, column) at
    /// (face · side + row) · side + column.
    let ranges: [SIMD2<Int32>]
    /// The face coordinate (u or v, in [−1, 1]) of each of the `side + 1` cell edges, and
    /// 1/√(1 + edge²), which turns a difference in u into the sine of an angle to the edge's plane.
    let edges: [Double]
    let edgeScale: [Double]
    /// The most positions a cell may hold for a query to read it: four times the mean plus 16
    /// (cells at a face's center, the largest, hold about twice the mean of uniform places).
    let crowded: Int32

    /// The grid over curve-ordered records, or `nil` for fewer than 4,096 (the tree alone is as
    /// fast there) or if a cell's records are not one run (never, as the records are sorted by
    /// the curve key whose leading bits name the cell).
    init?(_ records: [PointTree.Record]) {
        let n = records.count
        guard n >= 4_096, n < Int(Int32.max) else { return nil }
        var level = 0
        while level < 10 && 6 * (1 << (2 * (level + 1))) * 8 <= n { level += 1 }
        let side = 1 << level
        var ranges = [SIMD2<Int32>](repeating: .zero, count: 6 * side * side)
        let shift = UInt32(16 - level)
        var last = -1
        for (r, record) in records.enumerated() {
            guard let (face, _, _, column, row) = Self.locate(record.position, shift: shift)
            else { return nil }
            let cell = (face * side + row) * side + column
            if cell != last {
                guard ranges[cell] == .zero else { return nil }
                ranges[cell] = SIMD2(Int32(r), Int32(r))
                last = cell
            }
            ranges[cell].y = Int32(r + 1)
        }
        // Column i holds the unit coordinates t with ⌊t · 65 535⌋ >> shift = i.
        let width = Double(1 << shift) / 65_535
        edges = (0...side).map { 2 * Swift.min(1, Double($0) * width) - 1 }
        edgeScale = edges.map { 1 / (1 + $0 * $0).squareRoot() }
        (self.level, self.side, self.ranges) = (level, side, ranges)
        crowded = Int32(4 * n / ranges.count + 16)
    }

    /// Where a direction meets its cube face, (u, v) ∈ [−1, 1]², and the column and row of the
    /// cell there, placed as the curve key places it (`shift` = 16 − level); `nil` for the
    /// origin.
    @inline(__always)
    static func locate(
        _ p: SIMD3<Double>, shift: UInt32
    ) -> (
        face: Int, u: Double, v: Double, column: Int, row: Int
    )? {
        let (face, pu, pv, major) = PointTree.faceCoordinates(p)
        guard major > 0 else { return nil }
        let u = pu / major, v = pv / major
        return (
            face, u, v, Int(HilbertCurve.cell((u + 1) / 2) >> shift),
            Int(HilbertCurve.cell((v + 1) / 2) >> shift)
        )
    }

    /// A cell and its eight neighbours, nearest first: the cell, those across its sides, then
    /// those across its corners.
    static let neighbourhood = [
        (0, 0), (0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (-1, 1), (1, -1), (1, 1),
    ]

    /// An upper bound of sin θ for the angle θ (seen from the center) within which every point
    /// of the ellipsoid lies whose chord from the query is at most `cut`: sin θ ≤ 2 sin(θ/2) ≤
    /// cut / b, plus a margin for rounding; infinite from θ ≈ 90° on, where the test does not
    /// hold.
    @inline(__always)
    static func reach(_ cut: Double) -> Double {
        let h = cut / WGS84.polarRadius
        return h < 1.4 ? h + 1e-12 : .infinity
    }

    /// Offers `walk` the positions of the cells around its query, widening the block until the
    /// ball of its cut lies inside; `false` when the ball reaches the face's edge or the block
    /// grows past 19 × 19 cells, or a cell it would read holds more than ``crowded`` positions
    /// (the walk's cut is then still a bound on every answer's chord).
    /// - Complexity: O(1) cells of at most ``crowded`` positions each; O(1) for a query sent to
    ///   the tree.
    func scan(_ walk: inout ChordWalk) -> Bool {
        let q = walk.query
        guard let (face, u, v, column, row) = Self.locate(q, shift: UInt32(16 - level)) else {
            return false
        }
        var (left, right) = (Swift.max(column - 1, 0), Swift.min(column + 1, side - 1))
        var (bottom, top) = (Swift.max(row - 1, 0), Swift.min(row + 1, side - 1))
        // |q_major| / |q|: the sine of the angle to the plane u = U is (u − U) · scale / √(1 + U²).
        let major = Swift.max(Swift.abs(q.x), Swift.abs(q.y), Swift.abs(q.z))
        let scale = major / (q * q).sum().squareRoot()
        func clearance(from edge: Int, _ t: Double, below: Bool) -> Double {
            (below ? t - edges[edge] : edges[edge] - t) * scale * edgeScale[edge]
        }
        return ranges.withUnsafeBufferPointer { ranges in
            let records = walk.records
            // Cells are read in two passes: first one value of every cache line, in loads that
            // do not wait on one another, so that their misses overlap (the scan's comparisons
            // and heap would otherwise take them one cell at a time); then the scan. A NaN,
            // which no position has, would only send the query to the tree.
            func touch(_ range: SIMD2<Int32>, into touched: inout Double) {
                for i in stride(from: Int(range.x), to: Int(range.y), by: 2) {
                    touched += records[i].x
                }
            }
            var touched = 0.0
            // The first block's ranges are read before any of their records, and each cell's
            // lines are touched a fixed number of times (its first eight positions and its
            // last), so that no branch waits on memory; the scan reads any rest.
            var largest: Int32 = 0
            withUnsafeTemporaryAllocation(of: SIMD2<Int32>.self, capacity: 9) { block in
                var n = 0
                for r in bottom...top {
                    let base = (face * side + r) * side
                    for c in left...right {
                        block[n] = ranges[base + c]
                        largest = Swift.max(largest, block[n].y - block[n].x)
                        n += 1
                    }
                }
                let lastRecord = records.count - 1
                for range in block[0..<n] {
                    // An empty cell touches its neighbour's first position (or the last one).
                    let start = Int(range.x)
                    let last = Swift.min(Swift.max(Int(range.y) - 1, start), lastRecord)
                    for line in 0..<4 { touched += records[Swift.min(start + 2 * line, last)].x }
                    touched += records[last].x
                }
            }
            // A crowded cell (places far denser than the grid assumed) is left to the tree, which
            // stays logarithmic there: no cell of more than `crowded` positions is read.
            if touched.isNaN || largest > crowded { return false }
            // The first block from the query's own cell outwards, so that the heap fills with
            // near positions first; a neighbour beyond a plane of the query's cell that the ball
            // of the cut does not reach is skipped.
            let ownLeft = clearance(from: column, u, below: true)
            let ownRight = clearance(from: column + 1, u, below: false)
            let ownBottom = clearance(from: row, v, below: true)
            let ownTop = clearance(from: row + 1, v, below: false)
            for (dr, dc) in CellGrid.neighbourhood {
                let (r, c) = (row + dr, column + dc)
                guard (bottom...top).contains(r), (left...right).contains(c) else { continue }
                let reach = Self.reach(walk.cut)
                if (dc < 0 && ownLeft > reach) || (dc > 0 && ownRight > reach)
                    || (dr < 0 && ownBottom > reach) || (dr > 0 && ownTop > reach)
                {
                    continue
                }
                let range = ranges[(face * side + r) * side + c]
                walk.visitRecords(Int(range.x)..<Int(range.y))
            }
            for _ in 0..<8 {
                if walk.overflow { return false }
                let reach = Self.reach(walk.cut)
                let leftClear = clearance(from: left, u, below: true) > reach
                let rightClear = clearance(from: right + 1, u, below: false) > reach
                let bottomClear = clearance(from: bottom, v, below: true) > reach
                let topClear = clearance(from: top + 1, v, below: false) > reach
                if leftClear && rightClear && bottomClear && topClear { return true }
                // Each side the ball reaches moves out by a cell, unless it is the face's edge;
                // the new cells are touched, then scanned.
                let (oldLeft, oldRight, oldBottom, oldTop) = (left, right, bottom, top)
                if !leftClear { left -= 1 }
                if !rightClear { right += 1 }
                if !bottomClear { bottom -= 1 }
                if !topClear { top += 1 }
                guard left >= 0, right < side, bottom >= 0, top < side else { return false }
                for pass in 0..<2 {
                    for r in bottom...top {
                        let base = (face * side + r) * side
                        for c in left...right
                        where
                            !((oldBottom...oldTop).contains(r) && (oldLeft...oldRight).contains(c))
                        {
                            if pass == 0 {
                                let range = ranges[base + c]
                                if range.y - range.x > crowded { return false }
                                touch(range, into: &touched)
                            } else {
                                walk.visitRecords(Int(ranges[base + c].x)..<Int(ranges[base + c].y))
                            }
                        }
                    }
                    if touched.isNaN { return false }
                }
            }
            return false
        }
    }
}
