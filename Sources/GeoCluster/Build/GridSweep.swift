import Foundation
import GeoCore

/// One record of a cluster level (supercluster's stride-6 record, less the zoom and parent slots,
/// which the greedy pass keeps elsewhere): 16 bytes. A cluster's double center, which supercluster
/// also keeps in the record, is in the cluster table (see ``Centers``).
struct LevelRecord: Sendable, Equatable {
    /// The float32 coordinates the level's search tree stores (a point's projection exactly).
    var fx: Float
    var fy: Float
    /// The entity reference.
    var ref: UInt32
    /// Points in the record.
    var count: UInt32
}

/// The double coordinates supercluster keeps in a record: a point's float32 projection, a
/// cluster's centroid from the cluster table. Read-only views, valid while the table is not
/// appended to.
struct Centers: @unchecked Sendable {
    let inputCount: Int
    let x: UnsafeBufferPointer<Double>
    let y: UnsafeBufferPointer<Double>

    @inline(__always)
    func of(_ record: LevelRecord) -> (x: Double, y: Double) {
        let c = Int(record.ref) &- inputCount
        return c < 0 ? (Double(record.fx), Double(record.fy)) : (x[c], y[c])
    }
}

/// A record of a level in grid-cell order: its float32 coordinates and its level position. The top
/// bit of `tagged` marks a record whose double coordinates are not its float32 ones (a cluster).
struct CellEntry: Sendable, Equatable {
    var fx: Float
    var fy: Float
    var tagged: UInt32

    static let inexact: UInt32 = 1 << 31

    @inline(__always) var position: UInt32 { tagged & ~CellEntry.inexact }
    @inline(__always) var isExact: Bool { tagged & CellEntry.inexact == 0 }

    init(_ record: LevelRecord, position: UInt32, centers: Centers) {
        fx = record.fx
        fy = record.fy
        let (x, y) = centers.of(record)
        let exact = Double(fx) == x && Double(fy) == y
        tagged = position | (exact ? 0 : CellEntry.inexact)
    }

    init(fx: Float, fy: Float, tagged: UInt32) {
        self.fx = fx
        self.fy = fy
        self.tagged = tagged
    }
}

/// The records of a level sorted by square grid cell, kept from one zoom to the next.
///
/// Cells are at least as wide as the clustering radius plus the largest float32 rounding of a record,
/// so a neighbor is never more than one cell away. Going one zoom down doubles the radius; the cells
/// then double too, and the new order follows from the old one by merging pairs of rows (cell
/// coordinates halve) and merging in the new clusters, with no full sort.
struct CellIndex {
    /// The entries in row-major cell order.
    private(set) var entries: [CellEntry] = []
    /// The cell key of each entry: row << 32 | (column + 2³¹).
    private(set) var keys: [Int64] = []
    /// Cells are 2^-shift wide.
    private(set) var shift = 0
    /// The buffers the next ``advance(to:newPosition:clusters:radius:centers:)`` writes into.
    private var spareEntries: [CellEntry] = []
    private var spareKeys: [Int64] = []
    /// The new position of each entry's record, gathered before the move.
    private var spareMoved: [UInt32] = []
    /// An upper bound of |float32(v) − v| over the coordinates of every record so far.
    private var rounding = 0.0
    /// Whether some cell is near the clamping limit, where halving and recomputing could disagree.
    private var extreme = false

    /// The cell size exponent for a radius: the largest `shift` with 2^-shift ≥ reach, within ±30.
    private static func shift(forReach reach: Double) -> Int {
        guard reach > 0 && reach.isFinite else { return reach > 0 ? -30 : 30 }
        var shift = Int(max(-40, min(40, (-log2(reach)).rounded(.down))))
        shift = max(-30, min(30, shift))
        while shift > -30 && Double(sign: .plus, exponent: -shift, significand: 1) < reach {
            shift -= 1
        }
        return shift
    }

    @inline(__always)
    private static func cell(_ v: Float, scale: Double) -> Int64 {
        let limit = Double(1 << 30)
        return Int64(max(-limit, min(limit, (Double(v) * scale).rounded(.down))))
    }

