/// A planar geometry of the OGC Simple Features model: points, line strings, polygons with holes,
/// their multi-part forms, and collections of any of them.
///
/// `Geometry` is a plain value (`Hashable`, `Sendable`, `Codable` as GeoJSON). Positions are planar:
/// for geographic data x is the longitude and y the latitude in degrees (GeoJSON's order), for
/// projected data the easting and northing. Operations backed by GEOS (predicates, overlay, buffer,
/// hulls, simplification, validity) work in the plane of these numbers; the `geodesic...` measures and
/// the `meters:` variants interpret x/y as WGS84 longitude/latitude and answer in meters.
///
/// ```swift
/// let square = Geometry.polygon([[
///     Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1), Position(x: 0, y: 1), Position(x: 0, y: 0),
/// ]])
/// print(square.wkt)   // POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))
/// ```
///
/// Rings are stored closed (first position repeated at the end), exterior ring first. The readers
/// (WKT, WKB, GeoJSON) reject unclosed rings and rings or lines with too few positions; geometries
/// built in code are checked when they are handed to GEOS. `==` compares positions exactly; use
/// ``isTopologicallyEqual(to:)`` for "same point set".
public enum Geometry: Hashable, Sendable {
    /// A single position, or the empty point (`POINT EMPTY`) for `nil`.
    case point(Position?)
    /// A sequence of positions joined by straight segments; empty, or at least two positions.
    case lineString([Position])
    /// A polygon as its rings: the exterior ring first, then the holes. Each ring is closed and has at
    /// least four positions; no rings is the empty polygon.
    case polygon([[Position]])
    /// A set of points.
    case multiPoint([Position])
    /// A set of line strings.
    case multiLineString([[Position]])
    /// A set of polygons, each as its rings.
    case multiPolygon([[[Position]]])
    /// A heterogeneous collection of geometries.
    case geometryCollection([Geometry])
}

/// The kind of a ``Geometry``, with its names in WKT and GeoJSON; the raw value is the WKB type code.
public enum GeometryType: Int, Hashable, Sendable, CaseIterable {
    /// A point (WKB type 1).
    case point = 1
    /// A line string (WKB type 2).
    case lineString = 2
    /// A polygon (WKB type 3).
    case polygon = 3
    /// A multi-point (WKB type 4).
    case multiPoint = 4
    /// A multi-line string (WKB type 5).
    case multiLineString = 5
    /// A multi-polygon (WKB type 6).
    case multiPolygon = 6
    /// A geometry collection (WKB type 7).
    case geometryCollection = 7

    /// The upper-case WKT tag, e.g. `MULTIPOLYGON`.
    public var wktName: String {
        switch self {
        case .point: "POINT"
        case .lineString: "LINESTRING"
        case .polygon: "POLYGON"
        case .multiPoint: "MULTIPOINT"
        case .multiLineString: "MULTILINESTRING"
        case .multiPolygon: "MULTIPOLYGON"
        case .geometryCollection: "GEOMETRYCOLLECTION"
        }
    }

    /// The GeoJSON `type` member, e.g. `MultiPolygon`.
    public var geoJSONName: String {
        switch self {
        case .point: "Point"
        case .lineString: "LineString"
        case .polygon: "Polygon"
        case .multiPoint: "MultiPoint"
        case .multiLineString: "MultiLineString"
        case .multiPolygon: "MultiPolygon"
        case .geometryCollection: "GeometryCollection"
        }
    }

    /// The topological dimension: 0 for points, 1 for lines, 2 for polygons; for collections the
    /// dimension of their members is not known from the type, so 2 is an upper bound.
    public var dimension: Int {
        switch self {
        case .point, .multiPoint: 0
        case .lineString, .multiLineString: 1
        case .polygon, .multiPolygon, .geometryCollection: 2
        }
    }
}

// MARK: - Building

extension Geometry {
    /// A point at a geographic coordinate (x = longitude, y = latitude).
    public static func point(coordinate: Coordinate) -> Geometry {
        .point(Position(coordinate))
    }

    /// A point at x, y.
    public static func point(x: Double, y: Double) -> Geometry {
        .point(Position(x: x, y: y))
    }

    /// A multi-point of geographic coordinates (x = longitude, y = latitude), for example the members
    /// of a cluster whose ``convexHull()`` or ``concaveHull(ratio:allowHoles:)`` is wanted.
    public static func multiPoint(coordinates: [Coordinate]) -> Geometry {
        .multiPoint(coordinates.map(Position.init))
    }

