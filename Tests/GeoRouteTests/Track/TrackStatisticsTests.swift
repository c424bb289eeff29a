import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

/// Figures computed independently with Python and GeographicLib 2.1 from the CSV extraction of
/// each GPX file (no GPX parser involved): `python3 Scripts/track_reference.py` (see its header for
/// the definitions: geodesic length within segments, moving when an interval averages at least
/// 0.5 m/s, raw and 5 m-hysteresis elevation sums, stay points within 25 m for 120 s).
struct TrackReference: Sendable, CustomTestStringConvertible {
    var file: String
    var track: Int
    var points: Int
    var length: Double
    var length3D: Double
    var duration: Double
    var movingTime: Double
    var movingDistance: Double
    var maximumSpeed: Double?
    var robustMaximumSpeed: Double?
    var outOfOrder: Int
    var gain: Double, loss: Double, gain5: Double, loss5: Double
    var stationary: Int
    var testDescription: String { "\(file) track \(track)" }
}

let trackReferences: [TrackReference] = [
    TrackReference(
        file: "android-maps-utils/BrightAngel", track: 0, points: 735, length: 15323.27049107965,
        length3D: 15415.09579894439, duration: 21391.34899997711, movingTime: 20997.615999937057,
        movingDistance: 15147.88837600197, maximumSpeed: 1.111782032618887,
        robustMaximumSpeed: 0.8702607887104239, outOfOrder: 0,
        gain: 62.36415000000011, loss: 1372.9924540000006, gain5: 43.636457000000064,
        loss5: 1359.0780970000005,
        stationary: 2),
    TrackReference(
        file: "gpxpy/Mojstrovka", track: 0, points: 184, length: 2700.9175307580945,
        length3D: 3009.171159588829, duration: 0.0, movingTime: 0.0,
        movingDistance: 0.0, maximumSpeed: nil,
        robustMaximumSpeed: nil, outOfOrder: 183,
        gain: 482.58984000000055, loss: 453.7557600000007, gain5: 466.7402400000001,
        loss5: 436.47360000000026,
        stationary: 0),
    TrackReference(
        file: "gpxpy/around-visnjan-with-car", track: 0, points: 104, length: 2736.000845189884,
        length3D: 2741.5976319700108, duration: 514.0, movingTime: 265.0,
        movingDistance: 2700.621529553697, maximumSpeed: 26.010221686082417,
        robustMaximumSpeed: 14.020826256114663, outOfOrder: 0,
        gain: 51.41999999999999, loss: 51.900000000000006, gain5: 37.97, loss5: 36.05000000000001,
        stationary: 1),
    TrackReference(
        file: "gpxpy/cerknicko-jezero", track: 1, points: 173, length: 1913.7558292258875,
        length3D: 1926.548052570238, duration: 2469.0, movingTime: 1420.0,
        movingDistance: 1730.759770930499, maximumSpeed: 2.14756716391859,
        robustMaximumSpeed: 1.7176818358801549, outOfOrder: 0,
        gain: 68.73388299999988, loss: 67.77270199999987, gain5: 19.22619599999996,
        loss5: 18.26501499999995,
        stationary: 4),
    TrackReference(
        file: "gpxpy/cerknicko-jezero", track: 4, points: 44, length: 1352.0060012594802,
        length3D: 1352.7861477092006, duration: 288.0, movingTime: 154.0,
        movingDistance: 1315.5941360722654, maximumSpeed: 91.88348333981367,
        robustMaximumSpeed: 11.390919274873113, outOfOrder: 0,
        gain: 15.38134800000023, loss: 5.28759800000023, gain5: 6.248534999999947, loss5: 0.0,
        stationary: 0),
    TrackReference(
        file: "gpxpy/cerknicko-jezero", track: 7, points: 21, length: 347.10773810056514,
        length3D: 415.0648613734017, duration: 1092.0, movingTime: 235.0,
        movingDistance: 214.043032032239, maximumSpeed: 1.1484746173292648,
        robustMaximumSpeed: 1.0869006976264757, outOfOrder: 0,
        gain: 91.32519599999995, loss: 39.894653999999946, gain5: 86.99926799999997,
        loss5: 38.933227999999986,
        stationary: 1),
    TrackReference(
        file: "gpxpy/cerknicko-jezero-with-elevations-zero", track: 1, points: 173,
        length: 1913.7558292258875,
        length3D: 1913.7558292258875, duration: 2469.0, movingTime: 1420.0,
        movingDistance: 1730.759770930499, maximumSpeed: 2.14756716391859,
        robustMaximumSpeed: 1.7176818358801549, outOfOrder: 0,
        gain: 0.0, loss: 0.0, gain5: 0.0, loss5: 0.0,
        stationary: 4),
    TrackReference(
        file: "gpxpy/cerknicko-jezero-without-elevations", track: 7, points: 21,
        length: 347.10773810056514,
        length3D: 347.10773810056514, duration: 1078.0, movingTime: 221.0,
        movingDistance: 204.12919283477174, maximumSpeed: 1.1484746173292648,
        robustMaximumSpeed: 1.1484746173292648, outOfOrder: 0,
        gain: 0.0, loss: 0.0, gain5: 0.0, loss5: 0.0,
        stationary: 1),
    TrackReference(
        file: "gpxpy/cerknicko-without-times", track: 1, points: 173, length: 1913.7558292258875,
        length3D: 1926.548052570238, duration: 0.0, movingTime: 0.0,
        movingDistance: 0.0, maximumSpeed: nil,
        robustMaximumSpeed: nil, outOfOrder: 0,
        gain: 68.73388299999988, loss: 67.77270199999987, gain5: 19.22619599999996,
        loss5: 18.26501499999995,
        stationary: 0),
    TrackReference(
        file: "gpxpy/cerknicko-without-times", track: 7, points: 21, length: 347.10773810056514,
        length3D: 415.0648613734017, duration: 57.0, movingTime: 57.0,
        movingDistance: 53.100041948092155, maximumSpeed: 1.0653898705449272,
        robustMaximumSpeed: 1.0653898705449272, outOfOrder: 0,
        gain: 91.32519599999995, loss: 39.894653999999946, gain5: 86.99926799999997,
        loss5: 38.933227999999986,
        stationary: 0),
    TrackReference(
        file: "gpxpy/korita-zbevnica", track: 1, points: 358, length: 8643.66762044317,
        length3D: 8908.24684281916, duration: 0.0, movingTime: 0.0,
        movingDistance: 0.0, maximumSpeed: nil,
        robustMaximumSpeed: nil, outOfOrder: 0,
        gain: 551.7971200000004, loss: 563.3330090000004, gain5: 467.2014170000001,
        loss5: 478.7373060000001,
        stationary: 0),
    TrackReference(
        file: "gpxpy/korita-zbevnica", track: 3, points: 337, length: 3985.565989404391,
        length3D: 4024.5821727936213, duration: 8541.0, movingTime: 3705.0,
        movingDistance: 3648.3409199965718, maximumSpeed: 1.6278672434605141,
        robustMaximumSpeed: 1.2960362926579465, outOfOrder: 0,
        gain: 110.5502939999999, loss: 300.4106459999998, gain5: 64.88891600000011,
        loss5: 256.6718750000001,
        stationary: 7),
]

