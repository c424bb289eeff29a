import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import MeridianCLI

/// Runs the tool in-process and returns its exit code, standard output and standard error.
func meridian(
    _ arguments: String..., input: String = ""
) -> (code: Int32, output: String, error: String) {
    let console = BufferedConsole(input: input)
    let code = MeridianCommand.run(arguments, console: console.console)
    return (code, console.output, console.errorOutput)
}

@Suite("meridian command-line tool")
struct CommandLineTests {
    /// JFK → LHR on WGS84: 5 554 908.79 m (GeographicLib 2.1 `Inverse(40.6413, -73.7781, 51.47, -0.4543)`).
    @Test func distanceAsJSON() throws {
        let result = meridian("distance", "40.6413", "-73.7781", "51.4700", "-0.4543", "--json")
        #expect(result.code == 0 && result.error.isEmpty)
        let object = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        let distance = try #require(object["distance"]?.doubleValue)
        #expect(abs(distance - 5_554_908.79) < 0.01)
        #expect(
            object["initialAzimuth"]?.doubleValue != nil
                && object["finalAzimuth"]?.doubleValue != nil)
    }

    @Test func haversineModel() {
        let geodesic = meridian("distance", "0", "0", "0", "1")
        let haversine = meridian("distance", "0", "0", "0", "1", "--model", "haversine")
        #expect(geodesic.output.hasPrefix("111319.491 m"))
        #expect(haversine.output.hasPrefix("111195.080 m"))
        #expect(meridian("distance", "0", "0", "0", "1", "--model", "flat").code == 64)
        // Both models give azimuths in (−180, 180]: south-west is −135°, not 225°
        // (GeographicLib 2.1 Inverse(0, 0, −10, −10): azi1 −135.2527°, azi2 −134.4988°; on the
        // sphere −135.4385° and −134.5615°).
        let southWest = meridian("distance", "0", "0", "-10", "-10", "--model", "haversine")
        #expect(
            southWest.output
                == "1568522.723 m, initial azimuth -135.43854859°, final azimuth -134.56145141°\n",
            "\(southWest.output)")
    }

    /// A number too large for a double is named as it was typed, not as the infinity it reads
    /// as; a zoom out of range names its column.
    @Test func messagesNameTheValueAsTyped() {
        let huge = meridian("distance", input: "1e400 0 1 1\n")
        #expect(huge.output == #"error: line 1: latitude "1e400" is not finite (column 1)"# + "\n")
        let zoom = meridian("tile", input: "0 0 31\n")
        #expect(zoom.output == "error: line 1: zoom 31 is outside 0...30 (column 3)\n")
        // A job given as arguments is named as such, its values counted.
        let argued = meridian("distance", "0", "0", "1", "x")
        #expect(
            argued.output == #"error: arguments: longitude "x" is not a number (value 4)"# + "\n")
        #expect(
            argued.error.contains("meridian distance: arguments: longitude") && argued.code == 2)
        // An integer beyond Int's range is an integer out of range, not a non-integer.
        let big = meridian("tile", input: "0 0 9223372036854775808\n0 0 1.5\n")
        #expect(
            big.output
                == #"error: line 1: zoom "9223372036854775808" is out of range (column 3)"# + "\n"
                + #"error: line 2: zoom "1.5" is not an integer (column 3)"# + "\n", "\(big.output)"
        )
        #expect(
            meridian("cluster", "--live", "--max-zoom", "-99999999999999999999").error.contains(
                #"option --max-zoom: "-99999999999999999999" is out of range"#))
        // A number too large for a Double is named as it was typed.
        #expect(
            meridian("cluster", "--live", "--radius", "1e400").error.contains(
                #"option --radius: "1e400" is not finite"#))
    }

    /// Standard input that fails part way (a directory, a device error) is not input that ended:
    /// the lines read before are answered, the failure is reported, and the exit code is 1.
    /// Files are read to their end as a stream, so a FIFO (`<(cmd)`, `/dev/stdin`) is read as a
    /// regular file is (it failed with "You don't have permission"); a directory names the
    /// system's reason.
    @Test func filesThatArePipes() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("meridian-fifo-\(getpid())").path
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let writer = Thread {
            let fd = open(path, O_WRONLY)
            let text = Array("POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))\n".utf8)
            _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let data = try readFile(path)
        #expect(String(decoding: data, as: UTF8.self) == "POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))\n")
        do {
            _ = try readFile(FileManager.default.temporaryDirectory.path)
            Issue.record("read a directory")
        } catch {
            #expect(
                error.kind == .io && error.message.contains("Is a directory"), "\(error.message)")
        }
    }

    /// Standard input closed by the caller (`<&-`) is input that cannot be read (exit 1), not
    /// empty input: before, PROJ's database took descriptor 0 as it opened, and `transform` read
    /// it as an empty input, exiting 0.
    @Test func closedStandardInputCannotBeRead() throws {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("meridian")
        try #require(
            FileManager.default.isExecutableFile(atPath: tool.path),
            "the tool is built beside the tests at \(tool.path)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for arguments in [
            ["transform", "--from", "EPSG:4326", "--to", "EPSG:3857"], ["distance"],
        ] {
            let argv = ([tool.path] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid = pid_t()
            #expect(posix_spawn(&pid, tool.path, &actions, nil, argv, environ) == 0)
            var status: Int32 = 0
            #expect(waitpid(pid, &status, 0) == pid)
            // Exited (no signal), with code 1.
            #expect(status & 0x7F == 0 && (status >> 8) & 0xFF == 1, "\(arguments): \(status)")
        }
    }

    /// Text output never writes a negative zero, and event times are rounded to the millisecond
    /// (a crossing computed as 35.99999999999993 s printed as 35.999).
    @Test func numbersAndTimesAsText() {
        #expect(format(-0.0, decimals: 8) == "0.00000000")
        #expect(format(-1e-12, decimals: 3) == "0.000")
        #expect(format(-0.0006, decimals: 3) == "-0.001")
        #expect(format(2.5, decimals: 0) == "2")
        #expect(
            iso8601Milliseconds(Date(timeIntervalSince1970: 35.99999999999993))
                == "1970-01-01T00:00:36.000Z")
        #expect(
            iso8601Milliseconds(Date(timeIntervalSince1970: 1.2344)) == "1970-01-01T00:00:01.234Z")
    }

    @Test func aFailedReadIsReported() {
        let bytes = Array("0 0 0 1\n".utf8)
        var served = false
        let reader = LineReader { buffer in
            guard !served else { return -Int(EISDIR) }
            served = true
            buffer.replaceSubrange(0..<bytes.count, with: bytes)
            return bytes.count
        }
        var output = "", errors = ""
        let console = Console(
            readLine: { reader.next() }, readAll: { reader.rest() }, write: { output += $0 },
            writeError: { errors += $0 },
            readFailure: { reader.failure.map { "error number \($0)" } })
        let code = MeridianCommand.run(["distance"], console: console)
        #expect(code == 1)
        #expect(output.hasPrefix("111319.491 m") && output.split(separator: "\n").count == 1)
        #expect(
            errors == "meridian distance: cannot read standard input: error number \(EISDIR)\n",
            "\(errors)")
        #expect(reader.next() == nil && reader.failure == EISDIR)

        // A command that reads its input whole answers nothing from part of it.
        let document = Array("10,20\n10.001,20.001\n".utf8)
        var given = false
        let whole = LineReader { buffer in
            guard !given else { return -Int(EISDIR) }
            given = true
            buffer.replaceSubrange(0..<document.count, with: document)
            return document.count
        }
        var clustered = "", complaints = ""
        let clusterConsole = Console(
            readLine: { whole.next() }, readAll: { whole.rest() }, write: { clustered += $0 },
            writeError: { complaints += $0 },
            readFailure: {
                whole.failureReported ? nil : whole.failure.map { "error number \($0)" }
            }, readFailureReported: { whole.failureReported = true })
        let refused = MeridianCommand.run(
            ["cluster", "--input", "-", "--zoom", "0"], console: clusterConsole)
        #expect(refused == 1 && clustered.isEmpty)
        #expect(
            complaints == "meridian cluster: cannot read standard input: error number \(EISDIR)\n",
            "\(complaints)")
    }

    /// Standard input: every input line gets exactly one output line, in order: the answer, an
    /// error record naming the line and the bad value, or an empty line for a blank or comment
    /// line. The errors also go to standard error, and the exit code is 2.
    @Test func batchFromStandardInput() {
        let input = "0 0 0 1\n\n95,0,1,1\n# comment\n0, 0, 1, 0\nabc 1 2 3\n"
        let result = meridian("distance", input: input)
        #expect(result.code == 2)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 7)  // six lines and the final newline
        #expect(lines[0].hasPrefix("111319.491 m"))
        #expect(lines[1].isEmpty && lines[3].isEmpty)
        #expect(lines[2] == #"error: line 3: latitude "95" is outside [-90, 90] (column 1)"#)
        #expect(lines[4].hasPrefix("110574.389 m"))
        #expect(lines[5] == "error: line 6: latitude \"abc\" is not a number (column 1)")
        #expect(result.error.contains(#"meridian distance: line 3: latitude "95" is outside"#))
        #expect(
            result.error.contains("meridian distance: line 6: latitude \"abc\" is not a number"))
    }

    /// Arguments that are not what a command takes are a mistake in the call (exit 64, with the
    /// usage), wherever the check happens; a value out of range names its column, and a line of
    /// WKT names only the batch's line.
    @Test func mistakesInTheCallExit64() throws {
        let calls: [[String]] = [
            ["distance", "1", "2", "3"], ["direct", "1", "2"], ["tile", "1"],
            ["reverse", "1", "2", "3"],
            ["transform", "--from", "EPSG:4326", "--to", "EPSG:3857", "1"],
            ["render", "--center", "1", "--zoom", "3"],
            ["render", "--center", "91,0", "--zoom", "3"],
            ["route", "length", "a", "b"], ["route", "stats", "--max-speed", "-1"],
            ["route", "snap", "x.csv", "47.3,8.5", "2.29"],
            ["route", "stats", "--moving-speed", "-1"],
            ["route", "stats", "--elevation-threshold", "-5"],
        ]
        for call in calls {
            let console = BufferedConsole(input: "")
            let code = MeridianCommand.run(call, console: console.console)
            #expect(code == 64 && console.errorOutput.contains("Usage:"), "\(call)")
        }
        let range = meridian("distance", input: "0 0 0 181\n")
        #expect(
            range.output == #"error: line 1: longitude "181" is outside [-180, 180] (column 4)"#
                + "\n")
        let wkt = meridian("geometry", "area", input: "POINT (1\n")
        #expect(
            wkt.output
                == "error: line 1: WKT: expected a coordinate (two numbers), found the end of the text (column 9, byte 8)\n",
            "\(wkt.output)")
    }

    /// An empty value is an error record, never a shift of the values after it into other
    /// places; commas, semicolons and blanks separate values in any mix.
    @Test func emptyValuesAreErrors() {
        let input = "10,,20,30,40\n0,0 0,1\n0;0; 0 ;1\n0,0,0,1,\n"
        let result = meridian("distance", input: input)
        #expect(result.code == 2)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("error: line 1: empty value in column 2"))
        #expect(lines[1].hasPrefix("111319.491 m") && lines[2].hasPrefix("111319.491 m"))
        #expect(lines[3].hasPrefix("error: line 4: empty value in column 5"))
    }

    /// With `--json`, each line is one object: the answer with its line number, an error record
    /// with the error's kind, or a skipped marker.
    @Test func batchAsJSON() throws {
        let result = meridian("distance", "--json", input: "0 0 0 1\r\n\r\n1 2 3\r\n")
        #expect(result.code == 2)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 3)
        let objects = try lines.map {
            try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
        }
        #expect(objects[0]["line"]?.doubleValue == 1 && objects[0]["distance"] != nil)
        #expect(objects[1]["skipped"] == .bool(true) && objects[1]["line"]?.doubleValue == 2)
        #expect(objects[2]["line"]?.doubleValue == 3)
        #expect(objects[2]["kind"] == .string("malformedInput"))
        #expect(objects[2]["error"]?.stringValue?.contains("expected 4 values") == true)
    }

    @Test func direct() throws {
        let result = meridian("direct", "0", "0", "90", "111319.4907932736", "--json")
        let object = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        #expect(abs(object["latitude"]?.doubleValue ?? 1) < 1e-12)
        #expect(abs((object["longitude"]?.doubleValue ?? 0) - 1) < 1e-12)
        #expect(abs((object["finalAzimuth"]?.doubleValue ?? 0) - 90) < 1e-12)
    }

    @Test func tile() {
        let result = meridian("tile", "51.4700", "-0.4543", "12")
        #expect(result.output.hasPrefix("12/2042/1362 tms 2733 quadkey 031313131030"))
        #expect(meridian("tile", "51.47", "-0.45", "31").code == 2)
    }

    @Test func helpVersionAndUsage() {
        #expect(meridian("--help").output.contains("distance"))
        #expect(meridian("distance", "--help").output.contains("Usage: meridian distance"))
        #expect(meridian("--version").output.contains("PROJ 9"))
        #expect(meridian("nonsense").code == 64)
        #expect(meridian().code == 64)
        #expect(meridian("distance", "--frobnicate").code == 64)
    }
}

