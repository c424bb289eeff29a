internal import CGEOS

/// Whether a geometry is valid in the OGC sense, and if not, why and where.
public struct ValidityReport: Hashable, Sendable {
    /// Whether the geometry is valid.
    public var isValid: Bool
    /// GEOS's reason for invalidity (`"Self-intersection"`, `"Ring Self-intersection"`,
    /// `"Hole lies outside shell"`, ...), or `nil` when valid.
    public var reason: String?
    /// Where the problem is, when GEOS reports a location.
    public var location: Position?

    /// Creates a report.
    public init(isValid: Bool, reason: String? = nil, location: Position? = nil) {
        self.isValid = isValid
        self.reason = reason
        self.location = location
    }
}

/// How ``Geometry/makeValid(method:keepCollapsed:)`` repairs a geometry.
public enum MakeValidMethod: Hashable, Sendable {
    /// GEOS's original algorithm: keeps all input vertices and linework, may return a collection of
    /// polygons, lines and points.
    case linework
    /// Rebuilds polygons from their rings' structure (exterior rings union, holes subtracted); the
    /// result of an areal input is areal. Since GEOS 3.10.
    case structure
}

extension Geometry {
    /// Whether the geometry is valid (OGC Simple Features rules: closed simple rings, holes inside their
    /// shell, no self-intersections, ...).
    /// - Throws: ``GeoError`` from GEOS. See `GEOSisValid_r`.
    public func isValid() throws(GeoError) -> Bool {
        if structuralProblem() != nil { return false }
        return try withGEOS { (context, g) throws(GeoError) -> Bool in
            try context.bool(GEOSisValid_r(context.raw, g.raw), "GEOSisValid_r")
        }
    }

    /// Whether the geometry is valid, and if not the reason and location GEOS gives.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSisValidDetail_r`.
    public func validity() throws(GeoError) -> ValidityReport {
        if let (reason, location) = structuralProblem() {
            return ValidityReport(isValid: false, reason: reason, location: location)
        }
        return try withGEOS { (context, g) throws(GeoError) -> ValidityReport in
            var reason: UnsafeMutablePointer<CChar>?
            var location: OpaquePointer?
            let valid = try context.bool(
                GEOSisValidDetail_r(context.raw, g.raw, 0, &reason, &location),
                "GEOSisValidDetail_r")
            var report = ValidityReport(isValid: valid)
            if let reason {
                report.reason = String(cString: reason)
                GEOSFree_r(context.raw, reason)
            }
            if let location {
                let owned = GEOSGeometryRef(location, context: context)
                if case .point(let p?) = try owned.geometry() { report.location = p }
            }
            if valid { report.reason = nil }
            return report
        }
    }

    /// A valid geometry covering the same points as this one, as far as possible.
    ///
    /// - Parameters:
    ///   - method: The repair algorithm; ``MakeValidMethod/linework`` by default (as `GEOSMakeValid_r`).
    ///   - keepCollapsed: With ``MakeValidMethod/structure``, whether parts that collapse to lines or
    ///     points are kept (``MakeValidMethod/linework`` keeps them always; see
    ///     ``keepingParts(ofDimensionOf:)`` to leave them out).
    /// A repair reads its input leniently: a ring that is not closed is closed, and a ring or line
    /// with too few positions (which ``validity()`` reports as "Too few points") is padded by
    /// repeating its last position, so GEOS can collapse it as it collapses any degenerate part:
    /// `POLYGON ((0 0, 1 1, 0 0))` becomes `LINESTRING (0 0, 1 1)` with `keepCollapsed`.
    ///
    /// Equal polygons of a multipolygon are repaired once (GEOS joins a multipolygon's repaired
    /// parts, so the result is the same), which keeps a pile of them from being noded together.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/limitExceeded`` when the edges cross or overlap one
    ///   another more than 16 times per edge (plus 100,000): GEOS nodes them all together, and its
    ///   time, memory and result would grow with the square of the input (``GeoError`` from GEOS
    ///   otherwise). See `GEOSMakeValidWithParams_r`.
    public func makeValid(
        method: MakeValidMethod = .linework, keepCollapsed: Bool = false
    ) throws(GeoError) -> Geometry {
        // Equal polygons of a multipolygon repair to the union of one of them (GEOS repairs each
        // and joins them), and noding a pile of them together is quadratic: keep one of each.
        var input = structurallyRepaired
        var merged = false
        if case .multiPolygon(let polygons) = input, polygons.count > 1 {
            var seen = Set<[[Position]]>()
            let distinct = polygons.filter { seen.insert($0).inserted }
            merged = distinct.count < polygons.count
            input = .multiPolygon(distinct)
        }
        try CrossingCensus.check([input], operation: "make-valid")
        let repaired = try input.repairedByGEOS(method: method, keepCollapsed: keepCollapsed)
        // As GEOS answers for the equal polygons themselves: one polygon, not a multipolygon of one.
        if merged, case .multiPolygon(let parts) = repaired, parts.count == 1 {
            return .polygon(parts[0])
        }
        return repaired
    }

