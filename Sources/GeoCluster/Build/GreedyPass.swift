import GeoCore

/// The outcome of one greedy pass over a level, in buffers reused from pass to pass.
struct GreedyPass {
    /// The buffer the next level is written to when it cannot be written over the old one (see
    /// ``ClusterHierarchy/greedyPass(_:level:into:)``), kept for the next pass.
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
    /// The clusters formed, in order, before they go into the cluster table (room for half the
    /// level is kept from pass to pass, so that the list never grows by copying).
    var formed: [FormedCluster] = []
    /// The members of the cluster being formed: visit rank and level position.
    var members: [(rank: UInt32, position: UInt32)] = []
}

/// What the greedy pass reads besides the level: its neighbor lists and dense cells, its tree's
/// visit ranks and the zoom's distance test.
struct GreedyInput {
    let neighbors: NeighborTable
    let dense: DenseCells
    let cells: CellIndex
    let ranks: [UInt32]
    let test: PairTest
    let zoom: Int
}

/// A cluster the pass formed, before it goes into the cluster table; its count is in its record
/// of the next level. 24 bytes.
struct FormedCluster {
    var x: Double
    var y: Double
    /// The entity of the record it was formed around.
    var origin: UInt32
    /// That record's position in the level, which the cluster's id encodes.
    var position: UInt32
}

