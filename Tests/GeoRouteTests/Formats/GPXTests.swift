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

    /// Bytes that are not UTF-8 in a document that does not name another encoding are refused with
    /// the offset and line of the first bad byte (Foundation's XMLParser would trap on them in a
    /// name); a document that declares ISO-8859-1 is read in that encoding.
    @Test func encodings() throws {
        let bad =
            Array("<gpx version=\"1.1\">\n<wpt lat=\"1\" lon=\"2\" x".utf8) + [0xFF]
            + Array("=\"\"/></gpx>".utf8)
        #expect(bad.firstIndex(of: 0xFF) == 42)
        #expect {
            _ = try GPX.read(Data(bad))
        } throws: { error in
            let error = error as? GeoError
            return error?.kind == .malformedInput && error?.line == 2
                && error?.message.contains("byte 0xFF at offset 42 is not valid UTF-8") == true
        }
        for sequence: [UInt8] in [
            [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2],
        ] {
            let bytes = Array("<gpx><name>".utf8) + sequence + Array("</name></gpx>".utf8)
            #expect(throws: GeoError.self) { try GPX.read(Data(bytes)) }
        }
        let latin1 =
            Array(
                "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><gpx><wpt lat=\"1\" lon=\"2\"><name>Z"
                    .utf8)
            + [0xFC] + Array("rich</name></wpt></gpx>".utf8)
        #expect(try GPX.read(Data(latin1)).waypoints.first?.name == "Zürich")
        let utf8 = Data(
            "\u{FEFF}<gpx><wpt lat=\"1\" lon=\"2\"><name>Zürich</name></wpt></gpx>".utf8)
        #expect(try GPX.read(utf8).waypoints.first?.name == "Zürich")
    }
}
