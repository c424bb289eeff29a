import Foundation
import GeoCore

/// A `meridian` subcommand.
protocol Subcommand: Sendable {
    /// The word that selects it: `meridian <name> ...`.
    static var name: String { get }
    /// One line for the overview.
    static var summary: String { get }
    /// The full help text, printed by `--help`.
    static var help: String { get }
    /// Options that take a value (everything else starting with `--` is a flag).
    static var valueOptions: Set<String> { get }
    /// Runs the command and returns the process exit code.
    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32
}

/// The exit codes of every subcommand: one table, printed by `meridian --help`.
enum ExitCode {
    /// Everything was answered.
    static let success: Int32 = 0
    /// The command could not run: a file could not be read, or PROJ or GEOS could not set up what
    /// was asked (an unknown CRS, an operation with no inverse); nothing was answered. Also when
    /// reading standard input, or PROJ for a later batch of a stream, failed part way: the lines
    /// before were answered.
    static let failure: Int32 = 1
    /// Some input was bad: each bad line or record got an error record in its place (or a whole
    /// input file was malformed); everything else was answered.
    static let badInput: Int32 = 2
    /// The command was called wrongly: an unknown command or option, a missing or malformed
    /// argument. The usage is printed.
    static let usage: Int32 = 64

    /// The table, for the help texts.
    static let table = """
        Exit codes (all commands):
          0   everything was answered
          1   the command could not run (a file could not be read, PROJ or GEOS refused the
              setup), or standard input could not be read to its end
          2   some input was bad: each bad line got an error record in its place, the rest was
              answered (or an input file was malformed)
          64  the command was called wrongly (unknown option, missing argument); usage is printed
        """
}

/// One answer of a batch: its text line and its JSON fields (without `line`).
struct Answer {
    var text: String
    var json: [String: JSONValue]
}

/// Batch mode: every input line gets exactly one output line, in order.
///
/// - An answer is its text, or with `--json` one JSON object with the input's `line` number.
/// - A bad line gets an error record in its place: `error: line N: message` as text, or
///   `{"line": N, "error": "message", "kind": "..."}` as JSON; the same message goes to standard
///   error, in input order, and the exit code becomes 2. A job given as positional arguments is
///   `error: arguments: message` (its values counted instead of columns), and line 1 as JSON.
/// - A blank line or a `#` comment gets an empty line (text) or `{"line": N, "skipped": true}`.
struct Batch {
    let command: String
    let json: Bool
    /// Whether error records and skipped lines are written as JSON objects: with `json`, and
    /// for answers that are JSON of their own (GeoJSON lines), so every line parses.
    let jsonRecords: Bool
    let console: Console
    /// Whether the job came from the positional arguments: messages then say "arguments" and
    /// "value N" instead of "line 1" and "column N" (a JSON record keeps `"line": 1`).
    let fromArguments: Bool
    private(set) var failed = false

    init(
        command: String, json: Bool, jsonRecords: Bool? = nil, console: Console,
        fromArguments: Bool = false
    ) {
        self.command = command
        self.fromArguments = fromArguments
        self.json = json
        self.jsonRecords = jsonRecords ?? json
        self.console = console
    }

    /// Writes the error record of a line the reader could not give as text (too long, or not
    /// UTF-8) and returns `true`; `false` for a line to answer.
    mutating func rejectsUnreadable(line: Int) -> Bool {
        guard let problem = console.lineProblem() else { return false }
        emit(line: line, .failure(GeoError(.malformedInput, problem)))
        return true
    }

    /// Writes the answer, or the error record, of one line.
    mutating func emit(line: Int, _ result: Result<Answer, GeoError>) {
        switch result {
        case .success(let answer):
            if json {
                var fields = answer.json
                fields["line"] = .integer(line)
                console.print(jsonLine(fields))
            } else {
                console.print(answer.text)
            }
        case .failure(let error):
            failed = true
            let message = describe(error)
            let place = fromArguments ? "arguments" : "line \(line)"
            console.printError("meridian \(command): \(place): \(message)")
            if jsonRecords {
                console.print(
                    jsonLine([
                        "line": .integer(line), "error": .string(message),
                        "kind": .string(error.kind.name),
                    ]))
            } else {
                console.print("error: \(place): \(message)")
            }
        }
    }

    /// Writes the placeholder of a blank or comment line.
    func skip(line: Int) {
        console.print(jsonRecords ? jsonLine(["line": .integer(line), "skipped": true]) : "")
    }

    /// The exit code: 2 if any line was bad.
    var exitCode: Int32 { failed ? ExitCode.badInput : ExitCode.success }

