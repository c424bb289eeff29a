import Dispatch
import GeoCore

/// supercluster's distance test, `(fx_q − x_p)² + (fy_q − y_p)² ≤ r²` with `p` the query center (its
/// double center) and `q` a tree item (its float32 copy), with the bounds that settle it from
/// float32 copies alone.
struct PairTest: Sendable {
    var r2: Double
    /// Below this squared distance between float32 copies, a pair is within the radius whatever
    /// the double center; above `reject`, it is not.
    var accept: Double
    var reject: Double

    /// The test for radius `r` when no record's float32 copy is more than `rounding` from its center.
    init(radius r: Double, rounding: Double) {
        // A cluster's center is within √2 · rounding of its float32 copy.
        let margin = 1.5 * rounding
        let sure = max(0, r - margin), unsure = r + margin
        r2 = r * r
        accept = sure * sure * (1 - 1e-12)
        reject = unsure * unsure * (1 + 1e-12)
    }

    /// Whether `q` is within the radius of `p`'s double center; a cluster's center is read only when
    /// its float32 copy leaves the outcome in doubt.
    @inline(__always)
    func contains(
        _ q: CellEntry, around p: CellEntry, level: UnsafeBufferPointer<LevelRecord>,
        centers: RecordCenters
    ) -> Bool {
        var dx = Double(q.fx) - Double(p.fx)
        var dy = Double(q.fy) - Double(p.fy)
        let d2 = dx * dx + dy * dy
        if p.isExact { return d2 <= r2 }
        if d2 <= accept { return true }
        if d2 > reject { return false }
        let center = centers.of(level[Int(p.position)])
        dx = Double(q.fx) - center.x
        dy = Double(q.fy) - center.y
        return dx * dx + dy * dy <= r2
    }
}

/// Cells that hold more records than this are dense: the sweep lists no pairs in them or next to
/// them, and the greedy pass searches them when it gets there (see ``DenseCells``). It bounds the
/// pairs a sweep lists to a few dozen per record, whatever the input's density.
let denseCellSize = 16

/// The cells the greedy pass searches itself because a dense cell is near: for each record in a
/// dense cell, the nine cells around it (its own included); for each record in a sparse cell next
/// to dense ones, those dense cells. Found with pointers that only move forward, without lookups.
///
/// Each visit that searches a cell marks every record within the radius of it, so the records
/// visited are farther apart than the radius and only a bounded number of them (about 50 for cells
/// of one to two radii) search any one cell: the searches cost O(n) in all.
struct DenseCells {
    /// `position << 32 | neighborhood`, ascending: the records that search, by level position.
    var records: [UInt64] = []
    /// `cells[offsets[h] ..< offsets[h + 1]]` are the cells neighborhood `h` searches, as ranges
    /// of ``CellIndex/entries``.
    var offsets: [Int32] = [0]
    var cells: [Range<Int32>] = []

    /// The cells a neighborhood searches.
    @inline(__always)
    func neighborhood(_ h: Int) -> ArraySlice<Range<Int32>> {
        cells[Int(offsets[h])..<Int(offsets[h + 1])]
    }

    /// Lists the neighborhoods of the dense cells whose first entries are `starts` (ascending) and
    /// of the sparse cells next to them.
    mutating func collect(_ starts: [Int], cells index: CellIndex) {
        records.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        offsets.append(0)
        cells.removeAll(keepingCapacity: true)
        guard !starts.isEmpty else { return }
        // (sparse cell start << 32 | dense cell number): the dense cells next to each sparse one.
        var sparseNeighbors = [UInt64]()
        index.keys.withUnsafeBufferPointer { keys in
            index.entries.withUnsafeBufferPointer { entries in
                let count = keys.count
                func cellEnd(_ start: Int) -> Int {
                    var end = start + 1
                    while end < count && keys[end] == keys[start] { end += 1 }
                    return end
                }
                func addRecords(_ range: Range<Int>, neighborhood: Int) {
                    for i in range {
                        records.append(UInt64(entries[i].position) << 32 | UInt64(neighborhood))
                    }
                }
                // One pointer per row offset (−1, 0, +1): the first entry at or after the
                // row's window of the current dense cell.
                var rowPointers = [0, 0, 0]
                var denseRanges = [Range<Int>]()
                for start in starts {
                    let key = keys[start]
                    let own = start..<cellEnd(start)
                    denseRanges.append(own)
                    var around = [Range<Int>]()
                    for (r, rows) in [-1, 0, 1].enumerated() {
                        let low = CellIndex.key(key, rows: Int64(rows), columns: -1)
                        let high = CellIndex.key(key, rows: Int64(rows), columns: 1)
                        while rowPointers[r] < count && keys[rowPointers[r]] < low {
                            rowPointers[r] += 1
                        }
                        var j = rowPointers[r]
                        while j < count && keys[j] <= high {
                            let end = cellEnd(j)
                            around.append(j..<end)
                            j = end
                        }
                    }
                    let h = offsets.count - 1
                    for cell in around {
                        cells.append(Int32(cell.lowerBound)..<Int32(cell.upperBound))
                        if cell.count <= denseCellSize {
                            sparseNeighbors.append(
                                UInt64(cell.lowerBound) << 32 | UInt64(denseRanges.count - 1))
                        }
                    }
                    offsets.append(Int32(cells.count))
                    addRecords(own, neighborhood: h)
                }
                // Each sparse cell next to dense ones searches those.
                RadixSort.sort(&sparseNeighbors)
                var i = 0
                while i < sparseNeighbors.count {
                    let start = Int(sparseNeighbors[i] >> 32)
                    let h = offsets.count - 1
                    while i < sparseNeighbors.count && Int(sparseNeighbors[i] >> 32) == start {
                        let dense = denseRanges[Int(sparseNeighbors[i] & 0xFFFF_FFFF)]
                        cells.append(Int32(dense.lowerBound)..<Int32(dense.upperBound))
                        i += 1
                    }
                    offsets.append(Int32(cells.count))
                    addRecords(start..<cellEnd(start), neighborhood: h)
                }
            }
        }
        RadixSort.sort(&records)
    }
}

