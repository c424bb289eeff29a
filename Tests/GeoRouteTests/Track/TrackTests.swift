import Foundation
import GeoCore
import Testing

@testable import GeoRoute

@Suite("Track")
struct TrackTests {
    @Test func segmentsAndPolylines() throws {
        let a = TrackPoint(
            coordinate: Coordinate(latitude: 1, longitude: 2), time: Date(timeIntervalSince1970: 0))
        let b = TrackPoint(
            coordinate: Coordinate(latitude: 1.001, longitude: 2),
            time: Date(timeIntervalSince1970: 10))
        let track = Track(name: "T", segments: [[a, b], [], [b]])
        #expect(track.points == [a, b, b] && !track.isEmpty)
        let lines = try track.polylines()
        #expect(lines.count == 2 && lines[0].coordinates == [a.coordinate, b.coordinate])
        #expect(Track(segments: [[], []]).isEmpty)
        let bad = Track(locations: [Location(latitude: 95, longitude: 0)])
        do {
            _ = try bad.polylines()
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("segment 0: vertex 0"))
        }
        let data = try JSONEncoder().encode(track)
        #expect(try JSONDecoder().decode(Track.self, from: data) == track)
    }
}
