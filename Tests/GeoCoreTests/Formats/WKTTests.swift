import GeoCore
import Testing

@Suite("WKT reading and writing")
struct WKTTests {
    /// Examples from OGC 06-103r4 (Simple Features Access 1.2.1), Table 7.
    @Test(arguments: [
        ("POINT (10 10)", Geometry.point(x: 10, y: 10)),
        (
            "LINESTRING (10 10, 20 20, 30 40)",
            .lineString([Position(x: 10, y: 10), Position(x: 20, y: 20), Position(x: 30, y: 40)])
        ),
        (
            "POLYGON ((10 10, 10 20, 20 20, 20 15, 10 10))",
            .polygon([
                [
                    Position(x: 10, y: 10), Position(x: 10, y: 20), Position(x: 20, y: 20),
                    Position(x: 20, y: 15), Position(x: 10, y: 10),
                ]
            ])
        ),
        (
            "MULTIPOINT ((10 10), (20 20))",
            .multiPoint([Position(x: 10, y: 10), Position(x: 20, y: 20)])
        ),
        (
            "MULTILINESTRING ((10 10, 20 20), (15 15, 30 15))",
            .multiLineString([
                [Position(x: 10, y: 10), Position(x: 20, y: 20)],
                [Position(x: 15, y: 15), Position(x: 30, y: 15)],
            ])
        ),
        (
            "GEOMETRYCOLLECTION (POINT (10 10), POINT (30 30), LINESTRING (15 15, 20 20))",
            .geometryCollection([
                .point(x: 10, y: 10), .point(x: 30, y: 30),
                .lineString([Position(x: 15, y: 15), Position(x: 20, y: 20)]),
            ])
        ),
        ("POINT Z (10 10 5)", .point(Position(x: 10, y: 10, z: 5))),
        ("POINT EMPTY", .point(nil)),
        ("GEOMETRYCOLLECTION EMPTY", .geometryCollection([])),
    ])
    func publishedExamples(_ text: String, _ expected: Geometry) throws {
        let parsed = try Geometry(wkt: text)
        #expect(parsed == expected)
        #expect(parsed.wkt == text)
    }

    @Test func variantsThatReadTheSame() throws {
        let reference = try Geometry(wkt: "MULTIPOINT ((10 40), (40 30))")
        #expect(try Geometry(wkt: "multipoint (10 40, 40 30)") == reference)
        #expect(try Geometry(wkt: "  MultiPoint((10 40),(40 30))  ") == reference)
        #expect(try Geometry(wkt: "SRID=4326;MULTIPOINT (10 40, 40 30)") == reference)
        #expect(try Geometry.parsingEWKT("SRID=4326;POINT (1 2)").srid == 4326)
        // Measures are read and dropped; Z M together keep the height.
        #expect(try Geometry(wkt: "POINT M (1 2 3)") == .point(x: 1, y: 2))
        #expect(try Geometry(wkt: "POINT ZM (1 2 3 4)") == .point(Position(x: 1, y: 2, z: 3)))
        #expect(try Geometry(wkt: "POINTZ (1 2 3)") == .point(Position(x: 1, y: 2, z: 3)))
        #expect(try Geometry(wkt: "POINT (1e3 -2.5E-1)") == .point(x: 1000, y: -0.25))
        #expect(
            try Geometry(wkt: "MULTIPOINT (EMPTY, (1 2))") == .multiPoint([Position(x: 1, y: 2)]))
    }

    /// Every randomly generated geometry reads back exactly from its WKT.
    @Test func roundTripProperty() throws {
        var generator = GeometryGenerator(seed: 2024)
        for _ in 0..<1_500 {
            let geometry = generator.next()
            let text = geometry.wkt
            let back = try Geometry(wkt: text)
            #expect(back == geometry, "\(text)")
        }
    }

    @Test(arguments: [
        ("POINT (1 2", 10, "expected ',' or ')'"),
        ("POINT (1)", 8, "expected a coordinate"),
        ("LINESTRING (1 2)", 11, "at least 2"),
        ("POLYGON ((0 0, 1 0, 1 1, 0 1))", 9, "not closed"),
        ("POINTY (1 2)", 0, "unknown geometry tag"),
        ("POINT (1 2) x", 12, "after the end"),
        ("POINT (1 2 3 4 5)", 15, "expected ',' or ')'"),
        ("POINT Z (1 2)", 9, "coordinate has 2 numbers"),
        ("POINT (1.2.3 4)", 7, "not a number"),
        // WKT's numbers are decimal: `Double(_:)`'s hexadecimal forms are not read.
        ("POINT (0x1p3 2)", 7, "\"0x1p3\" is not a number"),
        ("POINT (1 -0X10)", 9, "not a number"),
        ("", 0, "expected a geometry tag"),
        ("LINEARRING (0 0, 50 50, 50 0, 0 50)", 11, "LINEARRING is not closed"),
    ])
    func malformedInputNamesTheOffset(_ text: String, _ offset: Int, _ fragment: String) {
        do {
            _ = try Geometry(wkt: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.kind == .malformedInput)
            #expect(error.offset == offset, "\(error.message)")
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    /// Text of one line, a final line break included, is named by column; text of several lines
    /// by line and column.
    @Test func oneLineHasNoLineNumber() {
        for (text, line) in [
            ("POINT (1 x)", nil), ("POINT (1 x)\n", nil), ("POINT (1 x)\r\n \n", nil),
            ("POINT\n(1 x)", 2), ("\nPOINT (1 x)\n", 2),
        ] as [(String, Int?)] {
            do {
                _ = try Geometry(wkt: text)
                Issue.record("\(text) parsed")
            } catch {
                #expect(error.line == line, "\(error.message)")
                #expect(error.message.contains("line") == (line != nil), "\(error.message)")
            }
        }
    }

    @Test func deepNestingIsRejectedNotAStackOverflow() {
        let text =
            String(repeating: "GEOMETRYCOLLECTION (", count: 10_000) + "POINT (1 2)"
            + String(repeating: ")", count: 10_000)
        #expect(throws: GeoError.self) { try Geometry(wkt: text) }
    }

    /// A closed ring of three positions reads (as in current GEOS) and is reported invalid.
    @Test func shortRingsReadAndAreInvalid() throws {
        let g = try Geometry(wkt: "POLYGON ((0 0, 10 10, 0 0))")
        let report = try g.validity()
        #expect(!report.isValid && report.reason == "Too few points in geometry component")
        #expect(try !g.isSimple())
        #expect(throws: GeoError.self) { try g.buffer(distance: 1) }
        // NaN and infinity read as GEOS reads them; validity names the coordinate, operations refuse it.
        let nan = try Geometry(wkt: "POLYGON ((0 0, 10 NaN, 20 0, 0 10, 0 0))")
        #expect(try nan.validity().reason == "Invalid Coordinate")
        #expect(throws: GeoError.self) { try nan.convexHull() }
        #expect(try Geometry(wkt: "POINT (Inf -inf)") == .point(x: .infinity, y: -.infinity))
        // Digits that overflow are not an infinity: the error names them and where they are.
        do {
            _ = try Geometry(wkt: "POINT (1 1e999)")
            Issue.record("1e999 was read")
        } catch {
            #expect(error.message.contains(#"number "1e999" is out of the range of Double"#))
            #expect(error.offset == 9, "\(String(describing: error.offset))")
        }
    }

    @Test func fixedDecimals() {
        let g = Geometry.lineString([Position(x: 1.23456789, y: -0.000001), Position(x: 2, y: 3)])
        #expect(g.wkt(decimals: 3) == "LINESTRING (1.235 0, 2 3)")
    }
}
