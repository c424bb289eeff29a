import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("GPX writer")
struct GPXWriterTests {
    @Test func roundTripsThroughTheReader() throws {
        var rng = SplitMix64(seed: 12)
        var segments = [[TrackPoint]]()
        for _ in 0..<3 {
            segments.append(
                (0..<20).map { i in
                    TrackPoint(
                        coordinate: Coordinate(
                            latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180)),
                        elevation: i % 5 == 0 ? nil : i % 3 == 0 ? 0 : rng.uniform(-400, 8_000),
                        time: i % 7 == 0
                            ? nil
                            : Date(
                                timeIntervalSince1970: (rng.uniform(0, 2e9) * 1e3).rounded() / 1e3))
                })
        }
        let waypoint = GPXWaypoint(
            point: TrackPoint(
                coordinate: Coordinate(latitude: 1e-5, longitude: -2.5e-7),
                time: Date(timeIntervalSince1970: 1_700_000_000.25)),
            name: "A & B <\"quoted\">", comment: "it's",
            description: "ünïcødé", symbol: "Flag", type: "poi")
        let document = GPXDocument(
            name: "Trip", waypoints: [waypoint],
            routes: [GPXRoute(name: "Plan", points: [waypoint, waypoint])],
            tracks: [Track(name: "Day 1", segments: segments), Track(segments: [])])
        let text = try GPX.write(document)
        let back = try GPX.read(Data(text.utf8))
        #expect(back.creator == "Meridian" && back.name == "Trip")
        #expect(back.waypoints == [waypoint])
        #expect(back.routes == document.routes)
        #expect(
            back.tracks.count == 2 && back.tracks[0].name == "Day 1"
                && back.tracks[1].segments.isEmpty)
        for (a, b) in zip(back.tracks[0].segments.joined(), segments.joined()) {
            #expect(a.coordinate == b.coordinate)
            #expect(a.elevation == b.elevation)
            #expect(a.hasTime == b.hasTime)
            if let ta = a.time, let tb = b.time { #expect(abs(ta.timeIntervalSince(tb)) < 1e-6) }
        }
        #expect(!text.contains("e-"))  // no exponents in xsd:decimal
    }

    @Test func rewritingARealTrackKeepsEveryPoint() throws {
        let original = try GPX.read(
            contentsOf: ReferenceData.url("tracks/gpx/gpxpy/cerknicko-jezero.gpx"))
        let again = try GPX.read(Data(try GPX.write(original).utf8))
        #expect(
            again.waypoints.map(\.point.coordinate) == original.waypoints.map(\.point.coordinate))
        #expect(again.tracks.map(\.segments.count) == original.tracks.map(\.segments.count))
        for (a, b) in zip(again.tracks, original.tracks) {
            #expect(a.points == b.points)
        }
    }

    @Test func decimalsHaveNoExponent() {
        for value in [0.0, 1, -1, 1e-5, -2.5e-7, 123.456, 1e-12, 6.02e-9, 45.123456789012] {
            let text = GPX.decimal(value)
            #expect(!text.contains("e"), "\(text)")
            #expect(Double(text) == value, "\(value) → \(text)")
        }
    }

    /// Characters XML 1.0 does not allow (here ESC, BEL, U+FFFF) become U+FFFD, so the document
    /// reads back; the five special characters, tab, line feed and carriage return (alone or
    /// before a line feed, which a reader would turn into one line feed) survive as written.
    @Test func namesWithControlCharactersStayWellFormed() throws {
        let name = "a\u{1B}[31m<b> & \"c\"\u{07}\u{FFFF}\td\ne\rf\r\ng"
        let track = Track(
            name: name,
            points: [TrackPoint(coordinate: Coordinate(latitude: 47.3, longitude: 8.5))])
        let text = try GPX.write([track])
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        let back = try GPX.read(Data(text.utf8))
        #expect(
            back.tracks.first?.name
                == "a\u{FFFD}[31m<b> & \"c\"\u{FFFD}\u{FFFD}\td\ne\rf\r\ng")
    }
}
