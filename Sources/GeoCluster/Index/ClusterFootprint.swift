import GeoCore

/// The outline drawn around a cluster's points.
public enum ClusterFootprintShape: Hashable, Sendable {
    /// The convex hull: the smallest convex polygon holding every point.
    case convexHull
    /// A concave hull (GEOS's `GEOSConcaveHull_r`): `ratio` from 0 (tightest) to 1 (the convex hull),
    /// optionally with holes.
    case concaveHull(ratio: Double, allowHoles: Bool = false)
}

extension ClusterIndex {
    /// The footprint of a cluster for drawing: the convex or concave hull of its points, through GEOS.
    ///
    /// Hulls are taken in longitude/latitude (the plane a map draws in before projection). Longitudes
    /// are unrolled around the cluster's center, so a cluster across the 180th meridian gets a narrow
    /// outline rather than one spanning the globe; such outlines have longitudes slightly beyond ±180,
    /// which map renderers draw continuously. Two distinct points give a line, coincident points a
    /// point.
    ///
    /// - Parameters:
    ///   - id: A cluster id from this index.
    ///   - shape: ``ClusterFootprintShape/convexHull`` by default.
    /// - Returns: A polygon, or a line string or point for degenerate clusters.
    /// - Throws: `GeoError.Kind.notFound` for an unknown id; `invalidArgument` for a concave-hull ratio
    ///   outside [0, 1]; or an error from GEOS.
    /// - Complexity: O(k log k) for a cluster of k points.
    public func footprint(
        of id: Int, shape: ClusterFootprintShape = .convexHull
    ) throws(GeoError) -> Geometry {
        let leaves = try leafCoordinates(of: id)
        guard let first = leaves.first else {
            throw GeoError(.notFound, "cluster \(id) has no points")
        }
        // Unroll longitudes continuously from the first point, then center them on the cluster.
        var unrolled = leaves.map { c -> Position in
            var dLon = (c.longitude - first.longitude).truncatingRemainder(dividingBy: 360)
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            return Position(x: first.longitude + dLon, y: c.latitude)
        }
        let meanX = unrolled.reduce(0) { $0 + $1.x } / Double(unrolled.count)
        let shift = meanX > 180 ? -360.0 : meanX < -180 ? 360.0 : 0
        if shift != 0 { unrolled = unrolled.map { Position(x: $0.x + shift, y: $0.y) } }
        let points = Geometry.multiPoint(unrolled)
        switch shape {
        case .convexHull:
            return try points.convexHull()
        case .concaveHull(let ratio, let allowHoles):
            return try points.concaveHull(ratio: ratio, allowHoles: allowHoles)
        }
    }
}
