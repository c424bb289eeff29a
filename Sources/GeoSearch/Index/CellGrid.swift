import Foundation
import GeoCore

/// Where a ``PointTree``'s positions lie on a grid of each cube face: a nearest query starts in
/// the cells around itself and widens the block of cells it has read until the ball its answers
/// must lie in is inside the block, without walking the tree.
///
/// The cells are those of the curve keys' grid at a coarser level (`side` × `side` per face,
/// about 8 positions each), so each cell's positions are one run of the curve-ordered records,
/// and a row of cells is one run of ``ranges``. Where places are far denser than that (cities
/// in a worldwide set), a crowded cell is cut into quarters, and each quarter again while it
/// holds more than ``splitAbove``: a query works at the level of the quarter it falls in, so
/// the cells it reads hold about as many places in a city as in the countryside.
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
    /// (face · side + row) · side + column; for a cell cut into quarters, (start, −1 − root) with
    /// its quarters under `nodes[root]`.
    let ranges: [SIMD2<Int32>]
    /// The quarters of the crowded cells: each node's records, and its four quarters at
    /// `nodes[children ..< children + 4]` (south-west, south-east, north-west, north-east in face
    /// coordinates), or `children` −1 for a node that is not cut.
    let nodes: [Node]
    /// The face coordinate (u or v, in [−1, 1]) of each of the `side + 1` cell edges, and
    /// 1/√(1 + edge²), which turns a difference in u into the sine of an angle to the edge's plane.
    let edges: [Double]
    let edgeScale: [Double]
    /// The most positions a cell may hold for a query to read it: four times the mean plus 16
    /// (cells at a face's center, the largest, hold about twice the mean of uniform places).
    /// A cell holding more is cut into quarters.
    let crowded: Int32
    /// A quarter holding more than this (twice the mean plus 8) is cut again, down to the curve
    /// keys' own cells (level 16, about 150 m).
    let splitAbove: Int32

    struct Node: Sendable {
        var start: Int32
        var end: Int32
        var children: Int32
    }

    /// The level of the curve keys' own cells.
    static let finest = 16

    /// The grid over curve-ordered records, or `nil` for fewer than 4,096 (the tree alone is as
    /// fast there) or if a cell's records are not one run (never, as the records are sorted by
    /// the curve key whose leading bits name the cell).
    /// - Complexity: O(n) time and memory: each record is looked at once per level of the
    ///   quarters it lies in (at most 16 − `level`), and only a cell or quarter of more than
    ///   ``splitAbove`` records is cut.
    init?(_ records: [PointTree.Record]) {
        let n = records.count
        guard n >= 4_096, n < Int(Int32.max) else { return nil }
        var level = 0
        while level < 10 && 6 * (1 << (2 * (level + 1))) * 8 <= n { level += 1 }
        let side = 1 << level
        var ranges = [SIMD2<Int32>](repeating: .zero, count: 6 * side * side)
        // Each record's column and row among the curve keys' own cells, and its cell at the
        // grid's level (−1 for the Earth's center, which no valid record is), on two threads for
        // large inputs.
        var finestCells = [SIMD2<UInt16>](repeating: .zero, count: n)
        var cells = [Int32](repeating: 0, count: n)
        let shift = Self.finest - level
        let parts = n >= 65_536 ? 2 : 1
        records.withUnsafeBufferPointer { records in
            finestCells.withUnsafeMutableBufferPointer { finestBuffer in
                cells.withUnsafeMutableBufferPointer { cellBuffer in
                    guard let finestBase = finestBuffer.baseAddress,
                        let cellBase = cellBuffer.baseAddress
                    else { return }
                    let source = SharedView(records)
                    let finest = WorkerSlots(finestBase), cell = WorkerSlots(cellBase)
                    DispatchQueue.concurrentPerform(iterations: parts) { part in
                        let records = source.buffer
                        for r in (n * part / parts)..<(n * (part + 1) / parts) {
                            guard let (face, _, _, column, row) = Self.locate(records[r].position)
                            else {
                                cell.base[r] = -1
                                continue
                            }
                            finest.base[r] = SIMD2(UInt16(column), UInt16(row))
                            cell.base[r] = Int32(
                                (face * side + row >> shift) * side + column >> shift)
                        }
                    }
                }
            }
        }
        var last = -1
        for r in 0..<n {
            let cell = Int(cells[r])
            guard cell >= 0 else { return nil }
            if cell != last {
                guard ranges[cell] == .zero else { return nil }
                ranges[cell] = SIMD2(Int32(r), Int32(r))
                last = cell
            }
            ranges[cell].y = Int32(r + 1)
        }
        cells = []
        // Column i holds the unit coordinates t with ⌊t · 65 535⌋ >> shift = i.
        edges = (0...side).map { Self.edge($0, level: level) }
        edgeScale = edges.map { 1 / (1 + $0 * $0).squareRoot() }
        crowded = Int32(4 * n / ranges.count + 16)
        splitAbove = Int32(2 * n / ranges.count + 8)

        // Crowded cells cut into quarters, depth first.
        var nodes = [Node]()
        for cell in ranges.indices where ranges[cell].y - ranges[cell].x > crowded {
            let root = nodes.count
            nodes.append(Node(start: ranges[cell].x, end: ranges[cell].y, children: -1))
            var pending = [(node: root, level: level)]
            while let (id, nodeLevel) = pending.popLast() {
                let node = nodes[id]
                guard node.end - node.start > splitAbove, nodeLevel < Self.finest else { continue }
                // The quarters' records are runs of the node's, in the curve's order of the
                // quarters; a node whose quarters are not runs (keys cut short for billions of
                // places) stays whole.
                let bit = Self.finest - nodeLevel - 1
                var quarters = [Node](repeating: Node(start: 0, end: 0, children: -1), count: 4)
                var seen = [false, false, false, false]
                var previous = -1
                var runs = true
                for r in Int(node.start)..<Int(node.end) {
                    let c = finestCells[r]
                    let q = Self.quarter(column: Int(c.x), row: Int(c.y), bit: bit)
                    if q != previous {
                        if seen[q] {
                            runs = false
                            break
                        }
                        seen[q] = true
                        quarters[q].start = Int32(r)
                        previous = q
                    }
                    quarters[q].end = Int32(r + 1)
                }
                guard runs else { continue }
                nodes[id].children = Int32(nodes.count)
                for q in 0..<4 {
                    if !seen[q] {
                        quarters[q] = Node(start: node.start, end: node.start, children: -1)
                    }
                    nodes.append(quarters[q])
                    pending.append((nodes.count - 1, nodeLevel + 1))
                }
            }
            ranges[cell].y = -1 - Int32(root)
        }
        (self.level, self.side, self.ranges, self.nodes) = (level, side, ranges, nodes)
    }

    /// Which quarter of a node (0 south-west, 1 south-east, 2 north-west, 3 north-east) holds
    /// the cell (column, row) of a finer level, `bit` levels below the quarters' own.
    @inline(__always)
    static func quarter(column: Int, row: Int, bit: Int) -> Int {
        ((row >> bit) & 1) << 1 | ((column >> bit) & 1)
    }

    /// The face coordinate of the edge before column (or row) `i` of a level: the unit
    /// coordinates t of column i are those with ⌊t · 65 535⌋ >> (16 − level) = i.
    @inline(__always)
    static func edge(_ i: Int, level: Int) -> Double {
        2 * Swift.min(1, Double(i) * (Double(1 << (finest - level)) / 65_535)) - 1
    }

    /// Where a direction meets its cube face, (u, v) ∈ [−1, 1]², and the column and row of the
    /// curve keys' own cell there (level 16), placed as the curve key places it; `nil` for the
    /// origin.
    @inline(__always)
    static func locate(
        _ p: SIMD3<Double>
    ) -> (
        face: Int, u: Double, v: Double, column: Int, row: Int
    )? {
        let (face, pu, pv, major) = PointTree.faceCoordinates(p)
        guard major > 0 else { return nil }
        let u = pu / major, v = pv / major
        return (
            face, u, v, Int(HilbertCurve.cell((u + 1) / 2)), Int(HilbertCurve.cell((v + 1) / 2))
        )
    }

    /// The records of cell (column, row) of level `cellLevel` ≥ ``level`` on a face: the run of
    /// that cell, or of the larger cell or quarter it lies in when that is not cut down to
    /// `cellLevel`; `shared` names such a larger one (it answers for several cells), −1
    /// otherwise.
    @inline(__always)
    func records(
        face: Int, column: Int, row: Int, level cellLevel: Int,
        ranges: UnsafeBufferPointer<SIMD2<Int32>>, nodes: UnsafeBufferPointer<Node>
    ) -> (start: Int32, end: Int32, shared: Int) {
        let below = cellLevel - level
        let cell = (face * side + row >> below) * side + column >> below
        let range = ranges[cell]
        if range.y >= 0 { return (range.x, range.y, below == 0 ? -1 : nodes.count + cell) }
        var id = Int(-1 - range.y)
        var nodeLevel = level
        while nodeLevel < cellLevel {
            let node = nodes[id]
            if node.children < 0 { return (node.start, node.end, id) }
            nodeLevel += 1
            let bit = cellLevel - nodeLevel
            id = Int(node.children) + Self.quarter(column: column, row: row, bit: bit)
        }
        return (nodes[id].start, nodes[id].end, -1)
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
    ///
    /// The cells are those of the level of the quarter the query falls in (``level`` where its
    /// cell is not cut); a neighbour not cut that far is read whole, once.
    /// - Complexity: O(1) cells of at most ``crowded`` positions each, and O(16 − ``level``) to
    ///   find each; O(1) for a query sent to the tree.
    func scan(_ walk: inout ChordWalk) -> Bool {
        let q = walk.query
        guard let (face, u, v, finestColumn, finestRow) = Self.locate(q) else { return false }
        return ranges.withUnsafeBufferPointer { ranges in
            nodes.withUnsafeBufferPointer { nodes in
                // The query's level: that of the quarter it falls in.
                var cellLevel = level
                let own = ranges[
                    (face * side + finestRow >> (Self.finest - level)) * side + finestColumn
                        >> (Self.finest - level)]
                if own.y < 0 {
                    var id = Int(-1 - own.y)
                    while nodes[id].children >= 0 {
                        cellLevel += 1
                        let bit = Self.finest - cellLevel
                        id =
                            Int(nodes[id].children)
                            + Self.quarter(column: finestColumn, row: finestRow, bit: bit)
                    }
                }
                // A first block with a cell denser than the query's (a city's edge) is taken
                // again a level finer, where that cell is four.
                return ScratchMemory.withBuffer(of: Int.self, capacity: 400) { visited in
                    while true {
                        let outcome = scan(
                            &walk, face: face, u: u, v: v,
                            column: finestColumn >> (Self.finest - cellLevel),
                            row: finestRow >> (Self.finest - cellLevel), level: cellLevel,
                            ranges: ranges, nodes: nodes, visited: visited)
                        switch outcome {
                        case .answered: return true
                        case .unanswered: return false
                        case .crowded:
                            guard cellLevel < Self.finest else { return false }
                            cellLevel += 1
                        }
                    }
                }
            }
        }
    }

    /// How a scan of one level ended.
    private enum Outcome {
        /// The ball of the walk's cut is inside the cells read.
        case answered
        /// The ball reaches the face's edge, the block grew too large, or a cell beyond the
        /// first block is crowded: the walk's cut still bounds every answer's chord.
        case unanswered
        /// A cell of the first block is crowded; nothing was offered to the walk.
        case crowded
    }

    /// ``scan(_:)`` on the cells of one level around the query's cell (column, row).
    private func scan(
        _ walk: inout ChordWalk, face: Int, u: Double, v: Double, column: Int, row: Int,
        level cellLevel: Int, ranges: UnsafeBufferPointer<SIMD2<Int32>>,
        nodes: UnsafeBufferPointer<Node>, visited: UnsafeMutableBufferPointer<Int>
    ) -> Outcome {
        let q = walk.query
        let cellSide = 1 << cellLevel
        var (left, right) = (Swift.max(column - 1, 0), Swift.min(column + 1, cellSide - 1))
        var (bottom, top) = (Swift.max(row - 1, 0), Swift.min(row + 1, cellSide - 1))
        // |q_major| / |q|: the sine of the angle to the plane u = U is (u − U) · scale / √(1 + U²).
        let major = Swift.max(Swift.abs(q.x), Swift.abs(q.y), Swift.abs(q.z))
        let scale = major / (q * q).sum().squareRoot()
        let tabled = cellLevel == level
        func clearance(from edge: Int, _ t: Double, below: Bool) -> Double {
            let (value, edgeFactor): (Double, Double)
            if tabled {
                (value, edgeFactor) = (edges[edge], edgeScale[edge])
            } else {
                value = Self.edge(edge, level: cellLevel)
                edgeFactor = 1 / (1 + value * value).squareRoot()
            }
            return (below ? t - value : value - t) * scale * edgeFactor
        }
        func cell(_ c: Int, _ r: Int) -> (start: Int32, end: Int32, shared: Int) {
            self.records(
                face: face, column: c, row: r, level: cellLevel, ranges: ranges, nodes: nodes)
        }
        // A larger cell or quarter that answers for several cells is read once.
        var visitedCount = 0
        func firstVisit(_ shared: Int) -> Bool {
            guard shared >= 0 else { return true }
            for i in 0..<visitedCount where visited[i] == shared { return false }
            guard visitedCount < visited.count else { return false }
            visited[visitedCount] = shared
            visitedCount += 1
            return true
        }
        let records = walk.records
        // Cells are read in two passes: first every cache line of every cell is prefetched, so
        // that their misses overlap (the scan's comparisons and heap would otherwise take them
        // one cell at a time); then the scan. The first block's cells are all found before any
        // of their lines is asked for.
        func prefetch(_ start: Int32, _ end: Int32) {
            guard let base = records.baseAddress, start < end else { return }
            Prefetch.read(
                UnsafeRawPointer(base + Int(start)),
                bytes: Int(end - start) * MemoryLayout<PointTree.Record>.stride)
        }
        var largest: Int32 = 0
        for (dr, dc) in CellGrid.neighbourhood {
            let (r, c) = (row + dr, column + dc)
            guard (bottom...top).contains(r), (left...right).contains(c) else { continue }
            let found = cell(c, r)
            largest = Swift.max(largest, found.end - found.start)
            prefetch(found.start, Swift.min(found.end, found.start + crowded))
        }
        // A crowded cell (places far denser than the grid assumed) is left to the tree, which
        // stays logarithmic there: no cell of more than `crowded` positions is read.
        if largest > crowded { return .crowded }
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
            let found = cell(c, r)
            guard firstVisit(found.shared) else {
                if visitedCount == visited.count { return .unanswered }
                continue
            }
            walk.visitRecords(Int(found.start)..<Int(found.end))
        }
        for _ in 0..<8 {
            if walk.overflow { return .unanswered }
            let reach = Self.reach(walk.cut)
            let leftClear = clearance(from: left, u, below: true) > reach
            let rightClear = clearance(from: right + 1, u, below: false) > reach
            let bottomClear = clearance(from: bottom, v, below: true) > reach
            let topClear = clearance(from: top + 1, v, below: false) > reach
            if leftClear && rightClear && bottomClear && topClear { return .answered }
            // Each side the ball reaches moves out by a cell, unless it is the face's edge;
            // the new cells are prefetched, then scanned.
            let (oldLeft, oldRight, oldBottom, oldTop) = (left, right, bottom, top)
            if !leftClear { left -= 1 }
            if !rightClear { right += 1 }
            if !bottomClear { bottom -= 1 }
            if !topClear { top += 1 }
            guard left >= 0, right < cellSide, bottom >= 0, top < cellSide else {
                return .unanswered
            }
            for pass in 0..<2 {
                for r in bottom...top {
                    for c in left...right
                    where !((oldBottom...oldTop).contains(r) && (oldLeft...oldRight).contains(c)) {
                        let found = cell(c, r)
                        if pass == 0 {
                            if found.end - found.start > crowded { return .unanswered }
                            prefetch(found.start, found.end)
                        } else {
                            guard firstVisit(found.shared) else {
                                if visitedCount == visited.count { return .unanswered }
                                continue
                            }
                            walk.visitRecords(Int(found.start)..<Int(found.end))
                        }
                    }
                }
            }
        }
        return .unanswered
    }
}
