import Foundation
import GeoCore
import Synchronization

extension ClusterHierarchy {
    /// Builds every level as supercluster's `load` does: project the points to float32, then, from
    /// `maxZoom` down to `minZoom`, visit the previous level's records in order and merge each
    /// unvisited record with its unvisited neighbors within the zoom's radius (supercluster §5).
    ///
    /// - Parameters:
    ///   - coordinates: The coordinate of each input element, NaN for one without (it keeps its
    ///     index and counts in `N`, as a feature without geometry does in supercluster).
    ///   - clusters: `false` keeps every point on its own at every zoom (elements whose clustering
    ///     identifier is `nil`).
    /// - Complexity: O(n log n) per zoom.
    init(
        options: ClusterOptions, coordinates: [Coordinate], clusters: Bool = true,
        build: ClusterBuildOptions
    ) {
        self.init(options: options, inputCount: coordinates.count)
        self.coordinates = coordinates
        let n = coordinates.count
        pointParent = [Int32](repeating: -1, count: n)
        var level = [UInt32]()
        level.reserveCapacity(n)
        pointXY = [Float](repeating: .nan, count: 2 * n)
        let parts = clusters && n >= 1 << 16 ? max(1, build.maximumThreads) : 1
        pointXY.withUnsafeMutableBufferPointer { xy in
            guard let base = xy.baseAddress else { return }
            // The parts write disjoint pairs of slots.
            let shared = KDTree.SharedBuffer(base: base)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                for i in (part * n / parts)..<((part + 1) * n / parts) {
                    let c = coordinates[i]
                    guard c.latitude.isFinite && c.longitude.isFinite else { continue }
                    shared.base[2 * i] = Float(SuperclusterProjection.x(longitude: c.longitude))
                    shared.base[2 * i + 1] = Float(SuperclusterProjection.y(latitude: c.latitude))
                }
            }
        }
        for (i, c) in coordinates.enumerated() where c.latitude.isFinite && c.longitude.isFinite {
            level.append(UInt32(i))
        }
        let zoomCount = options.maxZoom + 2 - options.minZoom
        clusterRanges = [Range<Int>](repeating: 0..<0, count: zoomCount - 1)
        guard clusters else {
            trees = [PackedTree](repeating: PackedTree(makeTree(level)), count: zoomCount)
            return
        }
        switch build.neighborSearch {
        case .treeQueries:
            buildWithTreeQueries(level)
        case .gridSweep:
            buildWithGridSweep(level, threads: max(1, build.maximumThreads))
        }
    }

    /// supercluster's own method: one tree query per record.
    private mutating func buildWithTreeQueries(_ points: [UInt32]) {
        var level = points
        var tree = makeTree(level)
        trees = [PackedTree](
            repeating: PackedTree(tree), count: options.maxZoom + 2 - options.minZoom)
        // supercluster's per-record "last zoom processed" slot, kept per entity: at most n - 1
        // clusters can form.
        var marks = [Int8](repeating: .max, count: inputCount + max(0, level.count - 1))
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let start = clusterID.count
            let next = clusterLevel(level, tree: tree, zoom: zoom, marks: &marks)
            clusterRanges[zoom - options.minZoom] = start..<clusterID.count
            if next != level {
                tree = makeTree(next)
            }
            trees[zoom - options.minZoom] = PackedTree(tree)
            level = next
        }
    }

    /// A tree over a level's entities.
    func makeTree(_ level: [UInt32]) -> KDTree {
        var items = [KDItem]()
        items.reserveCapacity(level.count)
        for ref in level {
            let (x, y) = treePosition(ref)
            items.append(KDItem(x: x, y: y, ref: ref))
        }
        return KDTree(items: items, nodeSize: options.nodeSize)
    }

    /// One step of supercluster's `_cluster`: the records of zoom `zoom` from those of `zoom + 1`.
    mutating func clusterLevel(
        _ level: [UInt32], tree: KDTree, zoom: Int, marks: inout [Int8]
    ) -> [UInt32] {
        let r = options.projectedRadius(atZoom: zoom)
        let stamp = Int8(zoom)
        var next = [UInt32]()
        next.reserveCapacity(level.count)
        var neighbors = [UInt32]()
        for (index, p) in level.enumerated() {
            if marks[Int(p)] <= stamp { continue }
            marks[Int(p)] = stamp
            let (px, py) = position(p)
            neighbors.removeAll(keepingCapacity: true)
            tree.within(x: px, y: py, radius: r) { item in
                if marks[Int(item.ref)] > stamp { neighbors.append(item.ref) }
            }
            let n0 = count(p)
            var total = n0
            for q in neighbors { total += count(q) }
            if total > n0 && total >= options.minPoints {
                let id = (index << 5) + (zoom + 1) + inputCount
                let c = Int32(clusterID.count)
                var wx = px * Double(n0), wy = py * Double(n0)
                for q in neighbors {
                    marks[Int(q)] = stamp
                    let (qx, qy) = position(q)
                    let k = Double(count(q))
                    wx += qx * k
                    wy += qy * k
                    setParent(q, c)
                }
                setParent(p, c)
                clusterX.append(wx / Double(total))
                clusterY.append(wy / Double(total))
                clusterCount.append(UInt32(total))
                clusterID.append(id)
                clusterParent.append(-1)
                clusterOrigin.append(p)
                next.append(UInt32(inputCount + Int(c)))
            } else {
                next.append(p)
                if total > 1 {
                    for q in neighbors {
                        marks[Int(q)] = stamp
                        next.append(q)
                    }
                }
            }
        }
        return next
    }

    fileprivate mutating func setParent(_ ref: UInt32, _ c: Int32) {
        let i = Int(ref)
        if i < inputCount { pointParent[i] = c } else { clusterParent[i - inputCount] = c }
    }
}

