internal import CGEOS

extension Geometry {
    /// The bounding rectangle as a geometry: a polygon, or a point or line string when the geometry has
    /// no extent in one direction; empty for an empty geometry. See ``bounds`` for the numbers.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSEnvelope_r`.
    public func envelope() throws(GeoError) -> Geometry {
        try geosUnary("GEOSEnvelope_r", GEOSEnvelope_r)
    }

    /// The topological boundary: the rings of polygons, the end points of lines (mod-2 rule), empty for
    /// points. A geometry collection has no defined boundary and throws.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSBoundary_r`.
    public func boundary() throws(GeoError) -> Geometry {
        try geosUnary("GEOSBoundary_r", GEOSBoundary_r)
    }

    /// The same point set in GEOS's normal form: parts and rings in a canonical order, rings starting at
    /// their smallest vertex, shells clockwise and holes counter-clockwise. Two geometries with equal
    /// normal forms are exactly equal.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSNormalize_r`.
    public func normalized() throws(GeoError) -> Geometry {
        try withGEOS { (context, g) throws(GeoError) -> Geometry in
            guard GEOSNormalize_r(context.raw, g.raw) == 0 else {
                throw context.error("GEOSNormalize_r")
            }
            return try g.geometry()
        }
    }
}
