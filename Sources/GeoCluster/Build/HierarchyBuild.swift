import Foundation
import GeoCore

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
        let profiler = BuildProfiler()
        let started = BuildProfiler.now().wall
        defer {
            profile.spans = profiler.recorded
            profile.nanoseconds = BuildProfiler.now().wall &- started
        }
        let n = coordinates.count
        pointParent = [Int32](repeating: -1, count: n)
        var level = [UInt32]()
        level.reserveCapacity(n)
        pointXY = [Float](repeating: .nan, count: 2 * n)
        let parts = clusters && n >= 1 << 16 ? max(1, build.maximumThreads) : 1
        let inputZoom = options.maxZoom + 1
        profiler.measure(.projection, zoom: inputZoom, items: n, split: parts > 1) {
            pointXY.withUnsafeMutableBufferPointer { xy in
                guard let base = xy.baseAddress else { return }
                // The parts write disjoint pairs of slots.
                let shared = WorkerSlots(base)
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    let range = (part * n / parts)..<((part + 1) * n / parts)
                    profiler.measure(
                        .projection, zoom: inputZoom, items: range.count,
                        lane: parts > 1 ? .part : .build
                    ) {
                        for i in range {
                            let c = coordinates[i]
                            guard c.latitude.isFinite && c.longitude.isFinite else { continue }
                            shared.base[2 * i] = Float(
                                SuperclusterProjection.x(longitude: c.longitude))
                            shared.base[2 * i + 1] = Float(
                                SuperclusterProjection.y(latitude: c.latitude))
                        }
                    }
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
        let gridFits = level.allSatisfy {
            ClusterHierarchy.gridRange.contains(pointXY[2 * Int($0)])
        }
        switch build.neighborSearch {
        case .gridSweep where gridFits:
            buildWithGridSweep(level, threads: max(1, build.maximumThreads), profiler: profiler)
        case .gridSweep, .treeQueries:
            buildWithTreeQueries(level, profiler: profiler)
        }
    }

    /// The projected x of points the grid build takes (longitudes in [-540°, 540°)); with any point
    /// outside, the build makes supercluster's tree queries instead, which take any finite value.
    static let gridRange: Range<Float> = -1..<2

    /// Builds the levels with ``NeighborTable`` (a grid sweep) instead of tree queries. The tree of
    /// each level is built on another thread (its subtrees on both cores) while the next level's
    /// neighbors are found (large levels in two halves); the greedy pass then only needs that
    /// tree's visit ranks, to sum centroids (and, above `minPoints` 2, emit claimed neighbors) in
    /// supercluster's order. Working buffers are reused from level to level.
    private mutating func buildWithGridSweep(
        _ points: [UInt32], threads: Int, profiler: BuildProfiler
    ) {
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
            let zoom = treeZoom
            return Pending(async: concurrent) {
                // Taken inside the measured work, so that the buffers move into the tree
                // builder instead of being shared with (and copied away from) this closure.
                var taken = handoff.take()
                let count = taken?.0.count ?? 0
                return profiler.measure(
                    .treeLayout, zoom: zoom, items: count, lane: concurrent ? .tree : .build,
                    split: threads > 1 && count >= KDTree.parallelThreshold
                ) {
                    let (level, items, ranks) = taken.take() ?? ([], [], [])
                    return LevelTree(
                        level, nodeSize: nodeSize, threads: threads, scratch: consume items,
                        ranks: consume ranks, profiler: profiler, zoom: zoom)
                }
            }
        }
        var treeZoom = options.maxZoom + 1
        let empty = PackedTree(refs: [], nodeSize: nodeSize, bounds: .empty)
        trees = [PackedTree](repeating: empty, count: options.maxZoom + 2 - options.minZoom)
        // The cluster tables get room for the most clusters a level can form (each takes two
        // records or more) up front: they then never grow by copying, and the room no cluster
        // uses is never written, so it costs address space but no memory (unless the allocator
        // hands out pages it had already touched, which are resident either way).
        let reserve = max(0, level.count - 1)
        clusterX.reserveCapacity(reserve)
        clusterY.reserveCapacity(reserve)
        clusterCount.reserveCapacity(reserve)
        clusterID.reserveCapacity(reserve)
        clusterParent.reserveCapacity(reserve)
        clusterOrigin.reserveCapacity(reserve)
        var pending = startTree(level)
        var cells = profiler.measure(.cellIndex, zoom: treeZoom, items: level.count) {
            withCenters { centers in
                CellIndex(
                    level: level, radius: options.projectedRadius(atZoom: options.maxZoom),
                    centers: centers)
            }
        }
        // Buffers reused from level to level: a build allocates its working memory once, and the
        // allocator never has to hand pages back and fault them in again.
        var pass = GreedyPass()
        var neighbors = NeighborTable()
        var dense = DenseCells()
        // The level size the buffers were made for (see `shrinking` below).
        var bufferSize = level.count
        HeapTrim.releaseFreePages()  // the first sort's temporary buffers
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let radius = options.projectedRadius(atZoom: zoom)
            let split = threads > 1 && level.count >= CellIndex.parallelThreshold
            profiler.measure(.neighborSearch, zoom: zoom, items: level.count, split: split) {
                withCenters { centers in
                    cells.neighbors(
                        level: level, radius: radius, centers: centers, threads: threads,
                        into: &neighbors, dense: &dense, profiler: profiler, zoom: zoom)
                }
            }
            profile.largestPairCount = max(profile.largestPairCount, neighbors.pairCount)
            var levelTree = pending.value() ?? LevelTree(level, nodeSize: nodeSize)
            trees[zoom + 1 - options.minZoom] = levelTree.tree
            // The tree's copy of the level is the level itself; dropping it leaves one reference.
            levelTree.level = []
            let start = clusterID.count
            profiler.measure(.greedyPass, zoom: zoom, items: level.count) {
                // In insertion order a record's rank is its position in the level.
                let ranks =
                    options.memberOrder == .insertion
                    ? (0..<UInt32(level.count)).map { $0 } : levelTree.ranks
                neighbors.gatherRanks(ranks)
                greedyPass(
                    GreedyInput(
                        neighbors: neighbors, dense: dense, cells: cells, ranks: ranks,
                        test: PairTest(radius: radius, rounding: cells.rounding), zoom: zoom),
                    level: &level, into: &pass)
            }
            clusterRanges[zoom - options.minZoom] = start..<clusterID.count
            // When the levels have shrunk below seven eighths of the size the buffers were made
            // for, the buffers are let go (and their pages handed back) before the next tree and
            // the cell index take new ones of the level's size, so that the memory a build holds
            // follows the level size down; the level itself moves to a buffer of its size.
            let shrinking = level.count < bufferSize / 8 * 7 && bufferSize >= 1 << 16
            // (A level only shrinks when the pass changed it, so the tree whose buffers may go
            // below is never the one kept for an unchanged level.)
            if shrinking {
                neighbors = NeighborTable()
                dense = DenseCells()
                pass.next = []
                pass.processed = []
                // The tree's buffers only below three quarters of their room: made again, they
                // cost more time than the others (pages faulted in while the tree is laid out).
                if level.count < levelTree.scratch.capacity / 4 * 3 {
                    levelTree.scratch = []
                    levelTree.ranks = []
                }
                level = level.withUnsafeBufferPointer { Array($0) }
                HeapTrim.releaseFreePages()
            }
            if pass.changed {
                treeBuffers = (levelTree.scratch, levelTree.ranks)
                levelTree.scratch = []
                levelTree.ranks = []
                treeZoom = zoom
                pending = startTree(level)
            } else {
                let tree = levelTree
                pending = Pending(async: false) { tree }
            }
            if zoom > options.minZoom {
                profiler.measure(.cellIndex, zoom: zoom, items: level.count) {
                    withCenters { centers in
                        cells.advance(
                            to: level, newPosition: pass.newPosition, clusters: pass.clusters,
                            radius: options.projectedRadius(atZoom: zoom - 1), centers: centers,
                            shrinking: shrinking)
                    }
                }
            }
            if shrinking {
                pass = GreedyPass()
                bufferSize = level.count
                HeapTrim.releaseFreePages()
            }
        }
        trees[0] = (pending.value() ?? LevelTree(level, nodeSize: nodeSize)).tree
        // The working buffers are freed now; give their pages back.
        HeapTrim.releaseFreePages()
    }
}