// MARK: - Grid sweep

/// A tree and the visit rank of each level position, made off the clustering thread.
struct LevelTree: Sendable {
    /// `n` zeros in a buffer backed by huge pages where offered.
    static func zeros(_ n: Int) -> [UInt32] {
        // An empty array shares one global storage, and building one with an uninitialized
        // capacity of 0 stores its count there: a data race with other threads' empty arrays.
        guard n > 0 else { return [] }
        return [UInt32](unsafeUninitializedCapacity: n) { buffer, count in
            HugePages.advise(buffer.baseAddress, count: 0, capacity: buffer.count)
            buffer.initialize(repeating: 0)
            count = n
        }
    }

    var tree: PackedTree
    /// `ranks[p]`: where record `p` comes in any query's output order.
    var ranks: [UInt32]
    /// The level the tree was built from, handed back.
    var level: [LevelRecord]
    /// The buffer the items were sorted in, handed back for the next tree.
    var scratch: [KDItem]

    /// Builds the tree of a level and converts its payloads from level positions to entity refs.
    ///
    /// - Parameters:
    ///   - scratch: A buffer to sort the items in (its contents are replaced).
    ///   - ranks: A buffer for the ranks (its contents are replaced).
    init(
        _ level: [LevelRecord], nodeSize: Int, threads: Int = 1, scratch: [KDItem] = [],
        ranks: [UInt32] = []
    ) {
        var items = scratch
        items.removeAll(keepingCapacity: true)
        items.reserveHugeCapacity(level.count)
        var bounds = KDTree.Box.empty
        for (i, record) in level.enumerated() {
            items.append(KDItem(x: record.fx, y: record.fy, ref: UInt32(i)))
            bounds.add(record.fx, record.fy)
        }
        let tree = KDTree(items: consume items, nodeSize: nodeSize, threads: threads)
        // One walk in visit order gives each level position its rank and each tree slot its entity.
        var ranks = ranks
        ranks.resize(to: level.count, filling: 0)
        var refs = LevelTree.zeros(level.count)
        let size = tree.nodeSize
        let count = level.count
        ranks.withUnsafeMutableBufferPointer { ranks in
            refs.withUnsafeMutableBufferPointer { refs in
                level.withUnsafeBufferPointer { level in
                    tree.items.withUnsafeBufferPointer { items in
                        guard
                            let walk = RankWalk(
                                ranks: ranks, refs: refs, level: level, items: items)
                        else { return }
                        guard threads > 1 && count >= KDTree.parallelThreshold else {
                            KDTree.forEachInVisitOrder(count: count, nodeSize: size, walk.visit)
                            return
                        }
                        // Each slot is visited once, so the subtrees write disjoint slots.
                        KDTree.splitLayout(count: count, nodeSize: size, threads: threads) { node in
                            walk.visit(node.position, node.rank)
                        } subtree: { s in
                            KDTree.forEachInVisitOrder(
                                lo: s.lo, hi: s.hi, firstRank: s.firstRank, nodeSize: size,
                                walk.visit)
                        }
                    }
                }
            }
        }
        self.tree = PackedTree(refs: refs, nodeSize: size, bounds: bounds)
        self.scratch = tree.items
        self.ranks = ranks
        self.level = level
    }

