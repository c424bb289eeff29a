import Foundation
import GeoCore
import GeoTestSupport
import Testing

@Suite("GeoJSON (RFC 7946)")
struct GeoJSONTests {
    /// The example of RFC 7946 §1.5.
    static let rfcExample = """
        {
          "type": "FeatureCollection",
          "features": [{
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [102.0, 0.5]},
            "properties": {"prop0": "value0"}
          }, {
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": [[102.0, 0.0], [103.0, 1.0], [104.0, 0.0], [105.0, 1.0]]},
            "properties": {"prop0": "value0", "prop1": 0.0}
          }, {
            "type": "Feature",
            "geometry": {"type": "Polygon", "coordinates": [[[100.0, 0.0], [101.0, 0.0], [101.0, 1.0], [100.0, 1.0], [100.0, 0.0]]]},
            "properties": {"prop0": "value0", "prop1": {"this": "that"}}
          }]
        }
        """

    /// JSON has one kind of number: values and feature ids that hold a whole number as a double
    /// compare and hash equal to the integer, so encoding and decoding gives an equal value,
    /// features included; other numbers stay apart.
    @Test func numbersRoundTripByValue() throws {
        for value: JSONValue in [
            .number(2.0), .number(-0.0), .number(9_007_199_254_740_992), .number(2.5), .integer(7),
            .array([.number(1), .integer(1)]), .object(["a": .number(3)]),
        ] {
            let back = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
            #expect(back == value, "\(value)")
            #expect(back.hashValue == value.hashValue, "\(value)")
        }
        #expect(JSONValue.number(2.5) != .integer(2) && JSONValue.number(2) != .string("2"))
        #expect(Set<JSONValue>([.integer(2), .number(2), .number(2.5)]).count == 2)
        let id = FeatureIdentifier.number(3.0)
        #expect(
            try JSONDecoder().decode(FeatureIdentifier.self, from: JSONEncoder().encode(id)) == id)
        #expect(FeatureIdentifier.integer(3).hashValue == id.hashValue)
        let feature = Feature(id: id, geometry: nil, properties: ["a": .number(2.0)])
        let decoded = try JSONDecoder().decode(Feature.self, from: JSONEncoder().encode(feature))
        #expect(decoded == feature)
    }

    @Test func rfcExample() throws {
        let collection = try FeatureCollection(parsing: Self.rfcExample)
        #expect(collection.features.count == 3)
        #expect(collection.features[0].geometry == .point(x: 102, y: 0.5))
        #expect(
            collection.features[1].properties["prop1"] == .integer(0)
                || collection.features[1].properties["prop1"] == .number(0))
        #expect(collection.features[2].properties["prop1"]?["this"] == "that")
        #expect(collection.features[2].geometry?.type == .polygon)
        // Written and read back: the same value.
        #expect(try FeatureCollection(parsing: collection.jsonText) == collection)
        // And through Codable with Foundation's coders (which write 0.0 as 0, so compare values).
        let data = try JSONEncoder().encode(collection)
        let decoded = try JSONDecoder().decode(FeatureCollection.self, from: data)
        #expect(decoded.features.map(\.geometry) == collection.features.map(\.geometry))
        #expect(decoded.features[1].properties["prop1"]?.doubleValue == 0)
        #expect(decoded.features[2].properties == collection.features[2].properties)
    }

    @Test func featureMembers() throws {
        let text =
            #"{"type":"Feature","id":"f1","bbox":[-10.0,-10.0,10.0,10.0],"geometry":null,"properties":null,"title":"x"}"#
        let feature = try Feature(parsing: text)
        #expect(feature.id == "f1")
        #expect(feature.geometry == nil)
        #expect(feature.properties == .null)
        #expect(feature.bbox == [-10, -10, 10, 10])
        #expect(feature.foreignMembers["title"] == "x")
        #expect(try Feature(parsing: feature.jsonText) == feature)
        #expect(
            try Feature(parsing: #"{"type":"Feature","id":7,"geometry":null,"properties":{}}"#).id
                == 7)
        let written = Feature(id: 3, geometry: .point(x: 1, y: 2), properties: ["name": "A"])
            .jsonText
        #expect(
            written
                == #"{"type":"Feature","id":3,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"A"}}"#
        )
    }

    @Test func geometryCodableAndHeights() throws {
        let g = Geometry.geometryCollection([
            .point(Position(x: 1, y: 2, z: 3)),
            .lineString([Position(x: 0, y: 0), Position(x: 1.5, y: -1)]),
        ])
        #expect(
            g.geoJSON
                == #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2,3]},{"type":"LineString","coordinates":[[0,0],[1.5,-1]]}]}"#
        )
        #expect(try Geometry(geoJSON: g.geoJSON) == g)
        #expect(try JSONDecoder().decode(Geometry.self, from: JSONEncoder().encode(g)) == g)
        // Extra position members (measures) are read and dropped.
        #expect(
            try Geometry(geoJSON: #"{"type":"Point","coordinates":[1,2,3,4]}"#)
                == .point(Position(x: 1, y: 2, z: 3)))
    }

    @Test func roundTripProperty() throws {
        var generator = GeometryGenerator(seed: 5)
        for _ in 0..<1_000 {
            let geometry = generator.next()
            #expect(try Geometry(geoJSON: geometry.geoJSON) == geometry, "\(geometry.wkt)")
        }
    }

    @Test(arguments: [
        (
            #"{"type":"Point","coordinates":[1]}"#, 30,
            "$.coordinates: a position needs at least 2 numbers"
        ),
        (#"{"type":"LineString","coordinates":[[1,2]]}"#, 35, "$.coordinates: 1 position"),
        (#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}"#, 33, "not closed"),
        (#"{"type":"Circle","coordinates":[1,2]}"#, 8, "unknown geometry type \"Circle\""),
        (#"{"type":"Point","coordinates":[1,"a"]}"#, 33, "$.coordinates[1]: expected a number"),
        (#"{"type":"Point","coordinates":[1,2]"#, 35, "expected ',' or '}'"),
        (#"{"type":"Point" "coordinates":[1,2]}"#, 16, "expected ',' or '}'"),
        (
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,[]]},"properties":null}]}"#,
            102, "$.features[0].geometry.coordinates[1]"
        ),
        (
            #"{"type":"Feature","geometry":null,"properties":[1]}"#, 47,
            "$.properties: expected an object or null"
        ),
        (
            #"{"type":"Feature","geometry":null,"id":true}"#, 39,
            "$.id: expected a string or a number"
        ),
        (#"{"type":"Point","coordinates":[1e999,0]}"#, 31, "out of the range"),
        (#"[1,2]"#, 0, "expected a GeoJSON object"),
    ])
    func malformedInputNamesPathAndOffset(_ text: String, _ offset: Int, _ fragment: String) {
        do {
            _ = try GeoJSON(parsing: text)
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.kind == .malformedInput)
            #expect(error.offset == offset, "\(error.message)")
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    /// JSON is UTF-8: a string with a byte that is not is an error at that byte, not a
    /// replacement character in a property.
    @Test func stringsMustBeUTF8() {
        let bytes =
            Array(#"{"type":"Feature","geometry":null,"properties":{"name":"caf"#.utf8) + [0xE9]
            + Array(#""}}"#.utf8)
        do {
            _ = try GeoJSON(data: bytes)
            Issue.record("parsed text that is not UTF-8")
        } catch {
            #expect(error.kind == .malformedInput)
            #expect(error.offset == 59, "\(error.message)")
            #expect(
                error.message.contains("byte 0xE9 in a string is not UTF-8 text"),
                "\(error.message)")
        }
        // Outside a string, and after a backslash: named in hex, never echoed.
        for (bytes, fragment) in [
            (Array(#"{"type":"#.utf8) + [0xFF], "byte 0xFF, which is not UTF-8 text"),
            (Array(#"{"type":"\"#.utf8) + [0x1B] + Array(#"""#.utf8), "byte 0x1B"),
        ] {
            do {
                _ = try GeoJSON(data: bytes)
                Issue.record("parsed \(bytes)")
            } catch {
                #expect(error.message.contains(fragment), "\(error.message)")
                #expect(
                    !error.message.unicodeScalars.contains { $0.value == 0x1B || $0 == "\u{FFFD}" })
            }
        }
        let fine = Array(#"{"type":"Feature","geometry":null,"properties":{"name":"café"}}"#.utf8)
        #expect(throws: Never.self) { try GeoJSON(data: fine) }
    }

    @Test func deepNestingIsRejected() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: GeoError.self) { try GeoJSON(parsing: text) }
    }

    /// supercluster's places.json: 163 point features, one with `"geometry": null`.
    @Test func placesFixture() throws {
        let document = try GeoJSON(data: ReferenceData.data("points/supercluster/places.json"))
        guard case .featureCollection(let collection) = document else {
            Issue.record("not a feature collection")
            return
        }
        #expect(collection.features.count == 163)
        #expect(collection.features.filter { $0.geometry == nil }.count == 1)
        #expect(
            collection.features.allSatisfy {
                $0.properties["name"]?.stringValue != nil || $0.geometry == nil
            })
        #expect(try GeoJSON(parsing: document.jsonText) == document)
    }

    /// RFC 7946's right-hand rule, on seeded random polygons with holes in both windings: each
    /// exterior comes out counterclockwise and each hole clockwise, with the same positions from
    /// the same first one; rings closed in x and y take the first height at the end; empty rings
    /// go; a second pass changes nothing.
    @Test func rightHandRule() {
        func twiceArea(_ ring: [Position]) -> Double {
            zip(ring, ring.dropFirst()).reduce(0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }
        }
        func circle(
            _ cx: Double, _ cy: Double, _ r: Double, _ n: Int, clockwise: Bool
        )
            -> [Position]
        {
            var ring = (0..<n).map { i -> Position in
                let a = 2 * Double.pi * Double(i) / Double(n) * (clockwise ? -1 : 1)
                return Position(x: cx + r * cos(a), y: cy + r * sin(a), z: Double(i))
            }
            ring.append(Position(x: ring[0].x, y: ring[0].y, z: 99))
            return ring
        }
        var rng = SplitMix64(seed: 21)
        for _ in 0..<500 {
            let rings = [
                circle(0, 0, 10, Int(rng.uniform(3, 40)), clockwise: rng.uniform(0, 1) < 0.5),
                circle(2, 0, 3, Int(rng.uniform(3, 40)), clockwise: rng.uniform(0, 1) < 0.5),
                [],
                circle(-4, 0, 2, Int(rng.uniform(3, 40)), clockwise: rng.uniform(0, 1) < 0.5),
            ]
            let fixed = Geometry.polygon(rings).followingRightHandRule()
            guard case .polygon(let out) = fixed else {
                Issue.record("not a polygon")
                continue
            }
            #expect(out.count == 3)
            #expect(twiceArea(out[0]) > 0 && out.dropFirst().allSatisfy { twiceArea($0) < 0 })
            for (a, b) in zip(out, [rings[0], rings[1], rings[3]]) {
                #expect(a.first == b.first && a.last == a.first && a.count == b.count)
                #expect(Set(a.dropLast().map(\.z)) == Set(b.dropLast().map(\.z)))
            }
            #expect(fixed.followingRightHandRule() == fixed)
            #expect(
                Geometry.multiPolygon([rings]).followingRightHandRule()
                    == .multiPolygon([out]))
        }
        #expect(
            Geometry.polygon([[], [Position(x: 0, y: 0)]]).followingRightHandRule() == .polygon([]))
        let line = Geometry.lineString([Position(x: 0, y: 0), Position(x: 1, y: 1)])
        #expect(line.followingRightHandRule() == line)
        // A ring not closed (which no reader gives) is kept, not turned into a bow tie.
        let open = Geometry.polygon([
            [(0.0, 0.0), (0, 1), (1, 1), (1, 0)].map { Position(x: $0.0, y: $0.1) }
        ])
        #expect(open.followingRightHandRule() == open)
    }

    /// A batch command's output read as documents without its records of skipped and bad lines.
    @Test func documentsOfBatchOutput() throws {
        let text =
            #"{"line":1,"skipped":true}"# + "\r\n"
            + #"{"type":"Point","coordinates":[1,2]}"# + "\n\n"
            + #"{"error":"bad","kind":"malformedInput","line":4}"# + "\n"
        let read = try GeoJSON.documentsOfBatchOutput(in: Array(text.utf8))
        #expect(read.documents.count == 1 && read.recordLines == [1, 4])
        #expect(throws: GeoError.self) { try GeoJSON.documents(in: Array(text.utf8)) }
        let only = try GeoJSON.documentsOfBatchOutput(in: Array(#"{"line":1,"skipped":true}"#.utf8))
        #expect(only.documents.isEmpty && only.recordLines == [1])
        // An object with a type is GeoJSON or an error, never a record.
        #expect(throws: GeoError.self) {
            try GeoJSON.documentsOfBatchOutput(
                in: Array(
                    (#"{"line":1,"type":"Nope"}"# + "\n" + #"{"type":"Point","coordinates":[1,2]}"#)
                        .utf8))
        }
    }
}
