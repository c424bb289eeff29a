import Foundation
import GeoCore

/// A cluster an element formed at one zoom: the record it stands for from that level down to the
/// next formation.
struct LiveFormation: Sendable, Equatable {
    var zoom: Int8
    var count: UInt32
    var x: Double
    var y: Double
    var aggregate: JSONValue?
}

/// What the engine reads of an element most: where it is and how it is linked into the levels.
/// Plain data, 20 bytes, so reading it costs no reference counting.
@usableFromInline
struct LiveElement: Sendable {
    /// Whether the element is in the index (`false` once removed).
    @usableFromInline var isPresent: Bool
    /// Whether it formed any cluster (see ``LiveDetail/formations``).
    var hasFormations = false
    /// The lowest level with a record of this element (``LiveCore/absent`` when it has none).
    @usableFromInline var depth: Int8
    /// supercluster's float32 projection.
    var fx: Float
    var fy: Float
    @usableFromInline var partition: Int32
    /// The serial of the origin that absorbed it at zoom `depth - 1`, or −1.
    var claimer: Int32
}

/// The rest of an element: its coordinate as given, its value and the clusters it formed.
@usableFromInline
struct LiveDetail: Sendable {
    @usableFromInline var coordinate: Coordinate
    /// The element's value for the aggregation.
    var value: JSONValue
    /// The clusters it formed, ascending by zoom.
    var formations: [LiveFormation] = []
}

/// One record of a level as the live engine compares it: where it is, how many points it holds
/// and what it is (its id).
@usableFromInline
struct LiveRecord: Sendable, Equatable {
    @usableFromInline var x: Double
    @usableFromInline var y: Double
    @usableFromInline var count: UInt32
    /// `serial << 5` for a point, `serial << 5 + zoom + 1` for a cluster formed at `zoom`.
    @usableFromInline var id: Int
    @usableFromInline var aggregate: JSONValue?

    var fx: Float { Float(x) }
    var fy: Float { Float(y) }
}

/// A grid entry of one level: the cell of the record's float32 position, whether the record was
/// absorbed at the zoom below the level (members sort after origins within a cell) and its serial.
///
/// 12 bytes, in three 32-bit words (a `UInt64` field would pad it to 16): the cell's column and
/// row (each below 2²³), and the serial (below 2³¹) with the member flag in the top bit, so that
/// the word orders members after origins and then by serial.
struct LiveGridEntry: Comparable, Hashable, Sendable {
    private var column: UInt32
    private var row: UInt32
    private var tag: UInt32

    private static let memberFlag: UInt32 = 1 << 31

    init(cell: UInt64, member: Bool, serial: Int32) {
        column = UInt32(truncatingIfNeeded: cell >> 32)
        row = UInt32(truncatingIfNeeded: cell)
        tag = (member ? Self.memberFlag : 0) | UInt32(bitPattern: serial) & ~Self.memberFlag
    }

    /// The cell: its column in the high 32 bits, its row in the low ones (``LiveCore/key(_:_:)``).
    var cell: UInt64 { UInt64(column) << 32 | UInt64(row) }
    var serial: Int32 { Int32(bitPattern: tag & ~Self.memberFlag) }
    var isMember: Bool { tag & Self.memberFlag != 0 }

    /// Cell first, then tag: one 96-bit comparison, without branches.
    @inline(__always)
    private var order: UInt128 { UInt128(column) << 64 | UInt128(row) << 32 | UInt128(tag) }

    @inline(__always)
    static func < (a: LiveGridEntry, b: LiveGridEntry) -> Bool { a.order < b.order }

    @inline(__always)
    static func <= (a: LiveGridEntry, b: LiveGridEntry) -> Bool { a.order <= b.order }
}

/// The records of one clustering identifier: one grid per level.
@usableFromInline
struct LivePartition: Sendable {
    @usableFromInline var identifier: String?
    /// `grids[level - minZoom]` for levels minZoom...maxZoom+1.
    var grids: [PagedSet<LiveGridEntry>]
    /// The number of elements.
    var count = 0
}