    /// The visit of one tree slot: the rank of the level position the slot holds, and the slot's
    /// entity. Shared by the threads of a parallel walk, which visit disjoint slots.
    private struct RankWalk: @unchecked Sendable {
        let ranks: UnsafeMutablePointer<UInt32>
        let refs: UnsafeMutablePointer<UInt32>
        let level: UnsafePointer<LevelRecord>
        let items: UnsafePointer<KDItem>

        init?(
            ranks: UnsafeMutableBufferPointer<UInt32>, refs: UnsafeMutableBufferPointer<UInt32>,
            level: UnsafeBufferPointer<LevelRecord>, items: UnsafeBufferPointer<KDItem>
        ) {
            guard let ranks = ranks.baseAddress, let refs = refs.baseAddress,
                let level = level.baseAddress,
                let items = items.baseAddress
            else { return nil }
            (self.ranks, self.refs, self.level, self.items) = (ranks, refs, level, items)
        }

        @inline(__always)
        func visit(_ slot: Int, _ rank: UInt32) {
            let position = Int(items[slot].ref)
            ranks[position] = rank
            refs[slot] = level[position].ref
        }
    }
}

extension ClusterHierarchy {
    /// Calls `body` with the double centers of the records: the cluster table as it is now.
    func withCenters<R>(_ body: (Centers) -> R) -> R {
        clusterX.withUnsafeBufferPointer { x in
            clusterY.withUnsafeBufferPointer { y in
                body(Centers(inputCount: inputCount, x: x, y: y))
            }
        }
    }

