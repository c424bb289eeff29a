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
        part.sort(by: Self.precedes)
        return n
    }
}

extension PointTree {
    /// How a search scores a position.
    enum Score {
        /// The chord (meters): a lower bound of the geodesic, for a first pass.
        case chord
        /// The geodesic distance (meters): ``ChordGeodesic`` up to its limit, PROJ beyond.
        case geodesic
    }

    /// The geodesic distance (meters) from a query to position `i`.
    @inline(__always)
    func geodesicDistance(from query: SIMD3<Double>, _ origin: Coordinate, to i: Int) -> Double {
        ChordGeodesic.distance(from: query, to: positions[i])
            ?? Geodesic.distance(from: origin, to: coordinates[i])
    }

    /// The k nearest elements to `origin` by geodesic distance on WGS84, ties to the lower element
    /// index, at most `limit` meters away, among those `accepts` takes; written sorted into `best`.
    ///
    /// Two passes: the k nearest by chord give an upper bound of the k-th geodesic distance
    /// (``ChordGeodesic/upperBound(chord:)``); the second pass scores by geodesic only what lies
    /// within that bound, so PROJ is asked only about places that can make the answer.
    func nearest(
        to origin: Coordinate, limit: Double, into best: inout BestK,
        accepts: ((Int) -> Bool)?
    ) {
        guard !positions.isEmpty, best.heap.count > 0 else { return }
        let query = WGS84.earthCentered(origin)
        search(query, origin, score: .chord, limit: limit, into: &best, accepts: accepts)
        var bound = limit
        if best.isFull {
            bound = min(limit, ChordGeodesic.upperBound(chord: best.bound))
        }
        best.count = 0
        search(query, origin, score: .geodesic, limit: bound, into: &best, accepts: accepts)
        _ = best.sortAscending()
    }

    /// Depth-first branch and bound: children in order of their boxes' distance, pruned by the
    /// current k-th score (or `limit` until k are found).
    func search(
        _ query: SIMD3<Double>, _ origin: Coordinate, score: Score, limit: Double,
        into best: inout BestK, accepts: ((Int) -> Bool)?
    ) {
        let levels = levelCount
        let fanout = Self.fanout
        withUnsafeTemporaryAllocation(
            of: (Double, Int32).self, capacity: fanout * max(1, levels)
        ) { scratch in
            boxes.withUnsafeBufferPointer { boxes in
                func visitLeaf(_ leaf: Int) {
                    let end = min(positions.count, leaf * fanout + fanout)
                    for i in (leaf * fanout)..<end {
                        let d = positions[i] - query
                        let cc = (d * d).sum()
                        let cut = min(limit, best.bound)
                        guard cc <= cut * cut else { continue }
                        let s: Double
                        switch score {
                        case .chord: s = cc.squareRoot()
                        case .geodesic: s = geodesicDistance(from: query, origin, to: i)
                        }
                        guard s <= min(limit, best.bound) else { continue }
                        for m in memberRange(i) {
                            let element = members[m]
                            if let accepts, !accepts(Int(element)) { continue }
                            // Members are ascending: once one is turned away, so is the rest.
                            if !best.offer(s, element) { break }
                        }
                    }
                }
                func visit(level: Int, node: Int) {
                    if level == 0 {
                        visitLeaf(node)
                        return
                    }
                    let below = levelStart[level - 1]
                    let belowCount = levelStart[level] - below
                    let first = node * fanout
                    let end = min(belowCount, first + fanout)
                    let slots = UnsafeMutableBufferPointer(
                        rebasing: scratch[((level - 1) * fanout)..<((level - 1) * fanout + fanout)])
                    var n = 0
                    for child in first..<end {
                        slots[n] = (boxes[below + child].distanceSquared(to: query), Int32(child))
                        n += 1
                    }
                    // Insertion sort: at most 16 children.
                    for i in 1..<max(1, n) {
                        let item = slots[i]
                        var j = i
                        while j > 0 && slots[j - 1].0 > item.0 {
                            slots[j] = slots[j - 1]
                            j -= 1
                        }
                        slots[j] = item
                    }
                    for i in 0..<n {
                        let cut = min(limit, best.bound)
                        // A box as far as the cut may still hold a tie with a lower index.
                        if slots[i].0 > cut * cut { break }
                        visit(level: level - 1, node: Int(slots[i].1))
                    }
                }
                let rootLevel = levels - 1
                visit(level: rootLevel, node: 0)
            }
        }
    }

    /// Every element within `radius` meters (geodesic) of `origin`, as (distance, element) pairs
    /// sorted by distance, then element index.
    func within(_ radius: Double, of origin: Coordinate) -> [(distance: Double, element: Int32)] {
        var found = [(distance: Double, element: Int32)]()
        guard !positions.isEmpty else { return found }
        let query = WGS84.earthCentered(origin)
        let rr = radius * radius
        forEachPosition(where: { $0.distanceSquared(to: query) <= rr }) { i in
            let d = positions[i] - query
            guard (d * d).sum() <= rr else { return }
            let s = geodesicDistance(from: query, origin, to: i)
            guard s <= radius else { return }
            for m in memberRange(i) { found.append((s, members[m])) }
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
                for i in (node * fanout)..<min(positions.count, node * fanout + fanout) { body(i) }
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
