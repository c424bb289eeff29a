import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import MeridianCLI

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
        #expect(lines[2].isEmpty && lines[3].isEmpty)
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

    @Test func usageErrors() {
        #expect(meridian("nearest", "1", "2").code == 64)
        #expect(meridian("nearest", "--places", Self.places, "-k", "0", "1", "2").code == 64)
        #expect(meridian("nearest", "--places", "/nonexistent", "1", "2").code == 64)
        #expect(meridian("search", "x", "--places", Self.places, "--region", "1,2,3").code == 64)
        #expect(meridian("search", "x", "--places", Self.places, "--near", "91,0").code == 64)
        #expect(meridian("reverse", "--within", "-1", "1", "2").code == 64)
    }
}