/// How one record of a level changed in a batch.
struct LiveChange {
    var serial: Int32
    /// The record before the batch (`nil`: it is new at this level).
    var old: LiveRecord?
    /// The record after it (`nil`: it is gone from this level).
    var new: LiveRecord?
    /// The element's depth before the batch.
    var oldDepth: Int8
    /// The element's claimer before the batch.
    var oldClaimer: Int32
}

/// One record of a level that a batch changed, with its float32 positions before and after (NaN
/// where it had no record): what a diff needs to tell whether the change is in its view.
struct LiveLogEntry: Sendable {
    var serial: Int32
    var oldX, oldY, newX, newY: Float

    init(serial: Int32, old: LiveRecord?, new: LiveRecord?) {
        self.serial = serial
        (oldX, oldY) = old.map { ($0.fx, $0.fy) } ?? (.nan, .nan)
        (newX, newY) = new.map { ($0.fx, $0.fy) } ?? (.nan, .nan)
    }
}

/// What one batch changed: the records of every level (``LiveLogEntry``), and the points whose
/// coordinate changed less than their float32 position shows (their records stay the same, their
/// features do not). Between the states `from` and `to`.
struct LiveBatchLog: Sendable {
    var from: UInt64
    var to: UInt64
    /// `levels[level - minZoom]`.
    var levels: [[LiveLogEntry]]
    var moved: [LiveLogEntry] = []
    /// The number of entries.
    private(set) var size = 0
    /// At most this many entries are recorded; a batch that changes more keeps no log (see
    /// ``isOverflowed``), so recording never holds more than the budget.
    let budget: Int

    init(from: UInt64, levelCount: Int, budget: Int) {
        self.from = from
        self.to = from
        self.levels = Array(repeating: [], count: levelCount)
        self.budget = budget
    }

    /// Whether the batch changed more than ``budget`` records: its entries are dropped.
    var isOverflowed: Bool { size > budget }

    /// Counts `n` more entries; returns whether they are to be recorded (on passing the budget,
    /// what was recorded is dropped).
    private mutating func admit(_ n: Int) -> Bool {
        guard !isOverflowed else { return false }
        size += n
        guard !isOverflowed else {
            levels = []
            moved = []
            return false
        }
        return true
    }

    /// Records the changes of one level.
    mutating func note(_ changes: [LiveChange], level g: Int) {
        guard admit(changes.count) else { return }
        levels[g].append(
            contentsOf: changes.lazy.map {
                LiveLogEntry(serial: $0.serial, old: $0.old, new: $0.new)
            })
    }

    /// Records a point whose coordinate changed within its float32 position.
    mutating func noteMoved(_ serial: Int32, at point: LiveRecord) {
        guard admit(1) else { return }
        moved.append(LiveLogEntry(serial: serial, old: point, new: point))
    }
}

/// A record as a view sees it: its partition, its element's serial and the record.
@usableFromInline
struct LiveSeen {
    @usableFromInline var p: Int
    @usableFromInline var s: Int32
    @usableFromInline var r: LiveRecord

    @usableFromInline
    init(p: Int, s: Int32, r: LiveRecord) {
        (self.p, self.s, self.r) = (p, s, r)
    }
}

/// The state a live index and its snapshots share, apart from the keys: elements by serial and
/// the per-level grids. Not generic, so that it is compiled once, optimized, for every key type.
/// Every part is paged, so a copy is O(1) and its first change copies only what it touches.
@usableFromInline
struct LiveCore: Sendable {
    static var absent: Int8 { .max }

