import Foundation

/// An axis-aligned rectangle in a projected coordinate system.
public struct ProjectedBounds: Hashable, Sendable, Codable {
    /// The smallest x (left edge).
    public var minX: Double
    /// The smallest y (bottom edge, for northing axes).
    public var minY: Double
    /// The largest x (right edge).
    public var maxX: Double
    /// The largest y (top edge, for northing axes).
    public var maxY: Double

    /// Creates bounds from their edges.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
}

/// The spherical ("Web", "Pseudo-") Mercator projection EPSG:3857 used by slippy maps, MapKit and
/// every web tile server, in closed form.
///
/// It projects WGS84 longitude and latitude as if they were on a sphere of radius a = 6 378 137 m
/// (IOGP Guidance Note 7-2, method 1024). The map is square between latitudes
/// ±``maximumLatitude``. For other projections use `CoordinateTransformer` (PROJ).
public enum WebMercator {
    /// The sphere radius: the WGS84 semi-major axis, 6 378 137 m.
    public static let radius = WGS84.equatorialRadius

    /// The latitude at which the map becomes square, atan(sinh π) ≈ 85.051 128 779 806 6°.
    public static let maximumLatitude = 85.051_128_779_806_59

    /// Half the width of the square map in meters, π·a ≈ 20 037 508.34 m.
    public static let halfWorldWidth = Double.pi * radius

    /// Projects a coordinate to EPSG:3857 meters.
    ///
    /// No clamping: latitudes of ±90° give ±infinity for y, beyond-range longitudes project beyond the
    /// map's edge.
    public static func project(_ coordinate: Coordinate) -> Position {
        let x = radius * Angle.radians(coordinate.longitude)
        let y: Double
        if coordinate.latitude <= -90 {
            y = -.infinity
        } else if coordinate.latitude >= 90 {
            y = .infinity
        } else {
            y = radius * log(tan(.pi / 4 + Angle.radians(coordinate.latitude) / 2))
        }
        return Position(x: x, y: y)
    }

    /// The coordinate of an EPSG:3857 point in meters (no wrapping of the longitude).
    public static func unproject(_ point: Position) -> Coordinate {
        Coordinate(
            latitude: Angle.degrees(.pi / 2 - 2 * atan(exp(-point.y / radius))),
            longitude: Angle.degrees(point.x / radius))
    }

    /// The position of a coordinate in the unit square of the map: x from 0 (180° W) to 1 (180° E),
    /// y from 0 (north edge) to 1 (south edge). Not clamped; NaN at the poles.
    public static func unitSquarePoint(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        WGS84.unitSquareMercator(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }
}
