import GeoCore

/// A min-heap of serials: the records of a level still to be looked at, in level order.
private struct SerialHeap {
    private var items: [Int32] = []

    var isEmpty: Bool { items.isEmpty }

    mutating func push(_ s: Int32) {
        items.append(s)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            guard items[parent] > items[i] else { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    mutating func pop() -> Int32? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return last }
        let top = items[0]
        items[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count && items[l] < items[m] { m = l }
            if r < items.count && items[r] < items[m] { m = r }
            guard m != i else { break }
            items.swapAt(i, m)
            i = m
        }
        return top
    }
}

/// Per-serial working memory of the passes, kept by the index from change to change: a
/// generation number tells what belongs to the current pass, so nothing is ever cleared and a
/// pass costs only what it touches. (It belongs to the writer alone, never to a snapshot.)
struct LiveScratch: Sendable {
    private var stamps: [UInt32] = []
    private var flags: [UInt8] = []
    private var changeSlots: [Int32] = []
    private var generation: UInt32 = 0

    /// The record is new at the pass's level (it had no status there before the batch).
    static let fresh: UInt8 = 1
    /// The record is gone from the level (or, once looked at, from the next one).
    static let gone: UInt8 = 2
    /// The record's grid entry was taken out; it goes back in when the record is looked at.
    static let unfiled: UInt8 = 4
    /// The record may have gained a member in this pass.
    static let gained: UInt8 = 8
    /// The record's old state is captured.
    static let captured: UInt8 = 16

    /// Starts a pass over serials below `count`.
    mutating func begin(count: Int) {
        if stamps.count < count {
            let n = max(count, stamps.count + stamps.count / 8)
            stamps.resize(to: n, filling: 0)
            flags.resize(to: n, filling: 0)
            changeSlots.resize(to: n, filling: -1)
        }
        generation &+= 1
        if generation == 0 {
            for i in stamps.indices { stamps[i] = 0 }
            generation = 1
        }
    }

    @inline(__always)
    private mutating func touch(_ i: Int) {
        guard stamps[i] != generation else { return }
        stamps[i] = generation
        flags[i] = 0
        changeSlots[i] = -1
    }

    @inline(__always)
    func has(_ s: Int32, _ flag: UInt8) -> Bool {
        stamps[Int(s)] == generation && flags[Int(s)] & flag != 0
    }

    @inline(__always)
    mutating func set(_ s: Int32, _ flag: UInt8) {
        touch(Int(s))
        flags[Int(s)] |= flag
    }

    /// The position of the record's change in the pass's input, if it changed.
    @inline(__always)
    func change(_ s: Int32) -> Int? {
        stamps[Int(s)] == generation && changeSlots[Int(s)] >= 0 ? Int(changeSlots[Int(s)]) : nil
    }

    @inline(__always)
    mutating func setChange(_ s: Int32, _ i: Int) {
        touch(Int(s))
        changeSlots[Int(s)] = Int32(i)
    }
}

/// The old state of a record whose record at the next level may change.
private struct Captured {
    var serial: Int32
    /// Its record at the next level before the batch; `nil` when it had none.
    var record: LiveRecord?
    var depth: Int8
    var claimer: Int32
}

