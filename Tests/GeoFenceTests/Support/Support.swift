import Foundation
import GeoCore
import GeoTestSupport
import Testing

/// Point-in-polygon cases from GEOS's XML test suite: a `POINT` against a `POLYGON` with the DE-9IM
/// `relate` pattern GEOS expects.
struct GEOSPointInPolygonCase: CustomStringConvertible {
    var file: String
    var description: String
    var point: Position
    var rings: [[Position]]
    /// Where GEOS says the point is.
    var expected: PointLocation

    /// All POINT/POLYGON cases with a `relate` test in some GEOS XML files.
    static func load(_ files: [String]) throws -> [GEOSPointInPolygonCase] {
        var result = [GEOSPointInPolygonCase]()
        for file in files {
            let text = try ReferenceData.text(file)
            for caseText in text.components(separatedBy: "<case>").dropFirst() {
                guard let a = element("a", in: caseText), let b = element("b", in: caseText),
                    let point = parsePoint(a), let rings = parsePolygon(b)
                else { continue }
                guard let pattern = relatePattern(caseText), pattern.count == 9 else { continue }
                let chars = Array(pattern)
                let location: PointLocation =
                    chars[0] == "0" ? .interior : chars[1] == "0" ? .boundary : .exterior
                let desc =
                    element("desc", in: caseText)?.trimmingCharacters(in: .whitespacesAndNewlines)
                    ?? "?"
                result.append(
                    GEOSPointInPolygonCase(
                        file: file, description: desc, point: point, rings: rings,
                        expected: location))
            }
        }
        return result
    }

    private static func element(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "<\(name)>"),
            let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// The `arg3` of a `relate` op whose expected result is `true`.
    private static func relatePattern(_ text: String) -> String? {
        for op in text.components(separatedBy: "<op").dropFirst()
        where op.contains("name=\"relate\"") {
            guard let r = op.range(of: "arg3=\"") else { continue }
            let rest = op[r.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { continue }
            let body = op[(op.firstIndex(of: ">") ?? op.endIndex)...]
            if body.contains("true") { return String(rest[..<end]) }
        }
        return nil
    }

    private static func numbers(_ text: some StringProtocol) -> [Position]? {
        var result = [Position]()
        for pair in text.split(separator: ",") {
            let xy = pair.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
                .compactMap { Double($0) }
            guard xy.count == 2 else { return nil }
            result.append(Position(x: xy[0], y: xy[1]))
        }
        return result
    }

    static func parsePoint(_ wkt: String) -> Position? {
        let t = wkt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard t.hasPrefix("POINT"), let open = t.firstIndex(of: "("),
            let close = t.lastIndex(of: ")")
        else { return nil }
        return numbers(t[t.index(after: open)..<close])?.first
    }

    static func parsePolygon(_ wkt: String) -> [[Position]]? {
        let t = wkt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard t.hasPrefix("POLYGON"), !t.contains("EMPTY") else { return nil }
        var rings = [[Position]]()
        var rest = Substring(t)
        guard let first = rest.firstIndex(of: "(") else { return nil }
        rest = rest[rest.index(after: first)...]
        while let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") {
            guard let ring = numbers(rest[rest.index(after: open)..<close]) else { return nil }
            rings.append(ring)
            rest = rest[rest.index(after: close)...]
        }
        return rings.isEmpty ? nil : rings
    }
}

/// A fixed reference time for deterministic tests: 2024-06-01T12:00:00Z.
let referenceDate = Date(timeIntervalSince1970: 1_717_243_200)

/// A fix at a coordinate, `seconds` after ``referenceDate``.
func fix(
    _ latitude: Double, _ longitude: Double, accuracy: Double = 0, at seconds: Double
) -> Location {
    Location(
        coordinate: Coordinate(latitude: latitude, longitude: longitude),
        horizontalAccuracy: accuracy,
        timestamp: referenceDate.addingTimeInterval(seconds))
}

/// A fresh empty directory under the system's temporary directory.
func temporaryDirectory(_ label: String = #function) throws -> URL {
    let safe = label.filter { $0.isLetter || $0.isNumber }
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("meridian-geofence-tests")
        .appendingPathComponent("\(safe)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
