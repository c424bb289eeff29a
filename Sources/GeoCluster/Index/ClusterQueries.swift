import Foundation
import GeoCore

extension ClusterIndex {
    // MARK: - Clusters in an area

    /// The clusters and points inside a box at a zoom, in supercluster's `getClusters` order.
    ///
    /// The edges are taken as supercluster takes them: longitudes are wrapped into [-180, 180]
    /// (`east == 180` stays 180), latitudes clamped to [-90, 90]; a box at least 360° wide covers
    /// every longitude, and one whose wrapped west edge lies east of its east edge crosses the 180th
    /// meridian and returns the part east of `west`, then the part west of `east`. The zoom is
    /// floored and clamped to `minZoom...maxZoom + 1`; at `maxZoom + 1` every point is on its own.
    /// A NaN zoom gives no result.
    ///
    /// - Complexity: O(√n + k) for k results.
    @inlinable
    public func clusters(
        west: Double, south: Double, east: Double, north: Double, zoom: Double
    )
        -> [ClusterFeature<Element>]
    {
        var result = [ClusterFeature<Element>]()
        for partition in partitions {
            let refs = partition.hierarchy.entities(
                west: west, south: south, east: east, north: north, zoom: zoom)
            result.reserveHugeCapacity(result.count + refs.count)
            refs.withUnsafeBufferPointer { refs in
                var start = 0
                while start < refs.count {
                    let end = min(refs.count, start + Self.gatherBlock)
                    forEachFeature(
                        ofBlock: UnsafeBufferPointer(rebasing: refs[start..<end]), in: partition
                    ) { result.append($0) }
                    start = end
                }
            }
        }
        return result
    }

    /// The clusters and points inside a bounding box at a zoom; see
    /// ``clusters(west:south:east:north:zoom:)``. A box with `west > east` crosses the 180th meridian.
    public func clusters(in box: BoundingBox, zoom: Double) -> [ClusterFeature<Element>] {
        clusters(west: box.west, south: box.south, east: box.east, north: box.north, zoom: zoom)
    }

    /// The clusters and points inside a coordinate region at a zoom (its `CoordinateRegion.boundingBox`;
    /// regions across the 180th meridian work).
    public func clusters(in region: CoordinateRegion, zoom: Double) -> [ClusterFeature<Element>] {
        clusters(in: region.boundingBox, zoom: zoom)
    }

    /// The clusters and points inside a map rectangle at a zoom. A rectangle reaching past the
    /// world's east or west edge wraps round; one at least a world wide covers every longitude.
    public func clusters(in rect: MapRect, zoom: Double) -> [ClusterFeature<Element>] {
        guard !rect.isNull else { return [] }
        let world = MapSize.world.width
        let west = rect.minX / world * 360 - 180
        let east = rect.maxX / world * 360 - 180
        let north = MapPoint(x: 0, y: rect.minY).coordinate.latitude
        let south = MapPoint(x: 0, y: rect.maxY).coordinate.latitude
        return clusters(west: west, south: south, east: east, north: north, zoom: zoom)
    }

    /// The zoom level a map view of a size shows a region at, and the clusters and points inside the
    /// region at that zoom.
    ///
    /// The zoom is the largest whole level at which the region fits the view: the world is
    /// `tileSize · 2^zoom` pixels wide, so the zoom is ⌊log₂(viewWidth / (tileSize · w))⌋ for the
    /// region's map-rectangle width w as a fraction of the world (and likewise for the height), clamped
    /// to `0...maxZoom + 1`.
    ///
    /// - Parameters:
    ///   - region: What the map shows.
    ///   - viewSize: The view's width and height in points (pixels of the map's tiles).
    ///   - tileSize: The map's tile size in points: 256 for MapKit and raster maps (default), 512
    ///     for vector-tile maps.
    public func clusters(
        in region: CoordinateRegion, viewSize: MapSize, tileSize: Double = 256
    )
        -> (zoom: Int, features: [ClusterFeature<Element>])
    {
        let zoom = ClusterIndex.zoom(
            for: region, viewSize: viewSize, tileSize: tileSize, maxZoom: options.maxZoom + 1)
        return (zoom, clusters(in: region, zoom: Double(zoom)))
    }

    /// The zoom at which a region fills a view; see ``clusters(in:viewSize:tileSize:)``.
    static func zoom(
        for region: CoordinateRegion, viewSize: MapSize, tileSize: Double, maxZoom: Int
    ) -> Int {
        let rect = MapRect(region)
        let world = MapSize.world.width
        var best = Double(maxZoom)
        for (view, extent) in [(viewSize.width, rect.width), (viewSize.height, rect.height)]
        where extent > 0 {
            best = min(best, log2(view / (tileSize * extent / world)))
        }
        guard best.isFinite else { return best > 0 ? maxZoom : 0 }
        return Int(max(0, min(Double(maxZoom), best.rounded(.down))))
    }

    // MARK: - One cluster

    /// The clusters and points a cluster was formed from at the next zoom, in supercluster's
    /// `getChildren` order.
    ///
    /// - Throws: `GeoError.Kind.notFound` for an id that no cluster of this index has.
    /// - Complexity: O(√n + k).
    public func children(of id: Int) throws(GeoError) -> [ClusterFeature<Element>] {
        guard let (partition, local) = locate(id) else {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
        do {
            return try partition.hierarchy.children(ofCluster: local).map {
                feature($0, in: partition)
            }
        } catch {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
    }

    /// The points of a cluster, depth first in child order, as supercluster's `getLeaves`.
    ///
    /// - Parameters:
    ///   - id: The cluster id.
    ///   - limit: The most points to return (default 10; `nil` or 0 also mean 10 as in supercluster;
    ///     `Int.max` returns all).
    ///   - offset: How many points to skip first (default 0; negative counts as 0).
    /// - Throws: `GeoError.Kind.notFound` for an unknown id.
    public func leaves(
        of id: Int, limit: Int? = 10, offset: Int = 0
    ) throws(GeoError) -> [ClusterPoint<Element>] {
        guard let (partition, local) = locate(id) else {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
        let limit = (limit ?? 0) == 0 ? 10 : (limit ?? 10)
        do {
            return try partition.hierarchy.leaves(
                ofCluster: local, limit: limit, offset: max(0, offset)
            )
            .map { point(partition.inputIndex($0)) }
        } catch {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
    }

    /// The zoom at which a cluster splits into more than one feature, as supercluster's
    /// `getClusterExpansionZoom` (at most `maxZoom + 1`). Zoom the map there when the cluster is tapped.
    ///
    /// - Throws: `GeoError.Kind.notFound` for an unknown id.
    public func expansionZoom(of id: Int) throws(GeoError) -> Int {
        guard let (partition, local) = locate(id) else {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
        do {
            return try partition.hierarchy.expansionZoom(ofCluster: local)
        } catch {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
    }

    /// The coordinates of every point of a cluster, in no particular order: the input to a convex or
    /// concave hull of the cluster's footprint.
    ///
    /// - Throws: `GeoError.Kind.notFound` for an unknown id.
    /// - Complexity: O(k log n) for k points.
    public func leafCoordinates(of id: Int) throws(GeoError) -> [Coordinate] {
        guard let (partition, local) = locate(id),
            let c = partition.hierarchy.cluster(withID: local)
        else {
            throw GeoError(.notFound, "no cluster with id \(id)")
        }
        let h = partition.hierarchy
        return h.allLeaves(of: UInt32(h.inputCount + c)).map {
            coordinates[partition.inputIndex($0)]
        }
    }
}
