import Foundation
import GeoCore

/// The k best (distance, element) pairs seen so far: a max-heap on (distance, element index) in a
/// buffer the caller owns, so a query allocates nothing.
struct BestK {
    let heap: UnsafeMutableBufferPointer<(distance: Double, element: Int32)>
    var count = 0

    init(_ heap: UnsafeMutableBufferPointer<(distance: Double, element: Int32)>) {
        self.heap = heap
    }

    var isFull: Bool { count == heap.count }

    /// The largest distance a newcomer can have and still get in (ties decided by index).
    var bound: Double { isFull ? heap[0].distance : .infinity }

    @inline(__always)
    static func precedes(
        _ a: (distance: Double, element: Int32), _ b: (distance: Double, element: Int32)
    ) -> Bool {
        a.distance < b.distance || (a.distance == b.distance && a.element < b.element)
    }

    /// Offers a pair; returns whether it got in.
    @inline(__always)
    mutating func offer(_ distance: Double, _ element: Int32) -> Bool {
        let item = (distance: distance, element: element)
        if count < heap.count {
            var i = count
            count += 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard Self.precedes(heap[parent], item) else { break }
                heap[i] = heap[parent]
                i = parent
            }
            heap[i] = item
            return true
        }
        guard count > 0, Self.precedes(item, heap[0]) else { return false }
        var i = 0
        while true {
            let left = 2 * i + 1
            guard left < count else { break }
            var child = left
            if left + 1 < count && Self.precedes(heap[left], heap[left + 1]) { child = left + 1 }
            guard Self.precedes(item, heap[child]) else { break }
            heap[i] = heap[child]
            i = child
        }
        heap[i] = item
        return true
    }

    /// Sorts the pairs ascending in place and returns how many there are.
    mutating func sortAscending() -> Int {
        let n = count
        var part = UnsafeMutableBufferPointer(rebasing: heap[0..<n])
        sortSmall(&part, by: Self.precedes)
        return n
    }
}

/// Sorts a buffer: by insertion up to 32 elements (the few candidates and answers of a typical
/// nearest query, where the library sort's setup costs more than the sorting), by the library
/// sort beyond.
@inline(__always)
func sortSmall<T>(_ items: inout UnsafeMutableBufferPointer<T>, by precedes: (T, T) -> Bool) {
    guard items.count <= 32 else {
        items.sort(by: precedes)
        return
    }
    for i in items.indices.dropFirst() {
        let item = items[i]
        var j = i
        while j > 0 && precedes(item, items[j - 1]) {
            items[j] = items[j - 1]
            j -= 1
        }
        items[j] = item
    }
}

/// The caller's per-element data that a nearest query will read for its answers (the elements
/// themselves, `stride` bytes each from `base`, by element index): prefetched once the search
/// knows its candidates, so that those reads do not wait on memory after the search.
@usableFromInline
struct ElementLines {
    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline let stride: Int

    @inlinable
    init(base: UnsafeRawPointer, stride: Int) {
        (self.base, self.stride) = (base, stride)
    }

    /// Prefetches the data of element `element` (its first 256 bytes at most).
    @inline(__always)
    func prefetch(_ element: Int32) {
        Prefetch.read(base + stride * Int(element), bytes: Swift.min(stride, 256))
    }
}

extension PointTree {
    /// ``nearest(to:limit:into:accepts:lines:)`` with its own heap of `k`: calls `body` with the
    /// answers, nearest first.
    @usableFromInline
    func nearest(
        _ k: Int, to origin: Coordinate, limit: Double, accepts: ((Int) -> Bool)?,
        lines: ElementLines? = nil,
        _ body: (UnsafeBufferPointer<(distance: Double, element: Int32)>) -> Void
    ) {
        ScratchMemory.withBuffer(of: (distance: Double, element: Int32).self, capacity: k) {
            heap in
            var best = BestK(heap)
            nearest(to: origin, limit: limit, into: &best, accepts: accepts, lines: lines)
            body(UnsafeBufferPointer(rebasing: heap[0..<best.count]))
        }
    }

    /// The geodesic distance (meters) from a query to position `i`: ``ChordGeodesic`` up to its
    /// limit, PROJ's `geod_inverse` beyond. A caller measuring many positions from one query
    /// passes the query's `curvature` terms, computed once (the same value, bit for bit).
    @inline(__always)
    func geodesicDistance(
        from query: SIMD3<Double>, _ origin: Coordinate, to i: Int,
        curvature: ChordGeodesic.NormalCurvature? = nil
    ) -> Double {
        ChordGeodesic.distance(
            from: query, curvature: curvature ?? ChordGeodesic.NormalCurvature(at: query),
            to: records[i].position)
            ?? Geodesic.distance(from: origin, to: coordinates[i])
    }

