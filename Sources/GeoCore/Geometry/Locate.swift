/// Where a position lies relative to a geometry, decided exactly in pure Swift with
/// ``Predicates/orient2d(_:_:_:)`` (no GEOS, no allocation per call).
extension Geometry {
    /// Where a position lies relative to this geometry: in its interior, on its boundary, or outside.
    ///
    /// - Polygons: inside the exterior ring and outside every hole is interior; on any ring is boundary
    ///   (``Predicates/locate(_:inPolygon:holes:)``).
    /// - Lines: on the line is interior, except end points that bound it (the mod-2 rule: an end point
    ///   shared by an even number of line ends, or the end of a closed line, is interior).
    /// - Points: equal to a point is interior (points have no boundary).
    /// - Collections: interior if interior to any member, else boundary if on the boundary of one.
    ///
    /// Exact for all finite inputs; points on an edge are always ``PointLocation/boundary``.
    /// - Complexity: O(n) for n vertices. For many positions against one polygon use
    ///   ``PreparedGeometry``.
    public func locate(_ position: Position) -> PointLocation {
        switch self {
        case .point(let p):
            guard let p else { return .exterior }
            return p.x == position.x && p.y == position.y ? .interior : .exterior
        case .multiPoint(let ps):
            return ps.contains { $0.x == position.x && $0.y == position.y } ? .interior : .exterior
        case .lineString(let ps):
            return Self.locate(position, inLines: [ps])
        case .multiLineString(let lines):
            return Self.locate(position, inLines: lines)
        case .polygon(let rings):
            guard let exterior = rings.first, !exterior.isEmpty else { return .exterior }
            return Predicates.locate(position, inPolygon: exterior, holes: Array(rings.dropFirst()))
        case .multiPolygon(let polygons):
            var onBoundary = false
            for rings in polygons {
                guard let exterior = rings.first, !exterior.isEmpty else { continue }
                switch Predicates.locate(
                    position, inPolygon: exterior, holes: Array(rings.dropFirst()))
                {
                case .interior: return .interior
                case .boundary: onBoundary = true
                case .exterior: continue
                }
            }
            return onBoundary ? .boundary : .exterior
        case .geometryCollection(let members):
            var onBoundary = false
            for member in members {
                switch member.locate(position) {
                case .interior: return .interior
                case .boundary: onBoundary = true
                case .exterior: continue
                }
            }
            return onBoundary ? .boundary : .exterior
        }
    }

    /// Whether a position lies in the interior of this geometry (boundary excluded), exactly.
    public func contains(_ position: Position) -> Bool {
        locate(position) == .interior
    }

    /// Whether a geographic coordinate (x = longitude, y = latitude) lies in the interior, exactly, in
    /// the plane of longitude and latitude.
    public func contains(_ coordinate: Coordinate) -> Bool {
        locate(Position(coordinate)) == .interior
    }

    /// Whether a position lies in the interior or on the boundary, exactly.
    public func covers(_ position: Position) -> Bool {
        locate(position) != .exterior
    }

    private static func locate(_ p: Position, inLines lines: [[Position]]) -> PointLocation {
        var onLine = false
        for line in lines where line.count >= 2 {
            for i in 1..<line.count where onSegment(p, line[i - 1], line[i]) {
                onLine = true
                break
            }
            if onLine { break }
        }
        guard onLine else { return .exterior }
        // Mod-2 rule: the point is boundary if it is the end of an odd number of open line ends.
        var ends = 0
        for line in lines where line.count >= 2 {
            guard let first = line.first, let last = line.last else { continue }
            if first.x == last.x && first.y == last.y { continue }
            if first.x == p.x && first.y == p.y { ends += 1 }
            if last.x == p.x && last.y == p.y { ends += 1 }
        }
        return ends % 2 == 1 ? .boundary : .interior
    }

    private static func onSegment(_ p: Position, _ a: Position, _ b: Position) -> Bool {
        p.x >= min(a.x, b.x) && p.x <= max(a.x, b.x) && p.y >= min(a.y, b.y) && p.y <= max(a.y, b.y)
            && Predicates.orient2d(a, b, p) == 0
    }
}
