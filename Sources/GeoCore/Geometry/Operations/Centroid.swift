internal import CGEOS

extension Geometry {
    /// The center of mass of the geometry's highest-dimension parts (areas weighted by area, lines by
    /// length, points equally), in the plane; `nil` for an empty geometry. May lie outside a concave
    /// polygon; see ``pointOnSurface()``.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSGetCentroid_r`.
    public func centroid() throws(GeoError) -> Position? {
        if case .point(let p?) = try geosUnary("GEOSGetCentroid_r", GEOSGetCentroid_r) { return p }
        return nil
    }

    /// A point guaranteed to lie in the geometry's interior (on a line for lines, one of the points for
    /// points); `nil` for an empty geometry. Useful for placing labels.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSPointOnSurface_r`.
    public func pointOnSurface() throws(GeoError) -> Position? {
        if case .point(let p?) = try geosUnary("GEOSPointOnSurface_r", GEOSPointOnSurface_r) {
            return p
        }
        return nil
    }
}