    /// Row-major order of cells: row, then column.
    @inline(__always)
    private static func key(_ e: CellEntry, scale: Double) -> Int64 {
        cell(e.fy, scale: scale) << 32 | (cell(e.fx, scale: scale) + (1 << 31))
    }

    /// Sorts a whole level into cells for a radius.
    init(level: [LevelRecord], radius r: Double, centers: Centers) {
        for record in level { widenRounding(record, centers) }
        rebuild(level, radius: r, centers: centers)
    }

    /// Makes ``rounding`` cover a record's float32 copy.
    private mutating func widenRounding(_ record: LevelRecord, _ centers: Centers) {
        let (x, y) = centers.of(record)
        rounding = max(rounding, abs(Double(record.fx) - x), abs(Double(record.fy) - y))
    }

    private mutating func rebuild(_ level: [LevelRecord], radius r: Double, centers: Centers) {
        shift = CellIndex.shift(forReach: r + rounding)
        let scale = Double(sign: .plus, exponent: shift, significand: 1)
        let n = level.count
        var keys = [UInt64](repeating: 0, count: n)
        let cells = level.enumerated().map {
            CellEntry($0.element, position: UInt32($0.offset), centers: centers)
        }
        extreme = false
        for (i, entry) in cells.enumerated() {
            // order-preserving
            keys[i] = UInt64(bitPattern: CellIndex.key(entry, scale: scale)) ^ (1 << 63)
            let cx = CellIndex.cell(entry.fx, scale: scale),
                cy = CellIndex.cell(entry.fy, scale: scale)
            if abs(cx) >= 1 << 29 || abs(cy) >= 1 << 29 { extreme = true }
        }
        var order = [UInt32]()
        RadixSort.sort(&keys, order: &order)
        entries = order.map { cells[Int($0)] }
        self.keys = keys.map { Int64(bitPattern: $0 ^ (1 << 63)) }
    }

    /// Lets go of the buffers the next move writes into (they are made again at the size then
    /// needed).
    mutating func releaseSpareBuffers() {
        spareEntries = []
        spareKeys = []
        spareMoved = []
    }

    /// Moves the index to the next level: `newPosition[p]` is where record `p` of the old level went
    /// (`UInt32.max` if it was absorbed or became a cluster), `clusters` are the new level's new
    /// records, and `r` the next zoom's radius.
    mutating func advance(
        to level: [LevelRecord], newPosition: [UInt32], clusters: [UInt32], radius r: Double,
        centers: Centers
    ) {
        for p in clusters { widenRounding(level[Int(p)], centers) }
        let wanted = CellIndex.shift(forReach: r + rounding)
        guard wanted == shift - 1 && !extreme else {
            rebuild(level, radius: r, centers: centers)
            return
        }
        shift = wanted
        let scale = Double(sign: .plus, exponent: shift, significand: 1)
        // The new clusters, sorted by their cells.
        var added = clusters.map { p in
            (key: Int64(0), entry: CellEntry(level[Int(p)], position: p, centers: centers))
        }
        for i in added.indices { added[i].key = CellIndex.key(added[i].entry, scale: scale) }
        added.sort { $0.key < $1.key }
        // One pass: the survivors with halved cells (rows 2j and 2j+1 merge into row j, columns
        // halve, all in integers) merged with the new clusters, written into the spare buffers.
        let capacity = entries.count + added.count
        var newEntries = spareEntries, newKeys = spareKeys
        spareEntries = []
        spareKeys = []
        newEntries.resize(to: capacity, filling: CellEntry(fx: 0, fy: 0, tagged: 0))
        newKeys.resize(to: capacity, filling: 0)
        // Where each entry's record went, gathered first in a loop of independent loads (the
        // positions are in random order), so that many are in flight at once.
        var moved = spareMoved
        spareMoved = []
        moved.resize(to: entries.count, filling: 0)
        moved.withUnsafeMutableBufferPointer { moved in
            entries.withUnsafeBufferPointer { entries in
                newPosition.withUnsafeBufferPointer { newPosition in
                    for i in entries.indices { moved[i] = newPosition[Int(entries[i].position)] }
                }
            }
        }
        let count = newEntries.withUnsafeMutableBufferPointer { out in
            newKeys.withUnsafeMutableBufferPointer { outKeys in
                moved.withUnsafeBufferPointer { moved in
                    CellIndex.mergeHalved(
                        old: entries, oldKeys: keys, added: added, moved: moved, into: out,
                        keys: outKeys)
                }
            }
        }
        spareMoved = moved
        newEntries.resize(to: count, filling: CellEntry(fx: 0, fy: 0, tagged: 0))
        newKeys.resize(to: count, filling: 0)
        swap(&entries, &newEntries)
        swap(&keys, &newKeys)
        spareEntries = newEntries
        spareKeys = newKeys
    }

