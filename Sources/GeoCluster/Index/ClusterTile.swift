import Foundation
import GeoCore

/// One feature of a ``ClusterTile``: a cluster or point and where it is in tile pixels.
public struct ClusterTileFeature<Element> {
    /// Pixels from the tile's west edge (negative or beyond the extent for features in the buffer
    /// round the tile).
    public var x: Int
    /// Pixels from the tile's north edge.
    public var y: Int
    /// The cluster or point.
    public var feature: ClusterFeature<Element>

    /// Creates a tile feature.
    public init(x: Int, y: Int, feature: ClusterFeature<Element>) {
        self.x = x
        self.y = y
        self.feature = feature
    }
}

extension ClusterTileFeature: Sendable where Element: Sendable {}
extension ClusterTileFeature: Equatable where Element: Equatable {}
extension ClusterTileFeature: Hashable where Element: Hashable {}

/// The features of one map tile, as supercluster's `getTile` gives them.
public struct ClusterTile<Element> {
    /// The features, in supercluster's order.
    public var features: [ClusterTileFeature<Element>]

    /// Creates a tile.
    public init(features: [ClusterTileFeature<Element>]) {
        self.features = features
    }
}

extension ClusterTile: Sendable where Element: Sendable {}
extension ClusterTile: Equatable where Element: Equatable {}
extension ClusterTile: Hashable where Element: Hashable {}

extension ClusterIndex {
    /// The clusters and points of the XYZ tile `z/x/y` (y from the north) in tile pixels
    /// (`options.extent` per tile), including those within the cluster radius outside the tile and,
    /// on the first and last column, those across the 180th meridian; `nil` when there are none.
    ///
    /// Pixels are `round(extent · (v · 2^z − tileOrigin))` with halves rounded up, from the cluster's
    /// centroid or the point's unrounded projection, as supercluster's `getTile`.
    ///
    /// - Complexity: O(√n + k) for k features.
    public func tile(z: Int, x: Int, y: Int) -> ClusterTile<Element>? {
        let z2 = exp2(Double(z))
        let p = options.radius / options.extent
        let tx = Double(x), ty = Double(y)
        let top = (ty - p) / z2
        let bottom = (ty + 1 + p) / z2
        var features = [ClusterTileFeature<Element>]()
        for partition in partitions {
            guard let tree = partition.hierarchy.tree(atZoom: Double(z)) else { continue }
            func add(minX: Double, maxX: Double, originX: Double) {
                tree.range(
                    minX: minX, minY: top, maxX: maxX, maxY: bottom,
                    position: partition.hierarchy.treePosition
                ) { ref in
                    features.append(
                        tileFeature(ref, in: partition, z2: z2, originX: originX, originY: ty))
                }
            }
            add(minX: (tx - p) / z2, maxX: (tx + 1 + p) / z2, originX: tx)
            if x == 0 { add(minX: 1 - p / z2, maxX: 1, originX: z2) }
            if Double(x) == z2 - 1 { add(minX: 0, maxX: p / z2, originX: -1) }
        }
        return features.isEmpty ? nil : ClusterTile(features: features)
    }

    /// The clusters and points of a tile, as ``tile(z:x:y:)`` gives them for its zoom, x and y.
    ///
    /// ```swift
    /// let features = index.tile(try TileID(containing: depot, zoom: 12))
    /// ```
    ///
    /// - Complexity: O(√n + k) for k features.
    public func tile(_ tile: TileID) -> ClusterTile<Element>? {
        self.tile(z: tile.zoom, x: tile.x, y: tile.y)
    }

    private func tileFeature(
        _ ref: UInt32, in partition: Partition, z2: Double, originX: Double, originY: Double
    ) -> ClusterTileFeature<Element> {
        let h = partition.hierarchy
        let px: Double, py: Double
        if h.isCluster(ref) {
            let c = h.clusterIndex(ref)
            (px, py) = (h.clusterX[c], h.clusterY[c])
        } else {
            let c = coordinates[partition.inputIndex(Int(ref))]
            (px, py) = (
                SuperclusterProjection.x(longitude: c.longitude),
                SuperclusterProjection.y(latitude: c.latitude)
            )
        }
        let extent = options.extent
        return ClusterTileFeature(
            x: SuperclusterProjection.jsRound(extent * (px * z2 - originX)),
            y: SuperclusterProjection.jsRound(extent * (py * z2 - originY)),
            feature: feature(ref, in: partition))
    }
}