extension ClusterHierarchy {
    /// supercluster's greedy pass over a level (§5 of the specification): visit the records in level
    /// order; an unprocessed record absorbs its unprocessed later neighbors within the radius into a
    /// new cluster (their centroid summed in the order the level's tree visits them), or, with too
    /// few points for `minPoints`, claims them.
    ///
    /// The later neighbors come from the sweep's lists, and from a search of the dense cells around
    /// the records that have one nearby. Replaces `level` with the next level, writes where each
    /// record went and the positions of the new clusters into `pass`, and appends the new clusters
    /// to the table.
    ///
    /// With `minPoints` at most 2 (supercluster's default) the next level is written over the old
    /// one: a visit then writes at most one record, at the count written so far, which never passes
    /// the record visited (every record before it was visited and wrote at most one), and the
    /// records a visit still reads (the record itself and unprocessed later ones) are at or after
    /// it. With a larger `minPoints` a visit may write claimed neighbors ahead of records not yet
    /// visited, so the next level goes to a buffer of its own.
    ///
    /// - Complexity: O(n + m log m) for m listed neighbors, plus O(n) for the dense-cell searches.
    mutating func greedyPass(
        _ input: GreedyInput, level: inout [LevelRecord], into pass: inout GreedyPass
    ) {
        let n = level.count
        let inPlace = options.minPoints <= 2
        var processed = pass.processed
        var newPosition = pass.newPosition
        var next = inPlace ? [] : pass.next
        // A cluster takes at least two records.
        var formed = pass.formed
        pass.formed = []
        formed.removeAll(keepingCapacity: true)
        formed.reserveCapacity(n / 2 + 1)
        var walk = GreedyWalk(
            input: input, minPoints: options.minPoints, inputCount: inputCount,
            firstCluster: clusterID.count, clusters: pass.clusters, formed: formed,
            members: pass.members)
        pass = GreedyPass()  // the buffers are now uniquely referenced
        processed.removeAll(keepingCapacity: true)
        processed.resize(to: n, filling: false)
        newPosition.removeAll(keepingCapacity: true)
        newPosition.resize(to: n, filling: .max)
        if !inPlace {
            next.removeAll(keepingCapacity: true)
            next.resize(to: n, filling: LevelRecord(fx: 0, fy: 0, ref: 0, count: 0))
        }
        // The parent tables leave `self` for the walk, which sets the parents of the records it
        // claims in place (a list of them would grow to the level's size every pass).
        var (pointParents, clusterParents) = (pointParent, clusterParent)
        (pointParent, clusterParent) = ([], [])
        withCenters { centers in
            level.withUnsafeMutableBufferPointer { level in
                next.withUnsafeMutableBufferPointer { next in
                    input.ranks.withUnsafeBufferPointer { ranks in
                        processed.withUnsafeMutableBufferPointer { processed in
                            newPosition.withUnsafeMutableBufferPointer { newPosition in
                                pointParents.withUnsafeMutableBufferPointer { pointParents in
                                    clusterParents.withUnsafeMutableBufferPointer {
                                        clusterParents in
                                        walk.run(
                                            GreedyWalk.Buffers(
                                                level: UnsafeBufferPointer(level),
                                                next: inPlace ? level : next, ranks: ranks,
                                                processed: processed, newPosition: newPosition,
                                                centers: centers, pointParents: pointParents,
                                                clusterParents: clusterParents))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        (pointParent, clusterParent) = (pointParents, clusterParents)
        if inPlace {
            level.removeLast(n - walk.written)
        } else {
            next.removeLast(n - walk.written)
            swap(&level, &next)
        }
        for (cluster, p) in zip(walk.formed, walk.clusters) {
            clusterX.append(cluster.x)
            clusterY.append(cluster.y)
            clusterCount.append(level[Int(p)].count)
            clusterID.append((Int(cluster.position) << 5) + (input.zoom + 1) + inputCount)
            clusterParent.append(-1)
            clusterOrigin.append(cluster.origin)
        }
        pass = GreedyPass(
            next: next, changed: walk.changed, newPosition: newPosition,
            clusters: walk.clusters, processed: processed, formed: walk.formed,
            members: walk.members)
    }

    /// Sets the parent cluster (table index) of an entity.
    mutating func setParent(_ ref: UInt32, _ c: Int32) {
        let i = Int(ref)
        if i < inputCount { pointParent[i] = c } else { clusterParent[i - inputCount] = c }
    }
}

/// The state of one greedy pass while it walks a level.
private struct GreedyWalk {
    /// The buffers the walk reads and writes in place.
    struct Buffers {
        let level: UnsafeBufferPointer<LevelRecord>
        /// Where the next level is written: over `level` itself, or a buffer of the level's size.
        let next: UnsafeMutableBufferPointer<LevelRecord>
        let ranks: UnsafeBufferPointer<UInt32>
        let processed: UnsafeMutableBufferPointer<Bool>
        let newPosition: UnsafeMutableBufferPointer<UInt32>
        let centers: RecordCenters
        /// The parent cluster (table index) of each input point and of each earlier cluster.
        let pointParents: UnsafeMutableBufferPointer<Int32>
        let clusterParents: UnsafeMutableBufferPointer<Int32>

        /// Sets the parent cluster of an entity of an earlier level.
        @inline(__always)
        func setParent(_ ref: UInt32, _ c: Int32) {
            let i = Int(ref)
            if i < pointParents.count {
                pointParents[i] = c
            } else {
                clusterParents[i - pointParents.count] = c
            }
        }

        /// A record as a cell entry: the query center of a search around it.
        func origin(_ p: Int) -> CellEntry {
            CellEntry(level[p], position: UInt32(p), centers: centers)
        }
    }

    let input: GreedyInput
    let minPoints: Int
    let inputCount: Int
    let firstCluster: Int
    /// The records of the next level written so far.
    var written = 0
    var clusters: [UInt32]
    var members: [(rank: UInt32, position: UInt32)]
    var formed: [FormedCluster]
    var changed = false
    /// A sum of what ``warm(_:_:)`` read, kept so that its loads are not optimized away.
    var touched: UInt32 = 0

    init(
        input: GreedyInput, minPoints: Int, inputCount: Int, firstCluster: Int,
        clusters: [UInt32], formed: [FormedCluster],
        members: [(rank: UInt32, position: UInt32)]
    ) {
        self.input = input
        self.minPoints = minPoints
        self.inputCount = inputCount
        self.firstCluster = firstCluster
        self.clusters = clusters
        self.members = members
        self.clusters.removeAll(keepingCapacity: true)
        self.formed = formed
    }

    mutating func run(_ b: Buffers) {
        let n = b.level.count
        let offsets = input.neighbors.offsets, dense = input.dense.records
        var nextDense = 0
        // Records without later neighbors that nothing absorbed are copied in runs.
        var run = 0
        var warmed = 0
        for p in 0..<n {
            if p == warmed {
                warmed = min(n, p + GreedyWalk.warmBlock)
                warm(p..<warmed, b)
            }
            let listed = Int(offsets[p])..<Int(offsets[p + 1])
            while nextDense < dense.count && Int(dense[nextDense] >> 32) < p { nextDense += 1 }
            let nearDense = nextDense < dense.count && Int(dense[nextDense] >> 32) == p
            if listed.isEmpty && !nearDense && !b.processed[p] { continue }
            if run < p { copy(run..<p, b) }
            run = p + 1
            if b.processed[p] { continue }
            b.processed[p] = true
            members.removeAll(keepingCapacity: true)
            collectListed(after: p, listed, b)
            if nearDense {
                let neighborhood = Int(truncatingIfNeeded: dense[nextDense] & 0xFFFF_FFFF)
                searchDenseCells(after: p, neighborhood: neighborhood, b)
            }
            visit(p, b)
        }
        if run < n { copy(run..<n, b) }
        keepAlive(touched)
    }

    /// Records whose neighbors are read ahead at once (see ``warm(_:_:)``).
    static let warmBlock = 32

    /// Reads what the visits of a block of records will read at random (each listed neighbor's
    /// record, processed flag and parent slot) in one loop of independent loads, so that their
    /// cache misses overlap instead of each visit waiting for its own. Values are only summed
    /// into ``touched``.
    private mutating func warm(_ block: Range<Int>, _ b: Buffers) {
        let offsets = input.neighbors.offsets, targets = input.neighbors.targets
        var sum: UInt32 = 0
        offsets.withUnsafeBufferPointer { offsets in
            targets.withUnsafeBufferPointer { targets in
                let from = Int(offsets[block.lowerBound]), to = Int(offsets[block.upperBound])
                for k in from..<to {
                    let q = Int(targets[k])
                    let record = b.level[q]
                    let ref = Int(record.ref)
                    let parent =
                        ref < b.pointParents.count
                        ? b.pointParents[ref] : b.clusterParents[ref - b.pointParents.count]
                    sum &+= record.count &+ UInt32(truncatingIfNeeded: parent)
                    sum &+= b.processed[q] ? 1 : 0
                }
            }
        }
        touched &+= sum
    }

    /// Copies records that stay as they are (a move within the buffer when the next level is
    /// written over the old one: the destination is never after the source).
    private mutating func copy(_ range: Range<Int>, _ b: Buffers) {
        for i in range { b.newPosition[i] = UInt32(written + i - range.lowerBound) }
        if let to = b.next.baseAddress, let from = b.level.baseAddress,
            to + written != from + range.lowerBound
        {
            UnsafeMutableRawPointer(to + written).copyMemory(
                from: from + range.lowerBound,
                byteCount: range.count * MemoryLayout<LevelRecord>.stride)
        }
        written += range.count
    }

    /// Writes the next record of the next level.
    @inline(__always)
    private mutating func write(_ record: LevelRecord, _ b: Buffers) {
        b.next[written] = record
        written += 1
    }

    /// Adds the listed later neighbors of `p` that are unprocessed. Every earlier record has been
    /// visited, including the copied runs, which are not marked.
    private mutating func collectListed(after p: Int, _ listed: Range<Int>, _ b: Buffers) {
        let targets = input.neighbors.targets, targetRanks = input.neighbors.targetRanks
        for k in listed {
            let q = targets[k]
            if Int(q) > p && !b.processed[Int(q)] { members.append((targetRanks[k], q)) }
        }
    }

    /// Adds the unprocessed records after `p` within the radius of it in the cells of its
    /// neighborhood (see ``DenseCells``).
    private mutating func searchDenseCells(after p: Int, neighborhood: Int, _ b: Buffers) {
        let entries = input.cells.entries, test = input.test
        let origin = b.origin(p)
        for cell in input.dense.neighborhood(neighborhood) {
            for i in Int(cell.lowerBound)..<Int(cell.upperBound) {
                let q = entries[i]
                let position = Int(q.position)
                guard position > p, !b.processed[position],
                    test.contains(q, around: origin, level: b.level, centers: b.centers)
                else { continue }
                members.append((b.ranks[position], q.position))
            }
        }
    }

    /// supercluster's step for an unprocessed record with its unprocessed later neighbors in
    /// ``members``: form a cluster, claim the neighbors, or copy the record.
    private mutating func visit(_ p: Int, _ b: Buffers) {
        let origin = b.level[p]
        guard !members.isEmpty else {
            b.newPosition[p] = UInt32(written)
            write(origin, b)
            return
        }
        if members.count > 1 { sortMembersByRank() }
        changed = true
        let n0 = Int(origin.count)
        var total = n0
        for m in members { total += Int(b.level[Int(m.position)].count) }
        guard total >= minPoints else {
            // Too few points: the neighbors are claimed and follow the record, in visit order.
            b.newPosition[p] = UInt32(written)
            write(origin, b)
            for m in members {
                let q = Int(m.position)
                b.processed[q] = true
                b.newPosition[q] = UInt32(written)
                write(b.level[q], b)
            }
            return
        }
        let c = Int32(firstCluster + formed.count)
        let (ox, oy) = b.centers.of(origin)
        var wx = ox * Double(n0), wy = oy * Double(n0)
        for m in members {
            let member = b.level[Int(m.position)]
            b.processed[Int(m.position)] = true
            let k = Double(member.count)
            let (mx, my) = b.centers.of(member)
            wx += mx * k
            wy += my * k
            b.setParent(member.ref, c)
        }
        b.setParent(origin.ref, c)
        let cx = wx / Double(total), cy = wy / Double(total)
        formed.append(FormedCluster(x: cx, y: cy, origin: origin.ref, position: UInt32(p)))
        clusters.append(UInt32(written))
        write(
            LevelRecord(
                fx: Float(cx), fy: Float(cy), ref: UInt32(inputCount + Int(c)),
                count: UInt32(total)), b)
    }

    /// Sorts the members by visit rank: a comparison sort for the few members of a usual cluster, a
    /// radix sort for the many of a dense one.
    private mutating func sortMembersByRank() {
        guard members.count > 256 else {
            members.sort { $0.rank < $1.rank }
            return
        }
        var keys = members.map { UInt64($0.rank) << 32 | UInt64($0.position) }
        RadixSort.sort(&keys, bits: 32..<64)
        for i in keys.indices {
            members[i] = (
                UInt32(truncatingIfNeeded: keys[i] >> 32), UInt32(truncatingIfNeeded: keys[i])
            )
        }
    }
}

/// Takes a value the optimizer must then compute: reads made only to bring memory into the cache
/// end here.
@_optimize(none)
func keepAlive(_ value: UInt32) {}