    /// A repair (``makeValid(method:keepCollapsed:)`` with ``MakeValidMethod/linework``) without
    /// the parts that collapsed: a polygon that became lines or points, a line that became a point.
    /// Each member of a collection is repaired on its own and keeps the parts of its own dimension
    /// (``keepingParts(ofDimensionOf:)``), so a collection's own lines and points stay; members
    /// left empty are left out.
    /// - Throws: As ``makeValid(method:keepCollapsed:)``.
    public func makeValidWithoutCollapsedParts() throws(GeoError) -> Geometry {
        guard case .geometryCollection(let members) = self else {
            return try makeValid(method: .linework, keepCollapsed: false)
                .keepingParts(ofDimensionOf: self)
        }
        var kept = [Geometry]()
        for member in members {
            let part = try member.makeValidWithoutCollapsedParts()
            if !part.isEmpty { kept.append(part) }
        }
        return .geometryCollection(kept)
    }

    /// This geometry with only its parts of the highest dimension `original` has (polygons if it
    /// has any, else lines, else points), collections flattened: after
    /// ``makeValid(method:keepCollapsed:)`` with ``MakeValidMethod/linework``, which keeps the
    /// lines and points that collapsed parts became whatever `keepCollapsed` says (as GEOS does),
    /// this leaves them out. `POLYGON ((0 0, 10 0, 5 0, 0 0))` repairs to two lines, and to
    /// `POLYGON EMPTY` without them.
    /// - Complexity: O(n) in the positions.
    public func keepingParts(ofDimensionOf original: Geometry) -> Geometry {
        var points = [Position](), lines = [[Position]](), polygons = [[[Position]]]()
        func collect(_ g: Geometry) {
            switch g {
            case .point(let p): if let p { points.append(p) }
            case .multiPoint(let ps): points += ps
            case .lineString(let ps): if !ps.isEmpty { lines.append(ps) }
            case .multiLineString(let ls): lines += ls.filter { !$0.isEmpty }
            case .polygon(let rings): if !rings.isEmpty { polygons.append(rings) }
            case .multiPolygon(let ps): polygons += ps.filter { !$0.isEmpty }
            case .geometryCollection(let members): members.forEach(collect)
            }
        }
        func highestDimension(_ g: Geometry) -> Int {
            switch g {
            case .geometryCollection(let members): members.map(highestDimension).max() ?? 0
            default: g.type.dimension
            }
        }
        collect(self)
        switch highestDimension(original) {
        case 2:
            return polygons.count == 1
                ? .polygon(polygons[0]) : polygons.isEmpty ? .polygon([]) : .multiPolygon(polygons)
        case 1:
            return lines.count == 1
                ? .lineString(lines[0]) : lines.isEmpty ? .lineString([]) : .multiLineString(lines)
        default:
            return points.count == 1
                ? .point(points[0]) : points.isEmpty ? .point(nil) : .multiPoint(points)
        }
    }

