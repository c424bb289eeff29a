import Foundation
import GeoCore
import Testing

@testable import MeridianCLI

@Suite("meridian geometry")
struct GeometryCommandTests {
    func run(_ arguments: [String], input: String) -> (code: Int32, output: String, errors: String)
    {
        let console = BufferedConsole(input: input)
        let code = MeridianCommand.run(["geometry"] + arguments, console: console.console)
        return (code, console.output, console.errorOutput)
    }

    static let cell = "POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))"

    /// A 1° cell on the equator: 12 308 778 361.469 m², perimeter 443 770.917 m (GeographicLib).
    @Test func measures() {
        #expect(run(["area"], input: Self.cell).output == "12308778361.469 m²\n")
        #expect(run(["length"], input: Self.cell).output == "443770.917 m\n")
        #expect(
            run(["length", "--json"], input: "LINESTRING (0 0, 0 1)").output.hasPrefix(
                #"{"length":110574.388"#))
        #expect(run(["contains", "--point", "0.5,0.5"], input: Self.cell).output == "true\n")
        #expect(run(["contains", "--point", "1.5,0.5"], input: Self.cell).output == "false\n")
        #expect(
            run(["validate"], input: "POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))").output
                == "invalid: Self-intersection at 5 5\n")
        #expect(run(["validate"], input: Self.cell).output == "valid\n")
    }

