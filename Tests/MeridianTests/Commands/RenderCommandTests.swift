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
}
