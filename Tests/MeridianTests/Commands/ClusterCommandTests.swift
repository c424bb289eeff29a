import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import MeridianCLI

@Suite("meridian cluster")
struct ClusterCommandTests {
    func run(
        _ arguments: [String], input: String = ""
    ) -> (code: Int32, output: String, error: String) {
        let console = BufferedConsole(input: input)
        let code = MeridianCommand.run(arguments, console: console.console)
        return (code, console.output, console.errorOutput)
    }

    @Test func csvFromStandardInput() throws {
        let csv =
            "lon,lat,category\n-178.989,0,a\n-178.99,0,a\n-178.991,0,a\n-178.992,0,a\n10,10,b\n"
        let result = run(["cluster", "--input", "-", "--zoom", "1"], input: csv)
        #expect(result.code == 0)
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        let features = try #require(json["features"]?.arrayValue)
        #expect(json["type"] == "FeatureCollection")
        #expect(features.count == 2)
        let cluster = try #require(features.first { $0["properties"]?["cluster"] == true })
        #expect(cluster["properties"]?["point_count"] == 4)
        #expect(cluster["properties"]?["point_count_abbreviated"] == 4)
        #expect(cluster["properties"]?["category"] == "a")
        // Without categories the four points are cluster 18 of supercluster's dateline test.
        let plain = run(
            ["cluster", "--input", "-", "--zoom", "1", "--bbox", "179,-10,-177,10"],
            input: "-178.989,0\n-178.99,0\n-178.991,0\n-178.992,0\n")
        let plainJSON = try JSONDecoder().decode(JSONValue.self, from: Data(plain.output.utf8))
        #expect(plainJSON["features"]?[0]?["properties"]?["cluster_id"] == 18)
    }

    @Test func tileMatchesSuperclusterFixture() throws {
        let path = ReferenceData.url("points/supercluster/places.json").path
        let result = run(["cluster", "--input", path, "--tile", "0/0/0"])
        #expect(result.code == 0)
        let tile = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        let fixture = try ReferenceData.json("points/supercluster/places-z0-0-0.json")
        #expect(tile == fixture)
    }

    /// Unclustered GeoJSON points come back exactly as given, as supercluster returns its input
    /// objects: a third coordinate, a bbox, foreign members, missing or null properties, id 0.
    @Test func pointsComeBackAsGiven() throws {
        let given: [JSONValue] = try [
            #"{"type":"Feature","id":0,"bbox":[10,10,10,10],"title":"x","properties":{"a":1},"geometry":{"type":"Point","coordinates":[10,10,250.5]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[100,-40]}}"#,
            #"{"type":"Feature","properties":null,"id":"abc","geometry":{"type":"Point","coordinates":[-120,45]}}"#,
        ].map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        let input = String(
            decoding: try JSONEncoder().encode(
                JSONValue.object(["type": "FeatureCollection", "features": .array(given)])),
            as: UTF8.self)
        let result = run(["cluster", "--input", "-", "--zoom", "0"], input: input)
        #expect(result.code == 0, "\(result.error)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        let features = try #require(json["features"]?.arrayValue)
        #expect(features.count == 3)
        for feature in given { #expect(features.contains(feature), "\(feature)") }
        // In a tile: the properties as tags (none when missing, null when null), the id as given.
        let tile = run(["cluster", "--input", "-", "--tile", "0/0/0"], input: input)
        let tileJSON = try JSONDecoder().decode(JSONValue.self, from: Data(tile.output.utf8))
        let tiled = try #require(tileJSON["features"]?.arrayValue)
        #expect(tiled.count == 3)
        #expect(tiled.contains { $0["tags"] == ["a": 1] && $0["id"] == 0 })
        #expect(tiled.contains { $0["tags"] == nil && $0["id"] == nil })
        #expect(tiled.contains { $0["tags"] == .null && $0["id"] == "abc" })
    }

    /// A bare Point geometry (not a Feature) comes back as a Point feature, as a CSV record does.
    @Test func bareGeometriesBecomeFeatures() throws {
        let input =
            #"{"type":"FeatureCollection","features":[{"type":"Point","coordinates":[10,20]},"#
            + #"{"type":"Feature","properties":{"a":1},"geometry":{"type":"Point","coordinates":[-50,-20]}}]}"#
        let result = run(["cluster", "--input", "-", "--zoom", "16"], input: input)
        #expect(result.code == 0, "\(result.error)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        let features = try #require(json["features"]?.arrayValue)
        #expect(features.count == 2)
        let bare = try #require(features.first { $0["properties"]?["a"] == nil })
        #expect(bare["type"] == "Feature")
        #expect(bare["geometry"] == ["type": "Point", "coordinates": [10, 20]])
    }

    /// Input without points is answered as supercluster answers an empty index, with a note.
    @Test func emptyInputIsAnEmptyIndex() throws {
        for input in [#"{"type":"FeatureCollection","features":[]}"#, "", "lon,lat\r\n"] {
            let clusters = run(["cluster", "--input", "-", "--zoom", "3"], input: input)
            #expect(
                clusters.code == 0
                    && clusters.output == #"{"features":[],"type":"FeatureCollection"}"# + "\n"
                    && clusters.error.contains("holds no points"), "\(input): \(clusters)")
            let tile = run(["cluster", "--input", "-", "--tile", "0/0/0"], input: input)
            #expect(tile.code == 0 && tile.output == "null\n", "\(input): \(tile)")
            let children = run(["cluster", "--input", "-", "--children", "1"], input: input)
            #expect(children.code == 2 && children.error.contains("no cluster with id 1"))
        }
    }

