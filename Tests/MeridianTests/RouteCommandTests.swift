import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import MeridianCLI

/// Runs `meridian` in-process with some standard input.
private func meridian(
    _ arguments: [String], input: String = ""
) -> (code: Int32, output: String, error: String) {
    let buffered = BufferedConsole(input: input)
    let code = MeridianCommand.run(arguments, console: buffered.console)
    return (code, buffered.output, buffered.errorOutput)
}

@Suite("meridian route")
struct RouteCommandTests {
    /// Google's documented example, both ways.
    @Test func encodeAndDecode() {
        let decoded = meridian(["route", "decode"], input: "_p~iF~ps|U_ulLnnqC_mqNvxq`@\n")
        #expect(decoded.code == 0)
        #expect(decoded.output == "38.5,-120.2\n40.7,-120.95\n43.252,-126.453\n\n")
        let encoded = meridian(["route", "encode"], input: decoded.output + "0.00001,0.00001\n")
        #expect(encoded.code == 0)
        #expect(encoded.output == "_p~iF~ps|U_ulLnnqC_mqNvxq`@\nAA\n")
        // Expected strings from an independent Python encoder (the algorithm of PyPI polyline 2.0.4).
        let six = meridian(["route", "decode", "--precision", "6"], input: "_ecslA~meueF\n")
        #expect(six.output == "40.7,-120.95\n\n")
    }

    /// A malformed polyline is reported with its line and offset, exit code 2, and the other lines
    /// are still answered.
    @Test func malformedPolylinesAreReported() {
        let result = meridian(["route", "decode"], input: "??\n_p~iF~ps|U_ulL\n  ??!\n??\n")
        #expect(result.code == 2)
        #expect(result.output == "0,0\n\n0,0\n\n")
        #expect(result.error.contains("line 2, offset 10"))
        #expect(result.error.contains("line 3, offset 4"))
        let encode = meridian(["route", "encode"], input: "1,2\n3\n\n5,6\n")
        #expect(encode.code == 2 && encode.error.contains("line 2"))
        #expect(encode.output == "_qo]_{rc@\n")
    }

    @Test func lengthSimplifyAndSnapFromStandardInput() {
        let csv = "0,0\n0,0.001\n0.00001,0.002\n0,0.003\n"
        let length = meridian(["route", "length", "--json"], input: csv)
        #expect(length.code == 0 && length.output.contains("\"length\":333.9"))
        let simple = meridian(["route", "simplify", "--tolerance", "5"], input: csv)
        #expect(simple.code == 0 && simple.output == "0.0,0.0\n0.0,0.003\n\n")
        let encoded = meridian(
            ["route", "simplify", "--tolerance", "5", "--output", "encoded"], input: csv)
        #expect(encoded.output == "???wQ\n")
        let snap = meridian(["route", "snap", "0.001", "0.0015", "--json"], input: csv)
        #expect(snap.code == 0 && snap.output.contains("\"segment\":1"))
        let bad = meridian(["route", "simplify"], input: csv)
        #expect(bad.code == 64)
    }

    @Test func inputErrorsNameTheLine() {
        let csv = meridian(["route", "length"], input: "0,0\n0,1\n91,0\n")
        #expect(csv.code == 2 && csv.error.contains("line 3"))
        let gpx = meridian(
            ["route", "length", "--format", "gpx"],
            input: "<gpx>\n<trk><trkseg><trkpt lat=\"1\"/></trkseg></trk></gpx>")
        #expect(gpx.code == 2 && gpx.error.contains("line 2"))
        let encoded = meridian(["route", "length", "--format", "encoded"], input: "??\n?!\n")
        #expect(encoded.code == 2 && encoded.error.contains("line 2, offset 1"))
        let json = meridian(
            ["route", "length"],
            input: "{\"type\": \"LineString\", \"coordinates\": [[0, 0], [0, \"x\"]]}")
        #expect(json.code == 2 && json.error.contains("coordinates[1]"))
        #expect(meridian(["route", "length", "/nonexistent/file.gpx"]).code == 1)
        #expect(meridian(["route", "fly"]).code == 64)
    }

    @Test func statsOfARealTrack() {
        let path = ReferenceData.url("tracks/gpx/android-maps-utils/BrightAngel.gpx").path
        let stats = meridian(["route", "stats", path, "--json"])
        #expect(stats.code == 0)
        // Length and elevation figures as Scripts/track_reference.py computes them with GeographicLib.
        #expect(stats.output.contains("\"length\":15323.27049107"))
        #expect(stats.output.contains("\"elevationLoss\":1372.99245"))
        #expect(stats.output.contains("\"stationaryPeriods\":2"))
        let geojson = meridian([
            "route", "simplify", path, "--tolerance", "20", "--output", "geojson",
        ])
        #expect(geojson.code == 0 && geojson.output.hasPrefix("{\"features\":[{"))
        let roundTrip = meridian(["route", "length"], input: geojson.output)
        #expect(
            roundTrip.code == 0
                && roundTrip.output.hasSuffix("From Bright Angel Trailhead to Phantom Ranch\n"))
    }
}
