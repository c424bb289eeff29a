import Foundation
import GeoCore
import Testing

@testable import GeoRoute

@Suite("GPX")
struct GPXTests {
    @Test func timesAndPointsWithoutTime() throws {
        #expect(
            GPX.date(fromISO8601: "2010-08-05T14:23:59Z")
                == Date(timeIntervalSince1970: 1_281_018_239))
        #expect(GPX.date(fromISO8601: "not a time") == nil)
        #expect(
            GPX.iso8601(Date(timeIntervalSince1970: 1_281_018_239.25)) == "2010-08-05T14:23:59.25Z")
        let timeless = GPXWaypoint(
            point: TrackPoint(coordinate: Coordinate(latitude: 0, longitude: 0)))
        #expect(!timeless.point.hasTime)
        #expect(!(try GPX.write(GPXDocument(waypoints: [timeless]))).contains("<time>"))
        let broken = Track(
            segments: [[], [TrackPoint(coordinate: Coordinate(latitude: .nan, longitude: 0))]])
        do {
            _ = try GPX.write([broken])
            Issue.record("expected an error")
        } catch {
            #expect(
                error.kind == .invalidCoordinate
                    && error.message.hasPrefix("track 0 segment 1 point 0"))
        }
    }
}