    let options: ClusterOptions
    let reduce: (@Sendable (inout JSONValue, JSONValue) -> Void)?
    @usableFromInline var elements = ChunkedArray<LiveElement>()
    @usableFromInline var details = ChunkedArray<LiveDetail>()
    @usableFromInline var partitions: [LivePartition] = []
    var partitionByIdentifier: [String?: Int32] = [:]
    var count = 0
    /// Bumped by every batch; snapshots of one index (not of copies of it changed apart) with the
    /// same version hold the same clusters.
    var version = 0
    /// A random 64-bit name of the current state, new with every batch (copies of an index changed
    /// apart get different ones, as their versions may not be).
    @usableFromInline var state = UInt64.random(in: .min ... .max)
    /// The last batches' logs, oldest first, the last one ending at ``state``: at most
    /// ``logLimit`` of them and ``logBudget`` entries in all.
    var logs: [LiveBatchLog] = []
    /// How many batches' logs are kept (32).
    var logLimit = 32
    /// How many changed records the kept logs hold at most (2,000,000, 20 bytes each).
    var logBudget = 2_000_000

    init(options: ClusterOptions, reduce: (@Sendable (inout JSONValue, JSONValue) -> Void)?) {
        self.options = options
        self.reduce = reduce
    }

    var levelCount: Int { options.maxZoom + 2 - options.minZoom }

    /// Ends a batch that changed the index: a new state, and `log` (when the batch was carried
    /// down the levels) kept for diffs, the oldest logs dropped to stay within the limits; a
    /// batch without a log (a rebuild, or one that changed more than the whole budget) forgets
    /// the earlier ones too, which no longer lead here.
    mutating func finishBatch(_ log: LiveBatchLog?) {
        version += 1
        state = UInt64.random(in: .min ... .max)
        guard var log, !log.isOverflowed, logLimit > 0 else {
            logs = []
            return
        }
        log.to = state
        var total = log.size
        // The newest earlier logs that fit beside it.
        var kept = 0
        for old in logs.reversed() {
            guard kept + 1 < logLimit, total + old.size <= logBudget else { break }
            total += old.size
            kept += 1
        }
        logs.removeFirst(logs.count - kept)
        logs.append(log)
    }

    // MARK: - Geometry of the grids

    /// The cell size of a level's grid: the radius of the zoom that reads it (zoom `level − 1`),
    /// plus the largest float32 rounding of a position in the unit square, so that a record
    /// within the radius of another's double center is in the 3 × 3 cells around it.
    func cellSize(level: Int) -> Double {
        options.projectedRadius(atZoom: level) * 2 + 0x1p-22
    }

    /// The cell coordinates of a position (the unit square holds at most 2²² cells a side).
    @inline(__always)
    func cell(_ x: Double, _ y: Double, size: Double) -> (Int, Int) {
        (Int((x / size).rounded(.down)), Int((y / size).rounded(.down)))
    }

