import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("Stationary periods")
struct StationaryPeriodsTests {
    /// A walk with a five-minute stop in the middle (fixes jittering within 5 m) has one period, at
    /// the stop, centered within a meter of where the stop was.
    @Test func findsTheStop() throws {
        var rng = SplitMix64(seed: 3)
        let start = Coordinate(latitude: 51.5, longitude: -0.12)
        var fixes = [Location]()
        var t = 0.0
        var here = start
        for _ in 0..<60 {
            here = here.coordinate(atDistance: 15, bearing: 80)
            t += 10
            fixes.append(Location(coordinate: here, timestamp: Date(timeIntervalSince1970: t)))
        }
        let stop = here
        for _ in 0..<30 {
            t += 10
            let jitter = stop.coordinate(
                atDistance: rng.uniform(0, 5), bearing: rng.uniform(0, 360))
            fixes.append(Location(coordinate: jitter, timestamp: Date(timeIntervalSince1970: t)))
        }
        for _ in 0..<60 {
            here = here.coordinate(atDistance: 15, bearing: 80)
            t += 10
            fixes.append(Location(coordinate: here, timestamp: Date(timeIntervalSince1970: t)))
        }
        let periods = Track(locations: fixes).stationaryPeriods()
        #expect(periods.count == 1)
        let period = try #require(periods.first)
        #expect(period.duration >= 290)
        #expect(period.indices.contains(75))
        #expect(period.center.distance(to: stop) < 1.5)
        #expect(Track(locations: fixes).stationaryPeriods(radius: 25, minimumDuration: 600).isEmpty)
    }

    /// Stay-point detection as defined, fix by fix: the oracle.
    private static func bruteForce(
        _ fixes: [TrackPoint], radius: Double, minimumDuration: Double
    ) -> [ClosedRange<Int>] {
        var found = [ClosedRange<Int>](), i = 0
        while i < fixes.count {
            var j = i + 1
            while j < fixes.count
                && fixes[i].coordinate.distance(to: fixes[j].coordinate) <= radius
            { j += 1 }
            if j - 1 > i, let start = fixes[i].time, let end = fixes[j - 1].time,
                end.timeIntervalSince(start) >= minimumDuration
            {
                found.append(i...(j - 1))
                i = j
            } else {
                i += 1
            }
        }
        return found
    }

    /// Seeded tracks of walks, stops, piles of one coordinate, bursts at one time, missing and
    /// out-of-order times, with radii and minimum durations from negative to large: the same
    /// periods as the definition.
    @Test func equalsTheDefinitionOnSeededTracks() {
        var rng = SplitMix64(seed: 808)
        var total = 0
        for track in 0..<300 {
            var fixes = [TrackPoint]()
            var here = Coordinate(latitude: rng.uniform(-80, 80), longitude: rng.uniform(-180, 180))
            var t = 0.0
            for _ in 0..<Int(rng.next() % 12) {
                let count = 1 + Int(rng.next() % 30)
                let kind = rng.next() % 5
                for _ in 0..<count {
                    switch kind {
                    case 0: here = here.coordinate(atDistance: rng.uniform(0, 60), bearing: 90)
                    case 1: break  // a pile at one coordinate
                    default:
                        here = here.coordinate(
                            atDistance: rng.uniform(0, 8), bearing: rng.uniform(0, 360))
                    }
                    t += kind == 2 ? 0 : rng.uniform(0, 30)
                    var time: Date? = Date(timeIntervalSince1970: t)
                    if track % 3 == 1 && rng.next() % 6 == 0 { time = nil }
                    if track % 3 == 2 && rng.next() % 6 == 0 {
                        time = Date(timeIntervalSince1970: t - rng.uniform(0, 200))
                    }
                    fixes.append(TrackPoint(coordinate: here, time: time))
                }
            }
            let radius = [25, 5, 0, 100, -1][track % 5]
            let minimum = [120, 0, -10, 30, 1_000, 60][track % 6]
            let periods = Track(segments: [fixes]).stationaryPeriods(
                radius: Double(radius), minimumDuration: Double(minimum))
            let expected = Self.bruteForce(
                fixes, radius: Double(radius), minimumDuration: Double(minimum))
            #expect(periods.map(\.indices) == expected, "track \(track)")
            total += expected.count
        }
        #expect(total > 300)
    }

    /// Piles of 200,000 fixes at one coordinate (a receiver left on a desk) take linear time: all
    /// at one instant (no period), a millisecond apart (one period), and piles that a far fix
    /// interrupts before they last long enough.
    @Test func pilesAreLinear() {
        let desk = Coordinate(latitude: 47.37, longitude: 8.54)
        let away = desk.coordinate(atDistance: 1_000, bearing: 0)
        let instant = (0..<200_000).map { _ in
            TrackPoint(coordinate: desk, time: Date(timeIntervalSince1970: 0))
        }
        #expect(Track(segments: [instant]).stationaryPeriods().isEmpty)
        let spread = (0..<200_000).map {
            TrackPoint(coordinate: desk, time: Date(timeIntervalSince1970: Double($0) / 1_000))
        }
        #expect(Track(segments: [spread]).stationaryPeriods().map(\.indices) == [0...199_999])
        let interrupted = (0..<200_000).map {
            TrackPoint(
                coordinate: $0 % 50_000 == 49_999 ? away : desk,
                time: Date(timeIntervalSince1970: Double($0) / 1_000))
        }
        #expect(Track(segments: [interrupted]).stationaryPeriods().isEmpty)
        // A slow drift, half a millimeter a fix: every window reaches past the radius.
        let drift = (0..<200_000).map {
            TrackPoint(
                coordinate: desk.coordinate(atDistance: Double($0) * 0.0005, bearing: 90),
                time: Date(timeIntervalSince1970: Double($0) / 1_000))
        }
        #expect(Track(segments: [drift]).stationaryPeriods().isEmpty)
    }

    @Test func centerAcrossThe180thMeridian() {
        let fixes = [179.9999, -179.9999].map {
            TrackPoint(
                coordinate: Coordinate(latitude: 10, longitude: $0),
                time: Date(timeIntervalSince1970: 0))
        }
        let center = Track.meanPosition(fixes[...])
        #expect(abs(abs(center.longitude) - 180) < 1e-9 && abs(center.latitude - 10) < 1e-6)
    }
}