    /// `--sum` gives clusters the sum of a GeoJSON property of their points.
    @Test func sumOfAProperty() throws {
        let geojson = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"riders":3},"geometry":{"type":"Point","coordinates":[10,10]}},
            {"type":"Feature","properties":{"riders":4.5},"geometry":{"type":"Point","coordinates":[10.001,10]}},
            {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[10.002,10]}}]}
            """
        let result = run(
            ["cluster", "--input", "-", "--zoom", "2", "--sum", "riders"], input: geojson)
        #expect(result.code == 0)
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        let cluster = try #require(json["features"]?[0]?["properties"])
        #expect(cluster["point_count"] == 3)
        #expect(cluster["riders"]?.doubleValue == 7.5)
    }

    /// As in supercluster, an aggregate named like a cluster property does not replace it, and a
    /// sum that overflows is written as `null` in an otherwise whole collection.
    @Test func aggregatesKeepClusterPropertiesAndOverflow() throws {
        let geojson = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"point_count":100,"cluster":1,"v":1e308},"geometry":{"type":"Point","coordinates":[10,20]}},
            {"type":"Feature","properties":{"point_count":101,"cluster":2,"v":1e308},"geometry":{"type":"Point","coordinates":[10.001,20.001]}}]}
            """
        for sum in ["point_count", "cluster"] {
            for ask in [["--zoom", "0"], ["--tile", "0/0/0"]] {
                let result = run(["cluster", "--input", "-", "--sum", sum] + ask, input: geojson)
                #expect(result.code == 0, "\(result.error)")
                let json = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
                let first = try #require(json["features"]?[0])
                let cluster = try #require(first["properties"] ?? first["tags"])
                #expect(cluster["point_count"] == 2 && cluster["cluster"] == true, "\(cluster)")
            }
        }
        let overflow = run(
            ["cluster", "--input", "-", "--zoom", "0", "--sum", "v"], input: geojson)
        #expect(overflow.code == 0)
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(overflow.output.utf8))
        let cluster = try #require(json["features"]?[0]?["properties"])
        #expect(cluster["point_count"] == 2 && cluster["v"] == .null, "\(overflow.output)")
    }

    @Test func errors() {
        #expect(run(["cluster", "--zoom", "1"]).code == 64)
        #expect(run(["cluster", "--input", "-"]).code == 64)
        #expect(run(["cluster", "--input", "-", "--zoom", "1", "--bbox", "1,2,3"]).code == 64)
        let bad = run(["cluster", "--input", "-", "--zoom", "1"], input: "1,2\nx,y\n")
        // The bad record is named and left out; the good one is still clustered.
        #expect(bad.code == 2)
        #expect(bad.error.contains(#"line 2, column 1: longitude "x" is not a number"#))
        #expect(bad.output.contains(#""coordinates":[1,2]"#))
        #expect(
            run(["cluster", "--input", "-", "--zoom", "1", "--max-zoom", "31"], input: "1,2\n").code
                == 64)
        #expect(run(["cluster", "--input", "/nonexistent/file.csv", "--zoom", "1"]).code == 1)
    }

    /// Tiles and boxes are refused unless every part is a number of the right kind; an extent
    /// whose tile pixels would not be exact integers is refused; points without a category
    /// cluster with each other beside categorized ones (as in --live) and their clusters carry
    /// no category; a mean of values near the largest double does not overflow.
    @Test func optionsCategoriesAndMeans() throws {
        let points = "1,2\n"
        for ask in [
            ["--tile", "1/x/0/0"], ["--tile", "1//0"], ["--tile", "2/1.5/1"],
            ["--zoom", "1", "--bbox", ",1,2,3,4"], ["--zoom", "1", "--bbox", "nan,0,1,1"],
            ["--zoom", "1", "--bbox", "-180,nan,180,90"], ["--zoom", "1", "--bbox", "0,10,1,-10"],
            ["--tile", "0/0/0", "--extent", "1e19"],
        ] {
            let refused = run(["cluster", "--input", "-"] + ask, input: points)
            #expect(refused.code == 64 && refused.output.isEmpty, "\(ask)")
        }
        #expect(run(["cluster", "--input", "-", "--tile", "1/0/0"], input: points).code == 0)

        let mixed = run(
            ["cluster", "--input", "-", "--zoom", "0"],
            input: "1,2,a\n5,5\n5,5\n1.001,2.001,a\n")
        #expect(mixed.code == 0)
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(mixed.output.utf8))
        let clusters = try #require(json["features"]?.arrayValue).compactMap { $0["properties"] }
        #expect(clusters.count == 2 && clusters.allSatisfy { $0["point_count"] == 2 })
        #expect(Set(clusters.map { $0["category"] }) == [.string("a"), nil])
        let live = LiveClusterOutput.run(
            "insert x 2 1 a\ninsert p 5 5\ninsert q 5 5\ninsert y 2.001 1.001 a\nview -180 -90 180 90 0\n"
        )
        let view = try #require(live.last?["features"]?.arrayValue).compactMap { $0["properties"] }
        #expect(Set(view.map { $0["category"] }) == Set(clusters.map { $0["category"] }))

        let geojson = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"w":1e308},"geometry":{"type":"Point","coordinates":[10,20]}},
            {"type":"Feature","properties":{"w":1e308},"geometry":{"type":"Point","coordinates":[10.001,20]}},
            {"type":"Feature","properties":{"w":-1e308},"geometry":{"type":"Point","coordinates":[10.002,20]}}]}
            """
        let mean = run(["cluster", "--input", "-", "--zoom", "0", "--mean", "w"], input: geojson)
        let meanJSON = try JSONDecoder().decode(JSONValue.self, from: Data(mean.output.utf8))
        let value = try #require(meanJSON["features"]?[0]?["properties"]?["mean_w"]?["mean"])
        #expect(abs((value.doubleValue ?? 0) - 1e308 / 3) <= 1e293, "\(mean.output)")
    }
}

extension ClusterCommandTests {
    /// What a helper of supercluster's map/reduce gives: a CSV point's category in its tile
    /// tags and in the aggregates that read it; count keys spelled as JavaScript spells the
    /// values; a mean correctly rounded from the sum; an option given twice refused.
    @Test func aggregatesAsSuperclustersMapReduce() throws {
        func json(_ text: String) throws -> JSONValue {
            try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        }
        let csv = "lon,lat,category\n10,20,bus\n10.0001,20.0001,bus\n-50,-20,tram\n"
        let tile = try json(run(["cluster", "--input", "-", "--tile", "0/0/0"], input: csv).output)
        let tags = try #require(tile["features"]?.arrayValue).map { $0["tags"] }
        #expect(tags.contains { $0?["category"] == .string("tram") }, "\(tags)")
        let counted = try json(
            run(["cluster", "--input", "-", "--zoom", "0", "--count", "category"], input: csv)
                .output)
        let cluster = try #require(
            counted["features"]?.arrayValue?.first { $0["properties"]?["cluster"] == true })
        #expect(cluster["properties"]?["count_category"] == ["bus": 2])

        var features = [String]()
        for (i, v) in ["1", "1.0", "1e0", "0.000001", "1e-7", "100", "1E+2", "-0.0"].enumerated() {
            features.append(
                #"{"type":"Feature","properties":{"k":\#(v)},"geometry":{"type":"Point","coordinates":[\#(10 + Double(i) * 1e-5),20]}}"#
            )
        }
        let collection =
            #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        let keys = try json(
            run(["cluster", "--input", "-", "--zoom", "0", "--count", "k"], input: collection)
                .output)
        #expect(
            keys["features"]?[0]?["properties"]?["count_k"]
                == ["1": 3, "0.000001": 1, "1e-7": 1, "100": 2, "0": 1], "\(keys)")

        var pile = [String]()
        for i in 0..<1_000 {
            pile.append(
                #"{"type":"Feature","properties":{"v":\#(i % 10)},"geometry":{"type":"Point","coordinates":[10,20]}}"#
            )
        }
        let means = try json(
            run(
                ["cluster", "--input", "-", "--zoom", "0", "--mean", "v"],
                input: #"{"type":"FeatureCollection","features":["# + pile.joined(separator: ",")
                    + "]}"
            ).output)
        #expect(
            means["features"]?[0]?["properties"]?["mean_v"] == [
                "mean": 4.5, "count": 1_000, "sum": 4_500,
            ])

        let twice = run(
            ["cluster", "--input", "-", "--zoom", "0", "--sum", "v", "--sum", "k"], input: csv)
        #expect(twice.code == 64 && twice.error.contains("--sum is given more than once"))
    }

    /// JavaScript's spelling of numbers (ECMA-262 Number::toString), against values Node prints.
    @Test func javaScriptNumberText() {
        let cases: [(Double, String)] = [
            (1, "1"), (-1.5, "-1.5"), (100, "100"), (0.1, "0.1"), (0.000001, "0.000001"),
            (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (123.45, "123.45"), (1e20, "100000000000000000000"),
            (1e21, "1e+21"), (1.2345678901234568e20, "123456789012345680000"), (-0.0, "0"),
            (.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
            (0.1 + 0.2, "0.30000000000000004"), (1200.0, "1200"), (2.5e-6, "0.0000025"),
        ]
        for (value, expected) in cases {
            #expect(NumberText.javaScript(value) == expected, "\(value)")
        }
    }
}

/// The JSON lines `meridian cluster --live` writes for an input.
enum LiveClusterOutput {
    static func run(_ input: String) -> [JSONValue] {
        let console = BufferedConsole(input: input)
        _ = MeridianCommand.run(["cluster", "--live"], console: console.console)
        return console.output.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
        }
    }
}
