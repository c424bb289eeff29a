import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("Track CSV writer")
struct TrackCSVTests {
    /// Tracks written as CSV read back point for point: coordinates bit for bit, elevations,
    /// times to the microsecond, missing values as empty fields, a blank line between tracks.
    @Test func roundTripsThroughTheReader() throws {
        var rng = SplitMix64(seed: 21)
        let tracks = (0..<3).map { t in
            Track(
                name: nil,
                segments: [
                    (0..<25).map { i in
                        TrackPoint(
                            coordinate: Coordinate(
                                latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180)),
                            elevation: (i + t) % 4 == 0 ? nil : rng.uniform(-400, 8_000),
                            time: i % 6 == 0
                                ? nil
                                : Date(
                                    timeIntervalSince1970: (rng.uniform(-2e9, 2e9) * 1e6).rounded()
                                        / 1e6))
                    }
                ])
        }
        let text = TrackFile.writeCSV(tracks)
        #expect(text.hasPrefix("lat,lon,ele,time\n"))
        let back = try TrackFile.readCSV(Data(text.utf8))
        #expect(back.count == tracks.count)
        for (a, b) in zip(tracks, back) {
            let (pa, pb) = (Array(a.segments.joined()), Array(b.segments.joined()))
            #expect(pa.map(\.coordinate) == pb.map(\.coordinate))
            #expect(pa.map(\.elevation) == pb.map(\.elevation))
            for (x, y) in zip(pa, pb) {
                #expect(
                    x.time == nil && y.time == nil
                        || abs(
                            (x.time?.timeIntervalSince1970 ?? .nan)
                                - (y.time?.timeIntervalSince1970 ?? .nan)) < 1e-6
                )
            }
        }
        // Coordinates alone: no header, the rows as they were.
        let plain = [
            Track(
                name: nil,
                segments: [
                    [
                        TrackPoint(coordinate: Coordinate(latitude: 47, longitude: 8)),
                        TrackPoint(coordinate: Coordinate(latitude: 47.1, longitude: 8.1)),
                    ]
                ])
        ]
        #expect(TrackFile.writeCSV(plain) == "47.0,8.0\n47.1,8.1\n\n")
    }
}
