internal import CGEOS

extension Geometry {
    /// The smallest convex polygon containing every position: a polygon, or a line string or point
    /// when the positions are collinear or all equal, or an empty geometry for empty input.
    ///
    /// ```swift
    /// let footprint = try Geometry.multiPoint(coordinates: members).convexHull()
    /// ```
    /// Only the positions matter, so rings that are not closed or have too few positions (which
    /// ``validity()`` reports) are read leniently.
    ///
    /// - Throws: ``GeoError`` from GEOS (or for non-finite coordinates).
    /// - Complexity: O(n log n). See `GEOSConvexHull_r`.
    public func convexHull() throws(GeoError) -> Geometry {
        try structurallyRepaired.geosUnary("GEOSConvexHull_r", GEOSConvexHull_r)
    }
}