    /// A line string through geographic coordinates (x = longitude, y = latitude).
    public static func lineString(coordinates: [Coordinate]) -> Geometry {
        .lineString(coordinates.map(Position.init))
    }

    /// A polygon from an exterior ring and holes of geographic coordinates; rings given open (first
    /// coordinate not repeated at the end) are closed.
    public static func polygon(exterior: [Coordinate], holes: [[Coordinate]] = []) -> Geometry {
        .polygon(([exterior] + holes).map { closedRing($0.map(Position.init)) })
    }

    /// A polygon from an exterior ring and holes of positions; rings given open are closed.
    public static func polygon(exterior: [Position], holes: [[Position]] = []) -> Geometry {
        .polygon(([exterior] + holes).map(closedRing))
    }

    /// A ring with its first position repeated at the end, unless it already is or is empty.
    static func closedRing(_ ring: [Position]) -> [Position] {
        guard let first = ring.first, let last = ring.last else { return ring }
        if first.x == last.x && first.y == last.y { return ring }
        return ring + [first]
    }
}

// MARK: - Inspecting

extension Geometry {
    /// The kind of geometry.
    public var type: GeometryType {
        switch self {
        case .point: .point
        case .lineString: .lineString
        case .polygon: .polygon
        case .multiPoint: .multiPoint
        case .multiLineString: .multiLineString
        case .multiPolygon: .multiPolygon
        case .geometryCollection: .geometryCollection
        }
    }

    /// Whether the geometry has no positions at all.
    public var isEmpty: Bool {
        switch self {
        case .point(let p): p == nil
        case .lineString(let ps), .multiPoint(let ps): ps.isEmpty
        case .polygon(let rings), .multiLineString(let rings): rings.allSatisfy(\.isEmpty)
        case .multiPolygon(let polygons): polygons.allSatisfy { $0.allSatisfy(\.isEmpty) }
        case .geometryCollection(let members): members.allSatisfy(\.isEmpty)
        }
    }

    /// The number of positions, counting closing positions of rings.
    /// - Complexity: O(number of parts).
    public var positionCount: Int {
        var count = 0
        forEachPosition { _ in count += 1 }
        return count
    }

    /// Whether every position has a height (and there is at least one position).
    public var hasZ: Bool {
        var any = false
        var all = true
        forEachPosition { p in
            any = true
            if p.z == nil { all = false }
        }
        return any && all
    }

    /// Calls `body` with every position in order: rings exterior first, parts in order.
    public func forEachPosition(_ body: (Position) throws -> Void) rethrows {
        switch self {
        case .point(let p): if let p { try body(p) }
        case .lineString(let ps), .multiPoint(let ps): for p in ps { try body(p) }
        case .polygon(let rings), .multiLineString(let rings):
            for ring in rings { for p in ring { try body(p) } }
        case .multiPolygon(let polygons):
            for rings in polygons { for ring in rings { for p in ring { try body(p) } } }
        case .geometryCollection(let members):
            for member in members { try member.forEachPosition(body) }
        }
    }

    /// Every position, in the order of ``forEachPosition(_:)``.
    public var positions: [Position] {
        var result = [Position]()
        forEachPosition { result.append($0) }
        return result
    }

    /// The same geometry with every position replaced by `transform(position)`.
    public func mapPositions(_ transform: (Position) throws -> Position) rethrows -> Geometry {
        switch self {
        case .point(let p): return .point(try p.map(transform))
        case .lineString(let ps): return .lineString(try ps.map(transform))
        case .multiPoint(let ps): return .multiPoint(try ps.map(transform))
        case .polygon(let rings): return .polygon(try rings.map { try $0.map(transform) })
        case .multiLineString(let lines):
            return .multiLineString(try lines.map { try $0.map(transform) })
        case .multiPolygon(let polygons):
            return .multiPolygon(try polygons.map { try $0.map { try $0.map(transform) } })
        case .geometryCollection(let members):
            return .geometryCollection(try members.map { try $0.mapPositions(transform) })
        }
    }