    @inline(__always)
    static func key(_ cx: Int, _ cy: Int) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: cx)) << 32 | UInt64(UInt32(truncatingIfNeeded: cy))
    }

    func entry(level: Int, record: LiveRecord, member: Bool, serial: Int32) -> LiveGridEntry {
        let (cx, cy) = cell(Double(record.fx), Double(record.fy), size: cellSize(level: level))
        return LiveGridEntry(cell: Self.key(cx, cy), member: member, serial: serial)
    }

    /// Calls `body` with the entries of a level's grid in the 3 × 3 cells around a position.
    func forEachNear(
        partition: Int, level: Int, x: Double, y: Double, _ body: (LiveGridEntry) -> Void
    ) {
        let grid = partitions[partition].grids[level - options.minZoom]
        let (cx, cy) = cell(x, y, size: cellSize(level: level))
        for i in cx - 1...cx + 1 where i >= 0 {
            let start = LiveGridEntry(cell: Self.key(i, max(0, cy - 1)), member: false, serial: 0)
            let end = Self.key(i, cy + 1)
            grid.forEach(from: start) { e in
                guard e.cell <= end else { return false }
                body(e)
                return true
            }
        }
    }

    /// Calls `body` with the entries in the 3 × 3 cells around a position, a column (three
    /// consecutive cells) at a time; after 32 members in a row in one cell it jumps to the next
    /// cell, so that a pile of members costs O(1). Returns whether it skipped any entry.
    func scanNear(
        partition: Int, level: Int, x: Double, y: Double, _ body: (LiveGridEntry) -> Void
    ) -> Bool {
        let grid = partitions[partition].grids[level - options.minZoom]
        let (cx, cy) = cell(x, y, size: cellSize(level: level))
        var skipped = false
        for i in cx - 1...cx + 1 where i >= 0 {
            let end = Self.key(i, cy + 1)
            var start = Self.key(i, max(0, cy - 1))
            while true {
                var jump: UInt64?
                var runCell: UInt64 = .max, run = 0
                grid.forEach(from: LiveGridEntry(cell: start, member: false, serial: 0)) { e in
                    guard e.cell <= end else { return false }
                    if e.cell != runCell {
                        runCell = e.cell
                        run = 0
                    }
                    if e.isMember {
                        run += 1
                        if run > 32 {
                            jump = e.cell + 1
                            return false
                        }
                    }
                    body(e)
                    return true
                }
                guard let next = jump else { break }
                skipped = true
                guard next <= end else { break }
                start = next
            }
        }
        return skipped
    }

    // MARK: - Records

    /// The record of an element at a level (which it must have: `level >= depth`).
    @usableFromInline
    func record(_ serial: Int32, level: Int) -> LiveRecord {
        let e = elements[Int(serial)]
        if e.hasFormations {
            for f in details[Int(serial)].formations where Int(f.zoom) >= level {
                return LiveRecord(
                    x: f.x, y: f.y, count: f.count, id: Int(serial) << 5 + Int(f.zoom) + 1,
                    aggregate: f.aggregate)
            }
        }
        return pointRecord(serial)
    }

    /// An element's record as a point.
    func pointRecord(_ serial: Int32) -> LiveRecord {
        let e = elements[Int(serial)]
        return LiveRecord(
            x: Double(e.fx), y: Double(e.fy), count: 1, id: Int(serial) << 5,
            aggregate: reduce == nil ? JSONValue?.none : details[Int(serial)].value)
    }

    /// The formation of an element at a zoom, if it formed a cluster there.
    func formation(_ serial: Int32, zoom: Int) -> LiveFormation? {
        guard elements[Int(serial)].hasFormations else { return nil }
        return details[Int(serial)].formations.first { Int($0.zoom) == zoom }
    }

    /// Sets (or, with `nil`, deletes) the formation of an element at a zoom.
    mutating func setFormation(_ serial: Int32, zoom: Int, _ formation: LiveFormation?) {
        let z = Int8(zoom)
        let i = Int(serial)
        guard formation != nil || elements[i].hasFormations else { return }
        details[i].formations.removeAll { $0.zoom == z }
        if let formation {
            let at = details[i].formations.firstIndex { $0.zoom > z } ?? details[i].formations.count
            details[i].formations.insert(formation, at: at)
        }
        elements[i].hasFormations = !details[i].formations.isEmpty
    }

    /// Empties a partition's grids (before a rebuild).
    mutating func clearGrids(partition p: Int) {
        partitions[p].grids = Array(repeating: PagedSet<LiveGridEntry>(), count: levelCount)
    }

    /// Appends a new element.
    mutating func append(_ element: LiveElement, _ detail: LiveDetail) {
        elements.append(element)
        details.append(detail)
    }

    /// The serial of the record that holds an element at a level, or `nil` for a removed element.
    @usableFromInline
    func container(of serial: Int32, level: Int) -> Int32? {
        var s = serial
        for _ in 0...levelCount {
            let e = elements[Int(s)]
            guard e.isPresent, e.depth != Self.absent else { return nil }
            if Int(e.depth) <= level { return s }
            s = e.claimer
            guard s >= 0 else { return nil }
        }
        return nil
    }
}