    /// Builds the levels with ``NeighborTable`` (a grid sweep) instead of tree queries. The tree of
    /// each level is built on another thread (its subtrees on both cores) while the next level's
    /// neighbors are found (large levels in two halves); the greedy pass then only needs that
    /// tree's visit ranks, to sum centroids (and, above `minPoints` 2, emit claimed neighbors) in
    /// supercluster's order. Working buffers are reused from level to level.
    fileprivate mutating func buildWithGridSweep(_ points: [UInt32], threads: Int) {
        var level = points.map { ref in
            let (x, y) = treePosition(ref)
            return LevelRecord(fx: x, fy: y, ref: ref, count: 1)
        }
        let nodeSize = options.nodeSize
        let concurrent = threads > 1
        // The level moves to the tree's thread and comes back with the tree, so that once the tree
        // is in, the main thread holds the only reference and can reuse the buffer; so do the tree
        // builder's item and rank buffers.
        var treeBuffers = (items: [KDItem](), ranks: [UInt32]())
        func startTree(_ level: [LevelRecord]) -> Pending<LevelTree> {
            let handoff = Handoff((level, treeBuffers.items, treeBuffers.ranks))
            treeBuffers = ([], [])
            return Pending(async: concurrent) {
                let (level, items, ranks) = handoff.take() ?? ([], [], [])
                return LevelTree(
                    level, nodeSize: nodeSize, threads: threads, scratch: items, ranks: ranks)
            }
        }
        let empty = PackedTree(refs: [], nodeSize: nodeSize, bounds: .empty)
        trees = [PackedTree](repeating: empty, count: options.maxZoom + 2 - options.minZoom)
        var pending = startTree(level)
        var cells = withCenters { centers in
            CellIndex(
                level: level, radius: options.projectedRadius(atZoom: options.maxZoom),
                centers: centers)
        }
        // Buffers reused from level to level: a build allocates its working memory once, and the
        // allocator never has to hand pages back and fault them in again.
        var pass = GreedyPass()
        var neighbors = NeighborTable()
        // The level size the buffers were made for; they are let go (and their pages handed back)
        // when the levels shrink below three quarters of it, so that the memory a build holds
        // follows the level size down.
        var bufferSize = level.count
        HeapTrim.releaseFreePages()  // the first sort's temporary buffers
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            withCenters { centers in
                cells.neighbors(
                    level: level, radius: options.projectedRadius(atZoom: zoom), centers: centers,
                    threads: threads,
                    into: &neighbors)
            }
            var levelTree = pending.value() ?? LevelTree(level, nodeSize: nodeSize)
            trees[zoom + 1 - options.minZoom] = levelTree.tree
            // The tree's copy of the level is the level itself; dropping it leaves one reference.
            levelTree.level = []
            let start = clusterID.count
            neighbors.gatherRanks(levelTree.ranks)
            greedyPass(level, neighbors: neighbors, zoom: zoom, into: &pass)
            clusterRanges[zoom - options.minZoom] = start..<clusterID.count
            if pass.changed {
                swap(&level, &pass.next)
                treeBuffers = (levelTree.scratch, levelTree.ranks)
                levelTree.scratch = []
                levelTree.ranks = []
                pending = startTree(level)
            } else {
                let tree = levelTree
                pending = Pending(async: false) { tree }
            }
            if zoom > options.minZoom {
                withCenters { centers in
                    cells.advance(
                        to: level, newPosition: pass.newPosition, clusters: pass.clusters,
                        radius: options.projectedRadius(atZoom: zoom - 1), centers: centers)
                }
            }
            if level.count < bufferSize / 4 * 3 && bufferSize >= 1 << 16 {
                pass = GreedyPass()
                neighbors = NeighborTable()
                treeBuffers = ([], [])
                cells.releaseSpareBuffers()
                bufferSize = level.count
                HeapTrim.releaseFreePages()
            }
        }
        trees[0] = (pending.value() ?? LevelTree(level, nodeSize: nodeSize)).tree
        // The working buffers are freed now; give their pages back.
        HeapTrim.releaseFreePages()
    }

    /// The outcome of one greedy pass, in buffers reused from pass to pass.
    struct GreedyPass {
        /// The next level (when it differs from the old one).
        var next: [LevelRecord] = []
        /// Whether it differs from the level it came from.
        var changed = false
        /// Where each record of the old level went in the next (`UInt32.max`: absorbed or replaced by
        /// a cluster).
        var newPosition: [UInt32] = []
        /// The positions of the new clusters in the next level.
        var clusters: [UInt32] = []
        /// Whether each record of the old level has been visited or absorbed.
        var processed: [Bool] = []
    }

    /// supercluster's greedy pass over a level with precomputed neighbor lists.
    ///
    /// Writes the next level, where each record went and the positions of the new clusters into
    /// `pass`, and whether anything changed.
    private mutating func greedyPass(
        _ level: [LevelRecord], neighbors: NeighborTable, zoom: Int, into pass: inout GreedyPass
    ) {
        let n = level.count
        var processed = pass.processed
        var newPosition = pass.newPosition
        var clusterPositions = pass.clusters
        var next = pass.next
        pass = GreedyPass()  // the buffers above are now uniquely referenced
        processed.removeAll(keepingCapacity: true)
        processed.resize(to: n, filling: false)
        newPosition.removeAll(keepingCapacity: true)
        newPosition.resize(to: n, filling: .max)
        clusterPositions.removeAll(keepingCapacity: true)
        next.removeAll(keepingCapacity: true)
        next.reserveHugeCapacity(n)
        var members = [UInt32]()
        var changed = false
        let minPoints = options.minPoints
        let firstCluster = clusterID.count
        var formed = [(x: Double, y: Double, origin: UInt32, count: UInt32)]()  // the new clusters
        var formedIDs = [Int]()
        var parents = [(UInt32, Int32)]()
        withCenters { centers in
            level.withUnsafeBufferPointer { level in
                neighbors.withBuffers { offsets, targets, targetRecords, targetRanks in
                    processed.withUnsafeMutableBufferPointer { processed in
                        newPosition.withUnsafeMutableBufferPointer { newPosition in
                            // Records without later neighbors that nothing absorbed are copied in
                            // runs.
                            var run = 0
                            for p in 0..<n {
                                let lo = Int(offsets[p]), hi = Int(offsets[p + 1])
                                if lo == hi && !processed[p] { continue }
                                if run < p {
                                    for i in run..<p {
                                        newPosition[i] = UInt32(next.count + i - run)
                                    }
                                    next.append(contentsOf: level[run..<p])
                                }
                                run = p + 1
                                if processed[p] { continue }
                                processed[p] = true
                                if lo == hi {
                                    newPosition[p] = UInt32(next.count)
                                    next.append(level[p])
                                    continue
                                }
                                members.removeAll(keepingCapacity: true)
                                let origin = level[p]
                                let n0 = Int(origin.count)
                                var total = n0
                                for k in lo..<hi {
                                    // Every earlier record has been visited, including the copied
                                    // runs, which are not marked. Members are kept as indices
                                    // into the neighbor table.
                                    let q = targets[k]
                                    if Int(q) > p && !processed[Int(q)] {
                                        members.append(UInt32(k))
                                        total += Int(targetRecords[k].count)
                                    }
                                }
                                if members.isEmpty {
                                    newPosition[p] = UInt32(next.count)
                                    next.append(origin)
                                    continue
                                }
                                if members.count > 1 {
                                    members.sort { targetRanks[Int($0)] < targetRanks[Int($1)] }
                                }
                                changed = true
                                if total >= minPoints {
                                    let c = Int32(firstCluster + formed.count)
                                    let (ox, oy) = centers.of(origin)
                                    var wx = ox * Double(n0), wy = oy * Double(n0)
                                    for m in members {
                                        let member = targetRecords[Int(m)]
                                        processed[Int(targets[Int(m)])] = true
                                        let k = Double(member.count)
                                        let (mx, my) = centers.of(member)
                                        wx += mx * k
                                        wy += my * k
                                        parents.append((member.ref, c))
                                    }
                                    parents.append((origin.ref, c))
                                    let cx = wx / Double(total), cy = wy / Double(total)
                                    formed.append((cx, cy, origin.ref, UInt32(total)))
                                    formedIDs.append((p << 5) + (zoom + 1) + inputCount)
                                    clusterPositions.append(UInt32(next.count))
                                    next.append(
                                        LevelRecord(
                                            fx: Float(cx), fy: Float(cy),
                                            ref: UInt32(inputCount + Int(c)),
                                            count: UInt32(total)))
                                } else {
                                    newPosition[p] = UInt32(next.count)
                                    next.append(origin)
                                    for m in members {
                                        let q = Int(targets[Int(m)])
                                        processed[q] = true
                                        newPosition[q] = UInt32(next.count)
                                        next.append(level[q])
                                    }
                                }
                            }
                            if run < n {
                                for i in run..<n { newPosition[i] = UInt32(next.count + i - run) }
                                next.append(contentsOf: level[run..<n])
                            }
                        }
                    }
                }
            }
        }
        for (ref, c) in parents { setParent(ref, c) }
        for (record, id) in zip(formed, formedIDs) {
            clusterX.append(record.x)
            clusterY.append(record.y)
            clusterCount.append(record.count)
            clusterID.append(id)
            clusterParent.append(-1)
            clusterOrigin.append(record.origin)
        }
        pass = GreedyPass(
            next: next, changed: changed, newPosition: newPosition, clusters: clusterPositions,
            processed: processed)
    }
}
