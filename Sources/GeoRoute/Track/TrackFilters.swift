import Foundation
import GeoCore

/// A rule that removes defective fixes from a recorded ``Track``; see ``Track/filtered(by:)``.
public enum TrackFilter: Hashable, Sendable, Codable {
    /// Drops points whose position is invalid (a bad coordinate, or a negative or non-finite
    /// horizontal accuracy, as Core Location marks invalid fixes) or whose horizontal accuracy is
    /// worse than `maximum` meters. Points without a recorded accuracy are kept.
    case horizontalAccuracy(maximum: Double)
    /// Drops points that arrive late: those whose time is more than `maximumAge` seconds older than
    /// the newest point kept before them (a cached position delivered after fresher ones). With a
    /// maximum age of 0, any point that goes back in time is dropped. Points without a time are
    /// kept.
    case staleness(maximumAge: TimeInterval)
    /// Drops a point whose time equals that of the point kept before it (the first one stays).
    case duplicateTimestamps
    /// Drops spikes: a point that is reached from the point kept before it at more than
    /// `maximumSpeed` meters per second and left for the next point at more than that speed, while
    /// going straight from the kept point to the next would not be too fast. The first point of a
    /// segment is a spike if it is left too fast for a second point that is left at a plausible
    /// speed; the last if it is reached too fast. Speeds are geodesic distance over elapsed time;
    /// points with equal, reversed or missing times are not judged.
    case speedOutliers(maximumSpeed: Double)
}

extension Track {
    /// The track without the points the filters reject, applied one after the other, each within
    /// every segment. Segments left empty are kept, so segment indices stay the same; the filters
    /// are added to ``appliedFilters``.
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
                    segment.filter { point in
                        guard point.coordinate.isValid else { return false }
                        guard let accuracy = point.horizontalAccuracy else { return true }
                        return accuracy >= 0 && accuracy <= maximum
                    }
                }
            case .staleness(let maximumAge):
                try Track.check(maximumAge, "maximum age", unit: "s")
                result.segments = result.segments.map { segment in
                    var newest: Date?
                    var kept = [TrackPoint]()
                    kept.reserveCapacity(segment.count)
                    for point in segment {
                        guard let time = point.time else {
                            kept.append(point)
                            continue
                        }
                        if let newest, newest.timeIntervalSince(time) > maximumAge { continue }
                        kept.append(point)
                        if newest.map({ time > $0 }) ?? true { newest = time }
                    }
                    return kept
                }
            case .duplicateTimestamps:
                result.segments = result.segments.map { segment in
                    var kept = [TrackPoint]()
                    kept.reserveCapacity(segment.count)
                    for point in segment
                    where point.time == nil || kept.last?.time != point.time {
                        kept.append(point)
                    }
                    return kept
                }
            case .speedOutliers(let maximumSpeed):
                try Track.check(maximumSpeed, "maximum speed", unit: "m/s")
                result.segments = result.segments.map {
                    Track.removingSpikes($0, maximumSpeed: maximumSpeed)
                }
            }
            result.appliedFilters.append(filter)
        }
        return result
    }

    private static func check(_ value: Double, _ name: String, unit: String) throws(GeoError) {
        guard value >= 0 else {
            throw GeoError(.invalidArgument, "\(name) \(value) \(unit) must not be negative or NaN")
        }
    }

    /// The speed in m/s from one point to the next, or `nil` when a time is missing or the times
    /// are equal or reversed.
    static func speed(from a: TrackPoint, to b: TrackPoint) -> Double? {
        guard let ta = a.time, let tb = b.time else { return nil }
        let elapsed = tb.timeIntervalSince(ta)
        guard elapsed > 0 else { return nil }
        return a.coordinate.distance(to: b.coordinate) / elapsed
    }

    private static func removingSpikes(
        _ fixes: [TrackPoint], maximumSpeed: Double
    ) -> [TrackPoint] {
        guard fixes.count > 1 else { return fixes }
        func tooFast(_ a: TrackPoint, _ b: TrackPoint) -> Bool {
            (speed(from: a, to: b) ?? 0) > maximumSpeed
        }
        var kept = [TrackPoint]()
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
