import Foundation
import GeoCore

/// Locates the shared reference data (`../shared/data` next to the package root) for tests.
///
/// CI always has it; a fresh clone elsewhere may not, and tests that need it are then skipped with
/// the reason printed. `MERIDIAN_SHARED_DATA` overrides the location.
public enum SharedData {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = {
        URL(fileURLWithPath: #filePath)  // <root>/Sources/_GeoTestSupport/SharedData.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// The data directory.
    public static let directory: URL = {
        if let path = ProcessInfo.processInfo.environment["MERIDIAN_SHARED_DATA"] {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    /// Whether the data directory exists.
    public static let isAvailable: Bool = FileManager.default.fileExists(atPath: directory.path)

    /// The reason printed when data-driven tests are skipped.
    public static let skipReason: String =
        "reference data not found at \(directory.path) (set MERIDIAN_SHARED_DATA)"

    /// The URL of a file inside the data directory, e.g. `"geodesic/geodtest_short.csv"`.
    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// The bytes of a data file.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// The text of a data file.
    public static func text(_ relativePath: String) throws -> String {
        try String(decoding: data(relativePath), as: UTF8.self)
    }

    /// The rows of a CSV file with a header row and no quoted fields, as dictionaries keyed by the
    /// header's column names.
    public static func csvRows(
        _ relativePath: String, separator: Character = ","
    ) throws -> [[String: String]] {
        let lines = try text(relativePath).split(whereSeparator: \.isNewline)
        guard
            let header = lines.first?.split(separator: separator, omittingEmptySubsequences: false)
                .map(String.init)
        else { return [] }
        return lines.dropFirst().map { line in
            let fields = line.split(separator: separator, omittingEmptySubsequences: false)
            var row = [String: String]()
            for (name, value) in zip(header, fields) { row[name] = String(value) }
            return row
        }
    }

    /// Parsed JSON of a data file.
    ///
    /// Uses `JSONDecoder`, whose numbers are correctly rounded (`JSONSerialization` on Linux can be off
    /// by a few units in the last place, which matters for reference values).
    public static func json(_ relativePath: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data(relativePath))
    }

    /// A JSON number, or one of the strings `"NaN"`, `"Infinity"`, `"-Infinity"` that the data files use
    /// for non-finite values, as a `Double`.
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