    /// Writes the survivors of `old` with halved cells (rows 2j and 2j+1 merge into row j, columns
    /// halve, all in integer keys) merged with the sorted new clusters; returns how many were written.
    private static func mergeHalved(
        old: [CellEntry], oldKeys: [Int64], added: [(key: Int64, entry: CellEntry)],
        moved: UnsafeBufferPointer<UInt32>,
        into out: UnsafeMutableBufferPointer<CellEntry>,
        keys outKeys: UnsafeMutableBufferPointer<Int64>
    ) -> Int {
        var count = 0
        old.withUnsafeBufferPointer { old in
            oldKeys.withUnsafeBufferPointer { oldKeys in
                added.withUnsafeBufferPointer { added in
                    var nextAdded = 0
                    @inline(__always)
                    func halved(_ key: Int64) -> Int64 {
                        let row = key >> 32, column = (key & 0xFFFF_FFFF) - (1 << 31)
                        return (row >> 1) << 32 | ((column >> 1) + (1 << 31))
                    }
                    @inline(__always)
                    func put(_ entry: CellEntry, _ key: Int64) {
                        out[count] = entry
                        outKeys[count] = key
                        count += 1
                    }
                    @inline(__always)
                    func emit(_ i: Int) {
                        let e = old[i]
                        let p = moved[i]
                        guard p != UInt32.max else { return }
                        let key = halved(oldKeys[i])
                        while nextAdded < added.count && added[nextAdded].key < key {
                            put(added[nextAdded].entry, added[nextAdded].key)
                            nextAdded += 1
                        }
                        put(
                            CellEntry(
                                fx: e.fx, fy: e.fy, tagged: p | (e.tagged & CellEntry.inexact)), key
                        )
                    }
                    var i = 0
                    let n = old.count
                    while i < n {
                        let row = oldKeys[i] >> 32
                        var end = i + 1
                        while end < n && oldKeys[end] >> 32 == row { end += 1 }
                        var otherEnd = end
                        if end < n && (oldKeys[end] >> 32) >> 1 == row >> 1 {
                            let other = oldKeys[end] >> 32
                            while otherEnd < n && oldKeys[otherEnd] >> 32 == other { otherEnd += 1 }
                        }
                        var a = i, b = end
                        while a < end && b < otherEnd {
                            if halved(oldKeys[a]) <= halved(oldKeys[b]) {
                                emit(a)
                                a += 1
                            } else {
                                emit(b)
                                b += 1
                            }
                        }
                        while a < end {
                            emit(a)
                            a += 1
                        }
                        while b < otherEnd {
                            emit(b)
                            b += 1
                        }
                        i = otherEnd
                    }
                    while nextAdded < added.count {
                        put(added[nextAdded].entry, added[nextAdded].key)
                        nextAdded += 1
                    }
                }
            }
        }
        return count
    }

