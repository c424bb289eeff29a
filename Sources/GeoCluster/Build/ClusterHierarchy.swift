import Foundation
import GeoCore

/// The cluster levels of one set of points: supercluster's per-zoom records, stored once per
/// point or cluster ("entity") instead of once per zoom, plus one search tree per zoom.
///
/// Entities are named by a reference: `0 ..< inputCount` are input points (by input index), and
/// `inputCount + c` is cluster `c` of the cluster table, which lists clusters in the order they were
/// formed (zoom `maxZoom` first, then by position in the level).
@usableFromInline
struct ClusterHierarchy: Sendable {
    let options: ClusterOptions
    /// supercluster's `N`: the number of input elements, including those without a coordinate.
    @usableFromInline let inputCount: Int

    /// The input coordinates (NaN for elements without one); an array shared with the index.
    var coordinates: [Coordinate] = []
    /// supercluster's float32 projection of each input point, x and y interleaved (NaN for an
    /// element without a coordinate): the coordinates the search trees compare.
    @usableFromInline var pointXY: [Float] = []
    /// The cluster (table index) each input point was absorbed into, or −1.
    var pointParent: [Int32] = []

    /// The double centroid of each cluster.
    @usableFromInline var clusterX: [Double] = []
    @usableFromInline var clusterY: [Double] = []
    /// The number of points in each cluster.
    @usableFromInline var clusterCount: [UInt32] = []
    /// supercluster's id of each cluster.
    @usableFromInline var clusterID: [Int] = []
    /// The cluster each cluster was absorbed into, or −1.
    var clusterParent: [Int32] = []
    /// The entity each cluster was formed around (its origin).
    var clusterOrigin: [UInt32] = []
    /// For zoom `z` in minZoom...maxZoom, the table indices of the clusters formed at `z`
    /// (`clusterRanges[z - minZoom]`), ids increasing.
    var clusterRanges: [Range<Int>] = []

    /// The search tree of zoom `minZoom + i`, for zooms minZoom...maxZoom+1, over entity references.
    var trees: [PackedTree] = []

    /// Where the build's time went.
    var profile = ClusterBuildProfile()

    init(options: ClusterOptions, inputCount: Int) {
        self.options = options
        self.inputCount = inputCount
    }

    // MARK: - Entities

    @inlinable
    func isCluster(_ ref: UInt32) -> Bool { Int(ref) >= inputCount }

    @inlinable
    func clusterIndex(_ ref: UInt32) -> Int { Int(ref) - inputCount }

    /// The double coordinates of an entity: a point's float32 projection, a cluster's centroid.
    @inline(__always)
    func position(_ ref: UInt32) -> (x: Double, y: Double) {
        let i = Int(ref)
        if i < inputCount { return (Double(pointXY[2 * i]), Double(pointXY[2 * i + 1])) }
        return (clusterX[i - inputCount], clusterY[i - inputCount])
    }

    /// The float32 coordinates the search trees hold for an entity.
    @inlinable @inline(__always)
    func treePosition(_ ref: UInt32) -> (x: Float, y: Float) {
        let i = Int(ref)
        if i < inputCount { return (pointXY[2 * i], pointXY[2 * i + 1]) }
        return (Float(clusterX[i - inputCount]), Float(clusterY[i - inputCount]))
    }

    /// The input index of the element an entity stands for first: a point itself, a cluster its
    /// origin's. Records of every level are in the order of these indices.
    func originElement(_ ref: UInt32) -> UInt32 {
        var ref = ref
        while isCluster(ref) { ref = clusterOrigin[clusterIndex(ref)] }
        return ref
    }

    /// The parent cluster (table index) of an entity, or −1.
    @inline(__always)
    func parent(_ ref: UInt32) -> Int32 {
        let i = Int(ref)
        return i < inputCount ? pointParent[i] : clusterParent[i - inputCount]
    }

    /// The number of points an entity stands for.
    @inline(__always)
    func count(_ ref: UInt32) -> Int {
        let i = Int(ref)
        return i < inputCount ? 1 : Int(clusterCount[i - inputCount])
    }

    /// The tree of a zoom, clamped like supercluster (`floor`, then minZoom...maxZoom+1); `nil` for
    /// NaN.
    @usableFromInline
    func tree(atZoom zoom: Double) -> PackedTree? {
        guard !zoom.isNaN else { return nil }
        let lowest = Double(options.minZoom), highest = Double(options.maxZoom + 1)
        let z = max(lowest, min(zoom.rounded(.down), highest))
        return trees[Int(z) - options.minZoom]
    }