@Suite("Track statistics: real GPX tracks")
struct TrackStatisticsReferenceTests {
    @Test(arguments: trackReferences)
    func matchesIndependentFigures(_ r: TrackReference) throws {
        let document = try GPX.read(contentsOf: ReferenceData.url("tracks/gpx/\(r.file).gpx"))
        let track = document.tracks[r.track]
        #expect(track.points.count == r.points)
        let s = track.statistics()
        #expect(abs(s.length - r.length) < 1e-6)
        #expect(abs(track.length - r.length) < 1e-6)
        #expect(abs(s.length3D - r.length3D) < 1e-6)
        #expect(s.length3D >= s.length)
        #expect(abs(s.duration - r.duration) < 1e-3)
        #expect(abs(s.movingTime - r.movingTime) < 1e-3)
        #expect(s.movingTime <= s.duration + 1e-9)
        #expect(abs(s.movingDistance - r.movingDistance) < 1e-6)
        #expect(s.outOfOrderPoints == r.outOfOrder && s.pointCount == r.points)
        for (ours, reference) in [
            (s.maximumSpeed, r.maximumSpeed), (s.robustMaximumSpeed, r.robustMaximumSpeed),
        ] {
            if let reference {
                #expect(abs((ours ?? .nan) / reference - 1) < 1e-9)
            } else {
                #expect(ours == nil)
            }
        }
        #expect(
            abs(s.elevationChange.gain - r.gain) < 1e-6
                && abs(s.elevationChange.loss - r.loss) < 1e-6)
        let hysteresis = track.elevationChange(threshold: 5)
        #expect(abs(hysteresis.gain - r.gain5) < 1e-6 && abs(hysteresis.loss - r.loss5) < 1e-6)
        #expect(track.stationaryPeriods().count == r.stationary)
        // The meters travelled within the duration: the whole length when every point has a
        // time, the moving distance when every timed interval was moving.
        if r.duration > 0, s.untimedPoints == 0 || r.movingTime == r.duration {
            let travelled = s.untimedPoints == 0 ? r.length : r.movingDistance
            #expect(abs((s.averageSpeed ?? .nan) - travelled / r.duration) < 1e-9)
        }
    }

    /// The first stationary periods of the Bright Angel trail and of the lake walk, as the Python
    /// reference finds them (segment, first and last index).
    @Test func stationaryPeriodsAreTheSameStops() throws {
        let bright = try GPX.read(
            contentsOf: ReferenceData.url("tracks/gpx/android-maps-utils/BrightAngel.gpx")
        ).tracks[0]
        #expect(bright.stationaryPeriods().map(\.indices) == [284...289, 520...528])
        let lake = try GPX.read(
            contentsOf: ReferenceData.url("tracks/gpx/gpxpy/cerknicko-jezero.gpx")
        )
        .tracks[1]
        #expect(
            Array(lake.stationaryPeriods().map(\.indices).prefix(3)) == [0...2, 25...28, 43...46])
    }
}

