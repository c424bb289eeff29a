import Foundation
import GeoCore

/// One recorded point of a ``Track``: where, and whatever else the recording knew about it.
///
/// A track point is what a GPX `<trkpt>`, a row of a track CSV or a position of a GeoJSON line
/// holds: a coordinate, and optionally an elevation, a time, an accuracy, a speed and a course. What
/// the recording did not say is `nil`, never a placeholder value: a point without a time has
/// `time == nil` (``hasTime``), and it takes part in lengths but not in durations or speeds.
public struct TrackPoint: Hashable, Sendable, Codable {
    /// The position on the WGS84 datum.
    public var coordinate: Coordinate
    /// Height in meters (GPX's `<ele>`: above mean sea level as the receiver reports it).
    public var elevation: Double?
    /// When the point was recorded.
    public var time: Date?
    /// Radius in meters of the circle the true position lies in, when the recording gave one.
    public var horizontalAccuracy: Double?
    /// Ground speed in meters per second as the receiver reported it.
    public var speed: Double?
    /// Direction of travel in degrees clockwise from true north, as the receiver reported it.
    public var course: Double?

    /// Creates a track point.
    public init(
        coordinate: Coordinate, elevation: Double? = nil, time: Date? = nil,
        horizontalAccuracy: Double? = nil, speed: Double? = nil, course: Double? = nil
    ) {
        self.coordinate = coordinate
        self.elevation = elevation
        self.time = time
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed
        self.course = course
    }

    /// The point of a position fix: its coordinate, time and horizontal accuracy, and its altitude,
    /// speed and course where Core Location's conventions mark them valid.
    public init(_ location: Location) {
        self.init(
            coordinate: location.coordinate,
            elevation: location.hasValidAltitude ? location.altitude : nil,
            time: location.timestamp,
            horizontalAccuracy: location.horizontalAccuracy,
            speed: location.hasValidSpeed ? location.speed : nil,
            course: location.hasValidCourse ? location.course : nil)
    }

    /// Whether the point has a time.
    public var hasTime: Bool { time != nil }

    /// The point as a position fix, for monitors and route progress; `nil` without a time (a fix
    /// always has one). Unknown values take Core Location's "not available" markers: accuracy 0
    /// when none was recorded (exact, as GPX positions are taken), −1 for altitude accuracy,
    /// speed and course.
    public var location: Location? {
        guard let time else { return nil }
        return Location(
            coordinate: coordinate, altitude: elevation ?? 0,
            horizontalAccuracy: horizontalAccuracy ?? 0,
            verticalAccuracy: elevation == nil ? -1 : 0, course: course ?? -1,
            speed: speed ?? -1, timestamp: time)
    }
}
