import Foundation
import GeoCore

/// One entry of a ``KDTree``: float32 coordinates and a payload (a level position while the tree is
/// built, an entity reference afterwards), with a second payload that moves along (16 bytes in
/// all, so that a swap moves one aligned block).
@usableFromInline
struct KDItem: Sendable, Hashable {
    @usableFromInline var x: Float
    @usableFromInline var y: Float
    @usableFromInline var ref: UInt32
    /// A second payload, carried along (a level build keeps the record's entity here).
    @usableFromInline var extra: UInt32

    @usableFromInline
    init(x: Float, y: Float, ref: UInt32, extra: UInt32 = 0) {
        self.x = x
        self.y = y
        self.ref = ref
        self.extra = extra
    }
}

/// A static 2-d tree laid out exactly as kdbush 4 (the index supercluster 8.0.1 uses) lays it out.
///
/// Items are sorted in place by recursive Floyd–Rivest selection of the median (alternating x and y)
/// until a range holds at most `nodeSize` items. Queries walk the implicit tree with an explicit LIFO
/// stack, so they emit items in the same order kdbush does, which fixes the order of every cluster
/// query result. Coordinates are float32; every comparison is made in double, as in kdbush.
///
/// - Complexity: building is O(n log n); a query is O(√n + k) for k results.
@usableFromInline
struct KDTree: Sendable {
    /// The items in tree order.
    @usableFromInline var items: [KDItem]
    /// The leaf size: a range of at most this many items is scanned linearly.
    @usableFromInline let nodeSize: Int

    /// An empty tree.
    init(nodeSize: Int) {
        self.items = []
        self.nodeSize = nodeSize
    }

