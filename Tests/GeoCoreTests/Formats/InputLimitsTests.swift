import Foundation
import GeoCore
import GeoTestSupport
import Testing

/// Each reader stops at each of its limits with a `limitExceeded` error that names the limit, reads
/// everything within them, and takes time that grows linearly with adversarial input.
@Suite("InputLimits")
struct InputLimitsTests {
    private func expectLimit(
        _ name: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        guard let error = thrownGeoError(body) else {
            Issue.record("no limit reached", sourceLocation: sourceLocation)
            return
        }
        #expect(error.kind == .limitExceeded, "\(error)", sourceLocation: sourceLocation)
        #expect(
            error.message.contains("InputLimits.\(name)"), "\(error.message)",
            sourceLocation: sourceLocation)
    }

    @Test func geoJSON() throws {
        let line = #"{"type":"LineString","coordinates":[[0,0],[1,1],[2,2],[3,3]]}"#
        _ = try GeoJSON(parsing: line, limits: InputLimits(maximumPositions: 4))
        expectLimit("maximumPositions") {
            _ = try GeoJSON(parsing: line, limits: InputLimits(maximumPositions: 3))
        }
        expectLimit("maximumBytes") {
            _ = try GeoJSON(parsing: line, limits: InputLimits(maximumBytes: line.utf8.count - 1))
        }
        let collection =
            #"{"type":"FeatureCollection","features":["#
            + Array(repeating: #"{"type":"Feature","geometry":null,"properties":{}}"#, count: 10)
            .joined(separator: ",") + "]}"
        expectLimit("maximumParts") {
            _ = try GeoJSON(parsing: collection, limits: InputLimits(maximumParts: 15))
        }
        let named =
            #"{"type":"Feature","geometry":null,"properties":{"name":"# + "\""
            + String(repeating: "x", count: 100) + "\"}}"
        expectLimit("maximumStringLength") {
            _ = try GeoJSON(parsing: named, limits: InputLimits(maximumStringLength: 99))
        }
        _ = try GeoJSON(parsing: named, limits: InputLimits(maximumStringLength: 100))
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        expectLimit("maximumDepth") { _ = try GeoJSON(parsing: deep) }
        // The limits of a newline-delimited file apply to each document, the size to the whole.
        let lines = Data((line + "\n" + line + "\n").utf8)
        #expect(
            try GeoJSON.documents(in: lines, limits: InputLimits(maximumPositions: 4)).count == 2)
        expectLimit("maximumBytes") {
            _ = try GeoJSON.documents(in: lines, limits: InputLimits(maximumBytes: 100))
        }
    }

    @Test func wkt() throws {
        let text = "MULTIPOINT ((0 0), (1 1), (2 2))"
        #expect(
            try Geometry(wkt: text, limits: InputLimits(maximumPositions: 3)).positions.count == 3)
        expectLimit("maximumPositions") {
            _ = try Geometry(wkt: text, limits: InputLimits(maximumPositions: 2))
        }
        expectLimit("maximumParts") {
            _ = try Geometry(wkt: text, limits: InputLimits(maximumParts: 2))
        }
        expectLimit("maximumBytes") {
            _ = try Geometry(wkt: text, limits: InputLimits(maximumBytes: 10))
        }
        let nested =
            String(repeating: "GEOMETRYCOLLECTION (", count: 10) + "POINT (1 2)"
            + String(repeating: ")", count: 10)
        _ = try Geometry(wkt: nested, limits: InputLimits(maximumDepth: 10))
        expectLimit("maximumDepth") {
            _ = try Geometry(wkt: nested, limits: InputLimits(maximumDepth: 9))
        }
    }

    @Test func wkb() throws {
        let line = try Geometry(wkt: "LINESTRING (0 0, 1 1, 2 2, 3 3)").wkb()
        _ = try Geometry(wkb: line, limits: InputLimits(maximumPositions: 4))
        expectLimit("maximumPositions") {
            _ = try Geometry(wkb: line, limits: InputLimits(maximumPositions: 3))
        }
        expectLimit("maximumBytes") {
            _ = try Geometry(wkb: line, limits: InputLimits(maximumBytes: line.count - 1))
        }
        let polygon = try Geometry(
            wkt: "POLYGON ((0 0, 9 0, 9 9, 0 0), (1 1, 2 1, 2 2, 1 1), (3 3, 4 3, 4 4, 3 3))"
        ).wkb()
        expectLimit("maximumParts") {
            _ = try Geometry(wkb: polygon, limits: InputLimits(maximumParts: 2))
        }
        let nested = try Geometry(
            wkt: String(repeating: "GEOMETRYCOLLECTION (", count: 5) + "POINT (1 2)"
                + String(repeating: ")", count: 5)
        ).wkb()
        expectLimit("maximumDepth") {
            _ = try Geometry(wkb: nested, limits: InputLimits(maximumDepth: 4))
        }
    }

    @Test func delimitedText() throws {
        let csv = Data("lat,lon\n1,2\n3,4\n5,6\n".utf8)
        #expect(
            try CoordinateCSV.read(csv, limits: InputLimits(maximumPositions: 5)).records.count == 3
        )
        expectLimit("maximumPositions") {
            _ = try CoordinateCSV.read(csv, limits: InputLimits(maximumPositions: 3))
        }
        expectLimit("maximumBytes") {
            _ = try LocationCSV.read(csv, limits: InputLimits(maximumBytes: 5))
        }
        let wide = Data(("1,2," + String(repeating: "n", count: 50) + "\n").utf8)
        do {
            _ = try CoordinateCSV.read(wide, limits: InputLimits(maximumStringLength: 49))
            Issue.record("a 50-byte field within a 49-byte limit")
        } catch {
            #expect(error.kind == .limitExceeded && error.line == 1 && error.column == 3)
        }
    }

    /// The standard limits accept what real data needs; `unlimited` lifts every limit but the
    /// recursive readers' stack ceilings.
    @Test func defaults() {
        let standard = InputLimits.standard
        #expect(standard.maximumBytes == 256 << 20 && standard.maximumDepth == 128)
        #expect(standard.maximumPositions == 50_000_000 && standard.maximumParts == 10_000_000)
        #expect(standard.maximumStringLength == 16 << 20)
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        do {
            _ = try GeoJSON(parsing: deep, limits: .unlimited)
            Issue.record("300 levels of JSON read by a recursive parser")
        } catch {
            #expect(error.kind == .limitExceeded && error.message.contains("ceiling of 256 levels"))
        }
    }

    /// Time grows linearly with adversarial input: reading four times as much takes well under
    /// sixteen times as long (what quadratic behaviour would take), for each reader and each shape of
    /// input. Each figure is the best of three runs, so that other tests running at the same time do
    /// not decide it.
    @Test(arguments: ["nested JSON", "one coordinate repeated", "huge numbers", "many tiny rings"])
    func timeGrowsLinearly(shape: String) throws {
        func input(_ n: Int) -> String {
            switch shape {
            case "nested JSON":
                // Deep arrays in many properties: depth within the limit, breadth growing.
                return #"{"type":"Feature","geometry":null,"properties":{"#
                    + (0..<n / 64).map {
                        "\"p\($0)\":" + String(repeating: "[", count: 60)
                            + String(repeating: "]", count: 60)
                    }
                    .joined(separator: ",") + "}}"
            case "one coordinate repeated":
                return "LINESTRING (" + Array(repeating: "1 1", count: n / 4).joined(separator: ",")
                    + ")"
            case "huge numbers":
                return "MULTIPOINT ("
                    + Array(repeating: "(1e308 -1.7976931348623157e308)", count: n / 32).joined(
                        separator: ",") + ")"
            default:
                return "MULTIPOLYGON ("
                    + Array(repeating: "((0 0,1 0,0 1,0 0))", count: n / 20).joined(separator: ",")
                    + ")"
            }
        }
        func seconds(_ text: String) throws -> Double {
            var best = Double.infinity
            for _ in 0..<3 {
                let start = ContinuousClock.now
                if shape == "nested JSON" {
                    _ = try GeoJSON(parsing: text)
                } else {
                    _ = try Geometry(wkt: text)
                }
                let elapsed = ContinuousClock.now - start
                best = min(
                    best,
                    Double(elapsed.components.attoseconds) * 1e-18
                        + Double(elapsed.components.seconds))
            }
            return best
        }
        let small = try seconds(input(100_000))
        let large = try seconds(input(400_000))
        #expect(large < 10 * small, "\(shape): 4× the input took \(large / small)× the time")
    }
}