    /// For every record, the later records (by level position) within radius `r` of it: exactly
    /// those of supercluster's `within(record.x, record.y, r)` that come after it in the level. The
    /// greedy pass needs no more: when it reaches a record, every earlier one has been visited.
    ///
    /// Each cell is paired with itself, its east neighbor and the three cells of the next row, found
    /// by pointers that only move forward. Each candidate pair is tested once, centered on its earlier
    /// record, with supercluster's exact test `(fx_q − x_p)² + (fy_q − y_p)² ≤ r²` in double (not
    /// symmetric for clusters: double center, float32 tree copy). A cluster's double center is read
    /// from the level only when its float32 copy leaves the outcome in doubt.
    ///
    /// - Complexity: O(n + m) for m candidate pairs.
    /// - Parameter threads: With more than one, the two halves of a large level are swept
    ///   concurrently.
    func neighbors(
        level: [LevelRecord], radius r: Double, centers: Centers, threads: Int = 1,
        into table: inout NeighborTable
    ) {
        var parts = table.pairParts
        table.pairParts = []
        for i in parts.indices { parts[i].removeAll(keepingCapacity: true) }
        // A cluster's center is within √2 · rounding of its float32 copy.
        let margin = 1.5 * rounding
        let sure = max(0, r - margin), unsure = r + margin
        let test = PairTest(
            r2: r * r, accept: sure * sure * (1 - 1e-12), reject: unsure * unsure * (1 + 1e-12))
        level.withUnsafeBufferPointer { level in
            entries.withUnsafeBufferPointer { sorted in
                keys.withUnsafeBufferPointer { keys in
                    let count = sorted.count
                    guard threads > 1 && count >= 1 << 16 else {
                        CellIndex.sweep(
                            sorted, keys, level, centers, runsFrom: 0, to: count, test: test,
                            into: &parts[0])
                        return
                    }
                    // The second half starts at a cell's first entry; each half sweeps the cells
                    // that start in it, reading past its end where a cell's neighbors are.
                    var middle = count / 2
                    while middle < count && keys[middle] == keys[middle - 1] { middle += 1 }
                    let buffers = SweepBuffers(sorted: sorted, keys: keys, level: level)
                    let bounds = [(0, middle), (middle, count)]
                    // Each half appends to its own part, in place.
                    if parts.count < 2 { parts += Array(repeating: [], count: 2 - parts.count) }
                    parts.withUnsafeMutableBufferPointer { parts in
                        guard let base = parts.baseAddress else { return }
                        let shared = KDTree.SharedBuffer(base: base)
                        DispatchQueue.concurrentPerform(iterations: 2) { half in
                            CellIndex.sweep(
                                buffers.sorted, buffers.keys, buffers.level, centers,
                                runsFrom: bounds[half].0,
                                to: bounds[half].1, test: test, into: &shared.base[half])
                        }
                    }
                }
            }
        }
        table.pairParts = parts
        table.group(level)
    }

    /// supercluster's distance test, with the bounds that settle it from float32 copies.
    struct PairTest {
        var r2: Double
        /// Below this squared distance between float32 copies, a pair is within the radius whatever
        /// the double center; above `reject`, it is not.
        var accept: Double
        var reject: Double
    }

    /// The buffers of a sweep, shared by the two halves (which only read them).
    struct SweepBuffers: @unchecked Sendable {
        var sorted: UnsafeBufferPointer<CellEntry>
        var keys: UnsafeBufferPointer<Int64>
        var level: UnsafeBufferPointer<LevelRecord>
    }

