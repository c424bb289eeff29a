import Foundation
import GeoCore

/// A record of a level in grid-cell order: its float32 coordinates and its level position, with a
/// flag for a record whose double coordinates are not its float32 ones (a cluster's center).
struct CellEntry: Sendable, Equatable {
    var fx: Float
    var fy: Float
    /// The level position in the low 31 bits; the top bit is ``inexact``.
    var flaggedPosition: UInt32

    /// The flag of a record whose double center differs from its float32 copy.
    static let inexact: UInt32 = 1 << 31
    /// The position of an entry whose record left its level (absorbed, or replaced by a cluster)
    /// while the index moves to the next level; levels have fewer than 2³¹ − 1 records.
    static let gone: UInt32 = ~inexact

    /// The record's position in its level.
    @inline(__always) var position: UInt32 { flaggedPosition & ~CellEntry.inexact }
    /// Whether the float32 coordinates are the record's double center.
    @inline(__always) var isExact: Bool { flaggedPosition & CellEntry.inexact == 0 }

    init(_ record: LevelRecord, position: UInt32, centers: RecordCenters) {
        fx = record.fx
        fy = record.fy
        let (x, y) = centers.of(record)
        let exact = Double(fx) == x && Double(fy) == y
        flaggedPosition = position | (exact ? 0 : CellEntry.inexact)
    }

    init(fx: Float, fy: Float, flaggedPosition: UInt32) {
        self.fx = fx
        self.fy = fy
        self.flaggedPosition = flaggedPosition
    }
}

/// The records of a level sorted by square grid cell, kept from one zoom to the next.
///
/// Cells are at least as wide as the clustering radius plus the largest float32 rounding of a record,
/// so a neighbor is never more than one cell away. Going one zoom down doubles the radius; the cells
/// then double too, and the new order follows from the old one by merging pairs of rows (cell
/// coordinates halve) and merging in the new clusters, with no full sort.
///
/// Cell coordinates are clamped to ±(2³¹ − 1), which no record reaches: the build uses the grid
/// only when every x is within ``ClusterHierarchy/gridRange`` (y is always within [0, 1]) and cells
/// are at least 2⁻³⁰ wide. Should a cell ever reach the limit, the level is sorted afresh instead of
/// halved, since clamped cells do not halve exactly.
struct CellIndex {
    /// The entries in row-major cell order.
    private(set) var entries: [CellEntry] = []
    /// The cell key of each entry: row << 32 | (column + 2³¹).
    private(set) var keys: [Int64] = []
    /// Cells are 2^-shift wide.
    private(set) var shift = 0
    /// A copy of the first row of a pair that
    /// ``advance(to:newPosition:clusters:radius:centers:shrinking:)`` merges, kept from one move to
    /// the next.
    private var rowEntries: [CellEntry] = []
    private var rowKeys: [Int64] = []
    /// An upper bound of |float32(v) − v| over the coordinates of every record so far.
    private(set) var rounding = 0.0
    /// Whether some cell is near the clamping limit, where halving and recomputing could disagree.
    private var nearKeyLimit = false