    /// Builds the tree from items in data order.
    ///
    /// - Parameters:
    ///   - threads: With more than one, the subtrees below the top levels are sorted by up to that
    ///     many threads; the layout is the same.
    ///   - profiler: Records each subtree sorted on a worker, for zoom `zoom`.
    init(
        items: consuming [KDItem], nodeSize: Int, threads: Int = 1,
        profiler: BuildProfiler? = nil, zoom: Int = -1
    ) {
        self.items = consume items
        self.nodeSize = max(2, min(65_535, nodeSize))
        let size = self.nodeSize
        let count = self.items.count
        guard count > 0 else { return }
        self.items.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            guard threads > 1 && count >= KDTree.parallelThreshold else {
                KDTree.sort(base, lo: 0, hi: count - 1, axis: 0, nodeSize: size)
                return
            }
            // The subtrees are disjoint ranges of the buffer.
            let shared = WorkerSlots(base)
            KDTree.splitLayout(count: count, nodeSize: size, threads: threads) { node in
                KDTree.select(
                    base, k: node.position, left: node.lo, right: node.hi, axis: node.axis)
            } subtree: { s in
                KDTree.measurePart(profiler, zoom: zoom, items: s.hi - s.lo + 1) {
                    KDTree.sort(shared.base, lo: s.lo, hi: s.hi, axis: s.axis, nodeSize: size)
                }
            }
        }
    }

    /// Runs one part of a step split between threads (by default a part of a tree's layout),
    /// recorded when there is a profiler.
    @inline(__always)
    static func measurePart<R>(
        _ profiler: BuildProfiler?, phase: ClusterBuildProfile.Phase = .treeLayout, zoom: Int,
        items: Int, _ body: () -> R
    ) -> R {
        guard let profiler else { return body() }
        return profiler.measure(phase, zoom: zoom, items: items, lane: .part, body)
    }

    /// Splits the work over a tree's layout between threads: calls `median` with each node of the
    /// top levels, parents before children, on the calling thread, then `subtree` with each subtree
    /// below them, spread over at most `threads` workers (the subtrees are of nearly equal size).
    static func splitLayout(
        count: Int, nodeSize: Int, threads: Int, median: (TopNode) -> Void,
        subtree: @Sendable (Subtree) -> Void
    ) {
        let top = topLevels(count: count, nodeSize: nodeSize, depth: parallelDepth)
        for node in top.medians { median(node) }
        let subtrees = top.subtrees
        let workers = min(threads, subtrees.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for i in stride(from: worker, to: subtrees.count, by: workers) { subtree(subtrees[i]) }
        }
    }

    /// Trees of at least this many items are built on several threads when asked.
    static let parallelThreshold = 1 << 15
    /// The levels selected before the subtrees below them are handed out (2^depth subtrees).
    static let parallelDepth = 3

    /// A node above the parallel subtrees: the median position of its range and the split axis.
    struct TopNode {
        var lo: Int, hi: Int, position: Int, axis: Int
        /// The visit rank of the median.
        var rank: UInt32
    }

    /// A subtree below the top levels: its range, split axis and the visit rank of its first item in
    /// visit order (its ranks are `firstRank ..< firstRank + (hi - lo + 1)`).
    struct Subtree {
        var lo: Int, hi: Int, axis: Int
        var firstRank: UInt32
    }

    /// The top `depth` levels of the layout of a tree of `count` items (parents before children) and
    /// the subtrees below them; ranges that are leaves before that depth are subtrees too.
    static func topLevels(
        count: Int, nodeSize: Int, depth: Int
    ) -> (medians: [TopNode], subtrees: [Subtree]) {
        var medians = [TopNode](), subtrees = [Subtree]()
        var frontier = [Subtree(lo: 0, hi: count - 1, axis: 0, firstRank: 0)]
        for _ in 0..<depth {
            var next = [Subtree]()
            for s in frontier {
                guard s.hi - s.lo > nodeSize else {
                    subtrees.append(s)
                    continue
                }
                // Visit order: the median, its right half, then its left half.
                let m = (s.lo + s.hi) >> 1
                medians.append(
                    TopNode(lo: s.lo, hi: s.hi, position: m, axis: s.axis, rank: s.firstRank))
                next.append(
                    Subtree(lo: m + 1, hi: s.hi, axis: 1 - s.axis, firstRank: s.firstRank + 1))
                next.append(
                    Subtree(
                        lo: s.lo, hi: m - 1, axis: 1 - s.axis,
                        firstRank: s.firstRank + 1 + UInt32(s.hi - m)))
            }
            frontier = next
        }
        subtrees += frontier.filter { $0.lo <= $0.hi }
        return (medians, subtrees)
    }

    // MARK: - Building

    private static func sort(
        _ items: UnsafeMutablePointer<KDItem>, lo: Int, hi: Int, axis: Int, nodeSize: Int
    ) {
        var stack: [(Int, Int, Int)] = [(lo, hi, axis)]
        while let (lo, hi, axis) = stack.popLast() {
            if hi - lo <= nodeSize { continue }
            let m = (lo + hi) >> 1
            select(items, k: m, left: lo, right: hi, axis: axis)
            stack.append((lo, m - 1, 1 - axis))
            stack.append((m + 1, hi, 1 - axis))
        }
    }

    /// Floyd–Rivest selection: moves the k-th smallest item (on `axis`) of `left...right` to `k`,
    /// smaller ones before it and larger ones after it, with kdbush's exact sequence of swaps.
    static func select(
        _ items: UnsafeMutablePointer<KDItem>, k: Int, left: Int, right: Int, axis: Int
    ) {
        if axis == 0 {
            select(items, k: k, left: left, right: right, axis: XAxis.self)
        } else {
            select(items, k: k, left: left, right: right, axis: YAxis.self)
        }
    }

    private static func select<Axis: KDAxis>(
        _ items: UnsafeMutablePointer<KDItem>, k: Int, left: Int, right: Int, axis: Axis.Type
    ) {
        var left = left, right = right
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1)
                let m = Double(k - left + 1)
                // JavaScript's log and exp, so that the ranges, and the order they leave, are
                // kdbush's to the last bit.
                let z = JavaScriptMath.log(n)
                let s = 0.5 * JavaScriptMath.exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                let newLeft = max(left, Int((Double(k) - m * s / n + sd).rounded(.down)))
                let newRight = min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down)))
                select(items, k: k, left: newLeft, right: newRight, axis: axis)
            }
            let t = Axis.key(items + k)
            swapAt(items, left, k)
            if Axis.key(items + right) > t { swapAt(items, left, right) }
            var j = partition(items, left: left, right: right, pivot: t, axis: axis)
            if Axis.key(items + left) == t {
                swapAt(items, left, j)
            } else {
                j += 1
                swapAt(items, j, right)
            }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }

    /// kdbush's Hoare partition of `left...right` around `pivot` (after its first two swaps): the
    /// returned `j` and the final order are those of the scalar loop
    ///
    ///     i = left; j = right
    ///     while i < j { swap(i, j); i += 1; j -= 1; while a[i] < t { i += 1 }; while a[j] > t { j -= 1 } }
    ///
    /// computed block-wise: the loop pairs the k-th untouched item (from the left) not below the pivot
    /// with the k-th untouched item (from the right) not above it, so both lists are collected for
    /// blocks of items without branches and swapped pairwise while the blocks cannot overlap; the
    /// last stretch runs the scalar loop from the same state.
    @inline(__always)
    private static func partition<Axis: KDAxis>(
        _ items: UnsafeMutablePointer<KDItem>, left: Int, right: Int, pivot t: Float,
        axis: Axis.Type
    ) -> Int {
        var i = left, j = right
        // The first pair is (left, right) itself.
        swapAt(items, i, j)
        i += 1
        j -= 1
        let block = 32
        if j - i + 1 >= 2 * block {
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * block) { buffer in
                guard let lefts = buffer.baseAddress else { return }
                let rights = lefts + block
                var leftCount = 0, leftUsed = 0, rightCount = 0, rightUsed = 0
                var nextLeft = i, nextRight = j  // the next untouched positions to scan
                var swapped = false
                var lastLeft = 0, lastRight = 0
                while true {
                    if leftUsed == leftCount {
                        guard nextRight - nextLeft + 1 >= block else { break }
                        leftCount = 0
                        leftUsed = 0
                        for p in nextLeft..<(nextLeft + block) {
                            lefts[leftCount] = p
                            leftCount &+= Int(
                                unsafeBitCast(Axis.key(items + p) >= t, to: UInt8.self))
                        }
                        nextLeft += block
                    }
                    if rightUsed == rightCount {
                        guard nextRight - nextLeft + 1 >= block else { break }
                        rightCount = 0
                        rightUsed = 0
                        var p = nextRight
                        while p > nextRight - block {
                            rights[rightCount] = p
                            rightCount &+= Int(
                                unsafeBitCast(Axis.key(items + p) <= t, to: UInt8.self))
                            p -= 1
                        }
                        nextRight -= block
                    }
                    let pairs = min(leftCount - leftUsed, rightCount - rightUsed)
                    if pairs > 0 {
                        for q in 0..<pairs {
                            swapAt(items, lefts[leftUsed + q], rights[rightUsed + q])
                        }
                        leftUsed += pairs
                        rightUsed += pairs
                        lastLeft = lefts[leftUsed - 1]
                        lastRight = rights[rightUsed - 1]
                        swapped = true
                    }
                }
                if swapped {
                    i = lastLeft + 1
                    j = lastRight - 1
                }
            }
        }
        while Axis.key(items + i) < t { i &+= 1 }
        while Axis.key(items + j) > t { j &-= 1 }
        while i < j {
            swapAt(items, i, j)
            i &+= 1
            j &-= 1
            while Axis.key(items + i) < t { i &+= 1 }
            while Axis.key(items + j) > t { j &-= 1 }
        }
        return j
    }

    @inline(__always)
    private static func swapAt(_ items: UnsafeMutablePointer<KDItem>, _ a: Int, _ b: Int) {
        let t = items[a]
        items[a] = items[b]
        items[b] = t
    }

    // MARK: - Queries

    /// Calls `body` with every item inside the closed box, in kdbush's order.
    @inlinable
    func range(
        minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (KDItem) -> Void
    ) {
        items.withUnsafeBufferPointer { items in
            KDTree.rangeSlots(
                count: items.count, nodeSize: nodeSize, bounds: .unbounded,
                minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                position: { (items[$0].x, items[$0].y) }, { body(items[$0]) })
        }
    }

    /// Calls `body` with every item within `radius` of (`qx`, `qy`) (inclusive), in kdbush's order.
    func within(x qx: Double, y qy: Double, radius: Double, _ body: (KDItem) -> Void) {
        items.withUnsafeBufferPointer { items in
            KDTree.withinSlots(
                count: items.count, nodeSize: nodeSize, x: qx, y: qy, radius: radius,
                position: { (items[$0].x, items[$0].y) }, { body(items[$0]) })
        }
    }

    /// kdbush's range walk over the slots of a tree of `count` items: calls `body` with every slot
    /// whose position is inside the closed box, in kdbush's order.
    ///
    /// The walk keeps the box each subtree's items lie in (`bounds` for the whole tree, then the
    /// split values); a subtree whose box is inside the query is emitted whole, in visit order,
    /// without looking positions up.
    @inlinable
    static func rangeSlots<E: Error>(
        count: Int, nodeSize: Int, bounds: Box, minX: Double, minY: Double, maxX: Double,
        maxY: Double,
        position: (Int) -> (x: Float, y: Float), _ body: (Int) throws(E) -> Void
    ) throws(E) {
        guard count > 0 else { return }
        var stack: [(lo: Int, hi: Int, axis: Int, box: Box)] = [(0, count - 1, 0, bounds)]
        stack.reserveCapacity(64)
        while let (lo, hi, axis, box) = stack.popLast() {
            if box.minX >= minX && box.maxX <= maxX && box.minY >= minY && box.maxY <= maxY {
                try forEachInVisitOrder(lo: lo, hi: hi, firstRank: 0, nodeSize: nodeSize) {
                    (slot, _) throws(E) in try body(slot)
                }
                continue
            }
            if hi - lo <= nodeSize {
                guard lo <= hi else { continue }
                for slot in lo...hi {
                    let (fx, fy) = position(slot)
                    let x = Double(fx), y = Double(fy)
                    if x >= minX && x <= maxX && y >= minY && y <= maxY { try body(slot) }
                }
                continue
            }
            let m = (lo + hi) >> 1
            let (fx, fy) = position(m)
            let x = Double(fx), y = Double(fy)
            if x >= minX && x <= maxX && y >= minY && y <= maxY { try body(m) }
            // Items before the median are at most its value on the axis, items after at least.
            var left = box, right = box
            if axis == 0 {
                left.maxX = x
                right.minX = x
                if minX <= x { stack.append((lo, m - 1, 1, left)) }
                if maxX >= x { stack.append((m + 1, hi, 1, right)) }
            } else {
                left.maxY = y
                right.minY = y
                if minY <= y { stack.append((lo, m - 1, 0, left)) }
                if maxY >= y { stack.append((m + 1, hi, 0, right)) }
            }
        }
    }

    /// kdbush's radius walk over the slots of a tree of `count` items: calls `body` with every slot
    /// within `radius` of (`qx`, `qy`) (inclusive), in kdbush's order.
    @inlinable
    static func withinSlots(
        count: Int, nodeSize: Int, x qx: Double, y qy: Double, radius: Double,
        position: (Int) -> (x: Float, y: Float), _ body: (Int) -> Void
    ) {
        guard count > 0 else { return }
        let r2 = radius * radius
        var stack: [(Int, Int, Int)] = [(0, count - 1, 0)]
        stack.reserveCapacity(64)
        while let (lo, hi, axis) = stack.popLast() {
            if hi - lo <= nodeSize {
                guard lo <= hi else { continue }
                for slot in lo...hi {
                    let (fx, fy) = position(slot)
                    let dx = Double(fx) - qx, dy = Double(fy) - qy
                    if dx * dx + dy * dy <= r2 { body(slot) }
                }
                continue
            }
            let m = (lo + hi) >> 1
            let (fx, fy) = position(m)
            let dx = Double(fx) - qx, dy = Double(fy) - qy
            if dx * dx + dy * dy <= r2 { body(m) }
            let value = axis == 0 ? Double(fx) : Double(fy)
            let q = axis == 0 ? qx : qy
            if q - radius <= value { stack.append((lo, m - 1, 1 - axis)) }
            if q + radius >= value { stack.append((m + 1, hi, 1 - axis)) }
        }
    }

    /// A closed box in projected coordinates.
    @usableFromInline
    struct Box: Sendable {
        @usableFromInline var minX, minY, maxX, maxY: Double

        @usableFromInline
        init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
        }

        /// No point at all.
        static let empty = Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        /// Every point: a walk from it never emits a subtree without looking at its items.
        @usableFromInline
        static let unbounded = Box(
            minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)

        /// Grows the box to hold a point.
        @inline(__always)
        mutating func add(_ x: Float, _ y: Float) {
            minX = min(minX, Double(x))
            minY = min(minY, Double(y))
            maxX = max(maxX, Double(x))
            maxY = max(maxY, Double(y))
        }
    }

    /// The position of every item in the order a query visits the tree (node, then its right half,
    /// then its left half; leaves in index order), indexed by tree position. Any query emits its
    /// results in increasing rank.
    func visitRanks() -> [UInt32] {
        var ranks = [UInt32](repeating: 0, count: items.count)
        KDTree.forEachInVisitOrder(count: items.count, nodeSize: nodeSize) { position, rank in
            ranks[position] = rank
        }
        return ranks
    }

    /// Calls `body` with every position of a tree of `count` items and its visit rank, in visit
    /// order (the layout depends only on the count and the leaf size).
    static func forEachInVisitOrder(count: Int, nodeSize: Int, _ body: (Int, UInt32) -> Void) {
        forEachInVisitOrder(lo: 0, hi: count - 1, firstRank: 0, nodeSize: nodeSize, body)
    }

    /// Calls `body` with every position of the subtree over `lo...hi` and its visit rank, in visit
    /// order, ranks counting from `firstRank`.
    @inlinable
    static func forEachInVisitOrder<E: Error>(
        lo: Int, hi: Int, firstRank: UInt32, nodeSize: Int, _ body: (Int, UInt32) throws(E) -> Void
    ) throws(E) {
        guard lo <= hi else { return }
        var next = firstRank
        var stack: [(Int, Int)] = [(lo, hi)]
        while let (lo, hi) = stack.popLast() {
            if hi - lo <= nodeSize {
                guard lo <= hi else { continue }
                for i in lo...hi {
                    try body(i, next)
                    next &+= 1
                }
                continue
            }
            let m = (lo + hi) >> 1
            try body(m, next)
            next &+= 1
            if lo <= m - 1 { stack.append((lo, m - 1)) }
            if m + 1 <= hi { stack.append((m + 1, hi)) }
        }
    }
}