    /// The k nearest elements to `origin` by geodesic distance on WGS84, ties to the lower element
    /// index, at most `limit` meters away, among those `accepts` takes; written sorted into `best`.
    ///
    /// One traversal by chord: its k-th value c bounds the k-th geodesic distance by U(c)
    /// (``ChordGeodesic/quickUpperBound(chord:)``), so only places with a chord up to U(c) can be in
    /// the answer; those are kept as candidates on the way and measured by geodesic at the end,
    /// nearest chord first, until the chord passes the k-th geodesic distance. PROJ is asked
    /// only about candidates farther than the chord formula's limit. The elements' `lines`, when
    /// given, are prefetched for the candidates before they are measured.
    func nearest(
        to origin: Coordinate, limit: Double, into best: inout BestK,
        accepts: ((Int) -> Bool)?, lines: ElementLines? = nil
    ) {
        guard count > 0, best.heap.count > 0, levelCount > 0 else { return }
        let query = WGS84.earthCentered(origin)
        // A walk keeps every position within its cut as it goes, and the cut starts wide: a walk
        // that ran out of room still ends with the k-th chord, so it is walked again from the
        // final cut, which keeps only the answer's candidates. Only when even those do not fit
        // (many places at nearly one distance) is there room made for every position.
        // The first walk starts from the cells around the query when there is a grid; if its
        // block of cells cannot hold the answers' ball, the tree is walked from the cut it found.
        var cut = limit
        for attempt in (grid == nil ? 1 : 0)..<3 {
            let overflowed = ScratchMemory.withBuffer(
                of: (squaredChord: Double, position: Int32).self,
                capacity: 8 * best.heap.count + 128
            ) { candidates in
                walk(
                    query, origin, limit: limit, cut: &cut, candidates: candidates, into: &best,
                    accepts: accepts, lines: lines, fromGrid: attempt == 0)
            }
            if !overflowed {
                _ = best.sortAscending()
                return
            }
        }
        var room = [(squaredChord: Double, position: Int32)](repeating: (0, 0), count: count)
        _ = room.withUnsafeMutableBufferPointer { candidates in
            walk(
                query, origin, limit: limit, cut: &cut, candidates: candidates, into: &best,
                accepts: accepts, lines: lines, fromGrid: false)
        }
        _ = best.sortAscending()
    }

    /// Whether the grid's cells alone answer `nearest(k)` at `origin`, without the tree (how
    /// often they do is what makes the grid pay; the tests check it).
    func gridAnswers(_ k: Int, to origin: Coordinate) -> Bool {
        guard grid != nil, k > 0, levelCount > 0 else { return false }
        var cut = Double.infinity
        return ScratchMemory.withBuffer(
            of: (distance: Double, element: Int32).self, capacity: k
        ) { heap in
            var best = BestK(heap)
            return ScratchMemory.withBuffer(
                of: (squaredChord: Double, position: Int32).self, capacity: 8 * k + 128
            ) { candidates in
                !walk(
                    WGS84.earthCentered(origin), origin, limit: .infinity, cut: &cut,
                    candidates: candidates, into: &best, accepts: nil, lines: nil, fromGrid: true)
            }
        }
    }

    /// One chord walk from `cut` (a bound on every answer's chord), through the tree or
    /// (`fromGrid`) through the grid's cells around the query, and its exact finish into `best`
    /// (emptied first); returns `true`, with `best` not to be used and `cut` narrowed to the
    /// walk's final cut, when the candidates did not fit in `candidates` or the cells read could
    /// not be shown to hold every answer.
    private func walk(
        _ query: SIMD3<Double>, _ origin: Coordinate, limit: Double, cut: inout Double,
        candidates: UnsafeMutableBufferPointer<(squaredChord: Double, position: Int32)>,
        into best: inout BestK, accepts: ((Int) -> Bool)?, lines: ElementLines?, fromGrid: Bool
    ) -> Bool {
        best.count = 0
        let levels = levelCount
        return ScratchMemory.withBuffer(
            of: (Double, Int32).self, capacity: Self.fanout * levels
        ) { scratch in
            records.withUnsafeBufferPointer { records in
                boxes.withUnsafeBufferPointer { boxes in
                    members.withUnsafeBufferPointer { members in
                        var walk = ChordWalk(
                            records: records, boxes: boxes, levelStart: levelStart,
                            members: members, candidates: candidates, scratch: scratch,
                            query: query, limit: limit, cut: cut, best: best, accepts: accepts)
                        if fromGrid, let grid {
                            if !grid.scan(&walk) {
                                cut = walk.cut
                                return true
                            }
                        } else {
                            walk.visit(level: levels - 1, node: 0)
                        }
                        if walk.overflow {
                            cut = walk.cut
                            return true
                        }
                        best = walk.best
                        best.count = 0
                        var kept = 0
                        let cutSquared = walk.cut * walk.cut
                        for j in 0..<walk.found where candidates[j].squaredChord <= cutSquared {
                            candidates[kept] = candidates[j]
                            kept += 1
                        }
                        if let lines {
                            for j in 0..<kept {
                                let r = records[Int(candidates[j].position)]
                                lines.prefetch(
                                    r.memberCount == 1 ? r.element : members[Int(r.element)])
                            }
                        }
                        // Nearest chord first: a candidate whose chord exceeds the k-th geodesic
                        // so far cannot get in, nor can any after it.
                        var part = UnsafeMutableBufferPointer(rebasing: candidates[0..<kept])
                        sortSmall(&part) { $0.squaredChord < $1.squaredChord }
                        let curvature = ChordGeodesic.NormalCurvature(at: query)
                        for j in 0..<kept {
                            let c = candidates[j].squaredChord.squareRoot()
                            if c > walk.cut || c > best.bound { break }
                            let i = Int(candidates[j].position)
                            let s = geodesicDistance(
                                from: query, origin, to: i, curvature: curvature)
                            guard s <= limit else { continue }
                            walk.forEachAccepted(records[i]) { best.offer(s, $0) }
                        }
                        return false
                    }
                }
            }
        }
    }

