import Foundation
import GeoCore

/// Elevation gained and lost along a track, in meters (both not negative).
public struct ElevationChange: Hashable, Sendable, Codable {
    /// Total ascent in meters.
    public var gain: Double
    /// Total descent in meters, as a positive number.
    public var loss: Double

    /// Creates an elevation change.
    public init(gain: Double, loss: Double) {
        self.gain = gain
        self.loss = loss
    }
}

/// The summary figures of a ``Track``, computed together in one pass by ``Track/statistics(movingSpeed:elevationThreshold:)``.
public struct TrackStatistics: Hashable, Sendable, Codable {
    /// Meters along the geodesics between consecutive fixes, within segments.
    public var length: Double
    /// Seconds from the first to the last fix of each segment, summed over segments.
    public var duration: TimeInterval
    /// Seconds spent in intervals between consecutive fixes whose average speed is at least the
    /// moving speed.
    public var movingTime: TimeInterval
    /// Meters covered in those intervals.
    public var movingDistance: Double
    /// ``length`` over ``duration`` in m/s; `nil` when the duration is not positive.
    public var averageSpeed: Double?
    /// ``movingDistance`` over ``movingTime`` in m/s; `nil` when there is no moving time.
    public var averageMovingSpeed: Double?
    /// The largest average speed of an interval between consecutive fixes, in m/s; `nil` when no
    /// interval has a positive duration.
    public var maximumSpeed: Double?
    /// Elevation gained and lost.
    public var elevationChange: ElevationChange
}

extension Track {
    /// The length in meters: the sum of the geodesic distances on WGS84 between consecutive fixes of
    /// each segment (altitude ignored, as `CLLocation.distance(from:)`).
    /// - Complexity: O(n) inverse geodesics.
    public var length: Double {
        var total = 0.0
        for segment in segments where segment.count > 1 {
            for i in 1..<segment.count {
                total += segment[i - 1].coordinate.distance(to: segment[i].coordinate)
            }
        }
        return total
    }

    /// The duration in seconds: from the first to the last fix of each segment, summed over
    /// segments (pauses between segments do not count). A segment whose first or last fix has no
    /// time (``GPX/missingTime``) adds nothing.
    public var duration: TimeInterval {
        segments.reduce(0) { total, segment in
            guard let first = segment.first, let last = segment.last, first.hasKnownTime,
                last.hasKnownTime
            else {
                return total
            }
            return total + last.timestamp.timeIntervalSince(first.timestamp)
        }
    }

    /// The summary figures of the track.
    ///
    /// Each interval between consecutive fixes of a segment has a geodesic distance d and a duration
    /// t. It counts as moving when t > 0 and d / t ≥ `movingSpeed`; the maximum speed is the largest
    /// d / t with t > 0. Intervals that touch a fix without a time (``GPX/missingTime``) count for
    /// the length only. Elevation is taken from the fixes with a valid altitude (see
    /// ``elevationChange(threshold:)``).
    ///
    /// - Parameters:
    ///   - movingSpeed: Meters per second at or above which an interval counts as moving; 0.5 m/s
    ///     (1.8 km/h) by default.
    ///   - elevationThreshold: Meters of hysteresis for the elevation change; 0 sums every rise and
    ///     fall.
    /// - Complexity: O(n) inverse geodesics.
    public func statistics(
        movingSpeed: Double = 0.5, elevationThreshold: Double = 0
    ) -> TrackStatistics {
        var length = 0.0, movingTime = 0.0, movingDistance = 0.0
        var maximumSpeed: Double?
        for segment in segments where segment.count > 1 {
            for i in 1..<segment.count {
                let d = segment[i - 1].coordinate.distance(to: segment[i].coordinate)
                let t = segment[i].timestamp.timeIntervalSince(segment[i - 1].timestamp)
                length += d
                guard t > 0, segment[i - 1].hasKnownTime, segment[i].hasKnownTime else { continue }
                let v = d / t
                maximumSpeed = max(maximumSpeed ?? v, v)
                if v >= movingSpeed {
                    movingTime += t
                    movingDistance += d
                }
            }
        }
        let duration = self.duration
        return TrackStatistics(
            length: length, duration: duration, movingTime: movingTime,
            movingDistance: movingDistance,
            averageSpeed: duration > 0 ? length / duration : nil,
            averageMovingSpeed: movingTime > 0 ? movingDistance / movingTime : nil,
            maximumSpeed: maximumSpeed,
            elevationChange: elevationChange(threshold: elevationThreshold))
    }

    /// Seconds spent moving: the sum of the intervals between consecutive fixes whose average speed
    /// is at least `minimumSpeed` m/s (0.5 by default).
    public func movingTime(minimumSpeed: Double = 0.5) -> TimeInterval {
        statistics(movingSpeed: minimumSpeed).movingTime
    }

    /// The average speed in m/s over the whole ``duration``; `nil` when the duration is not positive.
    public var averageSpeed: Double? {
        let duration = self.duration
        return duration > 0 ? length / duration : nil
    }

    /// The largest average speed in m/s of an interval between consecutive fixes; `nil` when no
    /// interval has a positive duration. Filter spikes first (``TrackFilter/speedOutliers(maximumSpeed:)``):
    /// one bad fix makes this figure meaningless.
    public var maximumSpeed: Double? { statistics().maximumSpeed }

    /// Elevation gained and lost, from the altitudes of the fixes that have one
    /// (`Location.hasValidAltitude`), within segments.
    ///
    /// With a threshold of 0 every rise and fall between consecutive altitudes counts. A positive
    /// threshold ignores changes smaller than it (hysteresis): a reference altitude moves only once
    /// the altitude has risen or fallen from it by at least the threshold, and only then is the
    /// difference counted, which keeps GPS altitude noise from inflating the totals.
    ///
    /// - Parameter threshold: Meters, not negative (negative values count as 0).
    public func elevationChange(threshold: Double = 0) -> ElevationChange {
        var gain = 0.0, loss = 0.0
        let threshold = max(0, threshold.isNaN ? 0 : threshold)
        for segment in segments {
            var reference: Double?
            for fix in segment where fix.hasValidAltitude {
                guard let base = reference else {
                    reference = fix.altitude
                    continue
                }
                let change = fix.altitude - base
                if change > 0 && change >= threshold {
                    gain += change
                    reference = fix.altitude
                } else if change < 0 && -change >= threshold {
                    loss -= change
                    reference = fix.altitude
                }
            }
        }
        return ElevationChange(gain: gain, loss: loss)
    }
}

extension Location {
    /// Whether the fix has a real time, not GPX's placeholder for a point without `<time>`.
    var hasKnownTime: Bool { timestamp != GPX.missingTime }
}