@Suite("Control characters never reach the terminal")
struct ControlCharacterTests {
    /// A track name, a feature id and arguments carrying an escape sequence and a line break:
    /// every line written spells them out, and each answer stays on one line.
    @Test func dataAndArgumentsAreSpelledOut() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "meridian-control-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let track = directory.appendingPathComponent("evil.geojson")
        try Data(
            #"{"type":"Feature","properties":{"name":"a\u001b[31mX\nY"},"geometry":{"type":"LineString","coordinates":[[8.5,47.3],[8.5,47.4]]}}"#
                .utf8
        ).write(to: track)
        let collection = directory.appendingPathComponent("evil.json")
        try Data(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"b\u001b[31m\nFAKE","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#
                .utf8
        ).write(to: collection)
        let runs = [
            meridian("route", "length", track.path),
            meridian("route", "stats", track.path),
            meridian("geometry", "area", collection.path),
            meridian("fence", "--fences", "x", "--locations", "y", "\u{1B}[31mX"),
            meridian(
                "transform", "--from", "+proj=longlat +datum=\u{1B}[31m", "--to", "EPSG:4326", "1",
                "2"),
        ]
        for run in runs {
            for text in [run.output, run.error] {
                #expect(
                    !text.unicodeScalars.contains {
                        $0.value == 0x1B || (0x80...0x9F).contains($0.value)
                    },
                    "\(text)")
            }
        }
        #expect(runs[0].output.hasSuffix(#"a\u001B[31mX\u000AY"# + "\n"), "\(runs[0].output)")
        #expect(runs[1].output.split(separator: "\n").count == 1, "\(runs[1].output)")
        #expect(runs[2].output.hasPrefix(#"b\u001B[31m\u000AFAKE: "#), "\(runs[2].output)")
        #expect(runs[3].code == 64 && runs[3].error.contains(#""\u{1B}[31mX""#))
        // A JSON line keeps its data exact: a C1 character comes out as JSON's own escape.
        let line = Console.visible(#"{"name":"x\#u{9B}y"}"#)
        #expect(line == #"{"name":"x\u009By"}"#)
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(line.utf8))
        #expect(decoded["name"] == "x\u{9B}y")
        // So do the line and paragraph separators, which JavaScript's and Python's line
        // splitters break at; other characters of those three-byte sequences stay as they are.
        let separators = Console.visible(#"{"name":"a\#u{2028}b\#u{2029}c\#u{2027}–"}"#)
        #expect(separators == #"{"name":"a\u2028b\u2029c\#u{2027}–"}"#)
        #expect(
            try JSONDecoder().decode([String: String].self, from: Data(separators.utf8))["name"]
                == "a\u{2028}b\u{2029}c\u{2027}–")
    }
}