    /// The cell size exponent for a reach: the largest `shift` with 2^-shift ≥ reach, within ±30.
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
        let limit = Double((1 << 31) - 1)
        return Int64(max(-limit, min(limit, (Double(v) * scale).rounded(.down))))
    }

    /// Row-major order of cells: row, then column.
    @inline(__always)
    private static func key(_ e: CellEntry, scale: Double) -> Int64 {
        key(x: e.fx, y: e.fy, scale: scale)
    }

    @inline(__always)
    private static func key(x: Float, y: Float, scale: Double) -> Int64 {
        cell(y, scale: scale) << 32 | (cell(x, scale: scale) + (1 << 31))
    }

    /// The key of the cell `rows` rows and `columns` columns away from the cell of `key`.
    @inline(__always)
    static func key(_ key: Int64, rows: Int64, columns: Int64) -> Int64 {
        key &+ rows << 32 &+ columns
    }

    /// Sorts a whole level into cells for a radius.
    init(level: [LevelRecord], radius r: Double, centers: RecordCenters) {
        for record in level { widenRounding(record, centers) }
        rebuild(level, radius: r, centers: centers)
    }

    /// Makes ``rounding`` cover a record's float32 copy.
    private mutating func widenRounding(_ record: LevelRecord, _ centers: RecordCenters) {
        let (x, y) = centers.of(record)
        rounding = max(rounding, abs(Double(record.fx) - x), abs(Double(record.fy) - y))
    }

    private mutating func rebuild(_ level: [LevelRecord], radius r: Double, centers: RecordCenters)
    {
        shift = CellIndex.shift(forReach: r + rounding)
        let scale = Double(sign: .plus, exponent: shift, significand: 1)
        let n = level.count
        var keys = [UInt64](repeating: 0, count: n)
        let cells = level.enumerated().map {
            CellEntry($0.element, position: UInt32($0.offset), centers: centers)
        }
        nearKeyLimit = false
        for (i, entry) in cells.enumerated() {
            // The sign bit flipped: unsigned order is the keys' signed order.
            keys[i] = UInt64(bitPattern: CellIndex.key(entry, scale: scale)) ^ (1 << 63)
            let cx = CellIndex.cell(entry.fx, scale: scale),
                cy = CellIndex.cell(entry.fy, scale: scale)
            if abs(cx) >= (1 << 31) - 1 || abs(cy) >= (1 << 31) - 1 { nearKeyLimit = true }
        }
        var order = [UInt32]()
        RadixSort.sort(&keys, order: &order)
        entries = order.map { cells[Int($0)] }
        self.keys = keys.map { Int64(bitPattern: $0 ^ (1 << 63)) }
    }

    /// The entries of the cell with a key, as a range of ``entries``; empty when no entry is in it.
    ///
    /// - Complexity: O(log n + m) for m entries in the cell.
    func cell(withKey key: Int64) -> Range<Int> {
        keys.withUnsafeBufferPointer { keys in
            var lo = 0, hi = keys.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if keys[mid] < key { lo = mid + 1 } else { hi = mid }
            }
            var end = lo
            while end < keys.count && keys[end] == key { end += 1 }
            return lo..<end
        }
    }

    /// Moves the index to the next level: `newPosition[p]` is where record `p` of the old level went
    /// (`UInt32.max` if it was absorbed or became a cluster), `clusters` are the new level's new
    /// records, and `r` the next zoom's radius. With `shrinking`, the entries move to buffers of the
    /// new level's size, and the row copies start afresh.
    mutating func advance(
        to level: [LevelRecord], newPosition: [UInt32], clusters: [UInt32], radius r: Double,
        centers: RecordCenters, shrinking: Bool = false
    ) {
        for p in clusters { widenRounding(level[Int(p)], centers) }
        let wanted = CellIndex.shift(forReach: r + rounding)
        guard wanted == shift - 1 && !nearKeyLimit else {
            rebuild(level, radius: r, centers: centers)
            return
        }
        shift = wanted
        let scale = Double(sign: .plus, exponent: shift, significand: 1)
        // The new clusters' cells, sorted (a stable radix sort: clusters in one cell keep their
        // level order, as the merge below expects); their entries are made as the merge places
        // them. The sign bit flipped: unsigned order is the keys' signed order.
        var addedKeys = clusters.map { p in
            let record = level[Int(p)]
            return UInt64(bitPattern: CellIndex.key(x: record.fx, y: record.fy, scale: scale))
                ^ (1 << 63)
        }
        var addedOrder = [UInt32]()
        RadixSort.sort(&addedKeys, order: &addedOrder)
        // First each entry's new position (or ``CellEntry/gone``), written over its old one in a
        // loop of independent loads (the positions are in random order) whose stores go to known
        // places, so that many loads are in flight at once; then the survivors moved down over the
        // others in order, a sequential pass.
        let oldCount = entries.count
        let survivors = entries.withUnsafeMutableBufferPointer { entries in
            keys.withUnsafeMutableBufferPointer { keys in
                newPosition.withUnsafeBufferPointer { newPosition in
                    for i in 0..<oldCount {
                        let flagged = entries[i].flaggedPosition
                        let p = newPosition[Int(flagged & ~CellEntry.inexact)]
                        entries[i].flaggedPosition =
                            (p == .max ? CellEntry.gone : p) | (flagged & CellEntry.inexact)
                    }
                    var kept = 0
                    for i in 0..<oldCount {
                        let e = entries[i], key = keys[i]
                        entries[kept] = e
                        keys[kept] = key
                        kept &+= e.position == CellEntry.gone ? 0 : 1
                    }
                    return kept
                }
            }
        }
        if shrinking {
            entries = CellIndex.moved(entries[..<survivors], room: survivors + clusters.count)
            keys = CellIndex.moved(keys[..<survivors], room: survivors + clusters.count)
            rowEntries = []
            rowKeys = []
        }
        // Then one pass: the survivors with halved cells (rows 2j and 2j+1 merge into row j,
        // columns halve, all in integers) merged with the new clusters, in place, the survivors
        // moved up to the end of the room the old level took (or of the buffers, when they were
        // just made at the new level's size). In a build the next level is never larger than the
        // old one, so the buffers never grow there.
        let room = min(entries.capacity, keys.capacity, oldCount)
        let total = max(room, survivors + clusters.count)
        entries.resize(to: total, filling: CellEntry(fx: 0, fy: 0, flaggedPosition: 0))
        keys.resize(to: total, filling: 0)
        var rowEntries = self.rowEntries, rowKeys = self.rowKeys
        self.rowEntries = []
        self.rowKeys = []
        let count = entries.withUnsafeMutableBufferPointer { entries in
            keys.withUnsafeMutableBufferPointer { keys in
                level.withUnsafeBufferPointer { level in
                    clusters.withUnsafeBufferPointer { clusters in
                        addedKeys.withUnsafeBufferPointer { addedKeys in
                            addedOrder.withUnsafeBufferPointer { addedOrder in
                                CellIndex.mergeHalvedInPlace(
                                    entries: entries, keys: keys, oldCount: survivors,
                                    shift: total - survivors,
                                    added: SortedClusters(
                                        keys: addedKeys, order: addedOrder, clusters: clusters,
                                        level: level, centers: centers),
                                    rowEntries: &rowEntries, rowKeys: &rowKeys)
                            }
                        }
                    }
                }
            }
        }
        self.rowEntries = rowEntries
        self.rowKeys = rowKeys
        entries.resize(to: count, filling: CellEntry(fx: 0, fy: 0, flaggedPosition: 0))
        keys.resize(to: count, filling: 0)
    }

    /// A copy of `elements` with room for `room`.
    private static func moved<T>(_ elements: ArraySlice<T>, room: Int) -> [T] {
        var copy = [T]()
        copy.reserveHugeCapacity(room)
        copy.append(contentsOf: elements)
        return copy
    }

    /// Writes the first `oldCount` entries with halved cells (rows 2j and 2j+1 merge into row j,
    /// columns halve, all in integer keys) merged with the sorted new clusters, over the same
    /// buffers; returns how many were written.
    ///
    /// The old entries are first moved up by `shift`, at least the number of new clusters. Reading
    /// them in order, the writes then never reach an entry not yet read: at any time they have
    /// written at most the entries read and the clusters placed, and `shift` covers the clusters. A
    /// pair of rows is read in two places at once, so the first row is merged from a copy, unless
    /// the room left covers the whole second row and every cluster still to place (which holds when
    /// the buffers have room to spare from the entries dropped, at the zooms where rows are long).
    private static func mergeHalvedInPlace(
        entries: UnsafeMutableBufferPointer<CellEntry>, keys: UnsafeMutableBufferPointer<Int64>,
        oldCount n: Int, shift: Int, added: SortedClusters,
        rowEntries: inout [CellEntry], rowKeys: inout [Int64]
    ) -> Int {
        guard n > 0, let firstEntry = entries.baseAddress, let firstKey = keys.baseAddress else {
            for i in 0..<added.count {
                entries[i] = added.entry(i)
                keys[i] = added.key(i)
            }
            return added.count
        }
        if shift > 0 {
            // Overlapping moves (memmove).
            UnsafeMutableRawPointer(firstEntry + shift).copyMemory(
                from: firstEntry, byteCount: n * MemoryLayout<CellEntry>.stride)
            UnsafeMutableRawPointer(firstKey + shift).copyMemory(
                from: firstKey, byteCount: n * MemoryLayout<Int64>.stride)
        }
        let oldEntries = firstEntry + shift, oldKeys = firstKey + shift
        var count = 0
        var nextAdded = 0
        @inline(__always)
        func halved(_ key: Int64) -> Int64 {
            let row = key >> 32, column = (key & 0xFFFF_FFFF) - (1 << 31)
            return (row >> 1) << 32 | ((column >> 1) + (1 << 31))
        }
        @inline(__always)
        func put(_ entry: CellEntry, _ key: Int64) {
            entries[count] = entry
            keys[count] = key
            count += 1
        }
        @inline(__always)
        func emit(_ e: CellEntry, _ oldKey: Int64) {
            let key = halved(oldKey)
            while nextAdded < added.count && added.key(nextAdded) < key {
                put(added.entry(nextAdded), added.key(nextAdded))
                nextAdded += 1
            }
            put(e, key)
        }
        // Merges rows [i, end) (read through `first`, `firstKeys`) and [end, otherEnd).
        @inline(__always)
        func mergePair(
            _ i: Int, _ end: Int, _ otherEnd: Int, _ first: UnsafePointer<CellEntry>,
            _ firstKeys: UnsafePointer<Int64>
        ) {
            var a = 0, b = end
            let firstCount = end - i
            while a < firstCount && b < otherEnd {
                if halved(firstKeys[a]) <= halved(oldKeys[b]) {
                    emit(first[a], firstKeys[a])
                    a += 1
                } else {
                    emit(oldEntries[b], oldKeys[b])
                    b += 1
                }
            }
            while a < firstCount {
                emit(first[a], firstKeys[a])
                a += 1
            }
            while b < otherEnd {
                emit(oldEntries[b], oldKeys[b])
                b += 1
            }
        }
        var i = 0
        while i < n {
            let row = oldKeys[i] >> 32
            var end = i + 1
            while end < n && oldKeys[end] >> 32 == row { end += 1 }
            var otherEnd = end
            if end < n && (oldKeys[end] >> 32) >> 1 == row >> 1 {
                let other = oldKeys[end] >> 32
                while otherEnd < n && oldKeys[otherEnd] >> 32 == other { otherEnd += 1 }
            }
            if otherEnd == end {
                for j in i..<end { emit(oldEntries[j], oldKeys[j]) }
            } else if (otherEnd - end) + (added.count - nextAdded) < shift + i - count {
                // The room left covers every write before the first row's last read.
                mergePair(i, end, otherEnd, oldEntries + i, oldKeys + i)
            } else {
                let firstCount = end - i
                if rowEntries.count < firstCount {
                    rowEntries.resize(
                        to: firstCount, filling: CellEntry(fx: 0, fy: 0, flaggedPosition: 0))
                    rowKeys.resize(to: firstCount, filling: 0)
                }
                rowEntries.withUnsafeMutableBufferPointer { copy in
                    rowKeys.withUnsafeMutableBufferPointer { copyKeys in
                        guard let copy = copy.baseAddress, let copyKeys = copyKeys.baseAddress
                        else { return }
                        copy.update(from: oldEntries + i, count: firstCount)
                        copyKeys.update(from: oldKeys + i, count: firstCount)
                        mergePair(i, end, otherEnd, copy, copyKeys)
                    }
                }
            }
            i = otherEnd
        }
        while nextAdded < added.count {
            put(added.entry(nextAdded), added.key(nextAdded))
            nextAdded += 1
        }
        return count
    }
}

/// The new clusters of a level in cell order, as the move of a ``CellIndex`` merges them: their
/// sorted keys (sign bit flipped) and, through the sort's order, their level positions; an entry is
/// made when the merge places it.
private struct SortedClusters {
    let keys: UnsafeBufferPointer<UInt64>
    let order: UnsafeBufferPointer<UInt32>
    let clusters: UnsafeBufferPointer<UInt32>
    let level: UnsafeBufferPointer<LevelRecord>
    let centers: RecordCenters

    var count: Int { keys.count }

    @inline(__always)
    func key(_ i: Int) -> Int64 { Int64(bitPattern: keys[i] ^ (1 << 63)) }

    @inline(__always)
    func entry(_ i: Int) -> CellEntry {
        let p = clusters[Int(order[i])]
        return CellEntry(level[Int(p)], position: p, centers: centers)
    }
}
