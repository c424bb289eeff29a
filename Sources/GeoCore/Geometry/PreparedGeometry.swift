internal import CGEOS

/// One geometry prepared for many predicate tests against points or other geometries, through GEOS's
/// prepared geometries (indexed edges and point-in-area locators built once).
///
/// ```swift
/// let zone = try PreparedGeometry(polygon)
/// let inside = try zone.contains(points)   // [Bool], one GEOS call per point under one lock
/// ```
///
/// Point tests against a polygon or multi-polygon (``contains(_:)-(Position)``, ``covers(_:)-(Position)``
/// and their batch forms) run in pure Swift on an exact band index of the edges (the same
/// crossing-number rule with exact orientation tests as GEOS's indexed point-in-area locator), without
/// locks or allocation per point; every other test goes to GEOS's prepared geometry.
///
/// A `PreparedGeometry` is `Sendable` and can be shared by many tasks: it keeps a small pool of
/// prepared copies, each with its own GEOS context behind its own lock (created on first use), so
/// concurrent callers do not wait for one another up to the pool size, and no GEOS context is created
/// per call.
public final class PreparedGeometry: Sendable {
    /// The geometry that was prepared.
    public let geometry: Geometry
    private let pool: SlotPool<PreparedState>
    /// The exact point index, for polygonal geometries.
    private let pointIndex: PointInPolygonIndex?

    /// Prepares a geometry.
    ///
    /// - Parameters:
    ///   - geometry: The geometry the prepared predicates test others against.
    ///   - parallelism: How many prepared copies may be used at once by concurrent callers; by
    ///     default the processor count between 2 and 16. Each copy is built only when first needed.
    /// - Throws: ``GeoError`` for non-finite coordinates, malformed rings, or from GEOS.
    /// - Complexity: O(n) now; the indexes are built on first use, O(n log n).
    public init(_ geometry: Geometry, parallelism: Int? = nil) throws(GeoError) {
        self.geometry = geometry
        let g = geometry
        pool = SlotPool(count: parallelism ?? SlotPool<PreparedState>.defaultCount) {
            () throws(GeoError) in
            try PreparedState(g)
        }
        // Build one copy now so that bad input fails here, not on first use.
        _ = try pool.with { (_: PreparedState) throws(GeoError) -> Bool in true }
        pointIndex = PointInPolygonIndex(geometry)
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
    /// - Complexity: O(edges near the point's latitude) for polygons (exact, pure Swift); otherwise
    ///   O(log n) after the first call through `GEOSPreparedContains_r`.
    public func contains(_ position: Position) throws(GeoError) -> Bool {
        if let pointIndex {
            try checkFinite(position, nil)
            return pointIndex.locate(position.x, position.y) == .interior
        }
        return try pointPredicate(position, "GEOSPreparedContains_r", GEOSPreparedContains_r)
    }

    /// Whether a position lies in the interior or on the boundary of the prepared geometry.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for a non-finite position, or from GEOS.
    /// - Complexity: As ``contains(_:)-(Position)``; otherwise through `GEOSPreparedIntersects_r`.
    public func covers(_ position: Position) throws(GeoError) -> Bool {
        if let pointIndex {
            try checkFinite(position, nil)
            return pointIndex.locate(position.x, position.y) != .exterior
        }
        return try pointPredicate(position, "GEOSPreparedIntersects_r", GEOSPreparedIntersects_r)
    }

    /// Where a position lies relative to the prepared geometry: interior, boundary or exterior.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for a non-finite position, or from GEOS.
    /// - Complexity: O(edges near the point's latitude) for polygons; one GEOS relate otherwise.
    public func locate(_ position: Position) throws(GeoError) -> PointLocation {
        try checkFinite(position, nil)
        if let pointIndex { return pointIndex.locate(position.x, position.y) }
        if try pointPredicate(position, "GEOSPreparedContains_r", GEOSPreparedContains_r) {
            return .interior
        }
        return try pointPredicate(position, "GEOSPreparedIntersects_r", GEOSPreparedIntersects_r)
            ? .boundary : .exterior
    }

    /// For each position, whether it lies in the interior of the prepared geometry. For polygons the
    /// tests run on the exact point index; otherwise all run under one GEOS lock. No allocation beyond
    /// the result.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the index of the first
    ///   non-finite position, or from GEOS.
    /// - Complexity: O(m log n) for m positions.
    public func contains(_ positions: [Position]) throws(GeoError) -> [Bool] {
        if let pointIndex {
            for (i, p) in positions.enumerated() { try checkFinite(p, i) }
            return positions.map { pointIndex.locate($0.x, $0.y) == .interior }
        }
        return try pointsPredicate(positions, "GEOSPreparedContains_r", GEOSPreparedContains_r)
    }

    /// For each position, whether it lies in the interior or on the boundary.
    /// - Throws: As the `contains` of an array of positions.
    public func covers(_ positions: [Position]) throws(GeoError) -> [Bool] {
        if let pointIndex {
            for (i, p) in positions.enumerated() { try checkFinite(p, i) }
            return positions.map { pointIndex.locate($0.x, $0.y) != .exterior }
        }
        return try pointsPredicate(positions, "GEOSPreparedIntersects_r", GEOSPreparedIntersects_r)
    }

    private func checkFinite(_ p: Position, _ index: Int?) throws(GeoError) {
        guard p.x.isFinite && p.y.isFinite else {
            throw GeoError(
                .invalidCoordinate,
                "position \(index.map { "\($0) " } ?? "")(\(p.x), \(p.y)) is not finite")
        }
    }

    // MARK: Plumbing

    private typealias PreparedCall = (GEOSContextHandle_t, OpaquePointer, OpaquePointer) -> CChar

    private func predicate(
        _ other: Geometry, _ function: String, _ call: PreparedCall
    ) throws(GeoError) -> Bool {
        try pool.with { (state) throws(GeoError) -> Bool in
            let g = try state.context.make(other)
            return try withExtendedLifetime((state, g)) { () throws(GeoError) -> Bool in
                try state.context.bool(call(state.context.raw, state.prepared, g.raw), function)
            }
        }
    }

    private func pointPredicate(
        _ p: Position, _ function: String, _ call: PreparedCall
    ) throws(GeoError) -> Bool {
        guard p.x.isFinite && p.y.isFinite else {
            throw GeoError(.invalidCoordinate, "position (\(p.x), \(p.y)) is not finite")
        }
        return try pool.with { (state) throws(GeoError) -> Bool in
            try withExtendedLifetime(state) { () throws(GeoError) -> Bool in
                try state.test(p.x, p.y, function, call)
            }
        }
    }

    private func pointsPredicate(
        _ ps: [Position], _ function: String, _ call: PreparedCall
    ) throws(GeoError) -> [Bool] {
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
        guard let prepared = GEOSPrepare_r(context.raw, self.geometry.raw) else {
            throw context.error("GEOSPrepare_r")
        }
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
