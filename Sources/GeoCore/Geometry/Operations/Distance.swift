internal import CGEOS

/// Planar distances between geometries, in coordinate units (for meters on longitude/latitude data
/// see ``Geometry/distance(meters:)``).
extension Geometry {
    /// The smallest distance between any point of this geometry and any point of `other`; 0 if they
    /// intersect, infinity if either is empty.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSDistance_r`.
    public func distance(to other: Geometry) throws(GeoError) -> Double {
        if isEmpty || other.isEmpty { return .infinity }
        return try withGEOS(other) { (context, a, b) throws(GeoError) -> Double in
            var value = 0.0
            guard GEOSDistance_r(context.raw, a.raw, b.raw, &value) != 0 else {
                throw context.error("GEOSDistance_r")
            }
            return value
        }
    }

    /// Whether the distance to `other` is at most `distance`; faster than computing it. False if
    /// either geometry is empty.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a negative or NaN distance, or from
    ///   GEOS. See `GEOSDistanceWithin_r`.
    public func isWithinDistance(_ distance: Double, of other: Geometry) throws(GeoError) -> Bool {
        guard distance >= 0 else {
            throw GeoError(.invalidArgument, "distance \(distance) must be non-negative")
        }
        if isEmpty || other.isEmpty { return false }
        return try withGEOS(other) { (context, a, b) throws(GeoError) -> Bool in
            try context.bool(
                GEOSDistanceWithin_r(context.raw, a.raw, b.raw, distance), "GEOSDistanceWithin_r")
        }
    }

    /// The points of this geometry and of `other` that are nearest each other, or `nil` if either is
    /// empty.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSNearestPoints_r`.
    public func nearestPoints(to other: Geometry) throws(GeoError) -> (Position, Position)? {
        if isEmpty || other.isEmpty { return nil }
        let points = try withGEOS(other) { (context, a, b) throws(GeoError) -> [Position] in
            guard let seq = GEOSNearestPoints_r(context.raw, a.raw, b.raw) else {
                throw context.error("GEOSNearestPoints_r")
            }
            defer { GEOSCoordSeq_destroy_r(context.raw, seq) }
            return try context.positions(ofSequence: seq, hasZ: false)
        }
        guard points.count == 2 else { return nil }
        return (points[0], points[1])
    }

    /// The discrete Hausdorff distance: how far the farthest vertex of either geometry is from the
    /// other geometry. With `densifyFraction` (in (0, 1]) each segment is split into pieces of that
    /// fraction of its length first, which approximates the continuous distance more closely.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a fraction outside (0, 1], or from
    ///   GEOS. See `GEOSHausdorffDistance_r`, `GEOSHausdorffDistanceDensify_r`.
    public func hausdorffDistance(
        to other: Geometry, densifyFraction: Double? = nil
    ) throws(GeoError) -> Double {
        if let f = densifyFraction, !(f > 0 && f <= 1) {
            throw GeoError(.invalidArgument, "densify fraction \(f) is outside (0, 1]")
        }
        return try withGEOS(other) { (context, a, b) throws(GeoError) -> Double in
            var value = 0.0
            let ok =
                densifyFraction.map {
                    GEOSHausdorffDistanceDensify_r(context.raw, a.raw, b.raw, $0, &value)
                }
                ?? GEOSHausdorffDistance_r(context.raw, a.raw, b.raw, &value)
            guard ok != 0 else { throw context.error("GEOSHausdorffDistance_r") }
            return value
        }
    }

    /// The discrete Fréchet distance between two lines: the shortest leash that lets a walker on each
    /// go from start to end without backtracking. `densifyFraction` as for
    /// ``hausdorffDistance(to:densifyFraction:)``.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a fraction outside (0, 1], or from
    ///   GEOS. See `GEOSFrechetDistance_r`, `GEOSFrechetDistanceDensify_r`.
    public func frechetDistance(
        to other: Geometry, densifyFraction: Double? = nil
    ) throws(GeoError) -> Double {
        if let f = densifyFraction, !(f > 0 && f <= 1) {
            throw GeoError(.invalidArgument, "densify fraction \(f) is outside (0, 1]")
        }
        return try withGEOS(other) { (context, a, b) throws(GeoError) -> Double in
            var value = 0.0
            let ok =
                densifyFraction.map {
                    GEOSFrechetDistanceDensify_r(context.raw, a.raw, b.raw, $0, &value)
                }
                ?? GEOSFrechetDistance_r(context.raw, a.raw, b.raw, &value)
            guard ok != 0 else { throw context.error("GEOSFrechetDistance_r") }
            return value
        }
    }
}