    @Test func geometriesInTheInputsFormat() throws {
        let hull = run(["hull"], input: "MULTIPOINT ((0 0), (10 0), (5 1), (0 10), (10 10))")
        #expect(hull.output == "POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0))\n")
        // Mixed lines: each geometry comes back as its own line was written, whichever is first.
        let object = #"{"type":"Point","coordinates":[1,2]}"#
        #expect(
            run(["hull"], input: "\(object)\nPOINT (3 4)\n").output
                == "\(object)\nPOINT (3 4)\n")
        #expect(
            run(["hull"], input: "POINT (3 4)\n\(object)\n").output
                == "POINT (3 4)\n\(object)\n")
        #expect(
            run(["hull", "--format", "wkt"], input: "\(object)\nPOINT (3 4)\n").output
                == "POINT (1 2)\nPOINT (3 4)\n")
        let fixed = run(
            ["make-valid", "--format", "geojson"], input: "POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")
        #expect(fixed.output.hasPrefix(#"{"type":"MultiPolygon""#))
        // --decimals rounds every geometry written: JSON answers, a Feature's, a collection's.
        #expect(
            run(["hull", "--json", "--decimals", "1"], input: "POINT (1.23456 2.34567)").output
                == #"{"geometry":{"coordinates":[1.2,2.3],"type":"Point"},"line":1}"# + "\n")
        let point = #"{"type":"Point","coordinates":[1.23456,2.34567]}"#
        let one = #"{"type":"Feature","properties":{},"geometry":"# + point + "}"
        #expect(
            run(["hull", "--decimals", "1"], input: one).output
                == #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1.2,2.3]},"properties":{}}"#
                + "\n")
        let bad =
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,95]}}"#
        let mixed = #"{"type":"FeatureCollection","features":["# + one + "," + bad + "]}"
        let both = run(["simplify", "--tolerance", "1", "--decimals", "1"], input: mixed)
        // The feature that failed keeps no geometry (not its input's), and the exit code says so.
        #expect(both.code == 2)
        #expect(
            both.output
                == #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1.2,2.3]},"properties":{}},{"type":"Feature","geometry":null,"properties":{}}]}"#
                + "\n", "\(both.output)")
        let allBad = run(
            ["simplify", "--tolerance", "1"],
            input: #"{"type":"FeatureCollection","features":["# + bad + "]}")
        #expect(
            allBad.code == 2
                && allBad.output
                    == #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null,"properties":{}}]}"#
                    + "\n",
            "\(allBad.output)")
        let asText = run(["simplify", "--tolerance", "1", "--format", "wkt"], input: mixed)
        #expect(
            asText.output
                == "POINT (1.23456 2.34567)\nerror: feature 1: latitude 95.0 of position (1.0, 95.0) is outside [-90, 90]\n",
            "\(asText.output)")
        // Objects one per line: a bad line is that line's error, whatever it starts with; a
        // document broken across lines is malformed as a whole.
        let stream = run(["area"], input: point + "\n[]\n" + point + "\n")
        #expect(stream.code == 2)
        let lines = stream.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[0] == "0.000 m²" && lines[1].hasPrefix("error: line 2:"))
        // GeoJSON answers get JSON error records, so every line parses.
        let hulls = run(["hull"], input: point + "\n{\"type\":\"Point\"}\n\n")
        #expect(
            hulls.output
                == #"{"type":"Point","coordinates":[1.23456,2.34567]}"# + "\n"
                + #"{"error":"GeoJSON: $: Point has no \"coordinates\" member (at byte 0)","kind":"malformedInput","line":2}"#
                + "\n" + #"{"line":3,"skipped":true}"# + "\n", "\(hulls.output)")
        let broken = run(["area"], input: "{\n\"type\": \"Point\",\n\"coordinates\": [1, 2\n")
        #expect(
            broken.code == 2 && broken.output.hasPrefix("error: line 1: JSON: ")
                && broken.output.split(separator: "\n").count == 1, "\(broken.output)")
        // --drop-collapsed leaves out the lines and points that collapsed parts became.
        let pinHole = "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 1 1, 1 1, 1 1))"
        #expect(
            run(["make-valid"], input: pinHole).output
                == "GEOMETRYCOLLECTION (POLYGON ((0 10, 10 10, 10 0, 0 0, 0 10)), POINT (1 1))\n")
        #expect(
            run(["make-valid", "--drop-collapsed"], input: pinHole).output
                == "POLYGON ((0 10, 10 10, 10 0, 0 0, 0 10))\n")
        #expect(
            run(["make-valid", "--drop-collapsed"], input: "POLYGON ((0 0, 10 0, 5 0, 0 0))").output
                == "POLYGON EMPTY\n")
        // A collection's lines and points are its own, not collapsed parts: they stay, and only
        // the polygon that collapsed goes.
        #expect(
            run(
                ["make-valid", "--drop-collapsed"],
                input:
                    "GEOMETRYCOLLECTION (POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0)), LINESTRING (5 5, 6 6), POINT (9 9))"
            ).output
                == "GEOMETRYCOLLECTION (POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0)), LINESTRING (5 5, 6 6), POINT (9 9))\n"
        )
        #expect(
            run(
                ["make-valid", "--drop-collapsed"],
                input: "GEOMETRYCOLLECTION (POLYGON ((0 0, 1 1, 2 2, 0 0)), POINT (5 5))"
            ).output == "GEOMETRYCOLLECTION (POINT (5 5))\n")
        let feature =
            #"{"type":"Feature","id":"a","geometry":{"type":"LineString","coordinates":[[0,0],[1,0.01],[2,0]]},"properties":{"name":"x"}}"#
        // The middle vertex is 1 106 m off the chord: kept within 1 000 m, dropped within 2 000 m.
        let kept = run(["simplify", "--tolerance", "1000"], input: feature)
        #expect(kept.output.contains("[1,0.01]"), "\(kept.output)")
        let simplified = run(["simplify", "--tolerance", "2000"], input: feature)
        #expect(
            simplified.output
                == #"{"type":"Feature","id":"a","geometry":{"type":"LineString","coordinates":[[0,0],[2,0]]},"properties":{"name":"x"}}"#
                + "\n")
        let collection =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[0,0]},"properties":null},{"type":"Feature","geometry":null,"properties":null}]}"#
        let areas = run(["buffer", "--meters", "100"], input: collection)
        #expect(areas.code == 0 && areas.output.hasPrefix(#"{"type":"FeatureCollection""#))
        let measured = run(
            ["area"],
            input:
                #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"cell","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]},"properties":{}}]}"#
        )
        #expect(measured.output == "cell: 12308778361.469 m²\n")
        let disc = run(
            ["buffer", "--meters", "1000", "--decimals", "6"], input: "POINT (2.35 48.86)")
        // The geodesic circle starts due north and goes clockwise; vertex 9 is due east
        // (GeographicLib Direct(48.86, 2.35, 0 / 90, 1000): 48.868992 2.35 / 48.859999 2.363628).
        let vertices = disc.output.split(separator: ",")
        #expect(
            disc.output.hasPrefix("POLYGON ((2.35 48.868992, ") && vertices.count == 33
                && vertices[8] == " 2.363628 48.859999", "\(disc.output)")
        let concave = run(
            ["concave-hull", "--ratio", "1"], input: "MULTIPOINT ((0 0), (10 0), (0 10))")
        #expect(concave.output == "POLYGON ((0 0, 0 10, 10 0, 0 0))\n", "\(concave.output)")
    }

    /// A bad line of the batch gets an error record with its line and column; a malformed
    /// document names where in it; both exit 2. Bad usage exits 64.
    @Test func errorsNameThePosition() {
        let bad = run(["area"], input: "POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0)")
        #expect(bad.code == 2 && bad.errors.contains("column 35"), "\(bad.errors)")
        #expect(bad.output.hasPrefix("error: line 1: WKT: expected ',' or ')'"), "\(bad.output)")
        let mixed = run(["length"], input: "LINESTRING (0 0, 0 1)\nLINESTRING (0 0\n\n")
        #expect(mixed.code == 2)
        #expect(
            mixed.output.split(separator: "\n", omittingEmptySubsequences: false).count == 4,
            "\(mixed.output)")
        let badJSON = run(["area"], input: #"{"type":"Point","coordinates":[1]}"#)
        #expect(badJSON.code == 2 && badJSON.errors.contains("$.coordinates"), "\(badJSON.errors)")
        #expect(run(["buffer"], input: Self.cell).code == 64)
        #expect(run(["frobnicate"], input: Self.cell).code == 64)
        #expect(run(["contains", "--point", "95,0"], input: Self.cell).code == 64)
    }

    /// Lines are read one by one: GeoJSON objects, WKT and `#` comments may be mixed, and each
    /// line gets one answer. A line's object must hold exactly one geometry: a collection of two or
    /// a feature without geometry is an error record, not a silent pick or an area of 0.
    @Test func geometryLinesAreReadOneByOne() {
        let polygon = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}"#
        let collection =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":"#
            + polygon + #"},{"type":"Feature","properties":{},"geometry":"# + polygon + "}]}"
        let nullFeature = #"{"type":"Feature","properties":{},"geometry":null}"#
        let mixed = run(
            ["area"],
            input:
                "# areas\n\(polygon)\n\(Self.cell)\n\n\(collection)\n\(nullFeature)\n\(polygon)\n")
        let lines = mixed.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(mixed.code == 2)
        #expect(lines.count == 8, "\(mixed.output)")
        #expect(lines[0] == "" && lines[3] == "")
        #expect(lines[1] == "12308778361.469 m²" && lines[2] == lines[1] && lines[6] == lines[1])
        #expect(lines[4].hasPrefix("error: line 5: a line holds one geometry, this object has 2"))
        #expect(lines[5].hasPrefix("error: line 6: the object has no geometry"))
        // The same collection as the whole input answers each feature.
        let whole = run(["area"], input: collection)
        #expect(
            whole.code == 0 && whole.output.split(separator: "\n").count == 2, "\(whole.output)")
        // One object line followed by a comment is a line, not a malformed document; so is a
        // single bad object line, which gets its error record.
        let commented = run(["area"], input: "\(polygon)\n# the unit square\n")
        #expect(commented.code == 0 && commented.output == "12308778361.469 m²\n\n")
        let single = run(["area"], input: #"{"type":"Point","coordinates":[1]}"# + "\n")
        #expect(
            single.code == 2 && single.output.hasPrefix("error: line 1: ")
                && single.output.split(separator: "\n").count == 1, "\(single.output)")
        // A document broken across lines is still one malformed document: one error record
        // stands for the whole input.
        let broken = run(["area"], input: "{\n\"type\": \"Point\",\n\"coordinates\": [1]\n}\n")
        #expect(
            broken.code == 2 && broken.output.hasPrefix("error: line 1: ")
                && broken.output.contains("$.coordinates")
                && broken.output.split(separator: "\n").count == 1
                && broken.errors.contains("$.coordinates"), "\(broken.output)")
        // geometry reads its whole input (within the input limits), so a geometry of any
        // length on one line is read: a detailed outline in WKT is megabytes.
        let vertices = (0..<80_000).map { i -> String in
            let a = Double(i) / 80_000 * 2 * Double.pi
            return "\(cos(a) * 0.5 + 0.5) \(sin(a) * 0.5 + 0.5)"
        }
        let long = run(
            ["area"],
            input: "POLYGON ((" + (vertices + [vertices[0]]).joined(separator: ", ") + "))\n")
        #expect(long.code == 0 && long.output.hasSuffix(" m²\n"), "\(long.errors)")
    }

    /// Bytes that are not UTF-8 are the error of their line, not replacement characters in the
    /// answer; UTF-16 input is refused as a whole, as the other commands refuse it (it was read as
    /// one line of garbled text).
    @Test func textThatIsNotUTF8() {
        func run(_ bytes: [UInt8]) -> (code: Int32, output: String, errors: String) {
            let console = BufferedConsole(data: Data(bytes))
            let code = MeridianCommand.run(["geometry", "area"], console: console.console)
            return (code, console.output, console.errorOutput)
        }
        let lines = run(
            Array("POINT (1 2)\nPOINT (1 ".utf8) + [0xE9] + Array(")\r\nPOINT (3 4)\n".utf8))
        #expect(lines.code == 2)
        #expect(
            lines.output
                == "0.000 m²\nerror: line 2: byte 0xE9 at column 10 is not UTF-8 text\n0.000 m²\n",
            "\(lines.output)")
        let feature = run(
            Array(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"#.utf8)
                + Array(#""properties":{"name":""#.utf8) + [0xE9] + Array(#""}}"#.utf8))
        #expect(
            feature.code == 2 && feature.output.contains("is not UTF-8 text"), "\(feature.output)")
        #expect(!feature.output.contains("\u{FFFD}"))
        let utf16 = run([0xFF, 0xFE] + Array("POINT (1 2)\n".utf8).flatMap { [$0, 0] })
        #expect(
            utf16.code == 2 && utf16.output.hasPrefix("error: line 1: the input is UTF-16")
                && utf16.output.split(separator: "\n").count == 1
                && utf16.errors.contains("UTF-16"), "\(utf16.output)")
        // As JSON, the record is an object, as in the other batch commands.
        let console = BufferedConsole(
            data: Data([0xFF, 0xFE] + Array("POINT (1 2)\n".utf8).flatMap { [$0, 0] }))
        let code = MeridianCommand.run(["geometry", "area", "--json"], console: console.console)
        #expect(code == 2)
        #expect(
            console.output.hasPrefix(#"{"error":"the input is UTF-16"#)
                && console.output.hasSuffix(#""kind":"malformedInput","line":1}"# + "\n"),
            "\(console.output)")
    }

    /// A validity report whose location is not a finite number still writes a full JSON record
    /// (the number as `null`), never a bare `null` line.
    @Test func validityOfNonFiniteCoordinatesAsJSON() {
        let result = run(
            ["validate", "--json"], input: "POINT (nan 0)\nLINESTRING (0 0, nan 1, 2 2)\n")
        #expect(
            result.output
                == #"{"line":1,"location":[null,0],"reason":"Invalid Coordinate","valid":false}"#
                + "\n"
                + #"{"line":2,"location":[null,1],"reason":"Invalid Coordinate","valid":false}"#
                + "\n", "\(result.output)")
    }

    /// In batch mode a Feature's line comes back as that Feature (id, properties, other members)
    /// with its answer for a geometry, without the bbox that described the old one; as a JSON
    /// record, the geometry with the id and properties beside it. A collection's boxes go too.
    @Test func featuresKeepTheirMembersButNotTheirBoxes() throws {
        func json(_ text: String) throws -> JSONValue {
            try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        }
        let feature =
            #"{"type":"Feature","id":7,"bbox":[1,2,1,2],"properties":{"name":"a"},"geometry":{"type":"Point","coordinates":[1,2]},"note":"x"}"#
        let batch = run(["hull"], input: feature + "\nPOINT (1 2)\n")
        let lines = batch.output.split(separator: "\n")
        #expect(lines.count == 2 && lines[1] == "POINT (1 2)", "\(batch.output)")
        let answer = try json(String(lines[0]))
        #expect(answer["type"] == .string("Feature") && answer["id"] == .integer(7))
        #expect(answer["properties"]?["name"] == .string("a") && answer["note"] == .string("x"))
        #expect(answer["bbox"] == nil && answer["geometry"]?["type"] == .string("Point"))
        let records = run(["hull", "--json"], input: feature + "\nPOINT (1 2)\n").output
            .split(separator: "\n")
        let record = try json(String(records[0]))
        #expect(record["id"] == .integer(7) && record["properties"]?["name"] == .string("a"))
        #expect(record["geometry"]?["type"] == .string("Point") && record["line"] == .integer(1))
        let second = try json(String(records[1]))
        #expect(second["id"] == nil && second["properties"] == nil)
        // A collection: its box and its features' boxes describe geometries no longer there.
        let collection =
            #"{"type":"FeatureCollection","bbox":[0,0,1,1],"features":[{"type":"Feature","bbox":[1,2,1,2],"properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#
        let buffered = try json(run(["buffer", "--meters", "1000"], input: collection).output)
        #expect(buffered["bbox"] == nil && buffered["features"]?[0]?["bbox"] == nil)
        // A feature without a geometry has no answer, and the tool says so.
        let unlocated = run(
            ["area"],
            input:
                #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":null},{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#
        )
        #expect(
            unlocated.output == "feature 1: 0.000 m²\n"
                && unlocated.errors.contains("feature 0 has no geometry"))
    }

    /// GeoJSON output follows RFC 7946's right-hand rule: GEOS's buffers and hulls come with
    /// clockwise exteriors, and an empty hole is left out.
    @Test func geoJSONRingsFollowTheRightHandRule() throws {
        func signedAreas(_ output: String) throws -> [Double] {
            let geometry = try Geometry(geoJSON: output)
            guard case .polygon(let rings) = geometry else { return [] }
            return rings.map { ring in
                zip(ring, ring.dropFirst()).reduce(0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }
            }
        }
        for (operation, extra) in [
            ("buffer", ["--meters", "500"]), ("hull", []), ("make-valid", []),
        ] {
            let output = run(
                [operation, "--format", "geojson"] + extra,
                input: "POLYGON ((0 0, 0 1, 1 1, 1 0, 0 0), (0.2 0.2, 0.8 0.8, 0.8 0.2, 0.2 0.2))"
            ).output
            let areas = try signedAreas(output)
            #expect(areas.first.map { $0 > 0 } == true, "\(operation): \(output)")
            #expect(areas.dropFirst().allSatisfy { $0 < 0 }, "\(operation): \(output)")
        }
        let emptyHole = run(
            ["make-valid", "--format", "geojson"],
            input: "POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0), EMPTY)")
        #expect(
            emptyHole.output
                == #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}"# + "\n",
            "\(emptyHole.output)")
    }
}
