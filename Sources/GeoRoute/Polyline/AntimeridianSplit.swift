import Foundation
import GeoCore

extension Polyline {
    /// The line cut where it crosses the 180th meridian, for drawing on a flat map.
    ///
    /// Drawn in plain longitude and latitude, a segment from 179° to −179° would run the long way
    /// across the whole map. This cuts each such segment at the exact point where its geodesic meets
    /// the 180th meridian (found by bisection on the segment to a micrometer) and starts a new piece
    /// there, so within every piece consecutive longitudes differ by less than 180° and no segment
    /// wraps. The piece that arrives at the meridian from the east ends at longitude −180 and the next
    /// starts at 180, and vice versa; a vertex exactly on the meridian takes the sign of the side its
    /// piece lies on.
    ///
    /// - Returns: One polyline if the line never crosses the 180th meridian (this one), otherwise one
    ///   per stretch between crossings, in order.
    /// - Complexity: O(n), plus about 50 direct geodesics per crossing.
    public func splitAt180thMeridian() -> [Polyline] {
        guard coordinates.count > 1 else { return [self] }
        let geodesic = Geodesic.wgs84
        var pieces = [[Coordinate]]()
        var current = [Coordinate]()
        var window: Int?  // piece longitudes are unrolled longitudes minus 360 × window
        var unrolled = coordinates[0].longitude

        /// The longitude of a vertex in a window: its own longitude, or ±180 flipped to the window's
        /// side when it lies exactly on the meridian.
        func longitude(_ original: Double, unrolled: Double, in window: Int) -> Double {
            let shifted = unrolled - 360 * Double(window)
            let turns = ((shifted - original) / 360).rounded()
            return min(max(original + 360 * turns, -180), 180)
        }
        func windowOf(_ u: Double) -> Int { Int(((u + 180) / 360).rounded(.down)) }

        for i in 0..<segmentCount {
            let a = coordinates[i], b = coordinates[i + 1]
            var step = Angle.longitudeDifference(from: a.longitude, to: b.longitude)
            if abs(step) == 180 { step = sin(segmentAzimuths[i] * (.pi / 180)) < 0 ? -180 : 180 }
            let ua = unrolled, ub = unrolled + step
            unrolled = ub
            // The meridian inside the segment, if any: the one multiple of 360 plus 180 strictly
            // between the two unrolled longitudes.
            let low = min(ua, ub), high = max(ua, ub)
            let boundary = (((low + 180) / 360).rounded(.down)) * 360 + 180
            if boundary > low && boundary < high {
                let firstWindow = windowOf((ua + boundary) / 2),
                    secondWindow = windowOf((boundary + ub) / 2)
                if window == nil { window = firstWindow }
                if window != firstWindow {
                    pieces.append(current)
                    current = [
                        Coordinate(
                            latitude: a.latitude,
                            longitude: longitude(a.longitude, unrolled: ua, in: firstWindow))
                    ]
                    window = firstWindow
                }
                if current.isEmpty {
                    current.append(
                        Coordinate(
                            latitude: a.latitude,
                            longitude: longitude(a.longitude, unrolled: ua, in: firstWindow)))
                }
                let latitude = crossingLatitude(
                    segment: i, unrolledStart: ua, meridian: boundary, geodesic: geodesic)
                let arriving = boundary - 360 * Double(firstWindow)  // ±180 on the first side
                current.append(Coordinate(latitude: latitude, longitude: arriving))
                pieces.append(current)
                current = [Coordinate(latitude: latitude, longitude: -arriving)]
                window = secondWindow
                current.append(
                    Coordinate(
                        latitude: b.latitude,
                        longitude: longitude(b.longitude, unrolled: ub, in: secondWindow)))
                continue
            }
            // No crossing inside: the segment lies in one window (its midpoint's, unless the midpoint is
            // exactly on a meridian, as for a zero-length segment at ±180).
            let middle = (ua + ub) / 2
            let onMeridian = ((middle + 180) / 360).rounded(.down) * 360 - 180 == middle
            let segmentWindow = onMeridian ? (window ?? windowOf(middle)) : windowOf(middle)
            if window == nil { window = segmentWindow }
            if window != segmentWindow {
                pieces.append(current)
                current = []
                window = segmentWindow
            }
            if current.isEmpty {
                current.append(
                    Coordinate(
                        latitude: a.latitude,
                        longitude: longitude(a.longitude, unrolled: ua, in: segmentWindow)))
            }
            current.append(
                Coordinate(
                    latitude: b.latitude,
                    longitude: longitude(b.longitude, unrolled: ub, in: segmentWindow)))
        }
        if !current.isEmpty { pieces.append(current) }
        if pieces.count == 1 && pieces[0] == coordinates { return [self] }
        return pieces.map { Polyline(unchecked: $0) }
    }

    /// The latitude where segment `i` reaches an unrolled longitude, by bisection on the distance
    /// along it (longitude changes monotonically along a geodesic that does not pass a pole).
    private func crossingLatitude(
        segment i: Int, unrolledStart: Double, meridian: Double, geodesic: Geodesic
    ) -> Double {
        let start = coordinates[i]
        let azimuth = segmentAzimuths[i]
        let segmentLength = cumulativeDistances[i + 1] - cumulativeDistances[i]
        let target = meridian - unrolledStart  // longitude still to travel, signed
        var low = 0.0, high = segmentLength
        var latitude = start.latitude
        for _ in 0..<64 {
            let middle = (low + high) / 2
            let point = geodesic.direct(
                from: start, azimuth: azimuth, distance: middle, unrollingLongitude: true)
            latitude = point.coordinate.latitude
            let traveled = point.coordinate.longitude - start.longitude
            if (traveled - target) * (target >= 0 ? 1 : -1) < 0 {
                low = middle
            } else {
                high = middle
            }
            if high - low < 1e-6 { break }
        }
        return latitude
    }
}
