import Foundation
import Testing

@testable import MeridianCLI

@Suite("meridian render")
struct RenderCommandTests {
    func run(
        _ arguments: [String], input: String = ""
    ) -> (code: Int32, output: String, error: String) {
        let console = BufferedConsole(input: input)
        let code = MeridianCommand.run(["render"] + arguments, console: console.console)
        return (code, console.output, console.errorOutput)
    }

    /// A FeatureCollection on standard input becomes an SVG on standard output; GeoJSON lines (what
    /// the batch commands write) are read too.
    @Test func drawsGeoJSONFromStandardInput() {
        let collection =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"cluster":true,"point_count":42,"point_count_abbreviated":42},"geometry":{"type":"Point","coordinates":[10,50]}},{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[12,52]}}]}"#
        let result = run(["--width", "300", "--height", "200"], input: collection)
        #expect(result.code == 0, "\(result.error)")
        #expect(result.output.hasPrefix("<?xml") && result.output.contains("<svg"))
        #expect(result.output.contains(">42</text>"))
        let lines =
            #"{"type":"Point","coordinates":[1,2]}"# + "\n\n"
            + #"{"type":"LineString","coordinates":[[0,0],[3,3]]}"# + "\n"
        let fromLines = run(["--graticule"], input: lines)
        #expect(fromLines.code == 0 && fromLines.output.contains("<path"), "\(fromLines.error)")
    }

    @Test func usageAndBadInput() {
        #expect(run(["--center", "10,20"]).code == 64)
        #expect(run(["--width", "5"]).code == 64)
        #expect(run(["--padding", "400", "--width", "600", "--height", "400"]).code == 64)
        let bad = run([], input: #"{"type":"Point","coordinates":[1]}"#)
        #expect(bad.code == 2 && bad.error.contains("standard input"))
        #expect(run(["/nonexistent.geojson"]).code == 1)
        // Positions that are not longitude/latitude are refused by feature, as cluster and fence
        // refuse them, rather than drawn off the map or left out.
        for (geometry, words) in [
            (#"{"type":"LineString","coordinates":[[0,0],[10,100]]}"#, "latitude 100.0"),
            (#"{"type":"Point","coordinates":[1e308,0]}"#, "longitude 1e+308"),
        ] {
            let input = #"{"type":"Point","coordinates":[0,0]}"# + "\n" + geometry
            let refused = run([], input: input)
            #expect(
                refused.code == 2 && refused.output.isEmpty
                    && refused.error.contains("standard input: feature 1: \(words)"),
                "\(refused.error)")
        }
        let centered = run(
            ["--center", "48.86,2.35", "--zoom", "12", "--heading", "30"],
            input: #"{"type":"Point","coordinates":[2.35,48.86]}"#)
        #expect(centered.code == 0 && centered.output.contains(">N</text>"))
    }

    /// Pitch beyond 0–70° is refused, not clamped; features with no position (empty geometries)
    /// leave the world in view, as no features do; empty input and blank lines are both bad
    /// input; a view over a pole has the scale of the map's edge it shows.
    @Test func edgesOfTheOptionsAndTheInput() {
        let point = #"{"type":"Point","coordinates":[0,0]}"#
        for pitch in ["71", "-1", "nan"] {
            let refused = run(["--pitch", pitch], input: point)
            #expect(refused.code == 64 && refused.error.contains("--pitch"), "\(pitch)")
        }
        #expect(run(["--pitch", "70"], input: point).code == 0)
        for zoom in ["1e9", "-1", "31", "nan"] {
            let refused = run(["--center", "47.3,8.5", "--zoom", zoom], input: point)
            #expect(refused.code == 64 && refused.error.contains("--zoom"), "\(zoom)")
        }
        // A longitude as far as accepted is drawn where it wraps to, not lost in rounding: the
        // point and the legend's symbol.
        let far = run(
            ["--width", "300", "--height", "200"],
            input: #"{"type":"Point","coordinates":[1e15,0]}"#)
        #expect(
            far.code == 0 && far.output.components(separatedBy: "<circle").count == 3,
            "\(far.output)")
        for empty in [
            #"{"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[]}}"#,
            #"{"type":"MultiPoint","coordinates":[]}"#,
        ] {
            let world = run(["--basemap"], input: empty)
            #expect(world.code == 0 && world.output.contains("<svg"), "\(world.error)")
        }
        for blank in ["", "\n", "\n\n \r\n"] {
            #expect(run([], input: blank).code == 2, "\(Array(blank.utf8))")
        }
        let empty = #"{"type":"FeatureCollection","features":[]}"#
        let north = run(["--center", "90,0", "--zoom", "3"], input: empty)
        let edge = run(["--center", "85.0511287798066,0", "--zoom", "3"], input: empty)
        let label = { (svg: String) in
            svg.components(separatedBy: "fill=\"#1b2a36\">").dropFirst().first {
                $0.hasSuffix("m</text>\n") || $0.contains(" km<") || $0.contains(" m<")
            }?.prefix { $0 != "<" }
        }
        #expect(label(north.output) != nil && label(north.output) == label(edge.output))
    }

    /// The batch commands' records of skipped and bad lines are left out of what is drawn, with
    /// a note: their GeoJSON output with a comment line or a bad line is piped in whole.
    @Test func batchRecordsAreLeftOut() {
        let lines =
            #"{"line":1,"skipped":true}"# + "\n"
            + #"{"type":"Point","coordinates":[1,2]}"# + "\n"
            + #"{"error":"line 3: bad","kind":"malformedInput","line":3}"# + "\n"
        let result = run([], input: lines)
        #expect(result.code == 0 && result.output.contains("<circle"), "\(result.error)")
        #expect(result.error.contains("left out 2 records") && result.error.contains("line 1"))
        // Only records: nothing to draw, the whole world.
        let only = run([], input: #"{"line":1,"skipped":true}"# + "\n")
        #expect(only.code == 0 && only.output.contains("<svg"), "\(only.error)")
        // An object without a type that is not such a record is still an error.
        #expect(
            run([], input: #"{"lines":1}"# + "\n" + #"{"type":"Point","coordinates":[1,2]}"#).code
                == 2)
    }
}
