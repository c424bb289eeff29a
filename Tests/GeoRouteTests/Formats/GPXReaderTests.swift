import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("GPX reader: reference data")
struct GPXReaderReferenceTests {
    static let files: [String] = {
        ReferenceData.fileArguments(in: "tracks/gpx", suffix: ".gpx")
    }()

    /// The GPX files whose points were also extracted to CSV (`tracks/trackpoints/`).
    static let extractedFiles: [String] = files.filter {
        FileManager.default.fileExists(atPath: ReferenceData.url(extractedCSV(of: $0)).path)
    }

    static func extractedCSV(of file: String) -> String {
        "tracks/trackpoints/"
            + (file as NSString).lastPathComponent.replacingOccurrences(of: ".gpx", with: ".csv")
    }

    @Test func everyFileIsFound() throws {
        #expect(Self.files.count >= 20)
        let extracted = try ReferenceData.files(in: "tracks/trackpoints", suffix: ".csv")
        #expect(Self.extractedFiles.count == extracted.count)
    }

    /// Every sample GPX file parses.
    @Test(arguments: files)
    func parses(_ file: String) throws {
        _ = try GPX.read(contentsOf: ReferenceData.url("tracks/gpx/" + file))
    }

    /// Every point of every real track matches the CSV extracted from the same file: the same
    /// count per track, route and segment; coordinates and elevations to the bit (both are the
    /// file's text read as `Double`); times to the microsecond.
    @Test(arguments: extractedFiles)
    func matchesTheExtractedPoints(_ file: String) throws {
        let csv = Self.extractedCSV(of: file)
        let document = try GPX.read(contentsOf: ReferenceData.url("tracks/gpx/" + file))
        var counters = [String: Int]()
        for row in try ReferenceData.csvRows(csv) {
            let kind = try #require(row["kind"]),
                index = try #require(Int(row["track_or_route"] ?? ""))
            let segment = try #require(Int(row["segment"] ?? ""))
            let key = "\(kind) \(index) \(segment)"
            let k = counters[key, default: 0]
            counters[key] = k + 1
            let fix: TrackPoint
            if kind == "trk" {
                try #require(
                    index < document.tracks.count && segment < document.tracks[index].segments.count
                )
                try #require(
                    k < document.tracks[index].segments[segment].count, "\(key) point \(k)")
                fix = document.tracks[index].segments[segment][k]
            } else {
                try #require(
                    index < document.routes.count && k < document.routes[index].points.count)
                fix = document.routes[index].points[k].point
            }
            #expect(fix.coordinate.latitude == Double(row["lat"] ?? ""), "\(key) point \(k)")
            #expect(fix.coordinate.longitude == Double(row["lon"] ?? ""), "\(key) point \(k)")
            if let ele = row["ele"], !ele.isEmpty {
                #expect(fix.elevation == Double(ele))
            } else {
                #expect(fix.elevation == nil)
            }
            if let time = row["time"], !time.isEmpty {
                let expected = try #require(referenceTime(time))
                let actual = try #require(fix.time, "\(key) point \(k): no time")
                #expect(
                    abs(actual.timeIntervalSince1970 - expected) < 1e-5,
                    "\(key) point \(k): \(time)")
            } else {
                #expect(fix.time == nil && !fix.hasTime)
            }
        }
        // No extra points beyond those of the CSV.
        for (key, count) in counters {
            let parts = key.split(separator: " ")
            guard let index = Int(parts[1]), let segment = Int(parts[2]) else { continue }
            if parts[0] == "trk" {
                #expect(document.tracks[index].segments[segment].count == count)
            }
        }
        let total = document.tracks.reduce(0) { $0 + $1.points.count }
        #expect(total == counters.filter { $0.key.hasPrefix("trk") }.values.reduce(0, +))
    }

    @Test func formatSamples() throws {
        let all = try GPX.read(
            contentsOf: ReferenceData.url("tracks/gpx/gpxpy/gpx1.1_with_all_fields.gpx"))
        #expect(all.creator == "...")
        #expect(all.name == "example name")
        #expect(all.waypoints.count == 2 && all.routes.count == 2 && all.tracks.count == 2)
        let wpt = all.waypoints[0]
        #expect(wpt.point.coordinate == Coordinate(latitude: 12.3, longitude: 45.6))
        #expect(wpt.point.elevation == 75.1)
        #expect(
            wpt.name == "example name" && wpt.comment == "example cmt"
                && wpt.description == "example desc")
        #expect(wpt.symbol == "example sym" && wpt.type == "example type")
        #expect(wpt.point.time?.timeIntervalSince1970 == referenceTime("2013-01-02T02:03:00Z"))
        #expect(!all.waypoints[1].point.hasTime && all.waypoints[1].point.elevation == nil)
        #expect(all.routes[0].name == "example name" && all.routes[0].points.count == 3)
        #expect(all.routes[1].name == "second route")
        #expect(
            all.tracks[0].name == "example name t" && all.tracks[0].segments.map(\.count) == [1, 0])
        #expect(all.tracks[1].segments.isEmpty)

        let gpx10 = try GPX.read(
            contentsOf: ReferenceData.url("tracks/gpx/gpxpy/gpx1.0_with_all_fields.gpx"))
        #expect(gpx10.name == "example name")
        #expect(gpx10.tracks.first?.segments.first?.first?.coordinate.latitude == 10.1)

        let cdata = try GPX.read(contentsOf: ReferenceData.url("tracks/gpx/gpxpy/unicode2.gpx"))
        #expect(cdata.tracks.first?.name == "test™")
        let bom = try GPX.read(
            contentsOf: ReferenceData.url("tracks/gpx/gpxpy/unicode_with_bom.gpx"))
        #expect(bom.waypoints.first?.name == "test")
        #expect(bom.waypoints.first?.point.elevation == -14.6)
        let offset = try GPX.read(
            contentsOf: ReferenceData.url("tracks/gpx/gpxpy/track-with-less-sec-time.gpx"))
        let times = offset.tracks[0].segments[0].map(\.time?.timeIntervalSince1970)
        #expect(
            times == [
                referenceTime("2015-12-11T14:43:13Z"), referenceTime("2015-12-11T14:43:13.994Z"),
            ])
    }
}

