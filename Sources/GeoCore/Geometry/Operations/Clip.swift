internal import CGEOS

extension Geometry {
    /// The part of this geometry inside an axis-aligned rectangle, **in the plane** of the
    /// coordinates: a fast clip for drawing (GEOS's rectangle clipper), not an overlay.
    ///
    /// Polygons are cut along the rectangle's edges; lines are split where they leave it. The
    /// result may be invalid where the input was (it is meant to be drawn, not computed on).
    ///
    /// - Parameters:
    ///   - minX: The rectangle's west edge, in the geometry's units.
    ///   - minY: Its south edge.
    ///   - maxX: Its east edge.
    ///   - maxY: Its north edge.
    /// - Returns: The clipped geometry; an empty collection when nothing is inside.
    /// - Throws: `GeoError.Kind.invalidArgument` for a rectangle with NaN or reversed edges; an
    ///   error from GEOS. See `GEOSClipByRect_r`.
    /// - Complexity: O(n) for n vertices.
    public func clipped(
        minX: Double, minY: Double, maxX: Double, maxY: Double
    ) throws(GeoError) -> Geometry {
        guard minX <= maxX, minY <= maxY else {
            throw GeoError(
                .invalidArgument, "clip rectangle [\(minX), \(maxX)] × [\(minY), \(maxY)] is empty")
        }
        return try geosUnary("GEOSClipByRect_r") { context, g in
            GEOSClipByRect_r(context, g, minX, minY, maxX, maxY)
        }
    }
}