    /// Runs a job per line: the positional arguments are one job (`arguments` in messages, line 1
    /// in JSON records), or, when there are none, each line of standard input is one.
    ///
    /// - Throws: ``UsageError`` when the positional arguments are not as many values as a job
    ///   takes (a mistake in the call, exit 64 with the usage); the same count on a line of
    ///   standard input is that line's error record.
    static func run(
        _ command: String, positional: [String], json: Bool, jsonRecords: Bool? = nil,
        console: Console, answer: (_ fields: [String]) throws(GeoError) -> Answer
    ) throws(UsageError) -> Int32 {
        var batch = Batch(
            command: command, json: json, jsonRecords: jsonRecords, console: console,
            fromArguments: !positional.isEmpty)
        if !positional.isEmpty {
            let outcome = result(answer, jobFields(positional.joined(separator: " ")))
            if case .failure(let error) = outcome, error.isFieldCount {
                throw UsageError(error.message)
            }
            batch.emit(line: 1, outcome)
            return batch.exitCode
        }
        return runLines(
            command, json: json, jsonRecords: jsonRecords, console: console, answer: answer)
    }

    /// Runs a job per line of standard input.
    static func runLines(
        _ command: String, json: Bool, jsonRecords: Bool? = nil, console: Console,
        answer: (_ fields: [String]) throws(GeoError) -> Answer
    ) -> Int32 {
        var batch = Batch(
            command: command, json: json, jsonRecords: jsonRecords, console: console)
        var number = 0
        while let line = console.readLine() {
            number += 1
            if batch.rejectsUnreadable(line: number) { continue }
            guard let fields = batch.fields(of: line, number: number) else { continue }
            batch.emit(line: number, result(answer, .success(fields)))
        }
        return batch.exitCode
    }

    /// The fields of a job line, or `nil` (after writing the placeholder) for a blank or comment
    /// line, or after writing the error record of a line that cannot be split.
    mutating func fields(of line: String, number: Int) -> [String]? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("#") {
            skip(line: number)
            return nil
        }
        do throws(GeoError) {
            return try splitJob(trimmed)
        } catch {
            emit(line: number, .failure(error))
            return nil
        }
    }

    private static func result(
        _ answer: ([String]) throws(GeoError) -> Answer, _ fields: Result<[String], GeoError>
    ) -> Result<Answer, GeoError> {
        Result { () throws(GeoError) -> Answer in try answer(fields.get()) }
    }

    private static func jobFields(_ text: String) -> Result<[String], GeoError> {
        Result { () throws(GeoError) -> [String] in try splitJob(text) }
    }

    /// A message with where it is (column or offset) when the error knows.
    func describe(_ error: GeoError) -> String {
        if let column = error.column, !error.message.contains("column") {
            return "\(error.message) (\(fromArguments ? "value" : "column") \(column))"
        }
        return error.message
    }
}

/// The fields of a job line: separated by spaces, tabs, one comma or one semicolon (quotes
/// allowed; an empty field is an error), see `DelimitedText.splitValues`.
func splitJob(_ text: String) throws(GeoError) -> [String] {
    try DelimitedText.splitValues(text)
}

/// Checks the number of fields of a job.
///
/// - Throws: ``GeoError`` naming the expected fields and what was found.
func expectFields(_ fields: [String], _ names: [String]) throws(GeoError) {
    guard fields.count == names.count else {
        throw GeoError(
            .malformedInput,
            "expected \(names.count) values (\(names.joined(separator: " "))), "
                + foundValues(fields))
    }
}

/// "found N" and the first four fields quoted, for the error of a job with the wrong number of
/// values.
func foundValues(_ fields: [String]) -> String {
    "found \(fields.count)"
        + (fields.isEmpty
            ? ""
            : ": " + fields.prefix(4).map { GeoError.quoted($0) }.joined(separator: " ")
                + (fields.count > 4 ? " …" : ""))
}

extension GeoError {
    /// Whether this is the error of a job with too few or too many values
    /// (``expectFields(_:_:)``'s, or a command's own "expected … values (…), found N").
    var isFieldCount: Bool {
        kind == .malformedInput && message.hasPrefix("expected ") && message.contains(" values (")
            && message.contains("), found ")
    }
}

/// A field as a finite number; the message tells "not a number" from "not finite".
///
/// - Throws: ``GeoError`` naming the field and its text.
func parseNumber(_ text: String, name: String, column: Int? = nil) throws(GeoError) -> Double {
    guard let value = DelimitedText.number(text) else {
        throw GeoError(
            .malformedInput, "\(name) \(GeoError.quoted(text)) is not a number", column: column)
    }
    guard value.isFinite else {
        // The text as typed: 1e400 reads as infinity, which is not what was written.
        throw GeoError(
            .malformedInput, "\(name) \(GeoError.quoted(text)) is not finite", column: column)
    }
    return value
}

/// A field as an integer.
///
/// - Throws: ``GeoError`` naming the field and its text.
func parseInteger(_ text: String, name: String, column: Int? = nil) throws(GeoError) -> Int {
    guard let value = Int(text) else {
        throw GeoError(
            .malformedInput, "\(name) \(GeoError.quoted(text)) \(notAnInteger(text))",
            column: column)
    }
    return value
}

/// Why a text is not an `Int`: "is out of range" for digits beyond ±(2⁶³ − 1), which are an
/// integer, only too large; "is not an integer" otherwise.
func notAnInteger(_ text: String) -> String {
    let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
    return !digits.isEmpty && digits.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        ? "is out of range" : "is not an integer"
}

