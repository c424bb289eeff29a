/// Area and length in the plane of the coordinates (square units and units of x and y). For
/// longitude/latitude data these are in degrees and rarely meaningful; use ``Geometry/geodesicArea(on:)``
/// and ``Geometry/geodesicLength(on:)``.
extension Geometry {
    /// The planar area of the polygonal parts: exterior rings minus holes, whatever their orientation.
    /// - Complexity: O(n), shoelace formula relative to each ring's first vertex.
    public var planarArea: Double {
        switch self {
        case .polygon(let rings): return Self.polygonArea(rings)
        case .multiPolygon(let polygons): return polygons.reduce(0) { $0 + Self.polygonArea($1) }
        case .geometryCollection(let members): return members.reduce(0) { $0 + $1.planarArea }
        default: return 0
        }
    }

    /// The planar length of the lineal parts plus the perimeter of the polygonal parts (as GEOS's
    /// `GEOSLength_r`).
    /// - Complexity: O(n).
    public var planarLength: Double {
        func length(_ ps: [Position]) -> Double {
            guard ps.count >= 2 else { return 0 }
            var total = 0.0
            for i in 1..<ps.count {
                total +=
                    ((ps[i].x - ps[i - 1].x) * (ps[i].x - ps[i - 1].x) + (ps[i].y - ps[i - 1].y)
                        * (ps[i].y - ps[i - 1].y))
                    .squareRoot()
            }
            return total
        }
        switch self {
        case .point, .multiPoint: return 0
        case .lineString(let ps): return length(ps)
        case .polygon(let rings), .multiLineString(let rings):
            return rings.reduce(0) { $0 + length($1) }
        case .multiPolygon(let polygons):
            return polygons.reduce(0) { $0 + $1.reduce(0) { $0 + length($1) } }
        case .geometryCollection(let members): return members.reduce(0) { $0 + $1.planarLength }
        }
    }

    static func ringSignedArea(_ ring: [Position]) -> Double {
        guard ring.count >= 3 else { return 0 }
        let x0 = ring[0].x, y0 = ring[0].y
        var sum = 0.0
        for i in 1..<(ring.count - 1) {
            sum += (ring[i].x - x0) * (ring[i + 1].y - y0) - (ring[i + 1].x - x0) * (ring[i].y - y0)
        }
        return sum / 2
    }

    private static func polygonArea(_ rings: [[Position]]) -> Double {
        guard let exterior = rings.first else { return 0 }
        return rings.dropFirst().reduce(abs(ringSignedArea(exterior))) {
            $0 - abs(ringSignedArea($1))
        }
    }
}