@Suite("Track statistics")
struct TrackStatisticsTests {
    private func fix(
        _ lat: Double, _ lon: Double, _ t: Double?, _ ele: Double? = nil
    ) -> TrackPoint {
        TrackPoint(
            coordinate: Coordinate(latitude: lat, longitude: lon), elevation: ele,
            time: t.map(Date.init(timeIntervalSince1970:)))
    }

    private func distance(_ p: TrackPoint, _ q: TrackPoint) -> Double {
        p.coordinate.distance(to: q.coordinate)
    }

    @Test func segmentsAreMeasuredSeparately() {
        let a = fix(0, 0, 0, 10), b = fix(0, 0.001, 100, 15), c = fix(0, 0.002, 200, 12)
        let d = fix(1, 1, 1_000, 20), e = fix(1, 1.001, 1_010, 30)
        let track = Track(segments: [[a, b, c], [], [d, e]])
        let step = distance(a, b), second = distance(d, e)
        #expect(abs(track.length - (distance(a, b) + distance(b, c) + second)) < 1e-9)
        #expect(track.duration == 210)
        let s = track.statistics()
        #expect(abs(s.movingTime - 210) < 1e-9)  // 1.1 m/s and 11 m/s
        #expect(abs((s.maximumSpeed ?? 0) - second / 10) < 1e-9)
        #expect(s.elevationChange == ElevationChange(gain: 15, loss: 3))
        #expect(track.elevationChange(threshold: 4) == ElevationChange(gain: 15, loss: 0))
        #expect(abs(track.movingTime(minimumSpeed: 2) - 10) < 1e-9)
        #expect(step > 0)
    }