    /// Appends the pairs of every cell whose first entry is in `from ..< to` (see
    /// ``neighbors(level:radius:centers:threads:into:)``).
    private static func sweep(
        _ sorted: UnsafeBufferPointer<CellEntry>, _ keys: UnsafeBufferPointer<Int64>,
        _ level: UnsafeBufferPointer<LevelRecord>, _ centers: Centers, runsFrom from: Int, to: Int,
        test t: PairTest,
        into pairs: inout [(UInt32, UInt32)]
    ) {
        let count = sorted.count
        let r2 = t.r2, accept = t.accept, reject = t.reject
        /// supercluster's test with `p` as the query center.
        @inline(__always)
        func within(_ p: CellEntry, _ q: CellEntry) -> Bool {
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
        @inline(__always)
        func test(_ i: Int, _ j: Int) {
            let p = sorted[i], q = sorted[j]
            // Only the later record of a pair can be absorbed by the earlier one.
            if p.position < q.position {
                if within(p, q) { pairs.append((p.position, q.position)) }
            } else {
                if within(q, p) { pairs.append((q.position, p.position)) }
            }
        }
        var start = from
        var up = from  // the first entry whose key may lie in the next row's window
        while start < to {
            let key = keys[start]
            var end = start + 1
            while end < count && keys[end] == key { end += 1 }
            // Pairs inside the cell.
            if end - start > 1 {
                for i in start..<(end - 1) {
                    for j in (i + 1)..<end { test(i, j) }
                }
            }
            // The cell to the east: the next run, if its key is key + 1.
            if end < count && keys[end] == key + 1 {
                var eastEnd = end + 1
                while eastEnd < count && keys[eastEnd] == key + 1 { eastEnd += 1 }
                for i in start..<end {
                    for j in end..<eastEnd { test(i, j) }
                }
            }
            // The three cells of the next row.
            let low = key + (1 << 32) - 1, high = key + (1 << 32) + 1
            if up < end { up = end }
            while up < count && keys[up] < low { up += 1 }
            var j = up
            while j < count && keys[j] <= high {
                for i in start..<end { test(i, j) }
                j += 1
            }
            start = end
        }
    }
}

/// For every record of a level, the later records within the clustering radius of it, as adjacency
/// lists, in buffers reused from level to level.
struct NeighborTable {
    /// `targets[offsets[p] ..< offsets[p + 1]]` are the later neighbors of record `p`, in no
    /// particular order.
    var offsets: [Int32] = []
    var targets: [UInt32] = []
    /// What the greedy pass needs of each target, gathered in loops of independent loads (the
    /// targets are in random order), so that the pass reads it in order: its record, and (once the
    /// level's tree is in) its visit rank.
    var targetRecords: [LevelRecord] = []
    var targetRanks: [UInt32] = []
    /// The directed pairs (record, neighbor) the lists are made from, in two parts (one per half
    /// of a sweep; the second is empty when the sweep ran as one).
    var pairParts: [[(UInt32, UInt32)]] = [[], []]
    private var fill: [Int32] = []

    /// Calls `body` with read-only views of the lists: offsets, targets, and the targets' gathered
    /// records and ranks.
    func withBuffers<R>(
        _ body: (
            _ offsets: UnsafeBufferPointer<Int32>, _ targets: UnsafeBufferPointer<UInt32>,
            _ records: UnsafeBufferPointer<LevelRecord>, _ ranks: UnsafeBufferPointer<UInt32>
        ) -> R
    ) -> R {
        offsets.withUnsafeBufferPointer { offsets in
            targets.withUnsafeBufferPointer { targets in
                targetRecords.withUnsafeBufferPointer { records in
                    targetRanks.withUnsafeBufferPointer { ranks in
                        body(offsets, targets, records, ranks)
                    }
                }
            }
        }
    }

    /// Groups ``pairParts`` by record, for the records of `level`.
    mutating func group(_ level: [LevelRecord]) {
        let n = level.count
        offsets.removeAll(keepingCapacity: true)
        offsets.append(contentsOf: repeatElement(0, count: n + 1))
        let parts = pairParts
        targets.resize(to: parts.reduce(0) { $0 + $1.count }, filling: 0)
        fill.resize(to: n, filling: 0)
        offsets.withUnsafeMutableBufferPointer { offsets in
            for part in parts {
                for (s, _) in part { offsets[Int(s) + 1] &+= 1 }
            }
            for i in 0..<n { offsets[i + 1] &+= offsets[i] }
            fill.withUnsafeMutableBufferPointer { fill in
                for i in 0..<n { fill[i] = offsets[i] }
                targets.withUnsafeMutableBufferPointer { targets in
                    for part in parts {
                        for (s, d) in part {
                            targets[Int(fill[Int(s)])] = d
                            fill[Int(s)] &+= 1
                        }
                    }
                }
            }
        }
        targetRecords.resize(
            to: targets.count, filling: LevelRecord(fx: 0, fy: 0, ref: 0, count: 0))
        targetRecords.withUnsafeMutableBufferPointer { records in
            targets.withUnsafeBufferPointer { targets in
                level.withUnsafeBufferPointer { level in
                    for k in targets.indices { records[k] = level[Int(targets[k])] }
                }
            }
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

extension Array {
    /// Sets the count to `n`, keeping the buffer when it is large enough; new elements are `filler`.
    mutating func resize(to n: Int, filling filler: Element) {
        if count > n {
            removeLast(count - n)
        } else if count < n {
            reserveHugeCapacity(n)
            append(contentsOf: repeatElement(filler, count: n - count))
        }
    }
}
