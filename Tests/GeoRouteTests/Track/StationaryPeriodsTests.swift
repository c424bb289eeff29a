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