    /// Untimed points before a segment's first time and after its last count for the length but
    /// not for the average speed, which is the distance travelled in the duration over it.
    @Test func averageSpeedCountsOnlyTheTimedStretch() {
        let before = fix(0, -1, nil), a = fix(0, 0, 0), b = fix(0, 0.001, 100)
        let c = fix(0, 0.003, 200), after = fix(0, 2, nil)
        let lone = [fix(3, 3, 50), fix(3, 4, nil)]
        let track = Track(segments: [[before, a, b, c, after], lone])
        let timed = distance(a, b) + distance(b, c)
        let s = track.statistics()
        #expect(s.duration == 200)
        #expect(abs((s.averageSpeed ?? .nan) - timed / 200) < 1e-12)
        #expect(s.length > 300_000)  // the untimed stretches are in the length
        #expect(s.untimedPoints == 3)
    }

    @Test func emptyAndTimelessTracks() {
        #expect(Track(locations: []).statistics().averageSpeed == nil)
        #expect(Track(segments: []).length == 0 && Track(segments: []).isEmpty)
        let timeless = Track(points: [fix(0, 0, nil), fix(0, 1, nil)])
        #expect(
            timeless.duration == 0 && timeless.maximumSpeed == nil && timeless.averageSpeed == nil)
        #expect(timeless.length > 111_000 && timeless.statistics().untimedPoints == 2)
    }

    /// Times that jitter backwards (by 0.34 ms, as a real file's do) and go back by a minute: the
    /// out-of-order points count for the length but not for the times, so the duration is the
    /// clock's, the moving time stays within it and no speed is absurd.
    @Test func timesThatGoBackwards() throws {
        let step = 0.0001  // about 11 m of longitude at the equator
        let points = [
            fix(0, 0, 0), fix(0, step, 10), fix(0, 2 * step, 9.99966), fix(0, 3 * step, 20),
            fix(0, 4 * step, -40), fix(0, 5 * step, 30),
        ]
        let s = Track(points: points).statistics(movingSpeed: 0.5)
        #expect(s.outOfOrderPoints == 2)
        #expect(s.duration == 30)
        #expect(s.movingTime <= s.duration)
        let d = points[0].coordinate.distance(to: points[1].coordinate)
        #expect(abs(s.length - 5 * d) < 1e-6)
        // Intervals 0→10 s (d), 10→20 s (2d), 20→30 s (2d).
        #expect(abs((s.maximumSpeed ?? 0) - 2 * d / 10) < 1e-9)
        #expect(abs((s.robustMaximumSpeed ?? 0) - 2 * d / 10) < 1e-9)
    }

    /// The robust maximum leaves out the fastest 5 % of intervals; the statistics name the
    /// filters the track went through; the 3D length adds the climb.
    @Test func robustMaximumFiltersAnd3DLength() throws {
        var points = (0..<100).map { fix(0, Double($0) * 0.0001, Double($0) * 10, Double($0)) }
        points[50].coordinate.longitude += 0.01  // one spike: two fast intervals
        let raw = Track(points: points).statistics()
        #expect((raw.maximumSpeed ?? 0) > 100)
        #expect((raw.robustMaximumSpeed ?? 100) < 1.2)
        let filtered = try Track(points: points).filtered(by: [.speedOutliers(maximumSpeed: 20)])
        let clean = filtered.statistics()
        #expect(clean.filters == [.speedOutliers(maximumSpeed: 20)])
        #expect((clean.maximumSpeed ?? 100) < 1.2 && clean.pointCount == 99)
        let flat = Track(
            points: points.map {
                var p = $0; p.elevation = nil; return p
            })
        #expect(raw.length3D > raw.length && flat.statistics().length3D == flat.statistics().length)
    }
}
