import Foundation
import GeoCore

/// A rule that removes defective fixes from a recorded ``Track``; see ``Track/filtered(by:)``.
public enum TrackFilter: Hashable, Sendable, Codable {
    /// Drops fixes whose position is invalid (negative horizontal accuracy or a bad coordinate, as
    /// Core Location marks them) or whose horizontal accuracy is worse than `maximum` meters.
    case horizontalAccuracy(maximum: Double)
    /// Drops fixes that arrive late: those whose timestamp is more than `maximumAge` seconds older
    /// than the newest fix kept before them (a cached position delivered after fresher ones). With a
    /// maximum age of 0, any fix that goes back in time is dropped.
    case staleness(maximumAge: TimeInterval)
    /// Drops a fix whose timestamp equals that of the fix kept before it (the first one stays).
    case duplicateTimestamps
    /// Drops spikes: a fix that is reached from the fix kept before it at more than `maximumSpeed`
    /// meters per second and left for the next fix at more than that speed, while going straight
    /// from the kept fix to the next would not be too fast. The first fix of a segment is a spike
    /// if it is left too fast for a second fix that is left at a plausible speed; the last if it is
    /// reached too fast. Speeds are geodesic distance over elapsed time; fixes with equal or
    /// reversed times are not judged.
    case speedOutliers(maximumSpeed: Double)
}

extension Track {
    /// The track without the fixes the filters reject, applied one after the other, each within
    /// every segment. Segments left empty are kept, so segment indices stay the same.
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` for a NaN or negative
    ///   threshold.
    /// - Complexity: O(n) per filter; the speed filter solves two or three inverse geodesics per fix.
    public func filtered(by filters: [TrackFilter]) throws(GeoError) -> Track {
        var result = self
        for filter in filters {
            switch filter {
            case .horizontalAccuracy(let maximum):
                try Track.check(maximum, "maximum horizontal accuracy", unit: "m")
                result.segments = result.segments.map { segment in
                    segment.filter { $0.hasValidPosition && $0.horizontalAccuracy <= maximum }
                }
            case .staleness(let maximumAge):
                try Track.check(maximumAge, "maximum age", unit: "s")
                result.segments = result.segments.map { segment in
                    var newest = Date.distantPast
                    var kept = [Location]()
                    kept.reserveCapacity(segment.count)
                    for fix in segment where newest.timeIntervalSince(fix.timestamp) <= maximumAge {
                        kept.append(fix)
                        if fix.timestamp > newest { newest = fix.timestamp }
                    }
                    return kept
                }
            case .duplicateTimestamps:
                result.segments = result.segments.map { segment in
                    var kept = [Location]()
                    kept.reserveCapacity(segment.count)
                    for fix in segment where kept.last?.timestamp != fix.timestamp {
                        kept.append(fix)
                    }
                    return kept
                }
            case .speedOutliers(let maximumSpeed):
                try Track.check(maximumSpeed, "maximum speed", unit: "m/s")
                result.segments = result.segments.map {
                    Track.removingSpikes($0, maximumSpeed: maximumSpeed)
                }
            }
        }
        return result
    }

    private static func check(_ value: Double, _ name: String, unit: String) throws(GeoError) {
        guard value >= 0 else {
            throw GeoError(.invalidArgument, "\(name) \(value) \(unit) must not be negative or NaN")
        }
    }

    /// The speed in m/s from one fix to the next, or `nil` when their times are equal or reversed.
    static func speed(from a: Location, to b: Location) -> Double? {
        let elapsed = b.timestamp.timeIntervalSince(a.timestamp)
        guard elapsed > 0, a.hasKnownTime, b.hasKnownTime else { return nil }
        return a.coordinate.distance(to: b.coordinate) / elapsed
    }

    private static func removingSpikes(_ fixes: [Location], maximumSpeed: Double) -> [Location] {
        guard fixes.count > 1 else { return fixes }
        func tooFast(_ a: Location, _ b: Location) -> Bool {
            (speed(from: a, to: b) ?? 0) > maximumSpeed
        }
        var kept = [Location]()
        kept.reserveCapacity(fixes.count)
        var start = 0
        // A first fix left too fast, when the second fix is left at a plausible speed.
        if fixes.count > 2 && tooFast(fixes[0], fixes[1]) && !tooFast(fixes[1], fixes[2]) {
            start = 1
        }
        kept.append(fixes[start])
        for i in (start + 1)..<fixes.count {
            let previous = kept[kept.count - 1]
            let fix = fixes[i]
            guard tooFast(previous, fix) else {
                kept.append(fix)
                continue
            }
            if i == fixes.count - 1 { continue }  // the last fix, reached too fast
            let next = fixes[i + 1]
            if tooFast(fix, next) && !tooFast(previous, next) { continue }  // out and back: a spike
            kept.append(fix)
        }
        return kept
    }
}
