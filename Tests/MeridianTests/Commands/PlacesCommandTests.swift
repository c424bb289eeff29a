import Foundation
import GeoCore
import GeoSearch
import GeoTestSupport
import Testing

@testable import MeridianCLI

/// `meridian` with its arguments in an array.
private func meridian(_ arguments: [String]) -> (code: Int32, output: String, error: String) {
    let console = BufferedConsole()
    let code = MeridianCommand.run(arguments, console: console.console)
    return (code, console.output, console.errorOutput)
}

@Suite("meridian nearest, reverse and search")
struct PlacesCommandTests {
    static var places: String { ReferenceData.url("points/geonames_cities15000.tsv").path }

    @Test func nearestInBatchMode() throws {
        let one = meridian(
            "nearest", "--places", Self.places, "-k", "3", "47.3769", "8.5417", "--json")
        #expect(one.code == 0, "\(one.error)")
        let object = try JSONDecoder().decode(JSONValue.self, from: Data(one.output.utf8))
        let found = try #require(object["places"]?.arrayValue)
        #expect(found.count == 3)
        #expect(found.first?["name"]?.stringValue == "Zürich")
        let distances = found.compactMap { $0["distance"]?.doubleValue }
        #expect(distances == distances.sorted())
        // One output line per input line: answers, an error record, a skipped line.
        let batch = meridian(
            "nearest", "--places", Self.places, "--within", "5000",
            input: "47.3769,8.5417\r\nnorth 8\n\n0;-140\n")
        let lines = batch.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(batch.code == 2)
        #expect(lines.count == 5 && lines[0].hasPrefix("Zürich"))
        #expect(lines[1].hasPrefix("error: line 2: latitude \"north\" is not a number"))
        // A blank line's placeholder is empty; a query with nothing in reach says so.
        #expect(lines[2].isEmpty && lines[3] == "no place within 5000 m", "\(batch.output)")
    }

