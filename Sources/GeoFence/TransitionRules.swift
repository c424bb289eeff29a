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
    ///   - record: The fence's record; updated in place.
    ///   - fix: The new fix (already validated).
    ///   - previous: The device's previous accepted fix, for crossings.
    ///   - changes: Receives the events, in time order.
    func apply(fix: Location, previous: Location?, to record: inout GeofenceRecord, changes: inout [Change]) {
        let condition = record.condition
        let accuracy = fix.horizontalAccuracy
        // Only the sign matters beyond accuracy + margin, which lets polygons skip most edges.
        let d = condition.signedDistance(from: fix.coordinate, upTo: accuracy + hysteresis)
        let before = record.state
        var after = before
        switch before {
        case .unknown:
            if d <= -accuracy { after = .satisfied } else if d > accuracy { after = .unsatisfied }
        case .unsatisfied:
            if d <= -(accuracy + hysteresis) { after = .satisfied }
        case .satisfied:
            if d > accuracy + hysteresis { after = .unsatisfied }
        }

        // A fence passed through between two fixes that are both outside it.
        if before == .unsatisfied && after == .unsatisfied && d > accuracy && detectsCrossings, let previous {
            let required = hysteresis + max(accuracy, previous.horizontalAccuracy)
            if let crossing = PathCrossing.find(condition, from: previous.coordinate, to: fix.coordinate, depth: required) {
                let uncertainty = max(accuracy, previous.horizontalAccuracy)
                let reason = GeofenceEvent.Reason.crossing(
                    from: previous.timestamp, to: fix.timestamp, deepestDistanceToBoundary: crossing.deepest)
                for (point, fraction, state) in [
                    (crossing.entry, crossing.entryFraction, GeofenceState.satisfied),
                    (crossing.exit, crossing.exitFraction, GeofenceState.unsatisfied),
                ] {
                    let date = previous.timestamp + fix.timestamp.timeIntervalSince(previous.timestamp) * fraction
                    let location = Location(coordinate: point, horizontalAccuracy: uncertainty, timestamp: date)
                    let change = Change(state: state, date: date, location: location, reason: reason)
                    changes.append(change)
                    record.lastEvent = GeofenceEvent(identifier: "", state: state, date: date, location: location, reason: reason)
                }
            }
        }

        if after != before {
            let exact = condition.signedDistance(from: fix.coordinate)
            let change = Change(
                state: after, date: fix.timestamp, location: fix,
                reason: .fix(distanceToBoundary: exact, accuracy: accuracy))
            changes.append(change)
            record.state = after
            record.lastEvent = GeofenceEvent(
                identifier: "", state: after, date: fix.timestamp, location: fix, reason: change.reason)
            record.insideSince = after == .satisfied ? fix.timestamp : nil
            record.dwellReported = false
        } else if after == .satisfied && record.insideSince == nil && d <= -accuracy {
            // An assumed inside state, now confirmed by a fix: the stay starts here.
            record.insideSince = fix.timestamp
        }
        checkDwell(at: fix.timestamp, lastFix: fix, record: &record, changes: &changes)
    }

    /// Produces the dwell event of a record whose stay inside has lasted the dwell time by `date`.
    func checkDwell(at date: Date, lastFix: Location, record: inout GeofenceRecord, changes: inout [Change]) {
        guard let dwellTime, record.state == .satisfied, !record.dwellReported,
            let since = record.insideSince, date.timeIntervalSince(since) >= dwellTime
        else { return }
        let change = Change(state: .satisfied, date: date, location: lastFix, reason: .dwell(since: since))
        changes.append(change)
        record.dwellReported = true
        record.lastEvent = GeofenceEvent(identifier: "", state: .satisfied, date: date, location: lastFix, reason: change.reason)
    }
}
