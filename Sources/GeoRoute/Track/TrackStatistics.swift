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

/// The summary figures of a ``Track``, computed together in one pass by
/// ``Track/statistics(movingSpeed:elevationThreshold:)``.
///
/// ### Times that do not increase
/// Recorded times jitter and sometimes go backwards (a receiver that corrects its clock, merged
/// logs). Within a segment, a point whose time is not later than the latest time before it is
/// *out of order*: it counts for the lengths, but its time is not used; the interval it would start
/// or end runs instead from the last in-order point to the next one, over the distance travelled
/// between them. So durations never shrink, the moving time never exceeds the duration, and one
/// reversed time cannot make a speed of thousands of meters per second. ``outOfOrderPoints`` counts
/// them. Points without a time (``untimedPoints``) are treated the same way.
public struct TrackStatistics: Hashable, Sendable, Codable {
    /// Meters along the geodesics between consecutive points, within segments (altitude ignored).
    public var length: Double
    /// Meters in three dimensions: each interval √(d² + Δh²) where both points have an elevation,
    /// its geodesic length d otherwise.
    public var length3D: Double
    /// Seconds from the first to the last in-order timed point of each segment, summed over
    /// segments.
    public var duration: TimeInterval
    /// Seconds spent in intervals (between consecutive in-order timed points) whose average speed
    /// is at least the moving speed.
    public var movingTime: TimeInterval
    /// Meters covered in those intervals.
    public var movingDistance: Double
    /// The speed at or above which an interval counted as moving, in m/s.
    public var movingSpeedThreshold: Double
    /// The meters travelled within ``duration`` over ``duration``, in m/s: in each segment, the
    /// length from its first to its last in-order timed point. Untimed stretches at a segment's
    /// ends, and segments with fewer than two timed points, count for ``length`` but not here.
    /// `nil` when the duration is not positive.
    public var averageSpeed: Double?
    /// ``movingDistance`` over ``movingTime`` in m/s; `nil` when there is no moving time.
    public var averageMovingSpeed: Double?
    /// The largest average speed of an interval, in m/s; `nil` when no interval has a duration.
    /// One bad point makes this figure meaningless: see ``robustMaximumSpeed``.
    public var maximumSpeed: Double?
    /// The 95th percentile of the intervals' speeds (nearest rank: the ⌈0.95 n⌉-th slowest of n),
    /// in m/s: the maximum with the fastest 5 % of intervals left out; `nil` without intervals.
    /// (gpxpy's default `max_speed` is another figure: it also leaves out intervals whose length
    /// is far from the mean, takes the ⌊0.95 n⌋-th, measures on a sphere, and gives none below
    /// 20 intervals.)
    public var robustMaximumSpeed: Double?
    /// Elevation gained and lost.
    public var elevationChange: ElevationChange
    /// Points in the track.
    public var pointCount: Int
    /// Points without a time.
    public var untimedPoints: Int
    /// Points whose time is not later than the latest time before them in their segment.
    public var outOfOrderPoints: Int
    /// The filters the track went through before these figures were computed
    /// (``Track/appliedFilters``).
    public var filters: [TrackFilter]
}

extension Track {
    /// The length in meters: the sum of the geodesic distances on WGS84 between consecutive points of
    /// each segment (altitude ignored, as `CLLocation.distance(from:)`).
    /// - Complexity: O(n) inverse geodesics.
    public var length: Double { statistics().length }

    /// The duration in seconds: from the first to the last in-order timed point of each segment,
    /// summed over segments (pauses between segments do not count; see ``TrackStatistics``).
    public var duration: TimeInterval { statistics().duration }

