import Foundation
import GeoCore

/// The state machine shared by ``GeofenceMonitor`` and ``GeofenceIndex``: how one accepted fix
/// changes one fence's record (the table in ``GeofenceConfiguration``), plus crossings between fixes
/// and dwell.
struct TransitionRules: Sendable {
    let hysteresis: Double
    let dwellTime: Double?
    let detectsCrossings: Bool

    init(_ configuration: GeofenceConfiguration) {
        hysteresis = configuration.hysteresis
        dwellTime = configuration.dwellTime
        detectsCrossings = configuration.detectsCrossings
    }

    /// An event before its fence's identifier is attached.
    struct Change: Sendable {
        var state: GeofenceState
        var date: Date
        var location: Location
        var reason: GeofenceEvent.Reason
    }

    /// Applies an accepted fix to one fence.
    ///
    /// - Parameters:
    ///   - fix: The new fix (already validated).
    ///   - path: The geodesic from the device's previous accepted fix to this one, for crossings.
    ///   - condition: The fence (fetched only if needed).
    ///   - bounds: Proven bounds of the fix's signed distance to the boundary, if known cheaply; the
    ///     exact distance is computed only when they cannot decide a comparison.
    ///   - tracking: The fence's state for this device; updated in place.
    ///   - changes: Receives the events, in time order.
    func apply(
        fix: Location, path lazyPath: inout PathCrossing.LazyPath,
        condition fence: () -> GeographicCondition,
        bounds: (lower: Double, upper: Double)? = nil,
        tracking: inout FenceTracking, changes: inout [Change]
    ) {
        // The condition is fetched only when the bounds cannot decide (it is a large value, and the
        // index keeps millions of them).
        var fetched: GeographicCondition?
        func condition() -> GeographicCondition {
            if let fetched { return fetched }
            let value = fence()
            fetched = value
            return value
        }
        let accuracy = fix.horizontalAccuracy
        var exactValue: Double?
        // Only the sign matters beyond accuracy + margin, which lets polygons skip most edges.
        func exact() -> Double {
            if let exactValue { return exactValue }
            let value = condition().signedDistance(
                from: fix.coordinate, upTo: accuracy + hysteresis)
            exactValue = value
            return value
        }
        /// Whether the signed distance d ≤ t.
        func atMost(_ t: Double) -> Bool {
            if let bounds {
                if bounds.upper <= t { return true }
                if bounds.lower > t { return false }
            }
            return exact() <= t
        }
        let before = tracking.state
        var after = before
        switch before {
        case .unknown:
            if atMost(-accuracy) {
                after = .satisfied
            } else if !atMost(accuracy) {
                after = .unsatisfied
            }
        case .unsatisfied:
            if atMost(-(accuracy + hysteresis)) { after = .satisfied }
        case .satisfied:
            if !atMost(accuracy + hysteresis) { after = .unsatisfied }
        }

        // A fence passed through between two fixes that are both outside it.
        if before == .unsatisfied && after == .unsatisfied && detectsCrossings
            && lazyPath.from != nil && !atMost(accuracy),
            let path = lazyPath.get()
        {
            let uncertainty = max(accuracy, path.from.horizontalAccuracy)
            for crossing in PathCrossing.find(
                condition(), along: path, depth: hysteresis + uncertainty)
            {
                let reason = GeofenceEvent.Reason.crossing(
                    from: path.from.timestamp, to: fix.timestamp,
                    deepestDistanceToBoundary: crossing.deepest)
                let elapsed = fix.timestamp.timeIntervalSince(path.from.timestamp)
                for (point, fraction, state) in [
                    (crossing.entry, crossing.entryFraction, GeofenceState.satisfied),
                    (crossing.exit, crossing.exitFraction, GeofenceState.unsatisfied),
                ] {
                    let date = path.from.timestamp + elapsed * fraction
                    let location = Location(
                        coordinate: point, horizontalAccuracy: uncertainty, timestamp: date)
                    changes.append(
                        Change(state: state, date: date, location: location, reason: reason))
                }
            }
        }

        if after != before {
            let exact = condition().signedDistance(from: fix.coordinate)
            changes.append(
                Change(
                    state: after, date: fix.timestamp, location: fix,
                    reason: .fix(distanceToBoundary: exact, accuracy: accuracy)))
            tracking.state = after
            tracking.insideSince = after == .satisfied ? fix.timestamp : nil
            tracking.dwellReported = false
        } else if after == .satisfied && tracking.insideSince == nil && atMost(-accuracy) {
            // An assumed inside state, now confirmed by a fix: the stay starts here.
            tracking.insideSince = fix.timestamp
        }
        checkDwell(at: fix.timestamp, lastFix: fix, tracking: &tracking, changes: &changes)
    }

    /// Produces the dwell event of a fence whose stay inside has lasted the dwell time by `date`.
    func checkDwell(
        at date: Date, lastFix: Location, tracking: inout FenceTracking, changes: inout [Change]
    ) {
        guard let dwellTime, tracking.state == .satisfied, !tracking.dwellReported,
            let since = tracking.insideSince, date.timeIntervalSince(since) >= dwellTime
        else { return }
        changes.append(
            Change(state: .satisfied, date: date, location: lastFix, reason: .dwell(since: since)))
        tracking.dwellReported = true
    }
}

/// One fence's state for one device: what the rules read and write.
struct FenceTracking: Hashable, Sendable {
    var state: GeofenceState
    var insideSince: Date?
    var dwellReported: Bool

    init(state: GeofenceState, insideSince: Date? = nil, dwellReported: Bool = false) {
        self.state = state
        self.insideSince = insideSince
        self.dwellReported = dwellReported
    }
}

extension GeofenceRecord {
    /// The part of the record the rules change.
    var tracking: FenceTracking {
        get { FenceTracking(state: state, insideSince: insideSince, dwellReported: dwellReported) }
        set {
            state = newValue.state
            insideSince = newValue.insideSince
            dwellReported = newValue.dwellReported
        }
    }
}