extension LiveCore {
    /// What is inconsistent between the elements and the grids (empty when all is well): every
    /// record of every level is filed once, in its cell, with its member flag, and nothing else
    /// is; members name a claimer that has a record at their level.
    func consistencyProblems() -> [String] {
        var problems = [String]()
        for (p, partition) in partitions.enumerated() {
            for level in options.minZoom...(options.maxZoom + 1) {
                var expected = Set<LiveGridEntry>()
                for s in 0..<elements.count {
                    let e = elements[s]
                    guard e.isPresent, Int(e.partition) == p, Int(e.depth) <= level else {
                        continue
                    }
                    let member = level > options.minZoom && Int(e.depth) == level
                    if member {
                        let c = e.claimer
                        if c < 0 || Int(c) >= elements.count || !elements[Int(c)].isPresent
                            || Int(elements[Int(c)].depth) > level - 1
                        {
                            problems.append("level \(level): \(s) has claimer \(c)")
                        }
                    }
                    expected.insert(
                        entry(
                            level: level, record: record(Int32(s), level: level), member: member,
                            serial: Int32(s)))
                }
                var filed = Set<LiveGridEntry>()
                partition.grids[level - options.minZoom].forEach(
                    from: LiveGridEntry(cell: 0, member: false, serial: 0)
                ) {
                    filed.insert($0)
                    return true
                }
                for e in expected.subtracting(filed) {
                    problems.append(
                        "level \(level): \(e.serial) is not filed (member \(e.isMember))")
                }
                for e in filed.subtracting(expected) {
                    problems.append(
                        "level \(level): \(e.serial) is filed but should not be (member \(e.isMember))"
                    )
                }
            }
        }
        return problems
    }
}

extension LiveClusterIndex {
    /// What is inconsistent in the index's internal state (empty when all is well); O(n · levels),
    /// for tests.
    package var consistencyProblems: [String] { core.consistencyProblems() }
}

extension LiveCore {
    /// Where the stored greedy decisions differ from a brute-force greedy pass over the stored
    /// records (empty when all is well); O(n² · levels), for tests.
    func greedyProblems() -> [String] {
        var problems = [String]()
        for p in partitions.indices {
            for level in stride(from: options.maxZoom + 1, to: options.minZoom, by: -1) {
                let z = level - 1
                let r = options.projectedRadius(atZoom: z)
                let serials = (0..<elements.count).filter {
                    let e = elements[$0]
                    return e.isPresent && Int(e.partition) == p && Int(e.depth) <= level
                }.map { Int32($0) }
                var origins = [Int32]()
                for s in serials {
                    let q = record(s, level: level)
                    var claimer: Int32 = -1
                    for o in origins {
                        let c = record(o, level: level)
                        let dx = Double(q.fx) - c.x, dy = Double(q.fy) - c.y
                        if dx * dx + dy * dy <= r * r {
                            claimer = o
                            break
                        }
                    }
                    let e = elements[Int(s)]
                    if claimer < 0 {
                        // Its record at zoom z: itself and the records it absorbs.
                        let members = serials.filter {
                            $0 > s && elements[Int($0)].claimer == s
                                && Int(elements[Int($0)].depth) == level
                        }
                        let total = members.reduce(q.count) { $0 + record($1, level: level).count }
                        let stored = formation(s, zoom: z)
                        if members.isEmpty != (stored == nil)
                            || (stored.map { $0.count != total } ?? false)
                        {
                            problems.append(
                                "zoom \(z): \(s) has \(members.count) members (\(total) points), formation \(stored.map { "\($0.count)" } ?? "none")"
                            )
                        }
                        origins.append(s)
                        if Int(e.depth) > z {
                            problems.append(
                                "zoom \(z): \(s) should start a record, has depth \(e.depth) claimer \(e.claimer)"
                            )
                        }
                    } else if Int(e.depth) != level || e.claimer != claimer {
                        problems.append(
                            "zoom \(z): \(s) should be absorbed by \(claimer), has depth \(e.depth) claimer \(e.claimer)"
                        )
                    }
                }
            }
        }
        return problems
    }
}

