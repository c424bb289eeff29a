import Foundation
import GeoTestSupport
import Meridian
import Testing

@testable import MeridianCLI

/// Runs `meridian` in-process and returns its exit code, standard output and standard error.
/// (Only for calls that do not replay: the synchronous command waits for the monitor on a
/// semaphore, which a test thread of the concurrency pool must not do.)
private func meridian(_ arguments: [String]) -> (code: Int32, output: String, error: String) {
    let buffer = BufferedConsole()
    let code = MeridianCommand.run(arguments, console: buffer.console)
    return (code, buffer.output, buffer.errorOutput)
}

/// Runs `meridian fence` with arguments through its asynchronous entry point.
private func fence(_ arguments: [String]) async -> (code: Int32, output: String, error: String) {
    let buffer = BufferedConsole()
    let code = await FenceCommand.run(arguments, console: buffer.console)
    return (code, buffer.output, buffer.errorOutput)
}

private func write(_ text: String, named name: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "meridian-fence-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}

private func objects(_ output: String) throws -> [JSONValue] {
    try output.split(separator: "\n").map {
        try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
    }
}

@Suite("meridian fence")
struct FenceCommandTests {
    /// Replays the real Cerknica lake track (GPX track points) through a 150 m circle round its
    /// start: every event's distance is the geodesic distance to the center minus the radius at the
    /// fix of the line it names, and the states alternate with enters only inside and exits only
    /// outside (beyond the 5 m margin).
    @Test func replaysARealTrack() async throws {
        let rows = try ReferenceData.csvRows("tracks/trackpoints/cerknicko-jezero.csv")
        var log = "timestamp,latitude,longitude,accuracy\n"
        var fixes = [Int: Coordinate]()
        for (i, row) in rows.enumerated() {
            guard let time = row["time"], let lat = row["lat"], let lon = row["lon"], !time.isEmpty
            else { continue }
            log += "\(time),\(lat),\(lon),4\n"
            fixes[i + 2] = Coordinate(latitude: Double(lat) ?? .nan, longitude: Double(lon) ?? .nan)
        }
        let center = Coordinate(latitude: 45.772, longitude: 14.3576)
        let fences = try write("45.772,14.3576,150,start\n", named: "fences.csv")
        let locations = try write(log, named: "track.csv")
        let result = await fence(["--fences", fences, "--locations", locations])
        #expect(result.code == 0, "\(result.error)")
        let events = try objects(result.output)
        #expect(events.count >= 3)
        var previous: String?
        var checked = 0
        for event in events {
            #expect(event["identifier"]?.stringValue == "start")
            let state = event["state"]?.stringValue
            #expect(state != previous)
            previous = state
            guard event["reason"]?.stringValue == "fix" else { continue }
            guard let line = event["line"]?.intValue, let fix = fixes[line],
                let distance = event["distanceToBoundary"]?.doubleValue
            else {
                Issue.record("a fix event without its line, fix or distance: \(event)")
                continue
            }
            #expect(abs(distance - (center.distance(to: fix) - 150)) < 1e-6)
            if state == "satisfied" { #expect(distance <= -4) } else { #expect(distance > 4) }
            checked += 1
        }
        #expect(checked >= 3, "every fix event's distance checked")
        #expect(events.first?["state"]?.stringValue == "satisfied")
    }

    /// The same track read from its GPX file gives the same events as from its CSV extraction, and
    /// each event names the line of its `<trkpt>` element.
    @Test func replaysAGPXTrack() async throws {
        let rows = try ReferenceData.csvRows("tracks/trackpoints/cerknicko-jezero.csv")
        var log = "timestamp,latitude,longitude,accuracy\n"
        for row in rows {
            guard let time = row["time"], let lat = row["lat"], let lon = row["lon"], !time.isEmpty
            else { continue }
            log += "\(time),\(lat),\(lon),0\n"
        }
        let fences = try write(
            "45.772,14.3576,150,start\n45.7650,14.3700,300,shore\n", named: "fences.csv")
        let fromCSV = await fence([
            "--fences", fences, "--locations", try write(log, named: "track.csv"),
        ])
        let gpxPath = ReferenceData.url("tracks/gpx/gpxpy/cerknicko-jezero.gpx").path
        let fromGPX = await fence(["--fences", fences, "--locations", gpxPath])
        #expect(fromGPX.code == 0, "\(fromGPX.error)")
        let a = try objects(fromCSV.output), b = try objects(fromGPX.output)
        #expect(!a.isEmpty && a.count == b.count)
        for (x, y) in zip(a, b) {
            #expect(x["identifier"] == y["identifier"] && x["state"] == y["state"])
            #expect(x["distanceToBoundary"] == y["distanceToBoundary"])
        }
        let gpxLines = try ReferenceData.text("tracks/gpx/gpxpy/cerknicko-jezero.gpx").split(
            separator: "\n", omittingEmptySubsequences: false)
        for event in b where event["reason"]?.stringValue == "fix" {
            let line = try #require(event["line"]?.intValue)
            #expect(gpxLines[line - 1].contains("<trkpt"))
        }
    }

    /// Bad fixes are reported with their line numbers and do not stop the replay; unreadable lines
    /// go to standard error; the exit code is 2.
    @Test func rejectedFixesAndBadLines() async throws {
        let fences = try write("latitude,longitude,radius_m\n10,20,1000\n", named: "fences.csv")
        let locations = try write(
            """
            timestamp,latitude,longitude,accuracy
            2024-06-01T12:00:00Z,10,20,5
            2024-06-01T12:01:00Z,10,20.5,5
            2024-06-01T11:00:00Z,10,20,5
            2024-06-01T12:02:00Z,nan,20,5
            2024-06-01T12:03:00Z,10,20,-1
            not a time,10,20,5
            2024-06-01T12:04:00Z,10,20
            1717243500,10,20.5,5
            """, named: "log.csv")
        let result = await fence(["--fences", fences, "--locations", locations])
        #expect(result.code == 2)
        let lines = try objects(result.output)
        let rejected = lines.filter { $0["type"]?.stringValue == "rejected" }
        #expect(rejected.map { $0["line"]?.intValue } == [4, 5, 6])
        #expect(
            rejected.map { $0["error"]?.stringValue } == [
                "staleFix", "invalidCoordinate", "invalidArgument",
            ])
        let events = lines.filter { $0["type"]?.stringValue == "event" }
        #expect(
            events.map { $0["state"]?.stringValue } == [
                "satisfied", "unsatisfied", "satisfied", "unsatisfied",
            ])
        #expect(events.map { $0["line"]?.intValue } == [2, 3, 8, 9])
        #expect(result.error.contains("line 7"))
    }

    @Test func geoJSONFencesDwellAndCrossings() async throws {
        let fences = try write(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "square", "properties": {},
               "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [0.01, 0], [0.01, 0.01], [0, 0.01], [0, 0]]]}},
              {"type": "Feature", "properties": {"name": "camp", "radius": 200},
               "geometry": {"type": "Point", "coordinates": [1, 1]}}
            ]}
            """, named: "fences.geojson")
        let locations = try write(
            """
            0,0.005,-0.05,3
            100,0.005,0.06,3
            200,1,1,3
            500,1.0001,1,3
            """, named: "log.csv")
        let result = await fence(["--fences", fences, "--locations", locations, "--dwell", "250"])
        #expect(result.code == 0, "\(result.error)")
        let events = try objects(result.output).filter { $0["state"]?.stringValue == "satisfied" }
        let reasons = events.map {
            "\($0["identifier"]?.stringValue ?? "?"):\($0["reason"]?.stringValue ?? "?")"
        }
        #expect(reasons == ["square:crossing", "camp:fix", "camp:dwell"])
        #expect(events.first?["fromLine"]?.intValue == 1 && events.first?["toLine"]?.intValue == 2)
        // Fixes sharing a time: the crossing still runs from the previous line to this one.
        let circle = try write("lat,lon,radius,id\n0,0,1000,c0\n", named: "circle.csv")
        let same = try write(
            "time,lat,lon\n1704067200,0,-0.02\n1704067260,0,0.02\n1704067260,0,-0.02\n",
            named: "same.csv")
        let again = await fence(["--fences", circle, "--locations", same])
        let crossings = try objects(again.output).filter { $0["reason"]?.stringValue == "crossing" }
        #expect(crossings.count == 4, "\(again.output)")
        #expect(
            crossings.suffix(2).allSatisfy {
                $0["fromLine"]?.intValue == 3 && $0["toLine"]?.intValue == 4
            }, "\(again.output)")
    }

    @Test func usageAndInputErrors() throws {
        #expect(meridian(["fence", "--locations", "x.csv"]).code == 64)
        #expect(
            meridian(["fence", "--fences", "x.csv", "--locations", "y.csv", "--hysteresis", "-3"])
                .code == 64)
        let missing = meridian([
            "fence", "--fences", "/nonexistent/fences.csv", "--locations", "y.csv",
        ])
        // The message names the file that is missing, not the other one.
        #expect(
            missing.code == 1
                && missing.error.hasPrefix(
                    #"meridian fence: cannot read "/nonexistent/fences.csv": "#),
            "\(missing.error)")
        let fences = try write("10,20,-5\n", named: "fences.csv")
        let bad = meridian(["fence", "--fences", fences, "--locations", fences])
        // A malformed input file is bad input (2), named with its line and column.
        #expect(
            bad.code == 2
                && bad.error.contains(
                    "line 1, column 3: radius -5.0 m must be finite and not negative"),
            "\(bad.error)")
        let gpx = try write("<gpx></gpx>", named: "track.gpx")
        let good = try write("10,20,5\n", named: "good.csv")
        let gpxResult = meridian(["fence", "--fences", good, "--locations", gpx])
        #expect(gpxResult.code == 2 && gpxResult.error.contains("no track points"))
        let broken = try write("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">", named: "broken.gpx")
        let brokenResult = meridian(["fence", "--fences", good, "--locations", broken])
        #expect(
            brokenResult.code == 2
                && brokenResult.error.contains(
                    "at line 1, column 42: <trkpt> opened on line 1 is never closed"),
            "\(brokenResult.error)")
        // A fences file without fences is refused: the replay could only print nothing.
        for (text, name) in [
            ("", "empty.csv"), ("lat,lon,radius\r\n", "header.csv"),
            (#"{"type":"FeatureCollection","features":[]}"#, "empty.geojson"),
        ] {
            let empty = meridian([
                "fence", "--fences", try write(text, named: name), "--locations", good,
            ])
            #expect(
                empty.code == 2 && empty.error.contains("holds no fences") && empty.output.isEmpty,
                "\(name): \(empty)")
        }
        #expect(meridian(["fence", "--help"]).output.contains("--locations"))
    }

    /// With --storage the monitor's state persists between runs: a second replay of a later log
    /// continues from the first one's state (no new "inside" event for a fence already entered).
    @Test func storagePersistsBetweenRuns() async throws {
        let fences = try write("10,20,1000,base\n", named: "fences.csv")
        let first = try write("1000,10,20,5\n", named: "a.csv")
        let second = try write("2000,10,20.001,5\n3000,10,21,5\n", named: "b.csv")
        let storage = (fences as NSString).deletingLastPathComponent + "/state"
        let a = await fence([
            "--fences", fences, "--locations", first, "--storage", storage, "--name", "replay",
        ])
        #expect(try objects(a.output).map { $0["state"]?.stringValue } == ["satisfied"])
        let b = await fence([
            "--fences", fences, "--locations", second, "--storage", storage, "--name", "replay",
        ])
        #expect(try objects(b.output).map { $0["state"]?.stringValue } == ["unsatisfied"])
        // An older log is rejected against the stored last fix.
        let c = await fence([
            "--fences", fences, "--locations", first, "--storage", storage, "--name", "replay",
        ])
        #expect(c.code == 2)
    }
}
