import Foundation
import GeoCore

/// Whether a device is inside a geofence, as Core Location's `CLMonitor.Event.State`.
public enum GeofenceState: String, Hashable, Sendable, Codable, CaseIterable {
    /// No fix has decided it yet: every fix so far had an accuracy circle across the boundary, or
    /// there was no fix at all.
    case unknown
    /// Inside the fence.
    case satisfied
    /// Outside the fence.
    case unsatisfied
}

/// A change of a geofence's state, or a dwell, with the location and the reason that caused it.
public struct GeofenceEvent: Hashable, Sendable, Codable {
    /// The identifier the fence was added with.
    public var identifier: String
    /// The state after the event. A dwell keeps ``GeofenceState/satisfied``.
    public var state: GeofenceState
    /// When it happened: the fix's timestamp; for a crossing between two fixes, the time
    /// interpolated along the path; for a dwell, when it was noticed.
    public var date: Date
    /// The fix that caused it; for a crossing, the point where the path between two fixes crosses
    /// the boundary (its timestamp is ``date`` and its accuracy the larger of the two fixes'); for a
    /// dwell, the last fix.
    public var location: Location
    /// Why it happened.
    public var reason: Reason

    /// Why an event happened.
    public enum Reason: Hashable, Sendable, Codable {
        /// A fix decided the state. `distanceToBoundary` is the signed geodesic distance from the fix
        /// to the boundary in meters (negative inside) and `accuracy` the fix's horizontal accuracy
        /// in meters.
        case fix(distanceToBoundary: Double, accuracy: Double)
        /// The geodesic path between two consecutive fixes, both outside, passed through the fence:
        /// one event enters, one exits. `from` and `to` are the two fixes' timestamps;
        /// `deepestDistanceToBoundary` is the signed distance (negative) of the path's deepest point.
        case crossing(from: Date, to: Date, deepestDistanceToBoundary: Double)
        /// The device stayed inside for the configured dwell time; `since` is when its stay began.
        case dwell(since: Date)
    }

    /// Creates an event.
    public init(
        identifier: String, state: GeofenceState, date: Date, location: Location, reason: Reason
    ) {
        self.identifier = identifier
        self.state = state
        self.date = date
        self.location = location
        self.reason = reason
    }
}

/// What a ``GeofenceMonitor`` knows about one fence, as Core Location's `CLMonitor.Record`.
public struct GeofenceRecord: Hashable, Sendable, Codable {
    /// The fence.
    public var condition: GeographicCondition
    /// Its current state.
    public var state: GeofenceState
    /// The last event it produced, if any.
    public var lastEvent: GeofenceEvent?
    /// When the current stay inside began (set by the fix that entered, or by the first fix that
    /// confirmed an assumed ``GeofenceState/satisfied``); `nil` when not inside.
    public var insideSince: Date?
    /// Whether the dwell event of the current stay was already reported.
    public var dwellReported: Bool

    /// Creates a record in a state, with nothing else known.
    public init(condition: GeographicCondition, state: GeofenceState) {
        self.condition = condition
        self.state = state
        lastEvent = nil
        insideSince = nil
        dwellReported = false
    }
}
