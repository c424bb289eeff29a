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

/// Exit codes shared by all subcommands.
enum ExitCode {
    /// Everything worked.
    static let success: Int32 = 0
    /// A general failure (a file that cannot be read, a library error).
    static let failure: Int32 = 1
    /// Some input lines or records were bad; the good ones were still answered.
    static let partialFailure: Int32 = 2
    /// The command was called wrongly.
    static let usage: Int32 = 64
}

/// Runs a "one job per line" command: the positional arguments are one job, or, when there are
/// none, each line of standard input is one. Blank lines and lines starting with `#` are skipped.
/// A bad line is reported on standard error with its line number; the others are still answered.
///
/// - Returns: ``ExitCode/success``, or ``ExitCode/partialFailure`` if any line was bad.
func runJobs(
    positional: [String], console: Console, answer: ([Substring]) throws(GeoError) -> String
) -> Int32 {
    if !positional.isEmpty {
        do {
            console.print(try answer(fields(of: positional.joined(separator: " "))))
            return ExitCode.success
        } catch {
            console.printError("meridian: \(error.message)")
            return ExitCode.partialFailure
        }
    }
    var lineNumber = 0
    var failed = false
    while let line = console.readLine() {
        lineNumber += 1
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
        do {
            console.print(try answer(fields(of: trimmed)))
        } catch {
            console.printError("meridian: line \(lineNumber): \(error.message)")
            failed = true
        }
    }
    return failed ? ExitCode.partialFailure : ExitCode.success
}

/// Checks the number of fields of a job.
///
/// - Throws: ``GeoError`` naming the expected and actual count.
func expectFields(_ fields: [Substring], _ names: [String]) throws(GeoError) {
    guard fields.count == names.count else {
        throw GeoError(
            .malformedInput,
            "expected \(names.count) values (\(names.joined(separator: " "))), got \(fields.count): '\(fields.joined(separator: " "))'"
        )
    }
}

/// Parses a latitude and longitude field pair into a valid coordinate.
///
/// - Throws: ``GeoError`` naming the bad value.
func parseCoordinate(_ latitude: Substring, _ longitude: Substring) throws(GeoError) -> Coordinate {
    try Coordinate(
        validatingLatitude: parseNumber(latitude, name: "latitude"),
        longitude: parseNumber(longitude, name: "longitude"))
}

/// One JSON object on one line, keys sorted, numbers in full precision.
func jsonLine(_ fields: [String: JSONValue]) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(JSONValue.object(fields)) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
}

/// A number for text output with a fixed count of decimals.
func format(_ value: Double, decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}
