internal import CGEOS

/// Positions along lines by distance from their start, and the reverse (linear referencing), in
/// coordinate units.
extension Geometry {
    /// The position at a distance along a line string (or along the parts of a multi-line string in
    /// order); distances beyond either end are clamped to it, negative distances count from the end.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a geometry that is not lineal or is
    ///   empty, or a non-finite distance; or from GEOS. See `GEOSInterpolate_r`.
    public func interpolate(distance: Double) throws(GeoError) -> Position {
        try checkLineal("interpolate")
        guard distance.isFinite else {
            throw GeoError(.invalidArgument, "distance \(distance) is not finite")
        }
        guard
            case .point(let p?) = try geosUnary(
                "GEOSInterpolate_r", { GEOSInterpolate_r($0, $1, distance) })
        else {
            throw GeoError(.geos, "GEOSInterpolate_r returned no point")
        }
        return p
    }

    /// The position at a fraction (0 = start, 1 = end) of a line's length.
    /// - Throws: As ``interpolate(distance:)``. See `GEOSInterpolateNormalized_r`.
    public func interpolate(fraction: Double) throws(GeoError) -> Position {
        try checkLineal("interpolate")
        guard fraction.isFinite else {
            throw GeoError(.invalidArgument, "fraction \(fraction) is not finite")
        }
        guard
            case .point(let p?) = try geosUnary(
                "GEOSInterpolateNormalized_r", { GEOSInterpolateNormalized_r($0, $1, fraction) })
        else { throw GeoError(.geos, "GEOSInterpolateNormalized_r returned no point") }
        return p
    }

    /// The distance along a line from its start to the point of the line nearest `position`.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a geometry that is not lineal or is
    ///   empty; or from GEOS. See `GEOSProject_r`.
    public func project(_ position: Position) throws(GeoError) -> Double {
        try checkLineal("project")
        return try withGEOS(.point(position)) { (context, line, point) throws(GeoError) -> Double in
            let d = GEOSProject_r(context.raw, line.raw, point.raw)
            guard d >= 0 else { throw context.error("GEOSProject_r") }
            return d
        }
    }

    /// The fraction (0...1) of a line's length from its start to the point nearest `position`.
    /// - Throws: As ``project(_:)``. See `GEOSProjectNormalized_r`.
    public func projectFraction(_ position: Position) throws(GeoError) -> Double {
        try checkLineal("project")
        return try withGEOS(.point(position)) { (context, line, point) throws(GeoError) -> Double in
            let d = GEOSProjectNormalized_r(context.raw, line.raw, point.raw)
            guard d >= 0 else { throw context.error("GEOSProjectNormalized_r") }
            return d
        }
    }

    private func checkLineal(_ operation: String) throws(GeoError) {
        switch self {
        case .lineString, .multiLineString:
            if isEmpty {
                throw GeoError(
                    .invalidArgument, "cannot \(operation) along an empty \(type.wktName)")
            }
        default:
            throw GeoError(
                .invalidArgument,
                "cannot \(operation) along a \(type.wktName); a line string is needed")
        }
    }
}
