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
    /// - Complexity: O(n) inverse geodesics for n fixes when each segment's times are all present
    ///   and never decrease, as recorded tracks have them, however the fixes pile up: a fix
    ///   that no later fix is far enough in time from is not extended, and a fix whose window
    ///   holds the fix that ended the last extension, too far from it, is turned away with one
    ///   geodesic. Otherwise O(n·k) for stops of k fixes.
    public func stationaryPeriods(
        radius: Double = 25, minimumDuration: TimeInterval = 120
    ) -> [StationaryPeriod] {
        var periods = [StationaryPeriod]()
        for (s, fixes) in segments.enumerated() {
            let n = fixes.count
            // Times in order make the period's end time grow with its length: a period from
            // fix i lasts long enough exactly when it reaches the first fix `horizon` whose time
            // is far enough from fix i's.
            var inOrder = true
            for k in 1..<max(1, n) {
                guard let a = fixes[k - 1].time, let b = fixes[k].time, a <= b else {
                    inOrder = false
                    break
                }
            }
            var horizon = 0
            // The last fix found too far from an extension's first fix.
            var far = -1
            var i = 0
            while i < n {
                guard let start = fixes[i].time else {
                    i += 1  // a fix without a time cannot start a period
                    continue
                }
                if inOrder {
                    while horizon < n,
                        let t = fixes[horizon].time,
                        !(t.timeIntervalSince(start) >= minimumDuration)
                    { horizon += 1 }
                    let needed = max(horizon, i + 1)
                    // No fix is late enough, or one before it is too far: no period from here.
                    // (A period must keep every fix up to `needed` within the radius.)
                    if needed >= n
                        || (far > i && far <= needed
                            && fixes[i].coordinate.distance(to: fixes[far].coordinate) > radius)
                        || !(fixes[i].coordinate.distance(to: fixes[needed].coordinate) <= radius)
                    {
                        i += 1
                        continue
                    }
                }
                var j = i + 1
                while j < n && fixes[i].coordinate.distance(to: fixes[j].coordinate) <= radius {
                    j += 1
                }
                if j < n { far = j }
                if j - 1 > i, let end = fixes[j - 1].time,
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
