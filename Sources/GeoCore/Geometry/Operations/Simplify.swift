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
    ///     drop small ones. GEOS before 3.12 can drop a shell vertex that a hole touches and so
    ///     leave the hole outside its shell; a valid input whose result is not valid is simplified
    ///     again with half the tolerance, up to eight times, and returned unsimplified (only its
    ///     repeated vertices dropped) if that is never valid.
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
            // Repeated consecutive vertices change nothing, but GEOS checks each of their
            // zero-length segments against all the others: quadratic on a pile at one coordinate.
            let distinct = withoutRepeatedVertices
            try CrossingCensus.check([distinct], operation: "simplify")
            func simplified(_ tolerance: Double) throws(GeoError) -> Geometry {
                try distinct.geosUnary("GEOSTopologyPreserveSimplify_r") {
                    GEOSTopologyPreserveSimplify_r($0, $1, tolerance)
                }
            }
            let result = try simplified(tolerance)
            // Only polygons can come out invalid from a valid input (a hole left outside).
            guard tolerance > 0, result.hasPolygons, try !result.isValid(),
                try distinct.isValid()
            else { return result }
            var smaller = tolerance
            for _ in 0..<8 {
                smaller /= 2
                let retried = try simplified(smaller)
                if try retried.isValid() { return retried }
            }
            return distinct
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

extension Geometry {
    /// The geometry with each run of equal consecutive vertices of its lines and rings kept once,
    /// lines kept at two positions and rings at four (by repeating the last), as GEOS needs them.
    var withoutRepeatedVertices: Geometry {
        func dedupe(_ ps: [Position], minimum: Int) -> [Position] {
            guard ps.count > minimum else { return ps }
            var out = [Position]()
            out.reserveCapacity(ps.count)
            for p in ps where out.last.map({ $0.x != p.x || $0.y != p.y || $0.z != p.z }) ?? true {
                out.append(p)
            }
            while out.count < minimum, let last = out.last { out.append(last) }
            return out
        }
        switch self {
        case .point, .multiPoint: return self
        case .lineString(let ps): return .lineString(dedupe(ps, minimum: 2))
        case .multiLineString(let lines):
            return .multiLineString(lines.map { dedupe($0, minimum: 2) })
        case .polygon(let rings): return .polygon(rings.map { dedupe($0, minimum: 4) })
        case .multiPolygon(let polygons):
            return .multiPolygon(polygons.map { $0.map { dedupe($0, minimum: 4) } })
        case .geometryCollection(let members):
            return .geometryCollection(members.map(\.withoutRepeatedVertices))
        }
    }
}

extension Geometry {
    /// Whether any part is a polygon.
    var hasPolygons: Bool {
        switch self {
        case .polygon(let rings): !rings.isEmpty
        case .multiPolygon(let polygons): polygons.contains { !$0.isEmpty }
        case .geometryCollection(let members): members.contains(where: \.hasPolygons)
        default: false
        }
    }
}
