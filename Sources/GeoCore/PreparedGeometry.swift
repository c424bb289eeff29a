internal import CGEOS

/// One geometry prepared for many predicate tests against points or other geometries, through GEOS's
/// prepared geometries (indexed edges and point-in-area locators built once).
///
/// ```swift
/// let zone = try PreparedGeometry(polygon)
/// let inside = try zone.contains(points)   // [Bool], one GEOS call per point under one lock
/// ```
///
/// A `PreparedGeometry` is `Sendable` and can be shared by many tasks: it keeps a small pool of
/// prepared copies, each with its own GEOS context behind its own lock (created on first use), so
/// concurrent callers do not wait for one another up to the pool size, and no GEOS context is created
/// per call.
public final class PreparedGeometry: Sendable {
    /// The geometry that was prepared.
    public let geometry: Geometry
    private let pool: SlotPool<PreparedState>

    /// Prepares a geometry.
    ///
    /// - Parameter parallelism: How many prepared copies may be used at once by concurrent callers; by
    ///   default the processor count between 2 and 16. Each copy is built only when first needed.
    /// - Throws: ``GeoError`` for non-finite coordinates, malformed rings, or from GEOS.
    /// - Complexity: O(n) now; the indexes are built on first use, O(n log n).
    public init(_ geometry: Geometry, parallelism: Int? = nil) throws(GeoError) {
        self.geometry = geometry
        let g = geometry
        pool = SlotPool(count: parallelism ?? SlotPool<PreparedState>.defaultCount) { () throws(GeoError) in
            try PreparedState(g)
        }
        // Build one copy now so that bad input fails here, not on first use.
        _ = try pool.with { (_: PreparedState) throws(GeoError) -> Bool in true }
    }

    // MARK: Against geometries

    /// Whether the prepared geometry contains `other`. See `GEOSPreparedContains_r`.
    /// - Throws: ``GeoError`` from GEOS.
    public func contains(_ other: Geometry) throws(GeoError) -> Bool {
        try predicate(other, "GEOSPreparedContains_r", GEOSPreparedContains_r)
    }

    /// Whether the prepared geometry contains `other` with no contact between `other` and its
    /// boundary. See `GEOSPreparedContainsProperly_r`.
    /// - Throws: ``GeoError`` from GEOS.
    public func containsProperly(_ other: Geometry) throws(GeoError) -> Bool {
        try predicate(other, "GEOSPreparedContainsProperly_r", GEOSPreparedContainsProperly_r)
    }

    /// Whether the prepared geometry covers `other`. See `GEOSPreparedCovers_r`.
    /// - Throws: ``GeoError`` from GEOS.
    public func covers(_ other: Geometry) throws(GeoError) -> Bool {
        try predicate(other, "GEOSPreparedCovers_r", GEOSPreparedCovers_r)
    }

    /// Whether the prepared geometry is covered by `other`. See `GEOSPreparedCoveredBy_r`.
    /// - Throws: ``GeoError`` from GEOS.
    public func isCovered(by other: Geometry) throws(GeoError) -> Bool {
        try predicate(other, "GEOSPreparedCoveredBy_r", GEOSPreparedCoveredBy_r)
    }

    /// Whether the prepared geometry and `other` intersect. See `GEOSPreparedIntersects_r`.
    /// - Throws: ``GeoError`` from GEOS.
    public func intersects(_ other: Geometry) throws(GeoError) -> Bool {
        try predicate(other, "GEOSPreparedIntersects_r", GEOSPreparedIntersects_r)
    }

    /// Whether the prepared geometry and `other` are disjoint. See `GEOSPreparedDisjoint_r`.
    /// - Throws: ``GeoError`` from GEOS.
    public func isDisjoint(with other: Geometry) throws(GeoError) -> Bool {
        try predicate(other, "GEOSPreparedDisjoint_r", GEOSPreparedDisjoint_r)
    }

    /// Whether the prepared geometry lies within `other`. See `GEOSPreparedWithin_r`.
    /// - Throws: ``GeoError`` from GEOS.
    public func isWithin(_ other: Geometry) throws(GeoError) -> Bool {
        try predicate(other, "GEOSPreparedWithin_r", GEOSPreparedWithin_r)
    }

    /// Whether the prepared geometry touches `other`. See `GEOSPreparedTouches_r`.
    /// - Throws: ``GeoError`` from GEOS.
    public func touches(_ other: Geometry) throws(GeoError) -> Bool {
        try predicate(other, "GEOSPreparedTouches_r", GEOSPreparedTouches_r)
    }

    /// Whether the prepared geometry crosses `other`. See `GEOSPreparedCrosses_r`.
    /// - Throws: ``GeoError`` from GEOS.
    public func crosses(_ other: Geometry) throws(GeoError) -> Bool {
        try predicate(other, "GEOSPreparedCrosses_r", GEOSPreparedCrosses_r)
    }

