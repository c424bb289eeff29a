import Foundation
import Testing

@testable import MeridianCLI

@Suite("meridian transform")
struct TransformCommandTests {
    func run(
        _ arguments: [String], input: String = ""
    ) -> (code: Int32, output: String, errors: String) {
        let console = BufferedConsole(input: input)
        let code = MeridianCommand.run(["transform"] + arguments, console: console.console)
        return (code, console.output, console.errorOutput)
    }

    /// The IOGP Guidance Note 7-2 Pseudo-Mercator example, through the command line; a bad line and a
    /// failed point are reported with their line numbers and the rest is still written, in order.
    @Test func linesInOrderWithFailuresReported() {
        let input = "-100.333333333333 24.381786944444\n\n# comment\nnot a number\n0 95\n0 0\n"
        let result = run(["--from", "EPSG:4326", "--to", "EPSG:3857"], input: input)
        #expect(result.code == 2)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2)
        let first = lines.first?.split(separator: " ").compactMap { Double($0) } ?? []
        #expect(
            first.count == 2 && abs(first[0] - -11_169_055.58) < 0.01
                && abs(first[1] - 2_800_000.00) < 0.01, "\(result.output)")
        #expect(lines.last == "0.0000 0.0000")
        #expect(
            result.errors.contains("line 4:") && result.errors.contains("line 5:"),
            "\(result.errors)")
        #expect(!result.errors.contains("line 6"))
    }

    @Test func inverseHeightsPipelinesAndJSON() {
        let inverse = run([
            "--from", "EPSG:4326", "--to", "EPSG:32633", "--inverse", "500000", "6100000",
        ])
        #expect(
            inverse.code == 0 && inverse.output.hasPrefix("15.000000000 55."), "\(inverse.output)")
        let height = run(["--from", "EPSG:4979", "--to", "EPSG:4978"], input: "0 0 100\n")
        // 100 m above (0°, 0°)
        #expect(height.output == "6378237.0000 0.0000 0.0000\n", "\(height.output)")
        let pipeline = run(
            ["--pipeline", "+proj=utm +zone=32 +ellps=GRS80", "--json"], input: "12 56\n")
        #expect(pipeline.output.hasPrefix(#"{"x":687071.439"#), "\(pipeline.output)")
    }

    @Test func usageAndLibraryErrors() {
        #expect(run(["--from", "EPSG:4326"]).code == 64)
        #expect(run(["--pipeline", "x", "--from", "EPSG:4326", "--to", "EPSG:3857"]).code == 64)
        let unknown = run(["--from", "EPSG:4326", "--to", "EPSG:999999"])
        #expect(unknown.code == 1 && unknown.errors.contains("999999"))
    }
}