extension CellIndex {
    /// Levels of at least this many records are swept in two halves when threads are offered.
    static let parallelThreshold = 1 << 16

    /// Lists, for every record in a sparse cell, the later records (by level position) in sparse
    /// cells within radius `r` of it: exactly those of supercluster's `within(record.x, record.y, r)`
    /// that come after it in the level and lie in sparse cells. The greedy pass needs no more: when
    /// it reaches a record, every earlier one has been visited, and it searches dense cells itself
    /// (see ``DenseCells``).
    ///
    /// Each cell is paired with itself, its east neighbor and the three cells of the next row, found
    /// by pointers that only move forward. Each candidate pair is tested once, centered on its earlier
    /// record (``PairTest``).
    ///
    /// - Complexity: O(n + m) for m candidate pairs, at most `denseCellSize` × 5 per record.
    /// - Parameter threads: With more than one, the two halves of a large level are swept
    ///   concurrently.
    func neighbors(
        level: [LevelRecord], radius r: Double, centers: RecordCenters, threads: Int = 1,
        into table: inout NeighborTable, dense: inout DenseCells, profiler: BuildProfiler? = nil,
        zoom: Int = -1
    ) {
        // The directed pairs (record, neighbor), one list per half of the sweep (the second is
        // empty when the sweep runs as one), let go once grouped: kept, they would hold 8 bytes
        // per pair through the greedy pass.
        var parts: [[(UInt32, UInt32)]] = [[], []]
        let test = PairTest(radius: r, rounding: rounding)
        let denseStarts = level.withUnsafeBufferPointer { level in
            entries.withUnsafeBufferPointer { sorted in
                keys.withUnsafeBufferPointer { keys in
                    let count = sorted.count
                    let sweep = Sweep(
                        sorted: SharedView(sorted), keys: SharedView(keys),
                        level: SharedView(level),
                        centers: centers, test: test)
                    guard threads > 1 && count >= CellIndex.parallelThreshold else {
                        return sweep.run(from: 0, to: count, into: &parts[0])
                    }
                    // The second half starts at a cell's first entry; each half sweeps the cells
                    // that start in it, reading past its end where a cell's neighbors are.
                    var middle = count / 2
                    while middle < count && keys[middle] == keys[middle - 1] { middle += 1 }
                    let bounds = [(0, middle), (middle, count)]
                    // Each half appends to its own part, in place, and returns its dense cells (the
                    // second half's all come after the first's).
                    return parts.withUnsafeMutableBufferPointer { parts in
                        guard let base = parts.baseAddress else { return [] }
                        let slots = WorkerSlots(base)
                        let halves = WorkerSlots<[Int]>.collect(parts: 2) { half in
                            let (from, to) = bounds[half]
                            return KDTree.measurePart(
                                profiler, phase: .neighborSearch, zoom: zoom, items: to - from
                            ) {
                                sweep.run(from: from, to: to, into: &slots.base[half])
                            }
                        }
                        return halves.flatMap { $0 }
                    }
                }
            }
        }
        table.group(parts, level.count)
        dense.collect(denseStarts, cells: self)
    }

    /// One sweep over a range of cells, shared by the halves (which only read its buffers).
    private struct Sweep: Sendable {
        let sorted: SharedView<CellEntry>
        let keys: SharedView<Int64>
        let level: SharedView<LevelRecord>
        let centers: RecordCenters
        let test: PairTest

