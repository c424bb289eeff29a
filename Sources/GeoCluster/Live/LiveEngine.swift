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

extension LiveCore {
    /// Applies the changes of one partition's points (level `maxZoom + 1`) and carries them down
    /// every zoom, so that each level ends as supercluster's greedy pass would make it from the
    /// level above (with insertion-order sums).
    ///
    /// At each zoom `z`, a record of level `z + 1` is absorbed by the first record before it in
    /// level order that is itself not absorbed and has it within the radius; it starts a record of
    /// level `z` otherwise. Only records near a change can change their answer: the pass looks at
    /// the changed records, at the members of origins that changed, and, when a record turns into
    /// an origin, at the later records within its radius, in level order, and recomputes the
    /// clusters whose members changed.
    ///
    /// - Complexity: O(m log n) for m records looked at, summed over the zooms, plus the members of
    ///   each recomputed cluster.
    mutating func propagate(partition: Int, points: [LiveChange]) {
        var changes = points
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            if changes.isEmpty { return }
            changes = pass(partition: partition, zoom: zoom, changes: changes)
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
    private mutating func pass(partition: Int, zoom z: Int, changes: [LiveChange]) -> [LiveChange] {
        let level = z + 1
        let g = level - options.minZoom
        let r = options.projectedRadius(atZoom: z)
        let r2 = r * r
        var heap = SerialHeap()
        /// Records new at this level (no status before the batch).
        var fresh = Set<Int32>()
        /// Records gone from this level.
        var gone = Set<Int32>()
        /// Records whose grid entry was taken out (it goes back in when they are looked at).
        var unfiled = Set<Int32>()
        /// The old record at this level of the origins whose record may change: `nil` when there
        /// was none; with the depth before the batch.
        var before = [Int32: (record: LiveRecord?, depth: Int8, claimer: Int32)]()
        var changedOld = [Int32: LiveRecord]()

        /// The depth of each changed record before the batch (passes above may have changed it).
        var depthBefore = [Int32: (depth: Int8, claimer: Int32)]()
        for c in changes { depthBefore[c.serial] = (c.oldDepth, c.oldClaimer) }

        func capture(_ s: Int32, wasOrigin: Bool) {
            guard before[s] == nil else { return }
            let e = elements[Int(s)]
            guard wasOrigin else {
                before[s] = (nil, Self.absent, -1)
                return
            }
            let (depth, claimer) = depthBefore[s] ?? (e.depth, e.claimer)
            if let f = e.formations.first(where: { Int($0.zoom) == z }) {
                before[s] = (
                    LiveRecord(
                        x: f.x, y: f.y, count: f.count, id: Int(s) << 5 + z + 1,
                        aggregate: f.aggregate),
                    depth, claimer
                )
            } else {
                before[s] = (changedOld[s] ?? record(e, serial: s, level: level), depth, claimer)
            }
        }

        /// Pushes the members an origin has at this zoom (around where it was).
        func pushMembers(of s: Int32, x: Double, y: Double) {
            forEachNear(partition: partition, level: level, x: x, y: y) { entry in
                guard entry.isMember, entry.serial > s else { return }
                let m = elements[Int(entry.serial)]
                if m.claimer == s && Int(m.depth) == level { heap.push(entry.serial) }
            }
        }

        // The old side of each change (all old records first: capturing reads them).
        for c in changes { if let old = c.old { changedOld[c.serial] = old } }
        for c in changes {
            if let old = c.old {
                let member = Int(c.oldDepth) == level
                partitions[partition].grids[g].remove(
                    entry(level: level, record: old, member: member, serial: c.serial))
                if c.new == nil { gone.insert(c.serial) } else { unfiled.insert(c.serial) }
                if Int(c.oldDepth) <= z {
                    capture(c.serial, wasOrigin: true)
                    pushMembers(of: c.serial, x: old.x, y: old.y)
                } else if member {
                    capture(c.oldClaimer, wasOrigin: true)
                }
            } else {
                fresh.insert(c.serial)
            }
            if c.new != nil { heap.push(c.serial) }
        }

        // Look at the records in level order.
        var last: Int32 = -1
        while let s = heap.pop() {
            if s == last { continue }
            last = s
            if gone.contains(s) { continue }
            let e = elements[Int(s)]
            let here = record(e, serial: s, level: level)
            let qx = Double(here.fx), qy = Double(here.fy)
            // The first origin before it with it in the radius.
            var claimer: Int32 = -1
            forEachNear(partition: partition, level: level, x: qx, y: qy, originsOnly: true) {
                entry in
                guard entry.serial < s,
                    claimer < 0 || entry.serial < claimer
                else { return }
                let o = record(entry.serial, level: level)
                let dx = qx - o.x, dy = qy - o.y
                if dx * dx + dy * dy <= r2 { claimer = entry.serial }
            }
            let isFresh = fresh.contains(s)
            let wasOrigin = !isFresh && Int(e.depth) <= z
            let wasFiled = !isFresh && !unfiled.contains(s)
            if claimer < 0 {
                let reaches: Bool
                if wasOrigin {
                    reaches = changedOld[s] != nil
                } else {
                    // It starts a record of this zoom.
                    capture(s, wasOrigin: false)
                    if !isFresh {
                        capture(e.claimer, wasOrigin: true)
                    }
                    elements[Int(s)].depth = Int8(z)
                    elements[Int(s)].claimer = -1
                    reaches = true
                }
                if reaches {
                    // A new or moved origin may absorb later records within its radius.
                    forEachNear(partition: partition, level: level, x: here.x, y: here.y) {
                        entry in
                        guard entry.serial > s else { return }
                        let q = record(entry.serial, level: level)
                        let dx = Double(q.fx) - here.x, dy = Double(q.fy) - here.y
                        if dx * dx + dy * dy <= r2 { heap.push(entry.serial) }
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
                    gone.insert(s)  // from the next level
                } else if !isFresh && e.claimer != claimer {
                    capture(e.claimer, wasOrigin: true)
                }
                if !isFresh && !wasOrigin && e.claimer == claimer && changedOld[s] == nil {
                    // Nothing changed for it.
                } else {
                    capture(claimer, wasOrigin: true)
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
        out.reserveCapacity(before.count)
        for (s, captured) in before.sorted(by: { $0.key < $1.key }) {
            let (old, depth, oldClaimer) = captured
            let isOrigin = !gone.contains(s) && Int(elements[Int(s)].depth) <= z
            guard isOrigin else {
                setFormation(s, zoom: z, nil)
                if old != nil {
                    out.append(
                        LiveChange(
                            serial: s, old: old, new: nil, oldDepth: depth, oldClaimer: oldClaimer))
                }
                continue
            }
            let new = recordAtZoom(origin: s, partition: partition, zoom: z)
            if new != old {
                out.append(
                    LiveChange(
                        serial: s, old: old, new: new, oldDepth: depth, oldClaimer: oldClaimer))
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
