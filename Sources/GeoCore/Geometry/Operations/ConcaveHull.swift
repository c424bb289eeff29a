internal import CGEOS

extension Geometry {
    /// A concave hull of the positions: a polygon that contains them all and follows their shape more
    /// closely than the convex hull, computed by eroding the Delaunay triangulation's outer edges.
    ///
    /// ```swift
    /// let footprint = try Geometry.multiPoint(coordinates: members).concaveHull(ratio: 0.3)
    /// ```
    /// - Parameters:
    ///   - ratio: The target edge length as a fraction of the range between the shortest and longest
    ///     triangulation edge, in [0, 1]: 1 gives the convex hull (``convexHull()`` itself: GEOS
    ///     3.11's hull at ratio 1 can still cut into it, about one point set in fifty), 0 the
    ///     most concave hull.
    ///   - allowHoles: Whether the hull may have holes.
    /// - Returns: A polygon that covers every position (or a point or line for degenerate input,
    ///   empty for empty input); where GEOS 3.11's hull leaves a position out, the convex hull.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a ratio outside [0, 1], or from GEOS.
    /// - Complexity: O(n log n) expected, the positions' coverage checked against a prepared hull
    ///   (collinear positions and positions all on their convex hull, where GEOS's triangulation
    ///   is quadratic, answered by the convex hull). Positions that lie almost on one circle
    ///   without being all on their convex hull (a circle's vertices rounded to 9 decimals) are
    ///   quadratic in GEOS's triangulation too: 300,000 of them take minutes. See
    ///   `GEOSConcaveHull_r` (GEOS ≥ 3.11).
    public func concaveHull(
        ratio: Double = 0.3, allowHoles: Bool = false
    ) throws(GeoError) -> Geometry {
        guard ratio >= 0 && ratio <= 1 else {
            throw GeoError(.invalidArgument, "concave hull ratio \(ratio) is outside [0, 1]")
        }
        let convex = try convexHull()
        if ratio == 1 { return convex }
        // Positions on one line, or all of them corners of their convex hull (points round a
        // circle), have the convex hull as their concave hull: eroding a border triangle would cut
        // off a corner. GEOS 3.11's triangulation of such degenerate input takes quadratic time
        // (64,000 points round a circle: 13 s), so it is not asked.
        guard case .polygon(let rings) = convex, let shell = rings.first else { return convex }
        if Set(positions.lazy.map { SIMD2($0.x, $0.y) }).count < shell.count {
            return convex
        }
        let hull = try geosConcaveHull(ratio: ratio, allowHoles: allowHoles)
        // GEOS 3.11 can erode a triangle whose removal leaves one of the positions outside
        // (four points round a latitude circle at ratio 0 lose one). That is no hull; the convex
        // hull, which is one, is returned in its place.
        guard hull.type == .polygon || hull.type == .multiPolygon else { return hull }
        let covered = try PreparedGeometry(hull).covers(positions)
        return covered.allSatisfy { $0 } ? hull : convex
    }

    /// GEOS's own concave hull (`GEOSConcaveHull_r`), without ``concaveHull(ratio:allowHoles:)``'s
    /// checks and shortcuts: what the tests compare them with.
    func geosConcaveHull(ratio: Double, allowHoles: Bool) throws(GeoError) -> Geometry {
        // Only the positions matter: read rings with too few positions leniently.
        try structurallyRepaired.geosUnary("GEOSConcaveHull_r") { context, g in
            GEOSConcaveHull_r(context, g, ratio, allowHoles ? 1 : 0)
        }
    }
}