@Suite("GPX reader")
struct GPXReaderTests {
    /// The line of every track point is reported, per track and segment, as the file has them.
    @Test func trackPointLines() throws {
        let text = """
            <gpx><trk><trkseg>
            <trkpt lat="1" lon="2"/><trkpt lat="1" lon="3"/>
            <!-- <trkpt lat="9" lon="9"/> -->
            </trkseg><trkseg>
            <trkpt lat="1" lon="4">
            </trkpt></trkseg></trk><trk><trkseg><trkpt lat="1" lon="5"/></trkseg></trk></gpx>
            """
        let (document, lines) = try GPX.readWithLines(Data(text.utf8))
        #expect(document.tracks.map { $0.segments.map(\.count) } == [[2, 1], [1]])
        #expect(lines == [[[2, 2], [5]], [[6]]])
    }

    private func read(_ text: String) throws(GeoError) -> GPXDocument {
        try GPX.read(Data(text.utf8))
    }

    @Test func minimalDocument() throws {
        let doc = try read(
            """
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Run</name><trkseg>
            <trkpt lat="47.5" lon="8.25"><ele>412.5</ele><time>2024-03-01T08:00:00Z</time></trkpt>
            <trkpt lat="47.501" lon="8.251"><time>2024-03-01T08:00:10.5+01:00</time><extensions><speed>3.5</speed></extensions></trkpt>
            </trkseg></trk></gpx>
            """)
        let fixes = doc.tracks[0].segments[0]
        #expect(doc.tracks[0].name == "Run" && fixes.count == 2)
        #expect(fixes[0].elevation == 412.5 && fixes[1].elevation == nil)
        let t0 = try #require(fixes[0].time), t1 = try #require(fixes[1].time)
        #expect(t1.timeIntervalSince(t0) == 10.5 - 3600)
        #expect(fixes[1].speed == 3.5 && fixes[0].speed == nil)
        #expect(fixes[0].horizontalAccuracy == nil)
        // As a fix: exact position, altitude valid where there was one.
        let fix = try #require(fixes[0].location)
        #expect(fix.horizontalAccuracy == 0 && fix.hasValidPosition && fix.verticalAccuracy == 0)
    }

    @Test func errorsNameTheLine() {
        let cases: [(String, Int)] = [
            ("<gpx>\n<wpt lat=\"91\" lon=\"0\"/>\n</gpx>", 2),
            ("<gpx>\n\n<trk><trkseg><trkpt lat=\"x\" lon=\"0\"/></trkseg></trk></gpx>", 3),
            ("<gpx>\n<wpt lat=\"0x1p3\" lon=\"0\"/>\n</gpx>", 2),
            ("<gpx>\n<wpt lat=\"1\"/></gpx>", 2),
            ("<gpx>\n<wpt lat=\"1\" lon=\"2\">\n<ele>high</ele></wpt></gpx>", 3),
            ("<gpx>\n<wpt lat=\"1\" lon=\"2\">\n\n<ele>0x1p3</ele></wpt></gpx>", 4),
            ("<gpx>\n<wpt lat=\"1\" lon=\"2\"><time>yesterday</time></wpt></gpx>", 2),
            ("<kml>\n</kml>", 1),
            ("<gpx><wpt lat=\"1\" lon=\"2\">\n\n</gpx>", 3),
        ]
        for (text, line) in cases {
            do {
                _ = try read(text)
                Issue.record("parsed: \(text)")
            } catch {
                #expect(error.kind == .malformedInput)
                #expect(error.line == line, "\(error.message)")
            }
        }
        #expect(throws: GeoError.self) { try read("") }
        // XML errors say what is wrong in words, with the line and column.
        do {
            _ = try read("<gpx>\n<trk></trkseg></gpx>")
            Issue.record("mismatched tags accepted")
        } catch {
            #expect(error.message.contains("closing tag that does not match"), "\(error.message)")
            #expect(!error.message.contains("NSXMLParserErrorDomain"))
            #expect(error.line == 2 && error.column != nil)
        }
        #expect(throws: GeoError.self) {
            try GPX.read(contentsOf: URL(fileURLWithPath: "/nonexistent/file.gpx"))
        }
    }
}
