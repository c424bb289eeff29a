internal import CGEOS

extension Geometry {
    /// A simplified copy: vertices closer than `tolerance` (in coordinate units) to the simplified line
    /// are removed.
    ///
    /// - Parameters:
    ///   - tolerance: The largest distance a removed vertex may lie from the result; finite and ≥ 0.
    ///   - preservingTopology: `true` (the default) keeps the result valid and the rings of a polygon
    ///     from crossing one another or collapsing (`GEOSTopologyPreserveSimplify_r`); `false` runs plain
    ///     Douglas-Peucker (`GEOSSimplify_r`), which is faster and may produce invalid polygons or
    ///     drop small ones.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a negative or non-finite tolerance,
    ///   or from GEOS.
    /// - Complexity: O(n log n) typical, O(n²) worst case.
    public func simplified(
        tolerance: Double, preservingTopology: Bool = true
    ) throws(GeoError) -> Geometry {
        guard tolerance.isFinite && tolerance >= 0 else {
            throw GeoError(
                .invalidArgument,
                "simplification tolerance \(tolerance) must be finite and non-negative")
        }
        if preservingTopology {
            return try geosUnary("GEOSTopologyPreserveSimplify_r") {
                GEOSTopologyPreserveSimplify_r($0, $1, tolerance)
            }
        }
        return try geosUnary("GEOSSimplify_r") { GEOSSimplify_r($0, $1, tolerance) }
    }

    /// Simplifies the geometry in place; see ``simplified(tolerance:preservingTopology:)``.
    /// - Throws: As ``simplified(tolerance:preservingTopology:)``; the geometry is unchanged then.
    public mutating func simplify(
        tolerance: Double, preservingTopology: Bool = true
    ) throws(GeoError) {
        self = try simplified(tolerance: tolerance, preservingTopology: preservingTopology)
    }
}
