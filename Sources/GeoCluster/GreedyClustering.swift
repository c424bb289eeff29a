import Foundation
import GeoCore

extension ClusterHierarchy {
    /// Builds every level as supercluster's `load` does: project the points to float32, then, from
    /// `maxZoom` down to `minZoom`, visit the previous level's records in order and merge each
    /// unvisited record with its unvisited neighbours within the zoom's radius (supercluster §5).
    ///
    /// - Parameters:
    ///   - coordinates: The coordinate of each input element, `nil` for one without (it keeps its
    ///     index and counts in `N`, as a feature without geometry does in supercluster).
    ///   - clusters: `false` keeps every point on its own at every zoom (elements whose clustering
    ///     identifier is `nil`).
    /// - Complexity: O(n log n) per zoom.
    init(options: ClusterOptions, coordinates: [Coordinate?], clusters: Bool = true, build: ClusterBuildOptions) {
        self.init(options: options, inputCount: coordinates.count)
        let n = coordinates.count
        pointX = [Float](repeating: .nan, count: n)
        pointY = [Float](repeating: .nan, count: n)
        pointParent = [Int32](repeating: -1, count: n)
        var level = [UInt32]()
        level.reserveCapacity(n)
        for (i, coordinate) in coordinates.enumerated() {
            guard let c = coordinate, c.latitude.isFinite, c.longitude.isFinite else { continue }
            pointX[i] = Float(SuperclusterProjection.x(longitude: c.longitude))
            pointY[i] = Float(SuperclusterProjection.y(latitude: c.latitude))
            level.append(UInt32(i))
        }
        let zoomCount = options.maxZoom + 2 - options.minZoom
        clusterRanges = [Range<Int>](repeating: 0..<0, count: zoomCount - 1)
        var tree = makeTree(level)
        trees = [KDTree](repeating: tree, count: zoomCount)
        guard clusters else { return }
        // supercluster's per-record "last zoom processed" slot, kept per entity: at most n - 1
        // clusters can form.
        var marks = [Int8](repeating: .max, count: n + max(0, level.count - 1))
        let trace = ProcessInfo.processInfo.environment["MERIDIAN_CLUSTER_TRACE"] != nil
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let start = clusterID.count
            let t0 = DispatchTime.now().uptimeNanoseconds
            let next = clusterLevel(level, tree: tree, zoom: zoom, marks: &marks)
            let t1 = DispatchTime.now().uptimeNanoseconds
            clusterRanges[zoom - options.minZoom] = start..<clusterID.count
            if next != level {
                tree = makeTree(next)
            }
            let t2 = DispatchTime.now().uptimeNanoseconds
            if trace { print("zoom \(zoom) n \(next.count) cluster \(Double(t1 - t0) / 1e6) ms tree \(Double(t2 - t1) / 1e6) ms") }
            trees[zoom - options.minZoom] = tree
            level = next
        }
    }

    /// A tree over a level's entities.
    func makeTree(_ level: [UInt32]) -> KDTree {
        var items = [KDItem]()
        items.reserveCapacity(level.count)
        for ref in level {
            let i = Int(ref)
            if i < inputCount {
                items.append(KDItem(x: pointX[i], y: pointY[i], ref: ref))
            } else {
                items.append(KDItem(x: Float(clusterX[i - inputCount]), y: Float(clusterY[i - inputCount]), ref: ref))
            }
        }
        let t0 = DispatchTime.now().uptimeNanoseconds
        let tree = KDTree(items: items, nodeSize: options.nodeSize)
        if ProcessInfo.processInfo.environment["MERIDIAN_CLUSTER_TRACE"] != nil {
            print("  sort \(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6) ms")
        }
        return tree
    }

    /// One step of supercluster's `_cluster`: the records of zoom `zoom` from those of `zoom + 1`.
    mutating func clusterLevel(_ level: [UInt32], tree: KDTree, zoom: Int, marks: inout [Int8]) -> [UInt32] {
        let r = options.projectedRadius(atZoom: zoom)
        let stamp = Int8(zoom)
        var next = [UInt32]()
        next.reserveCapacity(level.count)
        var neighbours = [UInt32]()
        for (index, p) in level.enumerated() {
            if marks[Int(p)] <= stamp { continue }
            marks[Int(p)] = stamp
            let (px, py) = position(p)
            neighbours.removeAll(keepingCapacity: true)
            tree.within(x: px, y: py, radius: r) { item in
                if marks[Int(item.ref)] > stamp { neighbours.append(item.ref) }
            }
            let n0 = count(p)
            var total = n0
            for q in neighbours { total += count(q) }
            if total > n0 && total >= options.minPoints {
                let id = (index << 5) + (zoom + 1) + inputCount
                let c = Int32(clusterID.count)
                var wx = px * Double(n0), wy = py * Double(n0)
                for q in neighbours {
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
                    for q in neighbours {
                        marks[Int(q)] = stamp
                        next.append(q)
                    }
                }
            }
        }
        return next
    }

    private mutating func setParent(_ ref: UInt32, _ c: Int32) {
        let i = Int(ref)
        if i < inputCount { pointParent[i] = c } else { clusterParent[i - inputCount] = c }
    }
}
