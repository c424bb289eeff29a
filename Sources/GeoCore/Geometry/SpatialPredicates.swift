internal import CGEOS

/// The DE-9IM intersection matrix of two geometries (ISO 19125-1 §6.1.15): for each pair of interior,
/// boundary and exterior, the dimension of their intersection (`F` empty, `0` points, `1` lines,
/// `2` areas), as nine characters row by row (`"212101212"`).
public struct IntersectionMatrix: Hashable, Sendable, CustomStringConvertible {
    /// The nine characters, rows interior, boundary, exterior of the first geometry.
    public let matrix: String

    /// Creates a matrix from its nine characters.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` unless the text is nine of `F012`.
    public init(_ matrix: String) throws(GeoError) {
        guard matrix.count == 9, matrix.allSatisfy({ "F012".contains($0) }) else {
            throw GeoError(
                .invalidArgument,
                "\(GeoError.quoted(matrix)) is not a DE-9IM matrix (nine of F, 0, 1, 2)")
        }
        self.matrix = matrix
    }

    public var description: String { matrix }

    /// Whether the matrix matches a DE-9IM pattern of nine characters from `T F * 0 1 2`
    /// (`T` = any non-empty intersection, `*` = anything).
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a pattern that is not nine such
    ///   characters.
    public func matches(_ pattern: String) throws(GeoError) -> Bool {
        let p = Array(pattern.uppercased())
        guard p.count == 9, p.allSatisfy({ "TF*012".contains($0) }) else {
            throw GeoError(
                .invalidArgument,
                "\(GeoError.quoted(pattern)) is not a DE-9IM pattern (nine of T, F, *, 0, 1, 2)")
        }
        for (m, q) in zip(matrix, p) {
            switch q {
            case "*": continue
            case "T": if m == "F" { return false }
            default: if m != q { return false }
            }
        }
        return true
    }
}

/// Spatial predicates (OGC Simple Features), through GEOS.
///
/// All are exact for the given coordinates and follow the DE-9IM definitions. They throw only when
/// GEOS cannot evaluate them (for example a topology error on a grossly invalid input), carrying
/// GEOS's message; a geometry with NaN coordinates is rejected before GEOS sees it.
extension Geometry {
    /// Whether `other` lies in this geometry and their interiors meet (no point of `other` outside).
    /// - Throws: ``GeoError`` from GEOS. See `GEOSContains_r`.
    public func contains(_ other: Geometry) throws(GeoError) -> Bool {
        try geosPredicate(other, "GEOSContains_r", GEOSContains_r)
    }

    /// Whether no point of `other` lies outside this geometry (boundary contact allowed).
    /// - Throws: ``GeoError`` from GEOS. See `GEOSCovers_r`.
    public func covers(_ other: Geometry) throws(GeoError) -> Bool {
        try geosPredicate(other, "GEOSCovers_r", GEOSCovers_r)
    }

    /// Whether no point of this geometry lies outside `other`.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSCoveredBy_r`.
    public func isCovered(by other: Geometry) throws(GeoError) -> Bool {
        try geosPredicate(other, "GEOSCoveredBy_r", GEOSCoveredBy_r)
    }

    /// Whether the geometries share at least one point.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSIntersects_r`.
    public func intersects(_ other: Geometry) throws(GeoError) -> Bool {
        try geosPredicate(other, "GEOSIntersects_r", GEOSIntersects_r)
    }

    /// Whether this geometry lies in `other` (the converse of `contains`).
    /// - Throws: ``GeoError`` from GEOS. See `GEOSWithin_r`.
    public func isWithin(_ other: Geometry) throws(GeoError) -> Bool {
        try geosPredicate(other, "GEOSWithin_r", GEOSWithin_r)
    }

    /// Whether the geometries meet only at their boundaries.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSTouches_r`.
    public func touches(_ other: Geometry) throws(GeoError) -> Bool {
        try geosPredicate(other, "GEOSTouches_r", GEOSTouches_r)
    }

    /// Whether the geometries cross (their intersection has lower dimension than the larger of them and
    /// lies partly inside both).
    /// - Throws: ``GeoError`` from GEOS. See `GEOSCrosses_r`.
    public func crosses(_ other: Geometry) throws(GeoError) -> Bool {
        try geosPredicate(other, "GEOSCrosses_r", GEOSCrosses_r)
    }

    /// Whether the geometries have the same dimension, share some but not all points, and their
    /// intersection has that dimension too.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSOverlaps_r`.
    public func overlaps(_ other: Geometry) throws(GeoError) -> Bool {
        try geosPredicate(other, "GEOSOverlaps_r", GEOSOverlaps_r)
    }

    /// Whether the geometries share no point.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSDisjoint_r`.
    public func isDisjoint(with other: Geometry) throws(GeoError) -> Bool {
        try geosPredicate(other, "GEOSDisjoint_r", GEOSDisjoint_r)
    }

    /// Whether the geometries are the same point set, whatever their vertex order or representation
    /// (OGC `Equals`).
    /// - Throws: ``GeoError`` from GEOS. See `GEOSEquals_r`.
    public func isTopologicallyEqual(to other: Geometry) throws(GeoError) -> Bool {
        try geosPredicate(other, "GEOSEquals_r", GEOSEquals_r)
    }

    /// Whether the geometries have the same structure and positions within `tolerance` (in coordinate
    /// units), position by position. Normalize both first to ignore ring start and orientation.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSEqualsExact_r`.
    public func isExactlyEqual(to other: Geometry, tolerance: Double = 0) throws(GeoError) -> Bool {
        try withGEOS(other) { (context, a, b) throws(GeoError) -> Bool in
            try context.bool(
                GEOSEqualsExact_r(context.raw, a.raw, b.raw, tolerance), "GEOSEqualsExact_r")
        }
    }

    /// The DE-9IM intersection matrix of this geometry and another.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSRelate_r`.
    public func relate(_ other: Geometry) throws(GeoError) -> IntersectionMatrix {
        let text = try withGEOS(other) { (context, a, b) throws(GeoError) -> String in
            guard let raw = GEOSRelate_r(context.raw, a.raw, b.raw) else {
                throw context.error("GEOSRelate_r")
            }
            defer { GEOSFree_r(context.raw, raw) }
            return String(cString: raw)
        }
        return try IntersectionMatrix(text)
    }

    /// Whether the DE-9IM matrix of this geometry and another matches a pattern such as `"T*F**FFF*"`.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a malformed pattern, or from GEOS.
    ///   See `GEOSRelatePattern_r`.
    public func relate(_ other: Geometry, pattern: String) throws(GeoError) -> Bool {
        guard pattern.count == 9, pattern.uppercased().allSatisfy({ "TF*012".contains($0) }) else {
            throw GeoError(
                .invalidArgument,
                "\(GeoError.quoted(pattern)) is not a DE-9IM pattern (nine of T, F, *, 0, 1, 2)")
        }
        return try withGEOS(other) { (context, a, b) throws(GeoError) -> Bool in
            try context.bool(
                GEOSRelatePattern_r(context.raw, a.raw, b.raw, pattern), "GEOSRelatePattern_r")
        }
    }
}