/// A ``KDTree``'s layout with only the payloads kept: 4 bytes per item instead of 12. Queries look
/// an item's coordinates up (the float32 values the tree was built from) and visit items in the
/// same order as the full tree.
@usableFromInline
struct PackedTree: Sendable {
    /// The payloads in tree order.
    @usableFromInline var refs: [UInt32]
    /// The leaf size.
    @usableFromInline let nodeSize: Int
    /// The smallest box holding every item (empty when there are none).
    @usableFromInline var bounds: KDTree.Box

    init(refs: [UInt32], nodeSize: Int, bounds: KDTree.Box) {
        self.refs = refs
        self.nodeSize = nodeSize
        self.bounds = bounds
    }

    /// The layout of a full tree.
    init(_ tree: KDTree) {
        var bounds = KDTree.Box.empty
        for item in tree.items { bounds.add(item.x, item.y) }
        self.init(refs: tree.items.map(\.ref), nodeSize: tree.nodeSize, bounds: bounds)
    }

    /// Calls `body` with every payload whose position is inside the closed box, in kdbush's order;
    /// a subtree inside the box is emitted without looking positions up (see
    /// ``KDTree/rangeSlots(count:nodeSize:bounds:minX:minY:maxX:maxY:position:_:)``).
    @inlinable
    func range<E: Error>(
        minX: Double, minY: Double, maxX: Double, maxY: Double,
        position: (UInt32) -> (x: Float, y: Float), _ body: (UInt32) throws(E) -> Void
    ) throws(E) {
        try refs.withUnsafeBufferPointer { (refs) throws(E) in
            try KDTree.rangeSlots(
                count: refs.count, nodeSize: nodeSize, bounds: bounds, minX: minX, minY: minY,
                maxX: maxX, maxY: maxY,
                position: { position(refs[$0]) }, { (slot) throws(E) in try body(refs[slot]) })
        }
    }

    /// Calls `body` with every payload within `radius` of (`qx`, `qy`) (inclusive), in kdbush's
    /// order.
    func within(
        x qx: Double, y qy: Double, radius: Double,
        position: (UInt32) -> (x: Float, y: Float), _ body: (UInt32) -> Void
    ) {
        refs.withUnsafeBufferPointer { refs in
            KDTree.withinSlots(
                count: refs.count, nodeSize: nodeSize, x: qx, y: qy, radius: radius,
                position: { position(refs[$0]) }, { body(refs[$0]) })
        }
    }
}

/// The coordinate a tree level splits on.
protocol KDAxis {
    static func key(_ item: UnsafeMutablePointer<KDItem>) -> Float
}

/// Splits on x.
enum XAxis: KDAxis {
    @inline(__always)
    static func key(_ item: UnsafeMutablePointer<KDItem>) -> Float { item.pointee.x }
}

/// Splits on y.
enum YAxis: KDAxis {
    @inline(__always)
    static func key(_ item: UnsafeMutablePointer<KDItem>) -> Float { item.pointee.y }
}