extension LiveCore {
    /// Applies the changes of one partition's points (level `maxZoom + 1`) and carries them down
    /// every zoom, so that each level ends as supercluster's greedy pass would make it from the
    /// level above (with insertion-order sums).
    ///
    /// At each zoom `z`, a record of level `z + 1` is absorbed by the first record before it in
    /// level order that is itself not absorbed and has it within the radius; it starts a record of
    /// level `z` otherwise. Only records near a change can change their answer: the pass looks at
    /// the changed records, at the members of origins that changed, and, when a record turns into
    /// an origin or moves, at the later records within its radius, in level order, and
    /// recomputes the clusters whose members changed.
    ///
    /// - Complexity: O(m log n) for m records looked at, summed over the zooms, plus the members of
    ///   each recomputed cluster.
    ///
    /// Every level's changed records are appended to `log` (see ``LiveBatchLog``).
    mutating func propagate(
        partition: Int, points: [LiveChange], scratch: inout LiveScratch,
        log: inout LiveBatchLog
    ) {
        func note(_ changes: [LiveChange], level: Int) {
            log.note(changes, level: level - options.minZoom)
        }
        var changes = points
        note(changes, level: options.maxZoom + 1)
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            if changes.isEmpty { return }
            scratch.begin(count: elements.count)
            changes = pass(partition: partition, zoom: zoom, changes: changes, scratch: &scratch)
            note(changes, level: zoom)
        }
        // The lowest level is read by no pass; keep its grid.
        let level = options.minZoom
        for c in changes {
            if let old = c.old {
                partitions[partition].grids[0].remove(
                    entry(level: level, record: old, member: false, serial: c.serial))
            }
            if let new = c.new {
                partitions[partition].grids[0].insert(
                    entry(level: level, record: new, member: false, serial: c.serial))
            }
        }
    }

    /// One zoom's pass: the changes of level `zoom + 1` in, those of level `zoom` out.
    private mutating func pass(
        partition: Int, zoom z: Int, changes: [LiveChange], scratch: inout LiveScratch
    ) -> [LiveChange] {
        let level = z + 1
        let g = level - options.minZoom
        let r = options.projectedRadius(atZoom: z)
        let r2 = r * r
        var heap = SerialHeap()
        var captured = [Captured]()
        for (i, c) in changes.enumerated() { scratch.setChange(c.serial, i) }

        /// Notes the old state of a record whose record at this zoom may change (once).
        func capture(_ s: Int32, wasOrigin: Bool) {
            guard !scratch.has(s, LiveScratch.captured) else { return }
            scratch.set(s, LiveScratch.captured)
            guard wasOrigin else {
                captured.append(Captured(serial: s, record: nil, depth: Self.absent, claimer: -1))
                return
            }
            let e = elements[Int(s)]
            let change = scratch.change(s).map { changes[$0] }
            let depth = change?.oldDepth ?? e.depth, claimer = change?.oldClaimer ?? e.claimer
            let old: LiveRecord
            if let f = formation(s, zoom: z) {
                old = LiveRecord(
                    x: f.x, y: f.y, count: f.count, id: Int(s) << 5 + z + 1,
                    aggregate: f.aggregate)
            } else {
                old = change?.old ?? record(s, level: level)
            }
            captured.append(Captured(serial: s, record: old, depth: depth, claimer: claimer))
        }

        /// Pushes the members an origin has at this zoom (around where it was).
        func pushMembers(of s: Int32, x: Double, y: Double) {
            guard formation(s, zoom: z) != nil else { return }  // it had none
            forEachNear(partition: partition, level: level, x: x, y: y) { entry in
                guard entry.isMember, entry.serial > s else { return }
                let m = elements[Int(entry.serial)]
                if m.claimer == s && Int(m.depth) == level { heap.push(entry.serial) }
            }
        }

        // The old side of each change.
        for c in changes {
            if let old = c.old {
                let member = Int(c.oldDepth) == level
                let filed = entry(level: level, record: old, member: member, serial: c.serial)
                if let new = c.new,
                    entry(level: level, record: new, member: member, serial: c.serial) == filed
                {
                    // It stays in its cell: its entry stays, as filed before the batch.
                } else {
                    partitions[partition].grids[g].remove(filed)
                    scratch.set(c.serial, c.new == nil ? LiveScratch.gone : LiveScratch.unfiled)
                }
                if Int(c.oldDepth) <= z {
                    capture(c.serial, wasOrigin: true)
                    pushMembers(of: c.serial, x: old.x, y: old.y)
                } else if member {
                    capture(c.oldClaimer, wasOrigin: true)
                }
            } else {
                scratch.set(c.serial, LiveScratch.fresh)
            }
            if c.new != nil { heap.push(c.serial) }
        }

        // Look at the records in level order.
        var last: Int32 = -1
        var neighborhood = [LiveGridEntry]()
        while let s = heap.pop() {
            if s == last { continue }
            last = s
            if scratch.has(s, LiveScratch.gone) { continue }
            let e = elements[Int(s)]
            let here = record(s, level: level)
            let qx = Double(here.fx), qy = Double(here.fy)
            // The first origin before it with it in the radius, from one scan of the cells around
            // it (kept for the later records it may absorb).
            neighborhood.removeAll(keepingCapacity: true)
            let partial = scanNear(partition: partition, level: level, x: qx, y: qy) {
                neighborhood.append($0)
            }
            var claimer: Int32 = -1
            for entry in neighborhood where !entry.isMember && entry.serial < s {
                guard claimer < 0 || entry.serial < claimer else { continue }
                let o = record(entry.serial, level: level)
                let dx = qx - o.x, dy = qy - o.y
                if dx * dx + dy * dy <= r2 { claimer = entry.serial }
            }
            let isFresh = scratch.has(s, LiveScratch.fresh)
            let wasOrigin = !isFresh && Int(e.depth) <= z
            let wasFiled = !isFresh && !scratch.has(s, LiveScratch.unfiled)
            let changed = scratch.change(s) != nil
            if claimer < 0 {
                if !wasOrigin {
                    // It starts a record of this zoom.
                    capture(s, wasOrigin: false)
                    if !isFresh { capture(e.claimer, wasOrigin: true) }
                    elements[Int(s)].depth = Int8(z)
                    elements[Int(s)].claimer = -1
                }
                if !wasOrigin || changed {
                    // A new or moved origin may absorb later records within its radius.
                    func reach(_ entry: LiveGridEntry) {
                        guard entry.serial > s else { return }
                        let q = record(entry.serial, level: level)
                        let dx = Double(q.fx) - here.x, dy = Double(q.fy) - here.y
                        if dx * dx + dy * dy <= r2 { heap.push(entry.serial) }
                    }
                    if partial {
                        forEachNear(partition: partition, level: level, x: qx, y: qy, reach)
                    } else {
                        for entry in neighborhood { reach(entry) }
                    }
                }
                if wasFiled && !wasOrigin {
                    partitions[partition].grids[g].remove(
                        entry(level: level, record: here, member: true, serial: s))
                }
                if !wasFiled || !wasOrigin {
                    partitions[partition].grids[g].insert(
                        entry(level: level, record: here, member: false, serial: s))
                }
            } else {
                if wasOrigin {
                    // It no longer starts a record: its members look again.
                    capture(s, wasOrigin: true)
                    pushMembers(of: s, x: here.x, y: here.y)
                    scratch.set(s, LiveScratch.gone)  // from the next level
                } else if !isFresh && e.claimer != claimer {
                    capture(e.claimer, wasOrigin: true)
                }
                if isFresh || wasOrigin || e.claimer != claimer || changed {
                    capture(claimer, wasOrigin: true)
                    scratch.set(claimer, LiveScratch.gained)
                }
                elements[Int(s)].depth = Int8(level)
                elements[Int(s)].claimer = claimer
                if wasFiled && wasOrigin {
                    partitions[partition].grids[g].remove(
                        entry(level: level, record: here, member: false, serial: s))
                }
                if !wasFiled || wasOrigin {
                    partitions[partition].grids[g].insert(
                        entry(level: level, record: here, member: true, serial: s))
                }
            }
        }

        // The records of this zoom that may have changed.
        var out = [LiveChange]()
        out.reserveCapacity(captured.count)
        captured.sort { $0.serial < $1.serial }
        for c in captured {
            let s = c.serial
            let isOrigin = !scratch.has(s, LiveScratch.gone) && Int(elements[Int(s)].depth) <= z
            guard isOrigin else {
                setFormation(s, zoom: z, nil)
                if c.record != nil {
                    out.append(
                        LiveChange(
                            serial: s, old: c.record, new: nil, oldDepth: c.depth,
                            oldClaimer: c.claimer))
                }
                continue
            }
            // Without members before and without a new one, it is its record of the level above.
            let new =
                formation(s, zoom: z) == nil && !scratch.has(s, LiveScratch.gained)
                ? record(s, level: level)
                : recordAtZoom(origin: s, partition: partition, zoom: z)
            if new != c.record {
                out.append(
                    LiveChange(
                        serial: s, old: c.record, new: new, oldDepth: c.depth,
                        oldClaimer: c.claimer))
            }
        }
        return out
    }

    /// Computes, stores and returns the record an origin makes at a zoom: a cluster of it and the
    /// records it absorbs, summed and folded in level order, or itself when it absorbs none.
    private mutating func recordAtZoom(origin s: Int32, partition: Int, zoom z: Int) -> LiveRecord {
        let level = z + 1
        let origin = record(s, level: level)
        var members = [Int32]()
        forEachNear(partition: partition, level: level, x: origin.x, y: origin.y) { entry in
            guard entry.isMember, entry.serial > s else { return }
            let m = elements[Int(entry.serial)]
            if m.claimer == s && Int(m.depth) == level { members.append(entry.serial) }
        }
        guard !members.isEmpty else {
            setFormation(s, zoom: z, nil)
            return origin
        }
        members.sort()
        let n0 = Double(origin.count)
        var wx = origin.x * n0, wy = origin.y * n0
        var total = origin.count
        var aggregate = origin.aggregate
        for m in members {
            let q = record(m, level: level)
            let k = Double(q.count)
            wx += q.x * k
            wy += q.y * k
            total += q.count
            if let reduce, var accumulated = aggregate, let value = q.aggregate {
                reduce(&accumulated, value)
                aggregate = accumulated
            }
        }
        let f = LiveFormation(
            zoom: Int8(z), count: total, x: wx / Double(total), y: wy / Double(total),
            aggregate: aggregate)
        setFormation(s, zoom: z, f)
        return LiveRecord(
            x: f.x, y: f.y, count: total, id: Int(s) << 5 + z + 1, aggregate: aggregate)
    }
}
