import Foundation
import GeoCore

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
        _ level: [LevelRecord], nodeSize: Int, threads: Int = 1, scratch: consuming [KDItem] = [],
        ranks: consuming [UInt32] = [], profiler: BuildProfiler? = nil, zoom: Int = -1
    ) {
        // Both buffers are taken over, not copied: a copy would allocate and fill a new buffer of
        // the level's size on every level (and leave a hole in the heap when the old one goes).
        var items = consume scratch
        items.removeAll(keepingCapacity: true)
        items.reserveHugeCapacity(level.count)
        var bounds = KDTree.Box.empty
        for (i, record) in level.enumerated() {
            items.append(KDItem(x: record.fx, y: record.fy, ref: UInt32(i), extra: record.ref))
            bounds.add(record.fx, record.fy)
        }
        let tree = KDTree(
            items: consume items, nodeSize: nodeSize, threads: threads, profiler: profiler,
            zoom: zoom)
        // One walk in visit order gives each level position its rank and each tree slot its entity.
        var ranks = consume ranks
        ranks.resize(to: level.count, filling: 0)
        var refs = LevelTree.zeros(level.count)
        let size = tree.nodeSize
        let count = level.count
        ranks.withUnsafeMutableBufferPointer { ranks in
            refs.withUnsafeMutableBufferPointer { refs in
                tree.items.withUnsafeBufferPointer { items in
                    guard let rankBase = ranks.baseAddress, let refBase = refs.baseAddress
                    else { return }
                    let walk = RankWalk(
                        ranks: WorkerSlots(rankBase), refs: WorkerSlots(refBase),
                        items: SharedView(items))
                    guard threads > 1 && count >= KDTree.parallelThreshold else {
                        KDTree.forEachInVisitOrder(count: count, nodeSize: size, walk.visit)
                        return
                    }
                    // Each slot is visited once, so the subtrees write disjoint slots.
                    KDTree.splitLayout(count: count, nodeSize: size, threads: threads) { node in
                        walk.visit(node.position, node.rank)
                    } subtree: { s in
                        KDTree.measurePart(profiler, zoom: zoom, items: s.hi - s.lo + 1) {
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
    private struct RankWalk: Sendable {
        let ranks: WorkerSlots<UInt32>
        let refs: WorkerSlots<UInt32>
        let items: SharedView<KDItem>

        @inline(__always)
        func visit(_ slot: Int, _ rank: UInt32) {
            // Through the pointers themselves: the views' generic accessors are not specialized
            // across modules. The item carries its entity, so only the rank is written at random.
            let item = items.buffer[slot]
            ranks.base[Int(item.ref)] = rank
            refs.base[slot] = item.extra
        }
    }
}