    /// With --geojson every line parses as JSON: error records and skipped lines are objects, as
    /// with --json.
    @Test func geoJSONBatchesParseLineByLine() throws {
        for command in [["nearest", "--places", Self.places], ["reverse"]] {
            let console = BufferedConsole(input: "47.37 8.54\nfoo\n\n")
            let code = MeridianCommand.run(command + ["--geojson"], console: console.console)
            let batch = (code: code, output: console.output)
            #expect(batch.code == 2)
            let lines = batch.output.split(separator: "\n")
            #expect(lines.count == 3, "\(command)")
            for line in lines {
                #expect(
                    (try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))) != nil,
                    "\(command): \(line)")
            }
            #expect(lines[1].contains(#""line":2"#) && lines[2] == #"{"line":3,"skipped":true}"#)
        }
    }

    @Test func nearestAsGeoJSONForRender() throws {
        let result = meridian(
            "nearest", "--places", Self.places, "-k", "2", "--geojson", "-33.87", "151.21")
        #expect(result.code == 0)
        let geojson = try GeoJSON(parsing: result.output)
        guard case .featureCollection(let c) = geojson else {
            Issue.record("not a FeatureCollection")
            return
        }
        #expect(c.features.count == 3)
        let rendered = meridian("render", input: result.output)
        #expect(rendered.code == 0 && rendered.output.contains("<svg"))
    }

    @Test func reverseOffline() throws {
        let result = meridian("reverse", "--json", input: "47.3769 8.5417\n91 0\n0 -140\n")
        let lines = result.output.split(separator: "\n")
        #expect(result.code == 2 && lines.count == 3)
        let zurich = try JSONDecoder().decode(JSONValue.self, from: Data(lines[0].utf8))
        #expect(zurich["name"]?.stringValue == "Zürich")
        #expect(zurich["countryCode"]?.stringValue == "CH")
        #expect(zurich["country"]?.stringValue == "Switzerland")
        #expect(zurich["source"]?.stringValue?.contains("CC BY 4.0") == true)
        #expect(lines[1].contains("\"error\"") && lines[1].contains("91"))
        let sea = try JSONDecoder().decode(JSONValue.self, from: Data(lines[2].utf8))
        #expect(sea["country"] == .null)
        let capped = meridian("reverse", "--within", "1000", "0", "-140")
        #expect(capped.code == 0 && capped.output.hasPrefix("no place within 1000 m"))
    }

    @Test func searchBiasedToARegion() throws {
        let result = meridian(
            "search", "zur", "--places", Self.places, "--near", "47.37,8.54", "--region",
            "47,8,48,9", "--limit", "3", "--json")
        #expect(result.code == 0, "\(result.error)")
        let object = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        let found = try #require(object["places"]?.arrayValue)
        #expect(found.count == 3)
        #expect(found.allSatisfy { $0["inRegion"] == .bool(true) })
        #expect(found.allSatisfy { ($0["name"]?.stringValue ?? "").hasPrefix("Zürich") })
        let lines = meridian("search", "--places", Self.places, input: "zurich\n\n#c\nqqqxxx\n")
        #expect(lines.output.split(separator: "\n", omittingEmptySubsequences: false).count == 5)
        #expect(lines.output.contains("no match"))
    }

    /// What the output says is true of the input: a search without a region claims no results
    /// "in region"; the user's own places are not attributed to GeoNames, and a missing country
    /// code is null; a GeoNames row short of its 19 columns is refused; a line with the wrong
    /// number of values names them, invisible characters spelled out.
    @Test func outputClaimsOnlyWhatTheInputSays() throws {
        let free = meridian(
            "search", "zur", "--places", Self.places, "--near", "47.37,8.54", "--json")
        #expect(free.code == 0 && !free.output.contains("inRegion"), "\(free.output)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "meridian-claims-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let mine = directory.appendingPathComponent("depots.tsv")
        try Data("lat\tlon\tname\n10\t20\tDepot A\n".utf8).write(to: mine)
        let reverse = meridian("reverse", "--places", mine.path, "--json", "10.1", "20")
        let object = try JSONDecoder().decode(JSONValue.self, from: Data(reverse.output.utf8))
        #expect(object["source"]?.stringValue == "depots.tsv", "\(reverse.output)")
        #expect(object["countryCode"] == .null)
        let row = ["1", "Aa", "Aa", "", "10", "20", "P", "PPL", "XX"]
        let short = directory.appendingPathComponent("cities.txt")
        let full = row + Array(repeating: "", count: 10)
        try Data((full.joined(separator: "\t") + "\n" + row.joined(separator: "\t") + "\n").utf8)
            .write(to: short)
        // A GeoNames row's division codes stand in for names the data does not have.
        let zurich = [
            "2657896", "Zürich", "Zuerich", "", "47.36667", "8.55", "P", "PPLA", "CH", "",
            "25", "112", "261", "", "341730", "", "410", "Europe/Zurich", "2023-01-01",
        ]
        let codes = directory.appendingPathComponent("zurich.txt")
        try Data((zurich.joined(separator: "\t") + "\n").utf8).write(to: codes)
        let coded = meridian("reverse", "--places", codes.path, "--json", "47.3769", "8.5417")
        let placemark = try JSONDecoder().decode(JSONValue.self, from: Data(coded.output.utf8))
        #expect(placemark["admin1"] == .string("25") && placemark["admin2"] == .string("112"))
        // Places on the edges of --region, exactly as given, are inside it.
        let edges = directory.appendingPathComponent("edges.tsv")
        try Data(
            "lat\tlon\tname\n37.1\t-122.4\tS edge\n37.9\t-122.4\tN edge\n37.5\t-122.5\tW edge\n37.5\t-122.3\tE edge\n"
                .utf8
        ).write(to: edges)
        let onEdges = meridian(
            "search", "edge", "--places", edges.path, "--region", "37.1,-122.5,37.9,-122.3",
            "--json")
        #expect(!onEdges.output.contains(#""inRegion":false"#), "\(onEdges.output)")
        #expect(onEdges.output.components(separatedBy: #""inRegion":true"#).count == 5)
        let refused = meridian("nearest", "--places", short.path, "1", "2")
        #expect(
            refused.code == 2 && refused.error.contains("line 2 has 9 columns"), "\(refused.error)")
        // GeoJSON features that are not named points are skipped, and the tool says which, since
        // the answers' indices count only the places kept.
        let features = directory.appendingPathComponent("mixed.geojson")
        try Data(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[20,10]}},{"type":"Feature","properties":{"name":"Road"},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}},{"type":"Feature","properties":{"name":"Depot"},"geometry":{"type":"Point","coordinates":[20,10]}}]}"#
                .utf8
        ).write(to: features)
        let skipping = meridian("nearest", "--places", features.path, "--json", "10", "20")
        #expect(skipping.code == 0 && skipping.output.contains(#""index":0"#), "\(skipping.output)")
        #expect(skipping.error.contains("skipped 2 features") && skipping.error.contains("(0, 1)"))
        var skipped = [Int]()
        let kept = try PlaceFile.read(try Data(contentsOf: features), skipped: &skipped)
        #expect(kept.map(\.name) == ["Depot"] && skipped == [0, 1])
        let named = meridian(
            "nearest", "--places", Self.places, input: "47.37\u{1}8.54\n1\u{A0}2\n")
        let lines = named.output.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].contains(#""47.37\u{1}8.54""#), "\(named.output)")
        #expect(lines.count == 2 && lines[1].contains(#""1\u{A0}2""#), "\(named.output)")
    }

    @Test func usageErrors() {
        #expect(meridian("nearest", "1", "2").code == 64)
        #expect(meridian("nearest", "--places", Self.places, "-k", "0", "1", "2").code == 64)
        #expect(meridian("search", "x", "--places", Self.places, "--region", "1,2,3").code == 64)
        #expect(meridian("search", "x", "--places", Self.places, "--near", "91,0").code == 64)
        #expect(meridian("reverse", "--within", "-1", "1", "2").code == 64)
    }

    /// A places file that cannot be read exits 1, a malformed one 2 with its line named; neither
    /// prints the usage.
    @Test func placesFileErrorsExitAsDocumented() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "meridian-places-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.tsv")
        try Data("lat\tlon\tname\n10\t20\tA\n100\t20\tB\n".utf8).write(to: bad)
        for command in [["nearest", "1", "2"], ["search", "a"], ["reverse", "1", "2"]] {
            let unreadable = meridian(
                [command[0], "--places", "/nonexistent/places.tsv"] + command.dropFirst())
            #expect(unreadable.code == 1 && !unreadable.error.contains("Usage"), "\(command)")
            let malformed = meridian([command[0], "--places", bad.path] + command.dropFirst())
            #expect(
                malformed.code == 2 && malformed.error.contains("(line 3)")
                    && !malformed.error.contains("Usage"), "\(command): \(malformed.error)")
        }
        // A file without places (a header alone) is refused, not searched for nothing.
        let empty = directory.appendingPathComponent("empty.tsv")
        try Data("lat\tlon\tname\n".utf8).write(to: empty)
        for command in [["nearest", "1", "2"], ["search", "a"], ["reverse", "1", "2"]] {
            let refused = meridian([command[0], "--places", empty.path] + command.dropFirst())
            #expect(
                refused.code == 2 && refused.output.isEmpty
                    && refused.error.contains("holds no places"), "\(command): \(refused.error)")
        }
    }

    /// Place names are data: in text output their control characters, byte-order marks and
    /// bidirectional overrides are spelled out, so a file cannot drive the terminal or reorder
    /// the line; JSON keeps them (escaped by JSON itself).
    @Test func controlCharactersInNamesAreSpelledOut() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "meridian-evil-\(UUID().uuidString).tsv")
        // A byte-order mark and a right-to-left override inside the name, a joiner kept.
        try Data(
            "lat\tlon\tname\n10\t20\tEvil\u{1B}]0;x\u{07}\u{9B}\u{FEFF}\u{202E}a\u{200D}b\n".utf8
        ).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for result in [
            meridian(["nearest", "--places", file.path, "-k", "1", "10", "20"]),
            meridian(["search", "evil", "--places", file.path]),
        ] {
            #expect(result.code == 0)
            #expect(
                result.output.hasPrefix(
                    #"Evil\u{1B}]0;x\u{7}\u{9B}\u{FEFF}\u{202E}a"# + "\u{200D}b ("),
                "\(result.output)")
        }
        let json = meridian(["nearest", "--places", file.path, "-k", "1", "10", "20", "--json"])
        let object = try JSONDecoder().decode(JSONValue.self, from: Data(json.output.utf8))
        #expect(
            object["places"]?[0]?["name"]?.stringValue
                == "Evil\u{1B}]0;x\u{07}\u{9B}\u{FEFF}\u{202E}a\u{200D}b")
    }

    /// The same point written with longitude 180 or −180 gets the same answers: the same country
    /// (Antarctica at the pole and at 85° S, Fiji, Russia) and the same order of equally far places.
    @Test func antimeridianSpellingsAgree() throws {
        let reverse = meridian(
            "reverse", input: "-90 180\n-90 -180\n-85 180\n-85 -180\n-16.5 180\n-16.5 -180\n")
        let lines = reverse.output.split(separator: "\n")
        #expect(lines.count == 6)
        for (i, country) in ["Antarctica", "Antarctica", "Fiji"].enumerated() {
            #expect(lines[2 * i].hasSuffix("country \(country)"), "\(lines[2 * i])")
            #expect(lines[2 * i + 1] == lines[2 * i])
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "meridian-ties-\(UUID().uuidString).tsv")
        try Data("lat\tlon\tname\n0\t-179.5\tW\n0\t179.5\tE\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let east = meridian(["nearest", "--places", file.path, "-k", "2", "0", "180"])
        let west = meridian(["nearest", "--places", file.path, "-k", "2", "0", "-180"])
        #expect(east.output.hasPrefix("W (") && east.output == west.output, "\(east.output)")
    }

    /// `reverse --geojson` writes no row index (the geocoder does not report one) rather than 0.
    @Test func reverseGeoJSONHasNoMadeUpIndex() throws {
        let result = meridian("reverse", "--geojson", "47.3769", "8.5417")
        let geojson = try GeoJSON(parsing: result.output)
        guard case .featureCollection(let c) = geojson, c.features.count == 2 else {
            Issue.record("not a FeatureCollection of two: \(result.output)")
            return
        }
        #expect(c.features[1].properties["name"]?.stringValue == "Zürich")
        #expect(c.features[1].properties["index"] == nil)
    }
}