    /// The geometry as RFC 7946 (§3.1.6) asks a GeoJSON writer to give it: each polygon's exterior
    /// ring counterclockwise and its holes clockwise in the plane of x and y (longitude and
    /// latitude), each ring's last position the same as its first in every coordinate (a ring
    /// closed in x and y only takes the first position's height), and empty rings left out (a
    /// polygon whose exterior is empty becomes the empty polygon). Rings of zero signed area, rings
    /// that are not closed in x and y (which no reader gives), and every other kind of geometry
    /// are kept as they are.
    ///
    /// The order of a reversed ring's positions is reversed from the second: it keeps its first
    /// position.
    /// - Complexity: O(n).
    public func followingRightHandRule() -> Geometry {
        func ring(_ positions: [Position], exterior: Bool) -> [Position] {
            guard let first = positions.first, let last = positions.last, positions.count > 1,
                last.x == first.x && last.y == first.y
            else { return positions }
            var ring = positions
            ring[ring.count - 1] = first
            // Twice the signed area, about the first position for precision.
            var area = 0.0
            for i in 1..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                area += (a.x - first.x) * (b.y - first.y) - (b.x - first.x) * (a.y - first.y)
            }
            if exterior ? area < 0 : area > 0 { ring[1..<(ring.count - 1)].reverse() }
            return ring
        }
        func polygon(_ rings: [[Position]]) -> [[Position]] {
            guard let exterior = rings.first, !exterior.isEmpty else { return [] }
            return [ring(exterior, exterior: true)]
                + rings.dropFirst().filter { !$0.isEmpty }.map { ring($0, exterior: false) }
        }
        switch self {
        case .polygon(let rings): return .polygon(polygon(rings))
        case .multiPolygon(let polygons): return .multiPolygon(polygons.map(polygon))
        case .geometryCollection(let members):
            return .geometryCollection(members.map { $0.followingRightHandRule() })
        default: return self
        }
    }

    /// The smallest axis-aligned rectangle holding every position, or `nil` for an empty geometry.
    ///
    /// Computed in the plane: for longitudes across the 180th meridian it spans the long way round.
    /// - Complexity: O(n).
    public var bounds: ProjectedBounds? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity,
            maxY = -Double.infinity
        forEachPosition { p in
            minX = min(minX, p.x); minY = min(minY, p.y)
            maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        guard minX <= maxX && minY <= maxY else { return nil }
        return ProjectedBounds(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// The members of a multi-part geometry or collection as single geometries; a single geometry
    /// gives itself.
    public var parts: [Geometry] {
        switch self {
        case .point, .lineString, .polygon: [self]
        case .multiPoint(let ps): ps.map { .point($0) }
        case .multiLineString(let lines): lines.map { .lineString($0) }
        case .multiPolygon(let polygons): polygons.map { .polygon($0) }
        case .geometryCollection(let members): members
        }
    }

    /// The same geometry without heights.
    public var droppingZ: Geometry {
        mapPositions { Position(x: $0.x, y: $0.y) }
    }

    /// The first position that is not finite (NaN or infinite x, y or z), with a path naming where it
    /// is (`"polygon ring 1 position 3"`), or `nil` if all are finite.
    func firstNonFinitePosition() -> (Position, String)? {
        func check(_ ps: [Position], _ path: String) -> (Position, String)? {
            for (i, p) in ps.enumerated()
            where !(p.x.isFinite && p.y.isFinite && (p.z?.isFinite ?? true)) {
                return (p, "\(path)position \(i)")
            }
            return nil
        }
        switch self {
        case .point(let p):
            guard let p else { return nil }
            return check([p], "point ")
        case .lineString(let ps): return check(ps, "line string ")
        case .multiPoint(let ps): return check(ps, "multi-point ")
        case .polygon(let rings):
            for (r, ring) in rings.enumerated() {
                if let bad = check(ring, "polygon ring \(r) ") { return bad }
            }
        case .multiLineString(let lines):
            for (l, line) in lines.enumerated() {
                if let bad = check(line, "line \(l) ") { return bad }
            }
        case .multiPolygon(let polygons):
            for (k, rings) in polygons.enumerated() {
                for (r, ring) in rings.enumerated() {
                    if let bad = check(ring, "polygon \(k) ring \(r) ") { return bad }
                }
            }
        case .geometryCollection(let members):
            for (m, member) in members.enumerated() {
                if let (p, path) = member.firstNonFinitePosition() {
                    return (p, "member \(m) \(path)")
                }
            }
        }
        return nil
    }
}

extension Geometry: CustomStringConvertible {
    /// The geometry as WKT.
    public var description: String { wkt }
}