    /// The table index of the cluster with an id, or `nil` when no cluster has it.
    func cluster(withID id: Int) -> Int? {
        let offset = id &- inputCount
        guard offset >= 0 else { return nil }
        let zoom = (offset & 31) - 1  // the zoom it was formed at
        guard zoom >= options.minZoom && zoom <= options.maxZoom else { return nil }
        let range = clusterRanges[zoom - options.minZoom]
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi {
            let mid = (lo + hi) >> 1
            if clusterID[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < range.upperBound && clusterID[lo] == id ? lo : nil
    }

    // MARK: - Queries

    /// supercluster's `getClusters`: the entities inside a west/south/east/north box at a zoom, in
    /// supercluster's order.
    @usableFromInline
    func entities(
        west: Double, south: Double, east: Double, north: Double, zoom: Double
    ) -> [UInt32] {
        var result = [UInt32]()
        forEachEntity(west: west, south: south, east: east, north: north, zoom: zoom) {
            result.append($0)
        }
        return result
    }

    /// Calls `body` with each entity inside a west/south/east/north box at a zoom, in supercluster's
    /// order (the box normalized as supercluster normalizes it).
    @inlinable
    func forEachEntity<E: Error>(
        west: Double, south: Double, east: Double, north: Double, zoom: Double,
        _ body: (UInt32) throws(E) -> Void
    ) throws(E) {
        guard let tree = tree(atZoom: zoom) else { return }
        var boxes = (
            first: ClusterHierarchy.projectedBox(
                west: west, south: south, east: east, north: north),
            second: nil as (Double, Double, Double, Double)?
        )
        if boxes.first == nil {
            // Crossing the 180th meridian: the part east of `west`, then the part west of `east`.
            let minLng = ClusterHierarchy.wrap(west),
                maxLng = east == 180 ? 180 : ClusterHierarchy.wrap(east)
            boxes = (
                ClusterHierarchy.projectedBox(west: minLng, south: south, east: 180, north: north),
                ClusterHierarchy.projectedBox(west: -180, south: south, east: maxLng, north: north)
            )
        }
        for box in [boxes.first, boxes.second] {
            guard let (minX, minY, maxX, maxY) = box else { continue }
            try tree.range(
                minX: minX, minY: minY, maxX: maxX, maxY: maxY, position: treePosition, body)
        }
    }

    /// supercluster's longitude normalization, `((lng + 180) % 360 + 360) % 360 − 180`.
    @usableFromInline
    static func wrap(_ longitude: Double) -> Double {
        fmod(fmod(longitude + 180, 360) + 360, 360) - 180
    }

    /// The projected query box of a west/south/east/north box that does not cross the 180th meridian
    /// after normalization; `nil` when it does.
    @usableFromInline
    static func projectedBox(
        west: Double, south: Double, east: Double, north: Double
    ) -> (Double, Double, Double, Double)? {
        var minLng = wrap(west)
        let minLat = max(-90, min(90, south))
        var maxLng = east == 180 ? 180 : wrap(east)
        let maxLat = max(-90, min(90, north))
        if east - west >= 360 {
            minLng = -180
            maxLng = 180
        } else if minLng > maxLng {
            return nil
        }
        return (
            SuperclusterProjection.x(longitude: minLng), SuperclusterProjection.y(latitude: maxLat),
            SuperclusterProjection.x(longitude: maxLng), SuperclusterProjection.y(latitude: minLat)
        )
    }

    /// supercluster's `getChildren`: the entities a cluster was formed from, in supercluster's order.
    ///
    /// - Throws: `GeoError.Kind.notFound` for an id no cluster has.
    func children(ofCluster id: Int) throws(GeoError) -> [UInt32] {
        guard let c = cluster(withID: id) else {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
        let originZoom = ((id - inputCount) & 31)
        let tree = trees[originZoom - options.minZoom]
        let origin = position(clusterOrigin[c])
        let r = options.projectedRadius(atZoom: originZoom - 1)
        var result = [UInt32]()
        let target = Int32(c)
        tree.within(x: origin.x, y: origin.y, radius: r, position: treePosition) { ref in
            if parent(ref) == target { result.append(ref) }
        }
        return result
    }

    /// supercluster's `getLeaves`: input indices of a cluster's points in depth-first child order,
    /// skipping `offset` of them and returning at most `limit`.
    func leaves(ofCluster id: Int, limit: Int, offset: Int) throws(GeoError) -> [Int] {
        var result = [Int]()
        var skipped = 0
        try appendLeaves(
            ofCluster: id, limit: limit, offset: offset, skipped: &skipped, into: &result)
        return result
    }

    private func appendLeaves(
        ofCluster id: Int, limit: Int, offset: Int, skipped: inout Int, into result: inout [Int]
    ) throws(GeoError) {
        for child in try children(ofCluster: id) {
            if isCluster(child) {
                let c = clusterIndex(child)
                let count = Int(clusterCount[c])
                if skipped + count <= offset {
                    skipped += count
                } else {
                    try appendLeaves(
                        ofCluster: clusterID[c], limit: limit, offset: offset, skipped: &skipped,
                        into: &result)
                }
            } else if skipped < offset {
                skipped += 1
            } else {
                result.append(Int(child))
            }
            if result.count == limit { break }
        }
    }

    /// supercluster's `getClusterExpansionZoom`: the first zoom at which the cluster shows more than
    /// one child, at most `maxZoom + 1`.
    func expansionZoom(ofCluster id: Int) throws(GeoError) -> Int {
        var id = id
        var zoom = ((id &- inputCount) & 31) - 1
        guard cluster(withID: id) != nil else {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
        while zoom <= options.maxZoom {
            let children = try children(ofCluster: id)
            zoom += 1
            guard children.count == 1, isCluster(children[0]) else { break }
            id = clusterID[clusterIndex(children[0])]
        }
        return zoom
    }

    /// Every input index under an entity, in no particular order.
    func allLeaves(of ref: UInt32) -> [Int] {
        guard isCluster(ref) else { return [Int(ref)] }
        var result = [Int]()
        var stack = [clusterIndex(ref)]
        while let c = stack.popLast() {
            guard let children = try? children(ofCluster: clusterID[c]) else { continue }
            for child in children {
                if isCluster(child) {
                    stack.append(clusterIndex(child))
                } else {
                    result.append(Int(child))
                }
            }
        }
        return result
    }
}
