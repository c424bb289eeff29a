import Foundation
import GeoCore
import GeoTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Replays GEOS's XML test suite (most cases from the JTS TestSuite) against Meridian's geometry API.
///
/// Every operation the API covers is run and must give GEOS's expected result: predicates and numbers
/// exactly (numbers to 1e-6 relative), geometries compared after normalization (exactly, to a relative
/// 1e-9, or else as equal point sets), buffers by area and boundary distance as GEOS's
/// BufferResultMatcher does. Each file prints how many tests ran and which operations, if any, were
/// skipped.
@Suite("GEOS XML test suite")
struct GEOSXMLTests {
    static let files: [String] = {
        ReferenceData.fileArguments(in: "geos_xml", suffix: ".xml")
    }()

    @Test func everyFileIsFound() { #expect(Self.files.count >= 38) }

    @Test(arguments: files)
    func replay(_ file: String) throws {
        let data = try ReferenceData.data("geos_xml/" + file)
        let document = try XMLDocument(data: data, options: [])
        let run = try #require(document.rootElement())
        let bufferMatcher =
            run.elements(forName: "resultMatcher").first?.stringValue?.contains(
                "BufferResultMatcher") ?? false
        let prepared = file.contains("Prepared")
        var executed = 0
        var skipped = [String: Int]()
        for (caseIndex, element) in run.elements(forName: "case").enumerated() {
            let description =
                element.elements(forName: "desc").first?.stringValue?.trimmingCharacters(
                    in: .whitespacesAndNewlines) ?? "case \(caseIndex)"
            let a: Geometry?, b: Geometry?
            do {
                a = try Self.geometry(element, "a", file: file, description: description)
                b = try Self.geometry(element, "b", file: file, description: description)
            } catch {
                Issue.record("\(file) [\(description)]: input not read: \(error)")
                continue
            }
            for test in element.elements(forName: "test") {
                for op in test.elements(forName: "op") {
                    let name = op.attribute(forName: "name")?.stringValue ?? ""
                    let expected = (op.stringValue ?? "").trimmingCharacters(
                        in: .whitespacesAndNewlines)
                    let arg1 =
                        op.attribute(forName: "arg1")?.stringValue?.uppercased() == "B" ? b : a
                    let arg2Text = op.attribute(forName: "arg2")?.stringValue
                    let arg2 =
                        arg2Text?.uppercased() == "A" ? a : arg2Text?.uppercased() == "B" ? b : nil
                    let arg3 = op.attribute(forName: "arg3")?.stringValue
                    let context =
                        "\(file) [\(description)] \(name)(\(op.attribute(forName: "arg1")?.stringValue ?? "A")\(arg2Text.map { ", \($0)" } ?? "")\(arg3.map { ", \($0)" } ?? ""))"
                    guard let subject = arg1 else {
                        Issue.record("\(context): missing geometry")
                        continue
                    }
                    if let reason = Self.knownIssue(
                        file: file, description: description, operation: name, input: element)
                    {
                        skipped["\(name) [\(reason)]", default: 0] += 1
                        continue
                    }
                    do {
                        let outcome = try Self.run(
                            name, subject, arg2, arg2Text: arg2Text, arg3: arg3, expected: expected,
                            bufferMatcher: bufferMatcher || name.hasPrefix("buffer"),
                            prepared: prepared)
                        switch outcome {
                        case .skipped:
                            // Every operation of the files checked here is implemented; an unknown
                            // one is a new file or a typo, not something to pass over quietly.
                            Issue.record("\(context): operation not run by this suite")
                        case .passed:
                            executed += 1
                        case .failed(let actual):
                            executed += 1
                            Issue.record("\(context): expected \(expected), got \(actual)")
                        }
                    } catch {
                        executed += 1
                        Issue.record("\(context): threw \(error)")
                    }
                }
            }
        }
        let skippedText =
            skipped.isEmpty
            ? ""
            : "; skipped operations: "
                + skipped.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(
                    separator: ", ")
        let cases = run.elements(forName: "case").count
        print(
            "GEOS XML \(file): \(cases) cases, \(executed) tests run, \(skipped.values.reduce(0, +)) skipped\(skippedText)"
        )
        #expect(executed > 0)
    }

    /// Cases the installed GEOS answers differently from the suite because of upstream bugs fixed in
    /// later GEOS versions, and inputs Meridian's model does not represent. They are skipped (and the
    /// reason printed) only while the installed GEOS is older than the fix.
    static func knownIssue(
        file: String, description: String, operation: String, input: XMLElement
    ) -> String? {
        let geos = NativeLibraries.geosVersion
        if description.contains("geos/issues/933"),
            ["relate", "contains", "covers", "overlaps"].contains(operation),
            geos < LibraryVersion(3, 12)
        {
            return
                "GEOS \(geos) computes this line intersection node wrongly (libgeos/geos#933, fixed in 3.12)"
        }
        if file.hasSuffix("validate_TestRelatePL.xml"), description.contains("zero-length line"),
            operation == "equalsTopo",
            geos < LibraryVersion(3, 13)
        {
            return
                "GEOS \(geos) does not treat a zero-length line as equal to its point (RelateNG, GEOS 3.13)"
        }
        if file.hasSuffix("general_TestSimplify.xml"), geos < LibraryVersion(3, 12),
            description.contains("polygon collapse for DP") && operation == "simplifyDP"
                || description.contains("small element removed") && operation == "simplifyTP"
        {
            // (A hole GEOS 3.11 leaves outside its shell, "small hole near simplified edge", is
            // simplified again by `simplified(tolerance:)` until valid, and passes.)
            return "GEOS \(geos) keeps ring start points; GEOS 3.12 simplifies ring ends (JTS 1.19)"
        }
        let a = input.elements(forName: "a").first?.stringValue?.uppercased() ?? ""
        if a.contains("LINEARRING"), ["isValid", "isSimple"].contains(operation) {
            return
                "a LINEARRING input, which Geometry reads as a LINESTRING (it has no linear-ring type)"
        }
        return nil
    }

    enum Outcome {
        case passed
        case failed(String)
        case skipped
    }

    /// Reads `<a>` or `<b>`: WKT, or WKB in hex.
    static func geometry(
        _ element: XMLElement, _ name: String, file: String, description: String
    ) throws -> Geometry? {
        guard
            let text = element.elements(forName: name).first?.stringValue?.trimmingCharacters(
                in: .whitespacesAndNewlines),
            !text.isEmpty
        else { return nil }
        if text.allSatisfy(\.isHexDigit) { return try Geometry(wkbHex: text) }
        return try Geometry(wkt: text)
    }

    static func run(
        _ name: String, _ a: Geometry, _ b: Geometry?, arg2Text: String?, arg3: String?,
        expected: String,
        bufferMatcher: Bool, prepared: Bool
    ) throws -> Outcome {
        func bool(_ value: Bool) -> Outcome {
            value == (expected.lowercased() == "true") ? .passed : .failed("\(value)")
        }
        func other() throws -> Geometry {
            guard let b else {
                throw GeoError(.invalidArgument, "operation \(name) needs a second geometry")
            }
            return b
        }
        func number() throws -> Double {
            guard let text = arg2Text, let value = Double(text) else {
                throw GeoError(
                    .invalidArgument, "\(name): argument '\(arg2Text ?? "")' is not a number")
            }
            return value
        }
        func predicate(
            _ plain: (Geometry, Geometry) throws -> Bool,
            _ preparedTest: ((PreparedGeometry, Geometry) throws -> Bool)?
        ) throws -> Outcome {
            let b = try other()
            let value = try plain(a, b)
            if prepared, let preparedTest {
                let viaPrepared = try preparedTest(try PreparedGeometry(a, parallelism: 1), b)
                if viaPrepared != value {
                    return .failed("plain \(value), prepared \(viaPrepared)")
                }
            }
            return bool(value)
        }
        switch name {
        case "contains": return try predicate({ try $0.contains($1) }, { try $0.contains($1) })
        case "covers": return try predicate({ try $0.covers($1) }, { try $0.covers($1) })
        case "coveredBy":
            return try predicate({ try $0.isCovered(by: $1) }, { try $0.isCovered(by: $1) })
        case "crosses": return try predicate({ try $0.crosses($1) }, { try $0.crosses($1) })
        case "disjoint":
            return try predicate({ try $0.isDisjoint(with: $1) }, { try $0.isDisjoint(with: $1) })
        case "equalsTopo": return try predicate({ try $0.isTopologicallyEqual(to: $1) }, nil)
        case "intersects":
            return try predicate({ try $0.intersects($1) }, { try $0.intersects($1) })
        case "overlaps": return try predicate({ try $0.overlaps($1) }, { try $0.overlaps($1) })
        case "touches": return try predicate({ try $0.touches($1) }, { try $0.touches($1) })
        case "within": return try predicate({ try $0.isWithin($1) }, { try $0.isWithin($1) })
        case "relate":
            guard let pattern = arg3 else { return .failed("no pattern") }
            let b = try other()
            let matches = try a.relate(b, pattern: pattern)
            let matrix = try a.relate(b)
            if try matrix.matches(pattern) != matches {
                return .failed("matrix \(matrix) and pattern test disagree")
            }
            return bool(matches)
        case "isValid": return bool(try a.isValid())
        case "isSimple": return bool(try a.isSimple())
        case "isWithinDistance":
            guard let text = arg3, let d = Double(text) else { return .failed("no distance") }
            let b = try other()
            return bool(try a.isWithinDistance(d, of: b))
        case "distance":
            let value = try a.distance(to: other())
            let want = expected.lowercased() == "inf" ? Double.infinity : (Double(expected) ?? .nan)
            if value == want || abs(value - want) <= 1e-6 * max(1, abs(want)) { return .passed }
            return .failed("\(value)")
        case "union":
            return try compare(b == nil ? try a.unaryUnion() : try a.union(other()), expected)
        case "intersection": return try compare(try a.intersection(other()), expected)
        case "difference": return try compare(try a.subtracting(other()), expected)
        case "symdifference": return try compare(try a.symmetricDifference(other()), expected)
        case "convexhull": return try compare(try a.convexHull(), expected)
        case "getboundary": return try compare(try a.boundary(), expected)
        case "getCentroid": return try compare(.point(try a.centroid()), expected)
        case "getInteriorPoint": return try compare(.point(try a.pointOnSurface()), expected)
        case "simplifyDP":
            return try compare(
                try a.simplified(tolerance: number(), preservingTopology: false), expected)
        case "simplifyTP":
            return try compare(
                try a.simplified(tolerance: number(), preservingTopology: true), expected)
        case "buffer", "bufferMitredJoin":
            let distance = try number()
            // An optional third argument is the number of segments per quarter circle.
            let segments = arg3.flatMap { Int($0) } ?? 8
            let style = BufferStyle(
                quadrantSegments: segments, join: name == "bufferMitredJoin" ? .mitre : .round)
            let actual = try a.buffer(distance: distance, style: style)
            let want = try Geometry(wkt: expected)
            return try bufferMatches(actual, want, distance: distance)
                ? .passed : .failed(actual.wkt)
        default:
            return .skipped
        }
    }

    /// Geometry results: equal if both are empty, or their normal forms are equal to a relative 1e-9,
    /// or they are the same point set.
    static func compare(_ actual: Geometry, _ expectedText: String) throws -> Outcome {
        let expected = try Geometry(wkt: expectedText)
        if actual.isEmpty && expected.isEmpty { return .passed }
        if actual.isEmpty != expected.isEmpty { return .failed(actual.wkt) }
        let scale = max(
            1,
            expected.bounds.map { max(abs($0.minX), abs($0.maxX), abs($0.minY), abs($0.maxY)) } ?? 1
        )
        if try actual.normalized().isExactlyEqual(
            to: expected.normalized(), tolerance: 1e-9 * scale)
        {
            return .passed
        }
        if (try? actual.isTopologicallyEqual(to: expected)) == true { return .passed }
        return .failed(actual.wkt)
    }

    /// GEOS's BufferResultMatcher: both empty, or the symmetric difference's area within 0.1 % of the
    /// expected area and the boundaries' discrete Hausdorff distance within 1 % of the buffer distance.
    static func bufferMatches(
        _ actual: Geometry, _ expected: Geometry, distance: Double
    ) throws -> Bool {
        if actual.isEmpty && expected.isEmpty { return true }
        if actual.isEmpty != expected.isEmpty { return false }
        let area = expected.planarArea
        if area > 0 {
            let difference = try actual.symmetricDifference(expected).planarArea
            guard difference / area < 1e-3 else { return false }
        }
        let tolerance = max(abs(distance) / 100, 1e-8)
        return try actual.boundary().hausdorffDistance(
            to: expected.boundary(), densifyFraction: 0.25) <= tolerance
    }
}
