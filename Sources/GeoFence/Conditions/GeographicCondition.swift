import GeoCore

/// A geofence: a circle or a polygon on WGS84, as monitors and indexes store them.
///
/// Encoded with a `type` member: `{"type": "circle", "center": …, "radius": …}` or
/// `{"type": "polygon", "exterior": […], "holes": […]}`.
public enum GeographicCondition: Hashable, Sendable {
    /// Points within a geodesic distance of a center.
    case circle(CircularGeographicCondition)
    /// Points inside a longitude/latitude polygon with holes.
    case polygon(PolygonGeographicCondition)

    /// The signed geodesic distance in meters from a point to the fence's boundary: negative inside,
    /// 0 on the boundary, positive outside.
    ///
    /// - Returns: NaN for an invalid coordinate.
    /// - Complexity: O(1) for a circle (one `geod_inverse`); O(n) for a polygon of n vertices.
    public func signedDistance(from point: Coordinate) -> Double {
        guard point.isValid else { return .nan }
        switch self {
        case .circle(let circle): return circle.signedDistance(from: point)
        case .polygon(let polygon): return polygon.signedDistance(from: point)
        }
    }

    /// Whether a point lies inside the fence or on its boundary.
    public func contains(_ point: Coordinate) -> Bool {
        switch self {
        case .circle(let circle): return circle.contains(point)
        case .polygon(let polygon): return polygon.contains(point)
        }
    }

    /// The signed distance of a point if its magnitude is at most `limit`; otherwise a value of the
    /// right sign whose magnitude exceeds `limit`. Lets polygons skip most edge distances when only
    /// "inside by more than the margin" matters.
    func signedDistance(from point: Coordinate, upTo limit: Double) -> Double {
        switch self {
        case .circle(let circle):
            return circle.signedDistance(from: point)
        case .polygon(let polygon):
            switch polygon.locate(point) {
            case .boundary: return 0
            case .interior: return -polygon.rings.boundaryDistance(from: point, upTo: limit)
            case .exterior: return polygon.rings.boundaryDistance(from: point, upTo: limit)
            }
        }
    }
}

extension GeographicCondition: Codable {
    private enum CodingKeys: String, CodingKey { case type }

    /// Decodes a circle or polygon by its `type` member.
    ///
    /// - Throws: `DecodingError` for an unknown type or an invalid fence.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "circle": self = .circle(try CircularGeographicCondition(from: decoder))
        case "polygon": self = .polygon(try PolygonGeographicCondition(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription:
                    "unknown condition type \(GeoError.quoted(type)) (use circle or polygon)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .circle(let circle):
            try container.encode("circle", forKey: .type)
            try circle.encode(to: encoder)
        case .polygon(let polygon):
            try container.encode("polygon", forKey: .type)
            try polygon.encode(to: encoder)
        }
    }
}
