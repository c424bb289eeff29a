/// Areas and lengths in metres of geometries whose positions are longitude (x) and latitude (y) in
/// degrees, with edges taken as geodesics on the ellipsoid (Karney's algorithms via PROJ's
/// `geodesic.h`, accurate to round-off: about 0.1 m² per edge for areas and 15 nm for lengths).
extension Geometry {
    /// The area in square metres of the polygonal parts (holes subtracted); 0 for points and lines.
    ///
    /// Each ring bounds the smaller of the two regions it separates, so a ring must not enclose more
    /// than half of the Earth.
    /// - Parameter geodesic: The ellipsoid; WGS84 by default.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the first vertex whose latitude
    ///   or longitude is out of range or not finite.
    /// - Complexity: O(n). Wraps `geod_polygon_compute` through ``Geodesic/measure(exterior:holes:)``.
    public func geodesicArea(on geodesic: Geodesic = .wgs84) throws(GeoError) -> Double {
        var total = 0.0
        try forEachPolygon { (rings) throws(GeoError) in
            total += try geodesic.measure(exterior: rings[0].map(\.coordinate), holes: rings.dropFirst().map { $0.map(\.coordinate) }).area
        }
        return total
    }

    /// The total length in metres of all polygon rings (exterior and holes); 0 for points and lines.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the first invalid vertex.
    /// - Complexity: O(n).
    public func geodesicPerimeter(on geodesic: Geodesic = .wgs84) throws(GeoError) -> Double {
        var total = 0.0
        try forEachPolygon { (rings) throws(GeoError) in
            for ring in rings { total += try geodesic.length(of: ring.map(\.coordinate)) }
        }
        return total
    }

    /// The length in metres of the lineal parts (line strings); 0 for points and polygons (see
    /// ``geodesicPerimeter(on:)``).
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the first invalid vertex.
    /// - Complexity: O(n) geodesic inverse solutions.
    public func geodesicLength(on geodesic: Geodesic = .wgs84) throws(GeoError) -> Double {
        switch self {
        case .lineString(let ps): return try geodesic.length(of: ps.map(\.coordinate))
        case .multiLineString(let lines):
            var total = 0.0
            for line in lines { total += try geodesic.length(of: line.map(\.coordinate)) }
            return total
        case .geometryCollection(let members):
            var total = 0.0
            for member in members { total += try member.geodesicLength(on: geodesic) }
            return total
        default: return 0
        }
    }

    /// Calls `body` with the rings of every non-empty polygon.
    func forEachPolygon(_ body: ([[Position]]) throws(GeoError) -> Void) throws(GeoError) {
        switch self {
        case .polygon(let rings): if let first = rings.first, !first.isEmpty { try body(rings) }
        case .multiPolygon(let polygons):
            for rings in polygons { if let first = rings.first, !first.isEmpty { try body(rings) } }
        case .geometryCollection(let members): for member in members { try member.forEachPolygon(body) }
        default: break
        }
    }
}
