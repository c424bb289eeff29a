import Foundation
import GeoCore
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

    /// The IOGP Guidance Note 7-2 Pseudo-Mercator example, through the command line; every input
    /// line gets its output line, in order: a bad line and a failed point get error records naming
    /// their line numbers.
    @Test func linesInOrderWithFailuresReported() throws {
        let input = "-100.333333333333 24.381786944444\n\n# comment\nnot a number\n0 95\n0 0\n"
        let result = run(["--from", "EPSG:4326", "--to", "EPSG:3857"], input: input)
        #expect(result.code == 2)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count == 7, "\(result.output)")
        let first = lines[0].split(separator: " ").compactMap { Double($0) }
        #expect(
            first.count == 2 && abs(first[0] - -11_169_055.58) < 0.01
                && abs(first[1] - 2_800_000.00) < 0.01, "\(result.output)")
        #expect(lines[1].isEmpty && lines[2].isEmpty)
        #expect(lines[3] == #"error: line 4: x "not" is not a number (column 1)"#)
        // A point PROJ refuses is named as typed.
        #expect(
            lines[4].hasPrefix(#"error: line 5: position "0" "95" could not be transformed"#),
            "\(lines[4])")
        #expect(lines[5] == "0.0000 0.0000")
        #expect(
            result.errors.contains("line 4:") && result.errors.contains("line 5:"),
            "\(result.errors)")
        #expect(!result.errors.contains("line 6"))
    }

    /// A line with the wrong number of values gets an error record quoting them (control bytes
    /// spelled out).
    @Test func wrongNumberOfValuesIsQuoted() {
        let result = run(
            ["--from", "EPSG:4326", "--to", "EPSG:3857"], input: "\u{1}\u{2}\n1 2 3 4 5\n")
        #expect(result.code == 2)
        #expect(
            result.output
                == #"error: line 1: expected 2 to 4 values (x y [z [t]]), found 1: "\u{1}\u{2}""#
                + "\n"
                + #"error: line 2: expected 2 to 4 values (x y [z [t]]), found 5: "1" "2" "3" "4" …"#
                + "\n", "\(result.output)")
    }

    /// A fourth value is the point's epoch (decimal year), passed to PROJ per point and echoed.
    @Test func perPointEpochs() throws {
        let result = run(
            ["--from", "EPSG:4326", "--to", "EPSG:3857", "--json"], input: "0 0 0 0\n1 2 3 2020.5\n"
        )
        #expect(result.code == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2)
        let second = try JSONDecoder().decode(JSONValue.self, from: Data(lines[1].utf8))
        #expect(second["t"]?.doubleValue == 2020.5 && second["z"]?.doubleValue == 3)
        #expect(abs((second["x"]?.doubleValue ?? 0) - 111_319.490_793) < 1e-6)
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
        #expect(pipeline.output.hasPrefix(#"{"line":1,"x":687071.439"#), "\(pipeline.output)")
    }

    @Test func usageAndLibraryErrors() {
        #expect(run(["--from", "EPSG:4326"]).code == 64)
        #expect(run(["--pipeline", "x", "--from", "EPSG:4326", "--to", "EPSG:3857"]).code == 64)
        let unknown = run(["--from", "EPSG:4326", "--to", "EPSG:999999"])
        #expect(unknown.code == 1 && unknown.errors.contains("999999"))
        // A CRS given as a pipeline: refused at setup, not an error record per line.
        let crs = run(["--pipeline", "EPSG:32633"], input: "15 55\n16 56\n")
        #expect(crs.code == 1 && crs.output.isEmpty, "\(crs.output)")
        #expect(crs.errors.contains("is a CRS, not a coordinate operation"), "\(crs.errors)")
        // An operation with no inverse run backwards: refused at setup too.
        let august = run(["--pipeline", "+proj=august", "--inverse"], input: "1 2\n3 4\n")
        #expect(august.code == 1 && august.output.isEmpty, "\(august.output)")
        #expect(august.errors.contains("has no inverse"), "\(august.errors)")
        #expect(run(["--pipeline", "+proj=august"], input: "1 2\n").code == 0)
        // Between two CRSs with several candidate operations (OSGB 1936 has many from WGS 84),
        // PROJ knows none before the first point: the inverse runs.
        let british = run(
            ["--from", "EPSG:4326", "--to", "EPSG:27700", "--inverse"],
            input: "530000 180000\n")
        #expect(british.code == 0 && british.output.hasPrefix("-0.1"), "\(british.errors)")
    }

    /// Lines are answered before the tool waits for more input (a live stream is transformed
    /// line by line), and a pipe's lines that arrive together go through PROJ together; the
    /// output is the same either way.
    @Test func answersWhatHasArrivedBeforeWaiting() {
        let parts = ["0 0\n", "1 1\n# note\n2 2\n", "3 3"]
        var output = ""
        var outputLinesAtEachRead = [Int]()
        var served = 0
        let reader = LineReader { buffer in
            outputLinesAtEachRead.append(output.split(separator: "\n").count)
            guard served < parts.count else { return 0 }
            let bytes = Array(parts[served].utf8)
            served += 1
            buffer.replaceSubrange(0..<bytes.count, with: bytes)
            return bytes.count
        }
        let console = Console(
            readLine: { reader.next() }, readAll: { reader.rest() }, write: { output += $0 },
            writeError: { _ in }, lineReady: { reader.hasLine })
        let code = MeridianCommand.run(
            ["transform", "--from", "EPSG:4326", "--to", "EPSG:3857", "--decimals", "0"],
            console: console)
        #expect(code == 0)
        #expect(output == "0 0\n111319 111325\n\n222639 222684\n333958 334111\n", "\(output)")
        // Before the second read, line 1 was answered; before the third, lines 2 to 4.
        #expect(outputLinesAtEachRead.prefix(3) == [0, 1, 3], "\(outputLinesAtEachRead)")
        let piped = run(
            ["--from", "EPSG:4326", "--to", "EPSG:3857", "--decimals", "0"],
            input: parts.joined())
        #expect(piped.output == output)
    }

    /// An operation named by its code (EPSG:1314, OSGB 1936 to WGS 84, a Helmert transformation
    /// in EPSG's latitude-first order) runs as its URN does; a CRS code is still refused.
    @Test func operationCodes() {
        let byCode = run(["--pipeline", "EPSG:1314"], input: "52 -1\n")
        let byURN = run(
            ["--pipeline", "urn:ogc:def:coordinateOperation:EPSG::1314"], input: "52 -1\n")
        #expect(byCode.code == 0 && byCode.output == byURN.output, "\(byCode.errors)")
        // About 49 m north and 105 m west at 52° N, 1° W.
        #expect(byCode.output == "52.000439574 -1.001526226\n", "\(byCode.output)")
        #expect(run(["--pipeline", "EPSG:32633"], input: "15 55\n").code == 1)
    }

    /// A compound CRS (horizontal plus vertical) prints its degrees with nine decimals and its
    /// height, whether named by its own code (EPSG:9518, WGS 84 + EGM2008 height) or as
    /// AUTHORITY:CODE+CODE; its axes are the horizontal CRS's, then the vertical one's.
    @Test func compoundTargets() throws {
        let named = run(
            ["--from", "EPSG:4326", "--to", "EPSG:9518", "12.123456789", "55.123456789", "100"])
        #expect(named.code == 0)
        #expect(named.output == "12.123456789 55.123456789 100.0000\n", "\(named.output)")
        let shorthand = run(["--from", "EPSG:4326", "--to", "EPSG:4326+3855"], input: "12 55\n")
        #expect(shorthand.code == 0, "\(shorthand.errors)")
        #expect(shorthand.output.hasPrefix("12.000000000 55.000000000 "), "\(shorthand.output)")
        let transformer = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:4326+3855")
        let axes = try #require(transformer.outputAxes())
        #expect(axes.map(\.direction) == ["east", "north", "up"], "\(axes)")
        #expect(axes[0].unitName == "degree" && axes[2].unitName == "metre", "\(axes)")
        // Malformed shorthands are names to look up, and no CRS is named so.
        for text in ["EPSG:4326+", "EPSG:+3855", "EPSG:4326+3855+1"] {
            let refused = run(["--from", "EPSG:4326", "--to", text, "12", "55"])
            #expect(refused.code == 1 && refused.errors.contains("unknown target CRS"), "\(text)")
        }
    }

    /// A name several CRSs share is read as PROJ reads it: "GDA2020" is EPSG:7842 (Earth-centered),
    /// 7843 (3D) and 7844 (latitude and longitude), and means the last, as it did to PROJ; it was
    /// read as the Earth-centered one (the first code), so longitude 150 came out as −12.4.
    @Test func sharedNamesMeanTheGeographic2DCRS() {
        for (name, code) in [
            ("GDA2020", "EPSG:7844"), ("ITRF2014", "EPSG:9000"), ("WGS 84", "EPSG:4326"),
            ("NAD83(2011)", "EPSG:6318"),
        ] {
            let named = run(["--from", name, "--to", "EPSG:4326", "150", "-33"])
            let coded = run(["--from", code, "--to", "EPSG:4326", "150", "-33"])
            #expect(named.code == 0 && named.output == coded.output, "\(name): \(named)")
            #expect(named.output.hasPrefix("150.0000"), "\(name): \(named.output)")
        }
        // A name that is an alias too goes to the CRS named so: ETRS89 is EPSG:4258, not
        // IRENET95 (EPSG:4173, alias "ETRS89").
        #expect(
            run(["--from", "ETRS89", "--to", "EPSG:4326", "10", "50"]).output
                == run(["--from", "EPSG:4258", "--to", "EPSG:4326", "10", "50"]).output)
        // The kind comes first: ESRI:115817, a vertical CRS, is named "WGS_1984_(G1762)",
        // which is an alias of EPSG:9057 (geographic 2D), as PROJ reads the name.
        #expect(
            run(["--from", "WGS_1984_(G1762)", "--to", "EPSG:4326", "10", "50"]).output
                == run(["--from", "EPSG:9057", "--to", "EPSG:4326", "10", "50"]).output)
        // Two CRSs of one kind, neither of EPSG, share this name: refused, both named.
        let ambiguous = run(["--from", "ED50 geographiques (dms)", "--to", "EPSG:4326", "10", "50"])
        #expect(ambiguous.code == 1, "\(ambiguous)")
        #expect(
            ambiguous.errors.contains("names several CRSs")
                && ambiguous.errors.contains("IGNF:ED50G ")
                && ambiguous.errors.contains("IGNF:ED50GEO"),
            "\(ambiguous.errors)")
        // The exact name of a projected CRS is one CRS.
        let utm = run(["--from", "EPSG:4326", "--to", "WGS 84 / UTM zone 33N", "15", "0"])
        #expect(utm.output == "500000.0000 0.0000\n", "\(utm)")
    }

    /// Values given as arguments are named as arguments; no values at all is a usage error.
    @Test func argumentsAreNamedAsArguments() {
        let bad = run(["--from", "EPSG:4326", "--to", "EPSG:3857", "--", "0", "abc"])
        #expect(bad.code == 2)
        #expect(
            bad.output == #"error: arguments: y "abc" is not a number (value 2)"# + "\n", "\(bad)")
        let failed = run(["--from", "EPSG:4326", "--to", "EPSG:3857", "--", "0", "91"])
        #expect(
            failed.code == 2 && failed.output.hasPrefix("error: arguments: position"), "\(failed)")
        for empty in ["", "#"] {
            #expect(run(["--from", "EPSG:4326", "--to", "EPSG:3857", empty]).code == 64)
        }
    }

    /// An operation that reports no units (EPSG:1149, ETRS89 to WGS 84, which PROJ runs as a
    /// no-op) passes degrees through with their nine decimals, not cct's four for lengths; a
    /// vertical target's position keeps its source's nine.
    @Test func decimalsWithoutUnits() {
        let noop = run(["--pipeline", "EPSG:1149"], input: "52.123456789 15.123456789\n")
        #expect(noop.output == "52.123456789 15.123456789\n", "\(noop)")
        let projection = run(["--pipeline", "+proj=merc +ellps=WGS84"], input: "0 0\n")
        #expect(projection.output == "0.0000 0.0000\n", "\(projection)")
        let vertical = run(["--from", "EPSG:4326+5773", "--to", "EPSG:5773"], input: "15 52 100\n")
        #expect(vertical.code == 0, "\(vertical)")
        let decimals = vertical.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).map {
            $0.split(separator: ".").last?.count ?? 0
        }
        #expect(decimals == [9, 9, 4], "\(vertical.output)")
    }
}
