import GeoCore

extension ClusterHierarchy {
    /// supercluster's own method (§5 of the specification): one search-tree query per record. The
    /// reference the grid build is tested against, and the build for points whose projected x lies
    /// outside ``gridRange``.
    ///
    /// - Complexity: O(n log n) per zoom, plus the size of each query's result.
    mutating func buildWithTreeQueries(_ points: [UInt32], profiler: BuildProfiler) {
        var level = points
        var tree = makeTree(level)
        trees = [PackedTree](
            repeating: PackedTree(tree), count: options.maxZoom + 2 - options.minZoom)
        // supercluster's per-record "last zoom processed" slot, kept per entity: at most n - 1
        // clusters can form.
        var marks = [Int8](repeating: .max, count: inputCount + max(0, level.count - 1))
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let start = clusterID.count
            let next = profiler.measure(.treeQueries, zoom: zoom, items: level.count) {
                clusterLevel(level, tree: tree, zoom: zoom, marks: &marks)
            }
            clusterRanges[zoom - options.minZoom] = start..<clusterID.count
            if next != level {
                tree = profiler.measure(.treeLayout, zoom: zoom, items: next.count) {
                    makeTree(next)
                }
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
    private mutating func clusterLevel(
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
            if options.memberOrder == .insertion {
                neighbors.sort { originElement($0) < originElement($1) }
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
}
