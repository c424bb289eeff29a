import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

/// The assertions of supercluster's own test suite (`supercluster_expectations.json`), case by case.
@Suite("supercluster test suite")
struct SuperclusterExpectationsTests {
    let cases: [String: JSONValue]

    init() throws {
        let json = try Fixtures.reference("supercluster_expectations.json")
        var cases = [String: JSONValue]()
        for c in json["cases"]?.arrayValue ?? [] {
            if let id = c["id"]?.stringValue { cases[id] = c }
        }
        self.cases = cases
    }

    func placesIndex(_ id: String) throws -> ClusterIndex<Place> {
        let c = try #require(cases[id], "case \(id) is in the file")
        return try Fixtures.placesIndex(Fixtures.options(c["options"]))
    }

    @Test func tileZeroMatchesFixture() throws {
        let c = try #require(cases["tile_z0_default"])
        let fixture = try ReferenceData.json(
            Fixtures.directory + (c["expected_file"]?.stringValue ?? ""))
        let tile = try #require(try placesIndex("tile_z0_default").tile(z: 0, x: 0, y: 0))
        let expected = fixture["features"]?.arrayValue ?? []
        #expect(
            tile.features.map { [$0.x, $0.y] }
                == expected.map { ($0["geometry"]?[0]?.arrayValue ?? []).compactMap(\.intValue) })
        #expect(
            tile.features.map { $0.feature.cluster?.id }
                == expected.map { $0["tags"]?["cluster_id"]?.intValue })
    }

    @Test func childrenCounts() throws {
        let c = try #require(cases["children_164"])
        let children = try placesIndex("children_164").children(of: 164)
        #expect(
            children.map(\.pointCount) == (c["expected"]?.arrayValue ?? []).compactMap(\.intValue))
    }

    @Test(arguments: ["expansion_zoom_196", "expansion_zoom_1157"])
    func expansionZoom(_ id: String) throws {
        let c = try #require(cases[id])
        let call = c["call"]?.stringValue ?? ""
        let clusterID = try #require(Int(call.filter(\.isNumber)))
        #expect(try placesIndex(id).expansionZoom(of: clusterID) == c["expected"]?.intValue)
    }

    @Test func reduceSums() throws {
        let id = "reduce_sum_scalerank_tile_z1"
        let c = try #require(cases[id])
        let index = try placesIndex(id)
        let sums = index.aggregates(
            map: { $0.properties["scalerank"]?.intValue ?? 0 }, reduce: { $0 += $1 })
        let tile = try #require(index.tile(z: 1, x: 0, y: 0))
        let values = tile.features.compactMap { $0.feature.cluster.flatMap { sums[$0] } }.filter {
            $0 != 0
        }
        #expect(values == (c["expected"]?.arrayValue ?? []).compactMap(\.intValue))
    }

    @Test(arguments: 1...7)
    func weirdBoundingBoxes(_ n: Int) throws {
        let id = "getClusters_weird_bbox_\(n)"
        let c = try #require(cases[id])
        let call = try #require(c["call"]?.stringValue)
        // "getClusters([w, s, e, n], zoom)"
        let inner = call.drop { $0 != "[" }.dropFirst()
        let numbers = inner.split(whereSeparator: {
            $0 == "," || $0 == "]" || $0 == ")" || $0 == " "
        }).compactMap { Double($0) }
        try #require(numbers.count == 5)
        let result = try placesIndex(id).clusters(
            west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3],
            zoom: numbers[4])
        #expect(result.count == c["expected"]?.intValue)
    }

    @Test func datelineQuery() throws {
        let c = try #require(cases["dateline_crossing_query"])
        let index = try ClusterIndex(Fixtures.lonLatList(c["input"]))
        let plain = index.clusters(west: -179, south: -10, east: -177, north: 10, zoom: 1)
        let crossing = index.clusters(west: 179, south: -10, east: -177, north: 10, zoom: 1)
        #expect(!plain.isEmpty)
        #expect(plain.count == crossing.count)
    }

    @Test func sameLocationPoints() throws {
        let c = try #require(cases["same_location_points"])
        let index = try ClusterIndex(
            Fixtures.lonLatList(c["input"]), options: Fixtures.options(c["options"]))
        // trees[20] holds one record: the two points as one cluster.
        let features = index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 20)
        #expect(features.count == c["expected"]?.intValue)
        #expect(features.first?.cluster?.pointCount == 2)
    }

    @Test func unclusteredPointIsNotRounded() throws {
        let c = try #require(cases["unclustered_point_not_rounded"])
        let index = try ClusterIndex(
            Fixtures.lonLatList(c["input"]), options: Fixtures.options(c["options"]))
        let tile = try #require(index.tile(z: 20, x: 1_028_744, y: 656_754))
        #expect(
            [tile.features[0].x, tile.features[0].y]
                == (c["expected"]?.arrayValue ?? []).compactMap(\.intValue))
    }

    @Test func zeroItems() throws {
        let c = try #require(cases["zero_items"])
        let index = try ClusterIndex([Coordinate]())
        #expect(
            index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 0).count
                == c["expected"]?.arrayValue?.count)
        #expect(index.tile(z: 0, x: 0, y: 0) == nil)
    }
}