    /// Whether the prepared geometry overlaps `other`. See `GEOSPreparedOverlaps_r`.
    /// - Throws: ``GeoError`` from GEOS.
    public func overlaps(_ other: Geometry) throws(GeoError) -> Bool {
        try predicate(other, "GEOSPreparedOverlaps_r", GEOSPreparedOverlaps_r)
    }

    // MARK: Against points

    /// Whether a position lies in the interior of the prepared geometry.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for a non-finite position, or from GEOS.
    /// - Complexity: O(log n) after the first call. See `GEOSPreparedContains_r`.
    public func contains(_ position: Position) throws(GeoError) -> Bool {
        try pointPredicate(position, "GEOSPreparedContains_r", GEOSPreparedContains_r)
    }

    /// Whether a position lies in the interior or on the boundary of the prepared geometry.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for a non-finite position, or from GEOS.
    /// - Complexity: O(log n) after the first call. See `GEOSPreparedIntersects_r`.
    public func covers(_ position: Position) throws(GeoError) -> Bool {
        try pointPredicate(position, "GEOSPreparedIntersects_r", GEOSPreparedIntersects_r)
    }

    /// For each position, whether it lies in the interior of the prepared geometry. All tests run
    /// under one lock, with no allocation on the Swift side beyond the result.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the index of the first
    ///   non-finite position, or from GEOS.
    /// - Complexity: O(m log n) for m positions.
    public func contains(_ positions: [Position]) throws(GeoError) -> [Bool] {
        try pointsPredicate(positions, "GEOSPreparedContains_r", GEOSPreparedContains_r)
    }

    /// For each position, whether it lies in the interior or on the boundary.
    /// - Throws: As the `contains` of an array of positions.
    public func covers(_ positions: [Position]) throws(GeoError) -> [Bool] {
        try pointsPredicate(positions, "GEOSPreparedIntersects_r", GEOSPreparedIntersects_r)
    }

    // MARK: Plumbing

    private typealias PreparedCall = (GEOSContextHandle_t, OpaquePointer, OpaquePointer) -> CChar

    private func predicate(_ other: Geometry, _ function: String, _ call: PreparedCall) throws(GeoError) -> Bool {
        try pool.with { (state) throws(GeoError) -> Bool in
            let g = try state.context.make(other)
            return try withExtendedLifetime((state, g)) { () throws(GeoError) -> Bool in
                try state.context.bool(call(state.context.raw, state.prepared, g.raw), function)
            }
        }
    }

    private func pointPredicate(_ p: Position, _ function: String, _ call: PreparedCall) throws(GeoError) -> Bool {
        guard p.x.isFinite && p.y.isFinite else {
            throw GeoError(.invalidCoordinate, "position (\(p.x), \(p.y)) is not finite")
        }
        return try pool.with { (state) throws(GeoError) -> Bool in
            try withExtendedLifetime(state) { () throws(GeoError) -> Bool in try state.test(p.x, p.y, function, call) }
        }
    }

    private func pointsPredicate(_ ps: [Position], _ function: String, _ call: PreparedCall) throws(GeoError) -> [Bool] {
        for (i, p) in ps.enumerated() where !(p.x.isFinite && p.y.isFinite) {
            throw GeoError(.invalidCoordinate, "position \(i) (\(p.x), \(p.y)) is not finite")
        }
        return try pool.with { (state) throws(GeoError) -> [Bool] in
            try withExtendedLifetime(state) { () throws(GeoError) -> [Bool] in
                var result = [Bool]()
                result.reserveCapacity(ps.count)
                for p in ps { result.append(try state.test(p.x, p.y, function, call)) }
                return result
            }
        }
    }
}

/// One prepared copy: its own context, the GEOS geometry and the prepared geometry built on it.
final class PreparedState {
    let context: GEOSContext
    private let geometry: GEOSGeometryRef
    let prepared: OpaquePointer

    init(_ geometry: Geometry) throws(GeoError) {
        context = try GEOSContext()
        self.geometry = try context.make(geometry)
        guard let prepared = GEOSPrepare_r(context.raw, self.geometry.raw) else { throw context.error("GEOSPrepare_r") }
        self.prepared = prepared
    }

    /// Destroys the prepared geometry before the geometry it indexes (released after this body).
    deinit { GEOSPreparedGeom_destroy_r(context.raw, prepared) }

    /// One point test: a GEOS point is made, tested and destroyed.
    @inline(__always)
    func test(
        _ x: Double, _ y: Double, _ function: String,
        _ call: (GEOSContextHandle_t, OpaquePointer, OpaquePointer) -> CChar
    ) throws(GeoError) -> Bool {
        guard let point = GEOSGeom_createPointFromXY_r(context.raw, x, y) else {
            throw context.error("GEOSGeom_createPointFromXY_r")
        }
        defer { GEOSGeom_destroy_r(context.raw, point) }
        return try context.bool(call(context.raw, prepared, point), function)
    }
}
