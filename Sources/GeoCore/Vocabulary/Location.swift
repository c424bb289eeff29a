import Foundation

/// A position fix: where, how precisely, how fast, heading where, and when, as Core Location's
/// `CLLocation` reports it.
///
/// Following Core Location, a negative accuracy, speed or course means "not available": a negative
/// ``horizontalAccuracy`` makes the whole fix invalid, a negative ``verticalAccuracy`` makes
/// ``altitude`` meaningless, and so on. The `has...` properties say which parts are usable.
public struct Location: Hashable, Sendable, Codable {
    /// The position on the WGS84 datum.
    public var coordinate: Coordinate
    /// Height in meters (above mean sea level for GPS receivers that report it so); meaningful only
    /// when ``verticalAccuracy`` is not negative.
    public var altitude: Double
    /// Radius in meters of the circle within which the true position lies (at the receiver's stated
    /// confidence); negative when the fix is invalid.
    public var horizontalAccuracy: Double
    /// Uncertainty of ``altitude`` in meters; negative when the altitude is invalid.
    public var verticalAccuracy: Double
    /// Ground speed in meters per second; negative when unknown.
    public var speed: Double
    /// Uncertainty of ``speed`` in meters per second; negative when unknown.
    public var speedAccuracy: Double
    /// Direction of travel in degrees clockwise from true north, in [0, 360); negative when unknown.
    public var course: Double
    /// Uncertainty of ``course`` in degrees; negative when unknown.
    public var courseAccuracy: Double
    /// When the fix was taken.
    public var timestamp: Date

    /// Creates a fix. The defaults describe a position known exactly, with nothing else known, taken
    /// now, as `CLLocation(latitude:longitude:)` does.
    public init(
        coordinate: Coordinate,
        altitude: Double = 0,
        horizontalAccuracy: Double = 0,
        verticalAccuracy: Double = -1,
        course: Double = -1,
        courseAccuracy: Double = -1,
        speed: Double = -1,
        speedAccuracy: Double = -1,
        timestamp: Date = Date()
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.timestamp = timestamp
    }

    /// Creates a fix at a latitude and longitude in degrees, with the defaults of
    /// ``init(coordinate:altitude:horizontalAccuracy:verticalAccuracy:course:courseAccuracy:speed:speedAccuracy:timestamp:)``.
    public init(latitude: Double, longitude: Double, timestamp: Date = Date()) {
        self.init(
            coordinate: Coordinate(latitude: latitude, longitude: longitude), timestamp: timestamp)
    }

    /// Whether the horizontal position is usable: a valid coordinate and a non-negative, finite
    /// horizontal accuracy.
    public var hasValidPosition: Bool {
        coordinate.isValid && horizontalAccuracy >= 0 && horizontalAccuracy.isFinite
    }

    /// Whether ``altitude`` is meaningful (``verticalAccuracy`` is not negative).
    public var hasValidAltitude: Bool { verticalAccuracy >= 0 && altitude.isFinite }

    /// Whether ``speed`` is known.
    public var hasValidSpeed: Bool { speed >= 0 && speed.isFinite }

    /// Whether ``course`` is known.
    public var hasValidCourse: Bool { course >= 0 && course.isFinite }

    /// This fix, if its position is usable.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for a NaN or out-of-range
    ///   coordinate, ``GeoError/Kind-swift.struct/invalidArgument`` for a negative or non-finite
    ///   horizontal accuracy. The message names the bad value.
    public func validated() throws(GeoError) -> Location {
        _ = try coordinate.validated()
        guard horizontalAccuracy >= 0 && horizontalAccuracy.isFinite else {
            throw GeoError(
                .invalidArgument,
                "horizontal accuracy \(horizontalAccuracy) m marks the fix as invalid")
        }
        return self
    }

    /// The geodesic distance to another fix in meters on the WGS84 ellipsoid, ignoring altitude, as
    /// `CLLocation.distance(from:)` does.
    public func distance(from other: Location) -> Double {
        coordinate.distance(to: other.coordinate)
    }
}
