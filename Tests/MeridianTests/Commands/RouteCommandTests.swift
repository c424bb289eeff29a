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
    /// Google's documented example, both ways: one polyline per line.
    @Test func encodeAndDecode() {
        let decoded = meridian(["route", "decode"], input: "_p~iF~ps|U_ulLnnqC_mqNvxq`@\r\n")
        #expect(decoded.code == 0)
        #expect(decoded.output == "38.5,-120.2 40.7,-120.95 43.252,-126.453\n")
        let encoded = meridian(["route", "encode"], input: decoded.output + "0.00001,0.00001\n")
        #expect(encoded.code == 0)
        #expect(encoded.output == "_p~iF~ps|U_ulLnnqC_mqNvxq`@\nAA\n")
        // Expected strings from an independent Python encoder (the algorithm of PyPI polyline 2.0.4).
        let six = meridian(["route", "decode", "--precision", "6"], input: "_ecslA~meueF\n")
        #expect(six.output == "40.7,-120.95\n")
        let json = meridian(["route", "decode", "--json"], input: "_p~iF~ps|U\n")
        #expect(json.output == "{\"line\":1,\"points\":[[38.5,-120.2]]}\n")
        // A polyline that decodes to no coordinate (100, 200) is refused, as encoding it is.
        let outside = meridian(["route", "decode"], input: "??_gjaR_ouce@\n_p~iF~ps|U\n")
        #expect(outside.code == 2)
        #expect(
            outside.output.hasPrefix("error: line 1: point 2: latitude 100.0 is outside [-90, 90]")
                && outside.output.hasSuffix("\n38.5,-120.2\n"), "\(outside.output)")
        #expect(meridian(["route", "encode"], input: "100,200\n").code == 2)
    }

    /// Every input line gets one output line: a malformed polyline gets an error record with its
    /// line and column in its place (and on standard error, in order), blank lines stay blank.
    @Test func malformedPolylinesAreReported() {
        let result = meridian(["route", "decode"], input: "??\n_p~iF~ps|U_ulL\n  ??!\n\n??\n")
        #expect(result.code == 2)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6 && lines[0] == "0,0" && lines[3] == "" && lines[4] == "0,0")
        #expect(lines[1].hasPrefix("error: line 2:") && lines[1].contains("column 11"))
        #expect(lines[2].hasPrefix("error: line 3:") && lines[2].contains("column 5"))
        let errors = result.error.split(separator: "\n")
        #expect(errors.count == 2 && errors[0].contains("line 2") && errors[1].contains("line 3"))
        // Control characters outside the alphabet, C1 included, are spelled out, never echoed.
        let control = meridian(
            ["route", "decode"], input: "_p~iF\u{9B}\n_p~iF\u{85}\n_p~iF\u{0C}\n")
        #expect(control.code == 2)
        #expect(!control.output.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
        #expect(!control.error.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
        #expect(
            control.output.contains(#"character "\u{9B}" (U+9B) at offset 5"#)
                && control.output.contains(#""\u{85}""#) && control.output.contains(#""\u{C}""#),
            "\(control.output)")
        let encode = meridian(["route", "encode", "--json"], input: "1,2\n3\n\n5,6\n")
        #expect(encode.code == 2)
        #expect(
            encode.output
                == "{\"encoded\":\"_ibE_seK\",\"line\":1}\n{\"error\":\"point 1 \\\"3\\\" is not LAT,LON\",\"kind\":\"malformedInput\",\"line\":2}\n{\"line\":3,\"skipped\":true}\n{\"encoded\":\"_qo]_{rc@\",\"line\":4}\n",
            "\(encode.output)")
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
        let bad = meridian(["route", "simplify"], input: csv)
        #expect(bad.code == 64)
        // Visvalingam-Whyatt takes an area, not a distance.
        #expect(
            meridian(["route", "simplify", "--method", "vw", "--tolerance", "5"], input: csv).code
                == 64)
        let vw = meridian(["route", "simplify", "--method", "vw", "--area", "1000"], input: csv)
        #expect(vw.code == 0 && vw.output == "0.0,0.0\n0.0,0.003\n\n")
    }

    /// snap searches every line of a file and says which one it used; points come from standard
    /// input one per line, answered in place.
    @Test func snapToEveryLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "snap-\(UUID().uuidString).csv")
        try "0,0\n0,0.001\n0,0.002\n\n1,0\n1,0.001\n".write(
            to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let one = meridian(["route", "snap", file.path, "0.0001", "0.0015", "--json"])
        #expect(
            one.code == 0 && one.output.contains("\"track\":0")
                && one.output.contains("\"segment\":1"))
        let many = meridian(["route", "snap", file.path], input: "0.9999 0.0005\nx y\n0 0.0005\n")
        let lines = many.output.split(separator: "\n")
        #expect(many.code == 2 && lines.count == 3)
        #expect(lines[0].hasSuffix("track 1 part 0") && lines[1].hasPrefix("error: line 2"))
        #expect(lines[2].hasSuffix("track 0 part 0"))
    }

    /// `--max-accuracy` drops the fixes whose accuracy column says they are worse, and is
    /// refused for input that carries no accuracies rather than claiming to have filtered.
    @Test func accuracyFilterReadsTheColumn() {
        let log =
            "lat,lon,time,horizontal_accuracy\n0,0,1704067200,5\n0.01,0.0001,1704067210,500\n"
            + "0,0.0002,1704067230,5\n"
        let filtered = meridian(["route", "stats", "--max-accuracy", "50", "--json"], input: log)
        #expect(
            filtered.code == 0 && filtered.output.contains("\"points\":2"), "\(filtered.output)")
        let all = meridian(["route", "stats", "--json"], input: log)
        #expect(all.code == 0 && all.output.contains("\"points\":3"), "\(all.output)")
        let none = meridian(
            ["route", "stats", "--max-accuracy", "50"], input: "lat,lon\n0,0\n0,1\n")
        #expect(none.code == 2 && none.error.contains("no horizontal accuracies"), "\(none.error)")
        let negative = meridian(["route", "stats"], input: "lat,lon,hacc\n0,0,-3\n")
        #expect(negative.code == 2 && negative.error.contains("line 2"), "\(negative.error)")
    }

    /// An encoded polyline that decodes off the Earth is refused, not measured as NaN.
    @Test func encodedLinesOffTheEarthAreRefused() {
        let result = meridian(
            ["route", "length", "--format", "encoded", "--json"], input: "_mljP_w{~eB~lljP~v{~eB\n")
        #expect(result.code == 2 && result.error.contains("latitude 91"), "\(result.error)")
        #expect(!result.output.contains("null") && !result.output.contains("nan"))
    }

    @Test func inputErrorsNameTheLine() {
        let csv = meridian(["route", "length"], input: "0,0\n0,1\n91,0\n")
        #expect(csv.code == 2 && csv.error.contains("line 3"))
        let gpx = meridian(
            ["route", "length", "--format", "gpx"],
            input: "<gpx>\n<trk><trkseg><trkpt lat=\"1\"/></trkseg></trk></gpx>")
        #expect(gpx.code == 2 && gpx.error.contains("line 2"))
        let encoded = meridian(["route", "length", "--format", "encoded"], input: "??\n?!\n")
        #expect(encoded.code == 2 && encoded.error.contains("line 2, column 2"), "\(encoded.error)")
        // CRLF, a byte-order mark, semicolons and a header are read as they are written.
        let excel = meridian(["route", "length"], input: "\u{FEFF}Lat;Lon\r\n0;0\r\n0;0,001\r\n")
        #expect(
            excel.code == 0 && excel.output.hasPrefix("111.319"), "\(excel.output) \(excel.error)")
        #expect(meridian(["route", "length"], input: "lat,lon\n").code == 2)
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
        #expect(stats.output.contains("\"robustMaximumSpeed\":0.87026078871"))
        #expect(
            stats.output.contains("\"outOfOrderPoints\":0")
                && stats.output.contains("\"length3D\":15415.0957"))
        let filtered = meridian(["route", "stats", path, "--max-speed", "30"])
        #expect(
            filtered.output.contains("filtered: duplicate timestamps, speed outliers > 30.0 m/s"))
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