    /// Every element within `radius` meters (geodesic) of `origin`, as (distance, element) pairs
    /// sorted by distance, then element index.
    func within(_ radius: Double, of origin: Coordinate) -> [(distance: Double, element: Int32)] {
        var found = [(distance: Double, element: Int32)]()
        guard count > 0 else { return found }
        let query = WGS84.earthCentered(origin)
        let curvature = ChordGeodesic.NormalCurvature(at: query)
        let rr = radius * radius
        forEachPosition(where: { $0.distanceSquared(to: query) <= rr }) { i in
            let d = records[i].position - query
            guard (d * d).sum() <= rr else { return }
            let s = geodesicDistance(from: query, origin, to: i, curvature: curvature)
            guard s <= radius else { return }
            forEachMember(of: records[i]) { element in
                found.append((s, element))
                return true
            }
        }
        found.sort(by: BestK.precedes)
        return found
    }

    /// Calls `body` for every position in a leaf whose boxes (at every level) pass `descend`.
    func forEachPosition(where descend: (Box) -> Bool, _ body: (Int) -> Void) {
        let fanout = Self.fanout
        func visit(level: Int, node: Int) {
            guard descend(boxes[levelStart[level] + node]) else { return }
            if level == 0 {
                for i in (node * fanout)..<min(count, node * fanout + fanout) { body(i) }
                return
            }
            let belowCount = levelStart[level] - levelStart[level - 1]
            for child in (node * fanout)..<min(belowCount, node * fanout + fanout) {
                visit(level: level - 1, node: child)
            }
        }
        guard levelCount > 0 else { return }
        visit(level: levelCount - 1, node: 0)
    }
}

/// The state of the chord traversal of ``PointTree/nearest(to:limit:into:accepts:)``: plain
/// buffers and values, so the recursion runs without closures, captures or reference counting.
struct ChordWalk {
    let records: UnsafeBufferPointer<PointTree.Record>
    let boxes: UnsafeBufferPointer<PointTree.Box>
    let levelStart: [Int]
    let members: UnsafeBufferPointer<Int32>
    let candidates: UnsafeMutableBufferPointer<(squaredChord: Double, position: Int32)>
    let scratch: UnsafeMutableBufferPointer<(Double, Int32)>
    let query: SIMD3<Double>
    let limit: Double
    /// The k nearest elements by squared chord seen so far (squares order as chords do, and no
    /// square root is taken for a position unless it ends the walk as a candidate).
    var best: BestK
    let accepts: ((Int) -> Bool)?
    var found = 0
    var overflow = false
    /// Every answer has a chord at most this (meters).
    var cut: Double

    init(
        records: UnsafeBufferPointer<PointTree.Record>, boxes: UnsafeBufferPointer<PointTree.Box>,
        levelStart: [Int], members: UnsafeBufferPointer<Int32>,
        candidates: UnsafeMutableBufferPointer<(squaredChord: Double, position: Int32)>,
        scratch: UnsafeMutableBufferPointer<(Double, Int32)>, query: SIMD3<Double>,
        limit: Double, cut: Double, best: BestK, accepts: ((Int) -> Bool)?
    ) {
        self.records = records
        self.boxes = boxes
        self.levelStart = levelStart
        self.members = members
        self.candidates = candidates
        self.scratch = scratch
        self.query = query
        self.limit = limit
        self.best = best
        self.accepts = accepts
        self.cut = min(limit, cut)
    }

