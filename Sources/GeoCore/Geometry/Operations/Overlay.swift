internal import CGEOS

/// Boolean operations on point sets (overlay), through GEOS's robust OverlayNG.
///
/// Results are in the plane of the coordinates. Empty results are empty geometries of the natural type
/// (`POLYGON EMPTY` for two disjoint polygons), never an error.
///
/// Inputs whose edges cross or overlap one another more than 16 times per edge (plus 100,000),
/// such as piles of overlapping parts, are refused with
/// ``GeoError/Kind-swift.struct/limitExceeded`` before GEOS nodes them: their result, and GEOS's
/// time and memory, grow with the square of the input. ``unaryUnion()`` merges parts a few at a
/// time, so only each part's own edges count there.
extension Geometry {
    /// The points in this geometry or `other`.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSUnion_r`.
    public func union(_ other: Geometry) throws(GeoError) -> Geometry {
        try CrossingCensus.check([self, other], operation: "union")
        return try geosBinary(other, "GEOSUnion_r", GEOSUnion_r)
    }

    /// The points in both this geometry and `other`.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSIntersection_r`.
    public func intersection(_ other: Geometry) throws(GeoError) -> Geometry {
        try CrossingCensus.check([self, other], operation: "intersection")
        return try geosBinary(other, "GEOSIntersection_r", GEOSIntersection_r)
    }

    /// The points in this geometry and not in `other` (the difference `self − other`).
    /// - Throws: ``GeoError`` from GEOS. See `GEOSDifference_r`.
    public func subtracting(_ other: Geometry) throws(GeoError) -> Geometry {
        try CrossingCensus.check([self, other], operation: "difference")
        return try geosBinary(other, "GEOSDifference_r", GEOSDifference_r)
    }

    /// The points in exactly one of this geometry and `other`.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSSymDifference_r`.
    public func symmetricDifference(_ other: Geometry) throws(GeoError) -> Geometry {
        try CrossingCensus.check([self, other], operation: "symmetric difference")
        return try geosBinary(other, "GEOSSymDifference_r", GEOSSymDifference_r)
    }

    /// The union of all parts of this geometry: overlapping polygons merged, lines noded, duplicate
    /// points removed.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSUnaryUnion_r`.
    public func unaryUnion() throws(GeoError) -> Geometry {
        // Parts are merged a few at a time (a cascaded union), so parts may overlap freely; each
        // part is noded on its own, so its own edges must not pile up.
        for part in parts { try CrossingCensus.check([part], operation: "union") }
        return try geosUnary("GEOSUnaryUnion_r", GEOSUnaryUnion_r)
    }
}