    private func repairedByGEOS(
        method: MakeValidMethod, keepCollapsed: Bool
    ) throws(GeoError) -> Geometry {
        try withGEOS { (context, g) throws(GeoError) -> Geometry in
            guard let params = GEOSMakeValidParams_create_r(context.raw) else {
                throw context.error("GEOSMakeValidParams_create_r")
            }
            defer { GEOSMakeValidParams_destroy_r(context.raw, params) }
            _ = GEOSMakeValidParams_setMethod_r(
                context.raw, params,
                method == .structure ? GEOS_MAKE_VALID_STRUCTURE : GEOS_MAKE_VALID_LINEWORK)
            _ = GEOSMakeValidParams_setKeepCollapsed_r(context.raw, params, keepCollapsed ? 1 : 0)
            return try context.own(
                GEOSMakeValidWithParams_r(context.raw, g.raw, params), "GEOSMakeValidWithParams_r"
            ).geometry()
        }
    }

    /// Whether the geometry is simple: lines do not self-intersect except at their end points, points of
    /// a multi-point are distinct. Polygons are simple if valid.
    /// - Throws: ``GeoError`` from GEOS. See `GEOSisSimple_r`.
    public func isSimple() throws(GeoError) -> Bool {
        if structuralProblem() != nil { return false }
        return try withGEOS { (context, g) throws(GeoError) -> Bool in
            try context.bool(GEOSisSimple_r(context.raw, g.raw), "GEOSisSimple_r")
        }
    }
}

extension Geometry {
    /// A non-finite coordinate, or a component too short to exist in GEOS (a ring of fewer than four
    /// positions, a line of one), with GEOS's reason and where it is, or `nil`. Such geometries are
    /// invalid and not simple.
    func structuralProblem() -> (String, Position?)? {
        if let (p, _) = firstNonFinitePosition() { return ("Invalid Coordinate", p) }
        switch self {
        case .point, .multiPoint: return nil
        case .lineString(let ps):
            return ps.count == 1 ? ("Too few points in geometry component", ps.first) : nil
        case .multiLineString(let lines):
            return lines.lazy.compactMap { Geometry.lineString($0).structuralProblem() }.first
        case .polygon(let rings):
            for ring in rings where !ring.isEmpty && ring.count < 4 {
                return ("Too few points in geometry component", ring.first)
            }
            return nil
        case .multiPolygon(let polygons):
            return polygons.lazy.compactMap { Geometry.polygon($0).structuralProblem() }.first
        case .geometryCollection(let members):
            return members.lazy.compactMap { $0.structuralProblem() }.first
        }
    }
}

extension Geometry {
    /// The geometry with the structure GEOS requires, made up from what is there: unclosed rings
    /// closed, rings padded to four positions and lines to two by repeating their last position.
    /// The set of positions does not change, so hulls and repairs may use it.
    var structurallyRepaired: Geometry {
        func ring(_ ps: [Position]) -> [Position] {
            guard let first = ps.first, let last = ps.last else { return ps }
            var out = ps
            if first.x != last.x || first.y != last.y || out.count == 1 { out.append(first) }
            while out.count < 4 { out.insert(out[out.count - 2], at: out.count - 1) }
            return out
        }
        func line(_ ps: [Position]) -> [Position] {
            guard let only = ps.first, ps.count == 1 else { return ps }
            return [only, only]
        }
        switch self {
        case .point, .multiPoint: return self
        case .lineString(let ps): return .lineString(line(ps))
        case .multiLineString(let lines): return .multiLineString(lines.map(line))
        case .polygon(let rings): return .polygon(rings.map(ring))
        case .multiPolygon(let polygons): return .multiPolygon(polygons.map { $0.map(ring) })
        case .geometryCollection(let members):
            return .geometryCollection(members.map(\.structurallyRepaired))
        }
    }
}