        /// Appends the pairs of every sparse cell whose first entry is in `from ..< to` with itself
        /// and its sparse neighbors; returns the first entries of the dense cells there.
        func run(from: Int, to: Int, into pairs: inout [(UInt32, UInt32)]) -> [Int] {
            let sorted = self.sorted.buffer, keys = self.keys.buffer, level = self.level.buffer
            let count = sorted.count
            let test = self.test, centers = self.centers
            var dense = [Int]()
            @inline(__always)
            func pair(_ i: Int, _ j: Int) {
                let p = sorted[i], q = sorted[j]
                // Only the later record of a pair can be absorbed by the earlier one.
                if p.position < q.position {
                    if test.contains(q, around: p, level: level, centers: centers) {
                        pairs.append((p.position, q.position))
                    }
                } else if test.contains(p, around: q, level: level, centers: centers) {
                    pairs.append((q.position, p.position))
                }
            }
            @inline(__always)
            func runEnd(_ start: Int) -> Int {
                let key = keys[start]
                var end = start + 1
                while end < count && keys[end] == key { end += 1 }
                return end
            }
            var start = from
            var up = from  // the first entry whose key may lie in the next row's window
            while start < to {
                let key = keys[start]
                let end = runEnd(start)
                defer { start = end }
                if end - start > denseCellSize {
                    dense.append(start)
                    continue
                }
                // Pairs inside the cell.
                if end - start > 1 {
                    for i in start..<(end - 1) {
                        for j in (i + 1)..<end { pair(i, j) }
                    }
                }
                // The cell to the east: the next run, if its key is key + 1.
                if end < count && keys[end] == key + 1 {
                    let eastEnd = runEnd(end)
                    if eastEnd - end <= denseCellSize {
                        for i in start..<end {
                            for j in end..<eastEnd { pair(i, j) }
                        }
                    }
                }
                // The three cells of the next row.
                let low = key + (1 << 32) - 1, high = key + (1 << 32) + 1
                if up < end { up = end }
                while up < count && keys[up] < low { up += 1 }
                var j = up
                while j < count && keys[j] <= high {
                    let cellEnd = runEnd(j)
                    if cellEnd - j <= denseCellSize {
                        for i in start..<end {
                            for k in j..<cellEnd { pair(i, k) }
                        }
                    }
                    j = cellEnd
                }
            }
            return dense
        }
    }
}

/// For every record of a level, the later records within the clustering radius of it that the
/// sweep found, as adjacency lists, in buffers reused from level to level.
struct NeighborTable {
    /// `targets[offsets[p] ..< offsets[p + 1]]` are the later neighbors of record `p`, in no
    /// particular order.
    var offsets: [Int32] = []
    var targets: [UInt32] = []
    /// The visit rank of each target (once the level's tree is in), gathered in a loop of
    /// independent loads so that the greedy pass reads them in order.
    var targetRanks: [UInt32] = []
    /// The number of pairs listed.
    var pairCount: Int { targets.count }

    /// Groups directed pairs (record, neighbor) by record, for a level of `n` records (a counting
    /// sort that fills the lists through `offsets` itself, so no second array of n cursors is
    /// needed).
    mutating func group(_ parts: [[(UInt32, UInt32)]], _ n: Int) {
        offsets.removeAll(keepingCapacity: true)
        offsets.append(contentsOf: repeatElement(0, count: n + 1))
        targets.resize(to: parts.reduce(0) { $0 + $1.count }, filling: 0)
        offsets.withUnsafeMutableBufferPointer { offsets in
            for part in parts {
                for (s, _) in part { offsets[Int(s)] &+= 1 }
            }
            // Exclusive prefix sums: `offsets[s]` is where the list of `s` starts.
            var start: Int32 = 0
            for i in 0..<n {
                let listed = offsets[i]
                offsets[i] = start
                start &+= listed
            }
            targets.withUnsafeMutableBufferPointer { targets in
                for part in parts {
                    for (s, d) in part {
                        targets[Int(offsets[Int(s)])] = d
                        offsets[Int(s)] &+= 1
                    }
                }
            }
            // Each `offsets[s]` is now where the list of `s` ends, the start of the next one.
            var i = n
            while i > 0 {
                offsets[i] = offsets[i - 1]
                i -= 1
            }
            offsets[0] = 0
        }
    }

    /// Gathers the visit rank of every target from the level's tree ranks.
    mutating func gatherRanks(_ ranks: [UInt32]) {
        targetRanks.resize(to: targets.count, filling: 0)
        targetRanks.withUnsafeMutableBufferPointer { out in
            targets.withUnsafeBufferPointer { targets in
                ranks.withUnsafeBufferPointer { ranks in
                    for k in targets.indices { out[k] = ranks[Int(targets[k])] }
                }
            }
        }
    }
}