    /// Calls `offer` with the accepted elements of a record, ascending, until it returns false
    /// (members are ascending: once one is turned away, so is the rest); returns whether any
    /// was taken.
    @inline(__always)
    @discardableResult
    func forEachAccepted(_ record: PointTree.Record, _ offer: (Int32) -> Bool) -> Bool {
        if record.memberCount == 1 {
            if let accepts, !accepts(Int(record.element)) { return false }
            return offer(record.element)
        }
        var took = false
        let start = Int(record.element)
        for m in start..<(start + Int(record.memberCount)) {
            let element = members[m]
            if let accepts, !accepts(Int(element)) { continue }
            guard offer(element) else { break }
            took = true
        }
        return took
    }

    mutating func visit(level: Int, node: Int) {
        let fanout = PointTree.fanout
        if level == 0 {
            visitLeaf(node)
            return
        }
        let below = levelStart[level - 1]
        let belowCount = levelStart[level] - below
        let first = node * fanout
        let end = min(belowCount, first + fanout)
        let base = (level - 1) * fanout
        // The children within the cut, then the nearest of those left, one at a time: most
        // children are never visited, so selecting beats sorting.
        var n = 0
        for child in first..<end {
            let d = boxes[below + child].distanceSquared(to: query)
            if d <= cut * cut {
                scratch[base + n] = (d, Int32(child))
                n += 1
            }
        }
        var taken = 0
        while taken < n {
            var nearest = taken
            for j in (taken + 1)..<max(taken + 1, n)
            where scratch[base + j].0 < scratch[base + nearest].0 {
                nearest = j
            }
            let (d, child) = scratch[base + nearest]
            // A box as far as the cut may still hold a tie with a lower index.
            if d > cut * cut { break }
            scratch[base + nearest] = scratch[base + taken]
            scratch[base + taken] = (d, child)
            taken += 1
            visit(level: level - 1, node: Int(child))
        }
    }

    /// Keeps a candidate. When the buffer is full, the candidates the cut has passed by since
    /// they were kept are dropped; if that frees less than a quarter of it, the walk has
    /// overflowed and keeps no more (it goes on only to narrow the cut), so each candidate is
    /// moved at most a bounded number of times.
    @inline(__always)
    mutating func keep(_ squaredChord: Double, _ position: Int32) {
        if found == candidates.count {
            var kept = 0
            let cutSquared = cut * cut
            for j in 0..<found where candidates[j].squaredChord <= cutSquared {
                candidates[kept] = candidates[j]
                kept += 1
            }
            found = kept
            if 4 * kept > 3 * candidates.count {
                overflow = true
                return
            }
        }
        candidates[found] = (squaredChord, position)
        found += 1
    }

    @inline(__always)
    mutating func visitLeaf(_ leaf: Int) {
        visitRecords(
            (leaf * PointTree.fanout)..<min(
                records.count, leaf * PointTree.fanout + PointTree.fanout))
    }

    /// Offers the positions `range` to the heap and keeps those within the cut as candidates,
    /// both by squared chord.
    ///
    /// When the candidates have room for the whole range, it goes in two passes: every
    /// position's squared chord is written and counted in when within the cut as it stood
    /// before the range, with no branch to mispredict (whether a position is within the cut
    /// changes unpredictably from one to the next); then only those are offered to the heap,
    /// against the cut as it narrows. Positions kept under the older cut are dropped with the
    /// rest when the candidates are compacted or finished.
    @inline(__always)
    mutating func visitRecords(_ range: Range<Int>) {
        if !overflow && found + range.count <= candidates.count {
            let first = found
            let cutSquared = cut * cut
            for i in range {
                let r = records[i]
                let dx = r.x - query.x, dy = r.y - query.y, dz = r.z - query.z
                let cc = dx * dx + dy * dy + dz * dz
                candidates[found] = (cc, Int32(i))
                found += cc <= cutSquared ? 1 : 0
            }
            for j in first..<found {
                let cc = candidates[j].squaredChord
                guard cc <= cut * cut else { continue }
                var heap = best
                let took = forEachAccepted(records[Int(candidates[j].position)]) {
                    heap.offer(cc, $0)
                }
                best = heap
                if took && best.isFull {
                    cut = min(cut, ChordGeodesic.quickUpperBound(chord: best.bound.squareRoot()))
                }
            }
            return
        }
        for i in range {
            let r = records[i]
            let dx = r.x - query.x, dy = r.y - query.y, dz = r.z - query.z
            let cc = dx * dx + dy * dy + dz * dz
            guard cc <= cut * cut else { continue }
            if !overflow {
                keep(cc, Int32(i))
            }
            var heap = best
            let took = forEachAccepted(r) { heap.offer(cc, $0) }
            best = heap
            if took && best.isFull {
                cut = min(cut, ChordGeodesic.quickUpperBound(chord: best.bound.squareRoot()))
            }
        }
    }
}