@Suite("Reading standard input line by line")
struct LineReaderTests {
    /// Lines as a reference splits them: at LF, CR LF and lone CR, a leading byte-order mark
    /// dropped, no empty last line after a final break.
    private static func reference(_ bytes: [UInt8]) -> [String] {
        var bytes = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var lines = [String](), current = [UInt8](), i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                lines.append(String(decoding: current, as: UTF8.self))
                current = []
                if b == 0x0D && i + 1 < bytes.endIndex && bytes[i + 1] == 0x0A { i += 1 }
            } else {
                current.append(b)
            }
            i += 1
        }
        if !current.isEmpty { lines.append(String(decoding: current, as: UTF8.self)) }
        return lines
    }

    /// Seeded streams of short and very long lines, every kind of break, read through sources
    /// that hand out from 1 byte to 64 KiB at a time (so breaks, CR LF pairs and the byte-order
    /// mark fall across reads), give the reference's lines.
    @Test func splitsAsTheReferenceDoes() {
        var rng = SplitMix64(seed: 31)
        for stream in 0..<60 {
            var bytes: [UInt8] = stream % 3 == 0 ? [0xEF, 0xBB, 0xBF] : []
            let chunk = [1, 2, 3, 7, 4096, 1 << 16][stream % 6]
            let longest = chunk < 100 ? 2_000 : 300_000
            for line in 0..<Int(rng.next() % 40) {
                // A byte-order mark after the first line is text, whatever the reads.
                if line > 0 && rng.next() % 5 == 0 { bytes += [0xEF, 0xBB, 0xBF] }
                let length =
                    rng.next() % 7 == 0 ? Int(rng.next() % UInt64(longest)) : Int(rng.next() % 12)
                for _ in 0..<length { bytes.append(UInt8(0x41 + rng.next() % 26)) }
                bytes += [[0x0A], [0x0D, 0x0A], [0x0D]][Int(rng.next() % 3)]
            }
            if rng.next() % 2 == 0 { bytes += Array("tail".utf8) }
            var offset = 0
            let reader = LineReader { buffer in
                let n = min(chunk, buffer.count, bytes.count - offset)
                buffer.replaceSubrange(0..<n, with: bytes[offset..<(offset + n)])
                offset += n
                return n
            }
            var lines = [String]()
            while let line = reader.next() { lines.append(line) }
            #expect(lines == Self.reference(bytes), "stream \(stream), reads of \(chunk) bytes")
        }
    }

    /// A short first line read a byte at a time: the mark that starts the second line stays.
    @Test func aMarkAfterAShortFirstLineIsText() {
        let bytes: [UInt8] = [0x61, 0x0A, 0xEF, 0xBB, 0xBF, 0x62, 0x0A]
        var offset = 0
        let reader = LineReader { buffer in
            let n = min(1, bytes.count - offset)
            buffer.replaceSubrange(0..<n, with: bytes[offset..<(offset + n)])
            offset += n
            return n
        }
        #expect(reader.next() == "a")
        #expect(reader.next() == "\u{FEFF}b")
        #expect(reader.next() == nil)
        // The whole rest of a stream read at once drops a leading mark too.
        #expect(LineReader(Data([0xEF, 0xBB, 0xBF, 0x7B, 0x7D])).rest() == Data("{}".utf8))
    }

    /// A line longer than the limit is dropped as it arrives (the reader never holds much more
    /// than the limit) and given empty with its problem; a line that is not UTF-8 names its first
    /// bad byte; the lines around both read as they are.
    @Test func overlongAndMalformedLinesAreNamed() {
        let long = LineReader.maximumLineBytes * 3 + 5
        var bytes = Array("1 2\n".utf8) + Array(repeating: UInt8(0x39), count: long) + [0x0A]
        bytes += Array("caf".utf8) + [0xC3, 0xA9, 0x20, 0xFF, 0x0A]  // "café ", then 0xFF
        bytes += [0xE0, 0x80, 0x80, 0x0A, 0xED, 0xA0, 0x80, 0x0A, 0xF4, 0x90, 0x80, 0x80, 0x0A]
        bytes += Array("ok".utf8) + [0xE2, 0x82]  // a sequence cut short at the end
        var offset = 0
        let reader = LineReader { buffer in
            let n = min(4096, buffer.count, bytes.count - offset)
            buffer.replaceSubrange(0..<n, with: bytes[offset..<(offset + n)])
            offset += n
            return n
        }
        var lines = [(String, String?)]()
        while let line = reader.next() { lines.append((line, reader.problem)) }
        #expect(lines.map(\.0) == ["1 2", "", "", "", "", "", ""])
        #expect(lines[0].1 == nil)
        #expect(lines[1].1 == "the line is longer than 1048576 bytes (\(long))")
        #expect(lines[2].1 == "byte 0xFF at column 7 is not UTF-8 text")
        // An overlong form, a surrogate, a value past U+10FFFF, a cut-short sequence.
        #expect(lines[3].1 == "byte 0xE0 at column 1 is not UTF-8 text")
        #expect(lines[4].1 == "byte 0xED at column 1 is not UTF-8 text")
        #expect(lines[5].1 == "byte 0xF4 at column 1 is not UTF-8 text")
        #expect(lines.last?.1 == "byte 0xE2 at column 3 is not UTF-8 text")
        #expect(UTF8Validation.firstInvalidByte(in: Array("okâ".utf8)[...]) == nil)
        #expect(UTF8Validation.firstInvalidByte(in: Array("ok".utf8)[...] + [0xE2, 0x82]) == 2)
        // The batch tool answers such lines with error records, one per line.
        let console = BufferedConsole(data: Data(bytes))
        let code = MeridianCommand.run(["distance"], console: console.console)
        #expect(code == 2)
        let out = console.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(out.count == 8 && out[1].contains("longer than") && out[2].contains("0xFF"))
        // UTF-16 input (a Windows redirect) is refused once, as a whole.
        let utf16 = LineReader(Data([0xFF, 0xFE, 0x31, 0x00, 0x0A, 0x00, 0x32, 0x00, 0x0A, 0x00]))
        #expect(utf16.next() == "" && utf16.problem?.contains("UTF-16") == true)
        #expect(utf16.next() == nil)
    }
}
