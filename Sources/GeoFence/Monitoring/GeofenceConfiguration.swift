import Foundation
import GeoCore

/// How a ``GeofenceMonitor`` or ``GeofenceIndex`` turns fixes into events.
///
/// The rules, for a fix with horizontal accuracy a at signed geodesic distance d from a fence's
/// boundary (negative inside) and a hysteresis margin h:
///
/// | state before | becomes | when |
/// |---|---|---|
/// | unknown | satisfied | d ≤ −a (the whole accuracy circle is inside) |
/// | unknown | unsatisfied | d > a (the whole accuracy circle is outside) |
/// | unsatisfied | satisfied | d ≤ −(a + h) |
/// | satisfied | unsatisfied | d > a + h |
///
/// Otherwise the state stays: a fix whose accuracy circle straddles the boundary neither enters
/// nor exits, and a fence with no decisive fix yet stays ``GeofenceState/unknown``. With a = 0 and
/// h = 0 a fix is inside exactly when its geodesic distance to a circle's center is at most the
/// radius.
public struct GeofenceConfiguration: Hashable, Sendable, Codable {
    /// The hysteresis margin h in meters: once inside, a fix must be this far outside (beyond its
    /// accuracy) to exit, and once outside, this far inside to enter again. It keeps noisy fixes
    /// whose accuracy is understated from flapping. The first decision of an unknown state uses the
    /// exact boundary.
    ///
    /// The default, ``defaultHysteresis`` = 5 m, is about the scatter of a consumer GNSS fix under
    /// open sky, so a device standing on a boundary does not flap while a fence of 20 m radius can
    /// still be entered with a 10 m fix. A fence narrower than 2 (a + h) can only be entered from
    /// ``GeofenceState/unknown``; lower the margin for very small fences.
    public var hysteresis: Double
    /// The dwell time in seconds: after staying inside a fence this long, one ``GeofenceEvent`` with
    /// reason ``GeofenceEvent/Reason/dwell(since:)`` is produced; `nil` turns dwell events off.
    public var dwellTime: Double?
    /// Which valid fixes to turn away before they change anything.
    public var fixFilter: FixFilter
    /// Whether a fence crossed by the geodesic path between two consecutive fixes gets an enter and
    /// an exit event although neither fix is inside it (see ``GeofenceEvent/Reason/crossing(from:to:deepestDistanceToBoundary:)``).
    public var detectsCrossings: Bool

    /// The default hysteresis margin: 5 m.
    public static let defaultHysteresis = 5.0

    /// Creates a configuration.
    public init(
        hysteresis: Double = GeofenceConfiguration.defaultHysteresis,
        dwellTime: Double? = nil,
        fixFilter: FixFilter = .none,
        detectsCrossings: Bool = true
    ) {
        self.hysteresis = hysteresis
        self.dwellTime = dwellTime
        self.fixFilter = fixFilter
        self.detectsCrossings = detectsCrossings
    }

    /// This configuration, if its numbers are usable.
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` for a NaN, infinite or negative
    ///   hysteresis, a dwell time that is not finite and positive, or a bad filter.
    public func validated() throws(GeoError) -> GeofenceConfiguration {
        guard hysteresis.isFinite && hysteresis >= 0 else {
            throw GeoError(
                .invalidArgument, "hysteresis \(hysteresis) m must be finite and not negative")
        }
        if let dwellTime, !(dwellTime.isFinite && dwellTime > 0) {
            throw GeoError(
                .invalidArgument, "dwell time \(dwellTime) s must be finite and positive")
        }
        _ = try fixFilter.validated()
        return self
    }
}

/// Valid fixes to turn away: too inaccurate or too old. A filtered fix is rejected with
/// `GeoError.Kind.filteredFix` and changes nothing.
public struct FixFilter: Hashable, Sendable, Codable {
    /// The largest horizontal accuracy in meters accepted; `nil` accepts any.
    public var maximumAccuracy: Double?
    /// The largest age in seconds (the clock's now minus the fix's timestamp) accepted; `nil`
    /// accepts any.
    public var maximumAge: Double?

    /// Creates a filter.
    public init(maximumAccuracy: Double? = nil, maximumAge: Double? = nil) {
        self.maximumAccuracy = maximumAccuracy
        self.maximumAge = maximumAge
    }

    /// Accepts every valid fix.
    public static let none = FixFilter()

    /// Accuracy at most 100 m and age at most 30 s.
    public static let recommended = FixFilter(maximumAccuracy: 100, maximumAge: 30)

    /// This filter, if its limits are usable.
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` for a limit that is NaN, infinite or
    ///   negative.
    public func validated() throws(GeoError) -> FixFilter {
        if let maximumAccuracy, !(maximumAccuracy.isFinite && maximumAccuracy >= 0) {
            throw GeoError(
                .invalidArgument,
                "fix filter: maximum accuracy \(maximumAccuracy) m must be finite and not negative")
        }
        if let maximumAge, !(maximumAge.isFinite && maximumAge >= 0) {
            throw GeoError(
                .invalidArgument,
                "fix filter: maximum age \(maximumAge) s must be finite and not negative")
        }
        return self
    }

    /// Throws if the filter turns a valid fix away.
    ///
    /// - Throws: `GeoError.Kind.filteredFix` naming the limit and the fix's value.
    func check(_ fix: Location, now: Date) throws(GeoError) {
        if let maximumAccuracy, fix.horizontalAccuracy > maximumAccuracy {
            throw GeoError(
                .filteredFix,
                "fix at \(FixCheck.describe(fix.timestamp)) has accuracy \(fix.horizontalAccuracy) m, above the filter's \(maximumAccuracy) m"
            )
        }
        if let maximumAge {
            let age = now.timeIntervalSince(fix.timestamp)
            if age > maximumAge {
                throw GeoError(
                    .filteredFix,
                    "fix at \(FixCheck.describe(fix.timestamp)) is \(age) s old, above the filter's \(maximumAge) s"
                )
            }
        }
    }
}

/// The checks every fix goes through before it may change anything.
enum FixCheck {
    /// Validates a fix against the last accepted one and the filter.
    ///
    /// - Throws: `GeoError.Kind.invalidCoordinate` (NaN or out-of-range
    ///   coordinate), `GeoError.Kind.invalidArgument` (negative or non-finite
    ///   accuracy, non-finite timestamp), `GeoError.Kind.staleFix` (older than the
    ///   last processed fix), `GeoError.Kind.filteredFix`.
    static func validate(
        _ fix: Location, after last: Date?, filter: FixFilter, now: Date
    ) throws(GeoError) {
        guard fix.timestamp.timeIntervalSinceReferenceDate.isFinite else {
            throw GeoError(
                .invalidArgument,
                "fix timestamp \(fix.timestamp.timeIntervalSinceReferenceDate) is not a finite time"
            )
        }
        do throws(GeoError) {
            _ = try fix.validated()
        } catch {
            throw GeoError(error.kind, "fix at \(describe(fix.timestamp)): \(error.message)")
        }
        if let last, fix.timestamp < last {
            throw GeoError(
                .staleFix,
                "fix at \(describe(fix.timestamp)) is older than the last processed fix at \(describe(last))"
            )
        }
        try filter.check(fix, now: now)
    }

    /// An ISO 8601 timestamp in UTC with as many fractional digits as it needs (up to
    /// microseconds, rounded), for messages: two fixes a fraction of a millisecond apart read
    /// apart (the format style truncated to milliseconds, so 2.001 s could read 2.000).
    static func describe(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e14 else { return "\(seconds) s after 1970" }
        return ISO8601Time.format(date)
    }
}