extension LiveClusterIndex {
    /// Where the stored greedy decisions differ from a brute-force pass, for tests.
    package var greedyProblems: [String] { core.greedyProblems() }
}

// MARK: - Diffs

extension LiveCore {
    /// A box in degrees as the projected boxes (minX, minY, maxX, maxY) the queries read: one, or
    /// two across the 180th meridian, as supercluster normalizes it.
    @usableFromInline
    static func projectedBoxes(
        west: Double, south: Double, east: Double, north: Double
    ) -> [(Double, Double, Double, Double)] {
        if let box = ClusterHierarchy.projectedBox(
            west: west, south: south, east: east, north: north)
        {
            return [box]
        }
        let minLng = ClusterHierarchy.wrap(west)
        let maxLng = east == 180 ? 180 : ClusterHierarchy.wrap(east)
        return [
            ClusterHierarchy.projectedBox(west: minLng, south: south, east: 180, north: north),
            ClusterHierarchy.projectedBox(west: -180, south: south, east: maxLng, north: north),
        ].compactMap { $0 }
    }

    /// Whether a float32 position is inside one of the projected boxes (bounds included, as
    /// ``LiveClusterSnapshot/records(partition:level:boxes:_:)`` selects; false for NaN).
    @inline(__always)
    static func contains(
        _ boxes: [(Double, Double, Double, Double)], _ fx: Float, _ fy: Float
    ) -> Bool {
        let x = Double(fx), y = Double(fy)
        for (minX, minY, maxX, maxY) in boxes
        where x >= minX && x <= maxX && y >= minY && y <= maxY {
            return true
        }
        return false
    }

    /// The record of an element at a level when it has one inside the boxes, with its partition:
    /// what ``LiveClusterSnapshot/forEachFeature(west:south:east:north:zoom:_:)`` would call its body with.
    @usableFromInline
    func viewRecord(
        _ s: Int32, level: Int, boxes: [(Double, Double, Double, Double)]
    ) -> LiveSeen? {
        guard s >= 0, Int(s) < elements.count else { return nil }
        let e = elements[Int(s)]
        guard e.isPresent, Int(e.depth) <= level else { return nil }
        let r = record(s, level: level)
        guard Self.contains(boxes, r.fx, r.fy) else { return nil }
        return LiveSeen(p: Int(e.partition), s: s, r: r)
    }

    /// The serials whose feature at a level may differ inside the boxes between an earlier
    /// state of the same index and this one, ascending, read from the batch logs between them;
    /// `nil` when the logs do not lead back to it (another index, a copy changed apart, a
    /// rebuild, a batch over the budget, or more batches than are kept).
    ///
    /// - Complexity: O(m + f log f): m the entries the batches logged at the level plus their
    ///   sub-float32 moves (at most the budget, 2,000,000), f those of them in the view.
    @usableFromInline
    func loggedSerials(
        since oldState: UInt64, level: Int, boxes: [(Double, Double, Double, Double)]
    ) -> [Int32]? {
        let g = level - options.minZoom
        var state = self.state
        var found = [Int32]()
        for log in logs.reversed() {
            guard log.to == state, g >= 0, g < log.levels.count else { return nil }
            for e in log.levels[g]
            where Self.contains(boxes, e.oldX, e.oldY) || Self.contains(boxes, e.newX, e.newY) {
                found.append(e.serial)
            }
            for e in log.moved where Self.contains(boxes, e.newX, e.newY) {
                found.append(e.serial)
            }
            state = log.from
            if state == oldState {
                found.sort()
                var unique = 0
                for s in found where unique == 0 || found[unique - 1] != s {
                    found[unique] = s
                    unique += 1
                }
                found.removeSubrange(unique...)
                return found
            }
        }
        return nil
    }

}