    /// The summary figures of the track.
    ///
    /// Each interval between consecutive in-order timed points of a segment (see
    /// ``TrackStatistics`` for the rule) has a geodesic distance d along the track and a duration
    /// t > 0. It counts as moving when d / t ≥ `movingSpeed`; the maximum speed is the largest
    /// d / t. Elevation is taken from the points that have one (see ``elevationChange(threshold:)``).
    ///
    /// - Parameters:
    ///   - movingSpeed: Meters per second at or above which an interval counts as moving; 0.5 m/s
    ///     (1.8 km/h) by default.
    ///   - elevationThreshold: Meters of hysteresis for the elevation change; 0 sums every rise and
    ///     fall.
    /// - Complexity: O(n) inverse geodesics, O(n log n) for the percentile.
    public func statistics(
        movingSpeed: Double = 0.5, elevationThreshold: Double = 0
    ) -> TrackStatistics {
        var length = 0.0, length3D = 0.0, duration = 0.0, movingTime = 0.0, movingDistance = 0.0
        // The meters between each segment's first and last in-order timed points.
        var timedLength = 0.0
        var speeds = [Double]()
        var untimed = 0, outOfOrder = 0, count = 0
        for segment in segments {
            count += segment.count
            // The last in-order timed point: its time and the length travelled up to it.
            var anchor: (time: Date, along: Double)?
            var first: (time: Date, along: Double)?
            var along = 0.0
            for (i, point) in segment.enumerated() {
                if i > 0 {
                    let previous = segment[i - 1]
                    let d = previous.coordinate.distance(to: point.coordinate)
                    along += d
                    if let h0 = previous.elevation, let h1 = point.elevation {
                        length3D += (d * d + (h1 - h0) * (h1 - h0)).squareRoot()
                    } else {
                        length3D += d
                    }
                }
                guard let time = point.time,
                    ISO8601Time.validRange.contains(time.timeIntervalSince1970)
                else {
                    untimed += 1
                    continue
                }
                guard let last = anchor else {
                    anchor = (time, along)
                    first = (time, along)
                    continue
                }
                let elapsed = time.timeIntervalSince(last.time)
                guard elapsed > 0 else {
                    outOfOrder += 1
                    continue
                }
                let distance = along - last.along
                let speed = distance / elapsed
                speeds.append(speed)
                if speed >= movingSpeed {
                    movingTime += elapsed
                    movingDistance += distance
                }
                anchor = (time, along)
            }
            length += along
            if let first, let last = anchor {
                duration += last.time.timeIntervalSince(first.time)
                timedLength += last.along - first.along
            }
        }
        speeds.sort()
        let robust =
            speeds.isEmpty
            ? nil : speeds[max(0, Int((0.95 * Double(speeds.count)).rounded(.up)) - 1)]
        return TrackStatistics(
            length: length, length3D: length3D, duration: duration, movingTime: movingTime,
            movingDistance: movingDistance, movingSpeedThreshold: movingSpeed,
            averageSpeed: duration > 0 ? timedLength / duration : nil,
            averageMovingSpeed: movingTime > 0 ? movingDistance / movingTime : nil,
            maximumSpeed: speeds.last, robustMaximumSpeed: robust,
            elevationChange: elevationChange(threshold: elevationThreshold),
            pointCount: count, untimedPoints: untimed, outOfOrderPoints: outOfOrder,
            filters: appliedFilters)
    }

    /// Seconds spent moving: the sum of the intervals whose average speed is at least
    /// `minimumSpeed` m/s (0.5 by default); see ``statistics(movingSpeed:elevationThreshold:)``.
    public func movingTime(minimumSpeed: Double = 0.5) -> TimeInterval {
        statistics(movingSpeed: minimumSpeed).movingTime
    }

    /// The average speed in m/s over the whole ``duration``: the meters travelled between each
    /// segment's first and last in-order timed points over those seconds (see
    /// ``TrackStatistics/averageSpeed``); `nil` when the duration is not positive.
    public var averageSpeed: Double? { statistics().averageSpeed }

    /// The largest average speed in m/s of an interval; `nil` when no interval has a positive
    /// duration. Filter spikes first (``TrackFilter/speedOutliers(maximumSpeed:)``) or use
    /// ``TrackStatistics/robustMaximumSpeed``: one bad point makes this figure meaningless.
    public var maximumSpeed: Double? { statistics().maximumSpeed }

    /// Elevation gained and lost, from the elevations of the points that have one, within segments.
    ///
    /// With a threshold of 0 every rise and fall between consecutive elevations counts. A positive
    /// threshold ignores changes smaller than it (hysteresis): a reference elevation moves only once
    /// the elevation has risen or fallen from it by at least the threshold, and only then is the
    /// difference counted, which keeps GPS altitude noise from inflating the totals.
    ///
    /// - Parameter threshold: Meters, not negative (negative values count as 0).
    public func elevationChange(threshold: Double = 0) -> ElevationChange {
        var gain = 0.0, loss = 0.0
        let threshold = max(0, threshold.isNaN ? 0 : threshold)
        for segment in segments {
            var reference: Double?
            for point in segment {
                guard let elevation = point.elevation, elevation.isFinite else { continue }
                guard let base = reference else {
                    reference = elevation
                    continue
                }
                let change = elevation - base
                if change > 0 && change >= threshold {
                    gain += change
                    reference = elevation
                } else if change < 0 && -change >= threshold {
                    loss -= change
                    reference = elevation
                }
            }
        }
        return ElevationChange(gain: gain, loss: loss)
    }
}