/// A latitude and longitude field pair as a valid coordinate.
///
/// - Throws: ``GeoError`` naming the bad value.
func parseCoordinate(
    _ latitude: String, _ longitude: String, column: Int = 1
) throws(GeoError) -> Coordinate {
    let lat = try parseNumber(latitude, name: "latitude", column: column)
    let lon = try parseNumber(longitude, name: "longitude", column: column + 1)
    do {
        return try Coordinate(validatingLatitude: lat, longitude: lon)
    } catch {
        // Out of range: the latitude, or the longitude when the latitude is fine, as typed.
        let (name, text, range, at) =
            abs(lat) <= 90
            ? ("longitude", longitude, "[-180, 180]", column + 1)
            : ("latitude", latitude, "[-90, 90]", column)
        throw GeoError(
            error.kind, "\(name) \(GeoError.quoted(text)) is outside \(range)", column: at)
    }
}

/// One JSON object on one line, keys sorted, numbers in full precision.
func jsonLine(_ fields: [String: JSONValue]) -> String {
    jsonText(.object(fields))
}

/// A JSON value on one line, keys sorted; a number JSON cannot write (NaN, ±∞) is written `null`.
///
/// The text is what Foundation's `JSONEncoder` writes with sorted keys and unescaped slashes
/// (the tests compare the two on random values), made directly: a number is its shortest
/// `description` without a trailing `.0`, a string escapes `"`, `\` and control characters only.
/// Encoding through `JSONEncoder` took half the time of a replay of fixes.
func jsonText(_ value: JSONValue) -> String {
    var text = ""
    appendJSON(value, to: &text)
    return text
}

private func appendJSON(_ value: JSONValue, to text: inout String) {
    switch value {
    case .null: text += "null"
    case .bool(let b): text += b ? "true" : "false"
    case .integer(let i): text += String(i)
    case .number(let d):
        guard d.isFinite else {
            text += "null"
            return
        }
        let digits = d.description
        text += digits.hasSuffix(".0") ? digits.dropLast(2) : Substring(digits)
    case .string(let s): appendJSONString(s, to: &text)
    case .array(let items):
        text += "["
        for (i, item) in items.enumerated() {
            if i > 0 { text += "," }
            appendJSON(item, to: &text)
        }
        text += "]"
    case .object(let members):
        text += "{"
        // Sorted by their UTF-8 bytes (Unicode scalar order), as the encoder sorts them, not by
        // `String`'s canonical order, which reorders combining marks.
        let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for (i, key) in keys.enumerated() {
            if i > 0 { text += "," }
            appendJSONString(key, to: &text)
            text += ":"
            if let member = members[key] { appendJSON(member, to: &text) }
        }
        text += "}"
    }
}

private func appendJSONString(_ s: String, to text: inout String) {
    text += "\""
    // Runs without a byte to escape are appended whole (the bytes to escape are ASCII, never
    // part of a longer UTF-8 sequence).
    let utf8 = s.utf8
    var runStart = utf8.startIndex
    var i = runStart
    while i != utf8.endIndex {
        let byte = utf8[i]
        if byte < 0x20 || byte == 0x22 || byte == 0x5C {
            text += s[runStart..<i]
            switch byte {
            case 0x22: text += "\\\""
            case 0x5C: text += "\\\\"
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            case 0x08: text += "\\b"
            case 0x0C: text += "\\f"
            default:
                let hex = String(byte, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            runStart = utf8.index(after: i)
        }
        i = utf8.index(after: i)
    }
    text += s[runStart..<utf8.endIndex]
    text += "\""
}

/// A number for text output with a fixed count of decimals; a value that rounds to zero is
/// written without a minus sign ("0.000", not "-0.000").
func format(_ value: Double, decimals: Int) -> String {
    let text = String(format: "%.\(decimals)f", value)
    guard text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) else {
        return text
    }
    return String(text.dropFirst())
}

/// The bytes of a file, or of standard input for `-` or no path.
///
/// - Throws: ``GeoError/Kind-swift.struct/io`` naming the path, or standard input when it could not
///   be read to its end.
func readInput(_ path: String?, console: Console) throws(GeoError) -> Data {
    guard let path, path != "-" else {
        // Part of a document is not a document: nothing is answered from it.
        let data = console.readAll()
        if let failure = console.readFailure() {
            console.readFailureReported()
            throw GeoError(.io, "cannot read standard input: \(failure)")
        }
        return data
    }
    return try readFile(path)
}

/// The bytes of a file, read to its end with `read(2)`, so that pipes and FIFOs (`<(cmd)`,
/// `/dev/stdin`) are read as regular files are.
///
/// - Throws: ``GeoError/Kind-swift.struct/io`` naming the path and the system's reason ("No such
///   file or directory", "Is a directory").
func readFile(_ path: String) throws(GeoError) -> Data {
    func failure() -> GeoError {
        GeoError(.io, "cannot read \(GeoError.quoted(path)): \(String(cString: strerror(errno)))")
    }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw failure() }
    defer { close(fd) }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count == 0 { return data }
        if count < 0 {
            if errno == EINTR { continue }
            throw failure()
        }
        data.append(contentsOf: chunk[0..<count])
    }
}
