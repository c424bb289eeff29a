/// Areas and lengths in meters of geometries whose positions are longitude (x) and latitude (y) in
/// degrees, with edges taken as geodesics on the ellipsoid (Karney's algorithms via PROJ's
/// `geodesic.h`, accurate to round-off: about 0.1 m² per edge for areas and 15 nm for lengths).
extension Geometry {
    /// The area in square meters of the polygonal parts (holes subtracted); 0 for points and lines.
    /// Every position is checked, also those of points and lines.
    ///
    /// Each ring bounds the region ``GeographicPolygon`` holds inside it (the side inside it in
    /// longitude and latitude; a pole's cap for a ring round that pole that reaches it; the
    /// whole-world box and boxes cut at ±180° as written), so that what ``buffer(meters:style:)``
    /// returns for a circle round a pole, or wider than a hemisphere, measures as that circle; see
    /// ``Geodesic/measure(exterior:holes:)``. Never negative.
    /// - Parameter geodesic: The ellipsoid; WGS84 by default.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the first vertex whose latitude
    ///   is out of range or whose coordinates are not finite (longitudes past ±180 are reduced).
    /// - Complexity: O(n). Wraps `geod_polygon_compute` through ``Geodesic/measure(exterior:holes:)``.
    public func geodesicArea(on geodesic: Geodesic = .wgs84) throws(GeoError) -> Double {
        try validateGeographic()
        var total = 0.0
        try forEachPolygon { (rings) throws(GeoError) in
            let coordinates = try rings.map { (ring) throws(GeoError) in try Self.coordinates(ring)
            }
            // The sides are read from the rings as written: a step of 360° is a full turn.
            total += try geodesic.measure(rings: coordinates, written: rings).area
        }
        return total
    }

    /// The total length in meters of all polygon rings (exterior and holes); 0 for points and lines.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the first invalid vertex.
    /// - Complexity: O(n).
    public func geodesicPerimeter(on geodesic: Geodesic = .wgs84) throws(GeoError) -> Double {
        try validateGeographic()
        var total = 0.0
        try forEachPolygon { (rings) throws(GeoError) in
            for ring in rings { total += try geodesic.length(of: try Self.coordinates(ring)) }
        }
        return total
    }

    /// The length in meters of the lineal parts (line strings); 0 for points and polygons (see
    /// ``geodesicPerimeter(on:)``).
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the first invalid vertex.
    /// - Complexity: O(n) geodesic inverse solutions.
    public func geodesicLength(on geodesic: Geodesic = .wgs84) throws(GeoError) -> Double {
        try validateGeographic()
        switch self {
        case .lineString(let ps): return try geodesic.length(of: Self.coordinates(ps))
        case .multiLineString(let lines):
            var total = 0.0
            for line in lines { total += try geodesic.length(of: Self.coordinates(line)) }
            return total
        case .geometryCollection(let members):
            var total = 0.0
            for member in members { total += try member.geodesicLength(on: geodesic) }
            return total
        default: return 0
        }
    }

    /// Positions as coordinates, longitudes reduced to [-180, 180] (so continuous longitudes past ±180,
    /// as ``buffer(meters:style:)`` produces near the 180th meridian, are accepted).
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the first position with a
    ///   non-finite value or a latitude outside [-90, 90].
    static func coordinates(_ ps: [Position]) throws(GeoError) -> [Coordinate] {
        var result = [Coordinate]()
        result.reserveCapacity(ps.count)
        for (i, p) in ps.enumerated() {
            guard p.x.isFinite && p.y.isFinite && abs(p.y) <= 90 else {
                throw GeoError(
                    .invalidCoordinate,
                    "vertex \(i) (\(p.x), \(p.y)) is not a longitude/latitude: the latitude must be within [-90, 90] and both finite"
                )
            }
            result.append(Coordinate(latitude: p.y, longitude: Angle.normalizedLongitude(p.x)))
        }
        return result
    }

    /// Calls `body` with the rings of every non-empty polygon.
    func forEachPolygon(_ body: ([[Position]]) throws(GeoError) -> Void) throws(GeoError) {
        switch self {
        case .polygon(let rings): if let first = rings.first, !first.isEmpty { try body(rings) }
        case .multiPolygon(let polygons):
            for rings in polygons { if let first = rings.first, !first.isEmpty { try body(rings) } }
        case .geometryCollection(let members):
            for member in members { try member.forEachPolygon(body) }
        default: break
        }
    }
}
