import GeoCore

/// A circular geofence: the points within a geodesic distance of a center on the WGS84 ellipsoid, as
/// Core Location's `CLMonitor.CircularGeographicCondition`.
///
/// A point is inside when its geodesic distance from ``center`` (Karney's algorithm through PROJ's
/// `geod_inverse`, accurate to 15 nm) is at most ``radius``; points on the circle are inside.
///
/// ```swift
/// let site = try CircularGeographicCondition(
///     center: Coordinate(latitude: 45.7722, longitude: 14.3577), radius: 150)
/// site.contains(Coordinate(latitude: 45.7730, longitude: 14.3580))   // true
/// site.signedDistance(from: Coordinate(latitude: 45.78, longitude: 14.36))  // meters outside
/// ```
///
/// Encoded as `{"center": {"latitude": …, "longitude": …}, "radius": …}`; decoding validates.
public struct CircularGeographicCondition: Hashable, Sendable {
    /// The center on WGS84.
    public let center: Coordinate
    /// The radius in meters (geodesic distance on WGS84), finite and not negative.
    public let radius: Double

    /// Creates a circular condition.
    ///
    /// - Parameters:
    ///   - center: The center; must be a valid coordinate.
    ///   - radius: Meters; finite and not negative (0 is a single point).
    /// - Throws: `GeoError.Kind.invalidCoordinate` for a bad center,
    ///   `GeoError.Kind.invalidArgument` for a NaN, infinite or negative radius.
    public init(center: Coordinate, radius: Double) throws(GeoError) {
        guard radius.isFinite && radius >= 0 else {
            throw GeoError(.invalidArgument, "radius \(radius) m must be finite and not negative")
        }
        do throws(GeoError) {
            self.center = try center.validated()
        } catch {
            throw GeoError(.invalidCoordinate, "center: \(error.message)")
        }
        self.radius = radius
    }

    /// The geodesic distance in meters from a point to the center.
    ///
    /// - Complexity: O(1); one `geod_inverse`, about 1 µs.
    public func distance(fromCenterTo point: Coordinate) -> Double {
        Geodesic.wgs84.distance(from: center, to: point)
    }

    /// The signed geodesic distance in meters from a point to the circle: negative inside, 0 on it,
    /// positive outside (its distance to the center minus the radius).
    ///
    /// - Complexity: O(1); one `geod_inverse`.
    public func signedDistance(from point: Coordinate) -> Double {
        distance(fromCenterTo: point) - radius
    }

    /// Whether a point lies inside or on the circle, decided by the exact geodesic distance.
    ///
    /// - Returns: `false` for an invalid coordinate.
    public func contains(_ point: Coordinate) -> Bool {
        guard point.isValid else { return false }
        return distance(fromCenterTo: point) <= radius
    }
}

extension CircularGeographicCondition: Codable {
    private enum CodingKeys: String, CodingKey { case center, radius }

    /// Decodes and validates a circle.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the bad center or radius.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let center = try container.decode(Coordinate.self, forKey: .center)
        let radius = try container.decode(Double.self, forKey: .radius)
        do {
            try self.init(center: center, radius: radius)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(center, forKey: .center)
        try container.encode(radius, forKey: .radius)
    }
}
