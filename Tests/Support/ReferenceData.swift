import Foundation
import GeoCore

/// The reference data the tests read: published values and other implementations' test suites,
/// kept in the package under `Tests/Fixtures` (see its `PROVENANCE.md` for each file's source,
/// version and license).
///
/// `MERIDIAN_REFERENCE_DATA` points the suites at another directory of the same layout. A file that
/// is missing is an error, so a data-driven test fails rather than passing without its data.
public enum ReferenceData {
    /// A reference file that could not be read.
    public struct MissingFile: Error, CustomStringConvertible {
        /// The path that was tried.
        public var path: String
        /// Why it could not be read.
        public var reason: String

        public var description: String {
            "reference data file \(path) cannot be read (\(reason)); set MERIDIAN_REFERENCE_DATA "
                + "to a directory laid out as Tests/Fixtures"
        }
    }

    /// The package root, found from this file's path.
    public static let packageRoot: URL = {
        URL(fileURLWithPath: #filePath)  // <root>/Tests/Support/ReferenceData.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// The data directory: `MERIDIAN_REFERENCE_DATA`, or the package's `Tests/Fixtures`.
    public static let directory: URL = {
        if let path = ProcessInfo.processInfo.environment["MERIDIAN_REFERENCE_DATA"], !path.isEmpty
        {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.appendingPathComponent("Tests/Fixtures")
    }()

    /// The URL of a file inside the data directory, e.g. `"geodesic/geodtest_short.csv"`.
    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// The bytes of a data file.
    ///
    /// - Throws: ``MissingFile`` when it cannot be read.
    public static func data(_ relativePath: String) throws -> Data {
        let url = url(relativePath)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw MissingFile(path: url.path, reason: "\(error.localizedDescription)")
        }
    }

    /// The text of a data file (UTF-8).
    ///
    /// - Throws: ``MissingFile`` when it cannot be read.
    public static func text(_ relativePath: String) throws -> String {
        try String(decoding: data(relativePath), as: UTF8.self)
    }

    /// The names of the files in a data directory (relative to it, sorted) whose names end in
    /// `suffix`, searched recursively.
    ///
    /// - Throws: ``MissingFile`` when the directory is missing or holds no such file, so a
    ///   parameterized test never runs over an empty list.
    public static func files(in relativePath: String, suffix: String) throws -> [String] {
        let root = url(relativePath)
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else {
            throw MissingFile(path: root.path, reason: "no such directory")
        }
        let names = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }.sorted()
        guard !names.isEmpty else {
            throw MissingFile(path: root.path, reason: "no *\(suffix) file in it")
        }
        return names
    }

    /// ``files(in:suffix:)`` for a test's argument list, which cannot throw: a missing directory
    /// gives one name that does not exist, so the test that reads it fails.
    public static func fileArguments(in relativePath: String, suffix: String) -> [String] {
        (try? files(in: relativePath, suffix: suffix)) ?? ["<missing: \(relativePath)/*\(suffix)>"]
    }

    /// The rows of a CSV file with a header row and no quoted fields, as dictionaries keyed by the
    /// header's column names.
    ///
    /// - Throws: ``MissingFile`` when the file cannot be read or has no data row.
    public static func csvRows(
        _ relativePath: String, separator: Character = ","
    ) throws -> [[String: String]] {
        let lines = try text(relativePath).split(whereSeparator: \.isNewline)
        guard
            let header = lines.first?.split(separator: separator, omittingEmptySubsequences: false)
                .map(String.init), lines.count > 1
        else { throw MissingFile(path: url(relativePath).path, reason: "no data rows") }
        return lines.dropFirst().map { line in
            let fields = line.split(separator: separator, omittingEmptySubsequences: false)
            var row = [String: String]()
            for (name, value) in zip(header, fields) { row[name] = String(value) }
            return row
        }
    }

    /// Parsed JSON of a data file.
    ///
    /// Uses `JSONDecoder`, whose numbers are correctly rounded (`JSONSerialization` on Linux can be
    /// off by a few units in the last place, which matters for reference values).
    ///
    /// - Throws: ``MissingFile``, or the decoder's error.
    public static func json(_ relativePath: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data(relativePath))
    }

    /// A JSON number, or one of the strings `"NaN"`, `"Infinity"`, `"-Infinity"` that the data
    /// files use for non-finite values, as a `Double`.
    public static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .some(.string(let s)):
            switch s {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default: return Double(s)
            }
        case .some(let v): return v.doubleValue
        case .none: return nil
        }
    }
}
