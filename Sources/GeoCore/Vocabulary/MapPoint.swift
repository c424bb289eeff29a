import Foundation

/// A point on MapKit's flat Web-Mercator world map, in map points.
///
/// The world is ``MapSize/world``: 268 435 456 (2²⁸) map points square, x growing east from the 180th
/// meridian and y growing south from latitude ``WebMercator/maximumLatitude``. The coordinate
/// (0, 0) is map point (134 217 728, 134 217 728). This is `MKMapPoint`.
public struct MapPoint: Hashable, Sendable, Codable {
    /// Map points east of the 180th meridian.
    public var x: Double
    /// Map points south of the map's northern edge.
    public var y: Double

    /// Creates a map point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The map point of a coordinate.
    ///
    /// Latitudes are clamped to ±``WebMercator/maximumLatitude`` (so the poles map to the map's top
    /// and bottom edges, y in [0, 2²⁸] whatever the rounding of the projection there); longitudes are
    /// not wrapped, so 180° maps to the right edge. NaN stays NaN.
    public init(_ coordinate: Coordinate) {
        let world = MapSize.world.width
        let latitude =
            coordinate.latitude.isNaN
            ? .nan
            : max(
                -WebMercator.maximumLatitude,
                min(WebMercator.maximumLatitude, coordinate.latitude))
        let unit = WGS84.unitSquareMercator(latitude: latitude, longitude: coordinate.longitude)
        x = unit.x * world
        // At the clamped latitudes the projection's rounding can step a hair past the map's edge.
        y = unit.y.isNaN ? .nan : max(0, min(world, unit.y * world))
    }

    /// The coordinate at this map point (the inverse of ``init(_:)``; x beyond the world gives
    /// longitudes beyond ±180°).
    public var coordinate: Coordinate {
        let world = MapSize.world.width
        let unit = WGS84.unitSquareMercatorInverse(x: x / world, y: y / world)
        return Coordinate(latitude: unit.latitude, longitude: unit.longitude)
    }

    /// The distance in meters to another map point, along the WGS84 geodesic between their
    /// coordinates (`MKMetersBetweenMapPoints`).
    public func distance(to other: MapPoint) -> Double {
        Geodesic.wgs84.distance(from: coordinate.normalized, to: other.coordinate.normalized)
    }

    /// Meters on the ground per map point at a latitude (`MKMetersPerMapPointAtLatitude`): the
    /// equatorial circumference 2π·6 378 137 m spread over 2²⁸ map points, times cos(latitude).
    public static func metersPerMapPoint(atLatitude latitude: Double) -> Double {
        2 * WebMercator.halfWorldWidth / MapSize.world.width * cos(Angle.radians(latitude))
    }

    /// Map points per meter at a latitude (`MKMapPointsPerMeterAtLatitude`).
    public static func mapPointsPerMeter(atLatitude latitude: Double) -> Double {
        1 / metersPerMapPoint(atLatitude: latitude)
    }
}

/// A width and height on the Web-Mercator world map, in map points (`MKMapSize`).
public struct MapSize: Hashable, Sendable, Codable {
    /// East–west extent in map points.
    public var width: Double
    /// North–south extent in map points.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The size of the whole world: 2²⁸ × 2²⁸ map points.
    public static let world = MapSize(width: 268_435_456, height: 268_435_456)
}
