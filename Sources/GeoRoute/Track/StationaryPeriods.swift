import Foundation
import GeoCore

/// A stretch of a track during which the traveler stayed in one place.
public struct StationaryPeriod: Hashable, Sendable, Codable {
    /// The segment of the track it belongs to.
    public var segment: Int
    /// The indices of its fixes within that segment.
    public var indices: ClosedRange<Int>
    /// The time of its first fix.
    public var start: Date
    /// The time of its last fix.
    public var end: Date
    /// The mean position of its fixes.
    public var center: Coordinate

    /// Its length in seconds.
    public var duration: TimeInterval { end.timeIntervalSince(start) }
}

extension Track {
    /// The periods in which the track stayed within a radius for at least a minimum time: stops,
    /// breaks, waits.
    ///
    /// Stay-point detection (Li et al., *Mining user similarity based on location history*, ACM GIS
    /// 2008): from a fix, extend the period while the following fixes stay within `radius` meters of
    /// it (geodesic distance); if the fixes so gathered span at least `minimumDuration`, they form
    /// a stationary period and the search resumes after it, otherwise it resumes at the next fix.
    /// The center is the mean of the fixes' positions (averaged as unit vectors, so correct across
    /// the 180th meridian). Points without a time cannot start or end a period.
    ///
    /// - Parameters:
    ///   - radius: Meters; 25 by default.
    ///   - minimumDuration: Seconds; 120 by default.
    /// - Returns: The periods in time order.
    /// - Complexity: O(n) inverse geodesics for a track that keeps moving; O(n·k) for stops of k
    ///   fixes.
    public func stationaryPeriods(
        radius: Double = 25, minimumDuration: TimeInterval = 120
    ) -> [StationaryPeriod] {
        var periods = [StationaryPeriod]()
        for (s, fixes) in segments.enumerated() {
            var i = 0
            while i < fixes.count {
                var j = i + 1
                while j < fixes.count
                    && fixes[i].coordinate.distance(to: fixes[j].coordinate) <= radius
                { j += 1 }
                if j - 1 > i, let start = fixes[i].time, let end = fixes[j - 1].time,
                    end.timeIntervalSince(start) >= minimumDuration
                {
                    periods.append(
                        StationaryPeriod(
                            segment: s, indices: i...(j - 1), start: start, end: end,
                            center: Track.meanPosition(fixes[i..<j])))
                    i = j
                } else {
                    i += 1
                }
            }
        }
        return periods
    }

    /// The mean of positions as unit vectors on a sphere, back to latitude and longitude.
    static func meanPosition(_ fixes: ArraySlice<TrackPoint>) -> Coordinate {
        var x = 0.0, y = 0.0, z = 0.0
        for fix in fixes {
            let phi = fix.coordinate.latitude * (.pi / 180),
                lambda = fix.coordinate.longitude * (.pi / 180)
            x += cos(phi) * cos(lambda)
            y += cos(phi) * sin(lambda)
            z += sin(phi)
        }
        let horizontal = (x * x + y * y).squareRoot()
        return Coordinate(
            latitude: atan2(z, horizontal) * (180 / .pi), longitude: atan2(y, x) * (180 / .pi))
    }
}
