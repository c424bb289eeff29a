import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

/// supercluster 8.0.1's outputs on its own fixture (`ref-places.json`), section by section.
@Suite("supercluster parity: places")
struct PlacesParityTests {
    static let world = (west: -180.0, south: -85.0, east: 180.0, north: 85.0)

    let reference: JSONValue
    let index: ClusterIndex<Place>

    static let sharedIndex = try? Fixtures.placesIndex()

    init() throws {
        reference = try Fixtures.reference("ref-places.json")
        index = try #require(Self.sharedIndex)
    }

    func worldClusters(_ index: ClusterIndex<Place>, zoom: Double) -> [ClusterFeature<Place>] {
        let w = Self.world
        return index.clusters(
            west: w.west, south: w.south, east: w.east, north: w.north, zoom: zoom)
    }

    @Test func zoomCounts() throws {
        let zooms = try #require(reference["zooms"]?.arrayValue)
        #expect(zooms.count == 18)
        for entry in zooms {
            let z = try #require(entry["z"]?.intValue)
            #expect(
                ZoomCounts(worldClusters(index, zoom: Double(z))) == ZoomCounts(entry), "zoom \(z)")
        }
    }

    @Test func centers() throws {
        let centers = try #require(reference["centers"]?.objectValue)
        #expect(!centers.isEmpty)
        for (key, value) in centers {
            let z = try #require(Double(key))
            let expected = referenceCenters(value)
            #expect(sortedCenters(worldClusters(index, zoom: z)) == expected, "zoom \(key)")
        }
    }

    @Test func outputOrder() throws {
        let orders = try #require(reference["order"]?.objectValue)
        #expect(orders.count == 18)
        for (key, value) in orders {
            let z = try #require(Double(key))
            let expected = (value.arrayValue ?? []).compactMap(\.stringValue)
            #expect(worldClusters(index, zoom: z).map(\.tag) == expected, "zoom \(key)")
        }
    }

    /// Cluster ids, counts, abbreviations and centers to 1e-9° in output order.
    @Test func fullClusterRecords() throws {
        let full = try #require(reference["clusters_full"]?.objectValue)
        #expect(!full.isEmpty)
        for (key, value) in full {
            let z = try #require(Double(key))
            try expectFeatures(worldClusters(index, zoom: z), value.arrayValue ?? [], "zoom \(key)")
        }
    }

    func expectCluster(
        _ cluster: Cluster, _ record: JSONValue, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(cluster.id == record["cluster_id"]?.intValue, sourceLocation: sourceLocation)
        #expect(
            cluster.pointCount == record["point_count"]?.intValue, sourceLocation: sourceLocation)
        let abbrev = record["abbrev"]
        let text = abbrev?.stringValue ?? abbrev?.intValue.map { "\($0)" }
        #expect(cluster.abbreviatedPointCount == text, sourceLocation: sourceLocation)
        let lon = try #require(record["lon"]?.doubleValue),
            lat = try #require(record["lat"]?.doubleValue)
        #expect(abs(cluster.coordinate.longitude - lon) <= 1e-9, sourceLocation: sourceLocation)
        #expect(abs(cluster.coordinate.latitude - lat) <= 1e-9, sourceLocation: sourceLocation)
    }

    func expectFeatures(
        _ features: [ClusterFeature<Place>], _ expected: [JSONValue], _ what: String
    ) throws {
        try #require(features.count == expected.count, "\(what)")
        for (feature, record) in zip(features, expected) {
            if let point = record["point"]?.intValue {
                #expect(feature.point?.index == point, "\(what)")
            } else {
                let cluster = try #require(feature.cluster, "\(what)")
                try expectCluster(cluster, record)
            }
        }
    }

    @Test func children() throws {
        let children = try #require(reference["children"]?.objectValue)
        #expect(children.count > 50)
        for (key, value) in children {
            let id = try #require(Int(key))
            try expectFeatures(
                try index.children(of: id), value.arrayValue ?? [], "children of \(id)")
        }
    }

    @Test func childrenErrors() throws {
        let cases = try #require(reference["children_errors"]?.objectValue)
        for (key, value) in cases {
            let id = try #require(Int(key))
            if let count = value["children"]?.intValue {
                #expect(try index.children(of: id).count == count)
            } else {
                #expect(throws: GeoError.self) { try index.children(of: id) }
            }
        }
    }

    @Test func expansionZooms() throws {
        let zooms = try #require(reference["expansion_zoom"]?.objectValue)
        #expect(!zooms.isEmpty)
        for (key, value) in zooms {
            let id = try #require(Int(key))
            #expect(try index.expansionZoom(of: id) == value.intValue, "cluster \(id)")
        }
    }

    @Test func allLeaves() throws {
        let leaves = try #require(reference["leaves_all"]?.objectValue)
        #expect(!leaves.isEmpty)
        for (key, value) in leaves {
            let id = try #require(Int(key))
            let expected = (value.arrayValue ?? []).compactMap(\.intValue)
            #expect(try index.leaves(of: id, limit: .max).map(\.index) == expected, "cluster \(id)")
            #expect(
                Set(try index.leafCoordinates(of: id))
                    == Set(expected.compactMap { index.elements[$0].coordinate }))
        }
    }

    @Test func pagedLeaves() throws {
        let cases = try #require(reference["leaves_paged"]?.arrayValue)
        #expect(!cases.isEmpty)
        for c in cases {
            let id = try #require(c["cluster_id"]?.intValue)
            let limit = c["limit"]?.intValue, offset = c["offset"]?.intValue ?? 0
            let expected = (c["leaves"]?.arrayValue ?? []).compactMap(\.intValue)
            #expect(
                try index.leaves(of: id, limit: limit, offset: offset).map(\.index) == expected,
                "\(c)")
        }
    }

    /// Every tile of zooms 0...2 and a few deeper ones: order, pixels, ids.
    @Test func tiles() throws {
        let tiles = try #require(reference["tiles"]?.objectValue)
        #expect(tiles.count > 20)
        for (key, value) in tiles {
            let parts = key.split(separator: "/").compactMap { Int($0) }
            let tile = index.tile(z: parts[0], x: parts[1], y: parts[2])
            guard let expected = value.arrayValue else {
                #expect(tile == nil, "tile \(key)")
                continue
            }
            let features = try #require(tile?.features, "tile \(key)")
            try #require(features.count == expected.count, "tile \(key)")
            for (feature, record) in zip(features, expected) {
                let geometry = record["geometry"]?[0]
                #expect(
                    [feature.x, feature.y] == [geometry?[0]?.intValue, geometry?[1]?.intValue],
                    "tile \(key)")
                switch feature.feature {
                case .cluster(let cluster):
                    #expect(cluster.id == record["cluster_id"]?.intValue, "tile \(key)")
                    #expect(cluster.pointCount == record["point_count"]?.intValue, "tile \(key)")
                case .point(let point):
                    #expect(point.index == record["point"]?.intValue, "tile \(key)")
                    #expect(point.element.id?.intValue == record["id"]?.intValue, "tile \(key)")
                }
            }
        }
    }

    @Test func minPointsFive() throws {
        let section = try #require(reference["min_points_5"])
        let index = try Fixtures.placesIndex(Fixtures.options(section["options"]))
        for entry in section["zooms"]?.arrayValue ?? [] {
            let z = try #require(entry["z"]?.intValue)
            #expect(
                ZoomCounts(worldClusters(index, zoom: Double(z))) == ZoomCounts(entry), "zoom \(z)")
        }
        let centers = try #require(section["centers"]?.objectValue)
        for (key, value) in centers {
            let z = try #require(Double(key))
            #expect(
                sortedCenters(worldClusters(index, zoom: z)) == referenceCenters(value),
                "zoom \(key)")
        }
    }

    @Test func mapReduceSumOfScalerank() throws {
        let section = try #require(reference["reduce_sum_scalerank_radius100"])
        let index = try Fixtures.placesIndex(Fixtures.options(section["options"]))
        let sums = index.aggregates(
            map: { $0.properties["scalerank"]?.intValue ?? 0 }, reduce: { $0 += $1 })
        for (key, tileKey) in [("tile_1_0_0_sums", (1, 0, 0)), ("tile_0_0_0_sums", (0, 0, 0))] {
            let tile = try #require(index.tile(z: tileKey.0, x: tileKey.1, y: tileKey.2))
            // supercluster's test keeps the truthy `tags.sum` values: clusters' sums and points' own.
            let values = tile.features.compactMap { f -> Int? in
                switch f.feature {
                case .cluster(let c): sums[c]
                case .point: nil
                }
            }.filter { $0 != 0 }
            #expect(values == (section[key]?.arrayValue ?? []).compactMap(\.intValue), "\(key)")
        }
        for (key, zoom) in [("clusters_z0", 0.0), ("clusters_z2", 2.0)] {
            let clusters = worldClusters(index, zoom: zoom).compactMap(\.cluster).sorted {
                $0.id < $1.id
            }
            let expected = (section[key]?.arrayValue ?? []).sorted {
                ($0["cluster_id"]?.intValue ?? 0) < ($1["cluster_id"]?.intValue ?? 0)
            }
            #expect(
                clusters.map(\.id) == expected.compactMap { $0["cluster_id"]?.intValue }, "\(key)")
            #expect(
                clusters.map(\.pointCount) == expected.compactMap { $0["point_count"]?.intValue },
                "\(key)")
            #expect(
                clusters.map { sums[$0] } == expected.compactMap { $0["sum"]?.intValue }, "\(key)")
        }
        // The same sums carried by the clusters themselves, from an index built with an aggregation.
        let carrying = try ClusterIndex(
            Fixtures.places(), options: Fixtures.options(section["options"]),
            coordinate: { $0.coordinate },
            aggregation: .sum { Double($0.properties["scalerank"]?.intValue ?? 0) })
        for (key, zoom) in [("clusters_z0", 0.0), ("clusters_z2", 2.0)] {
            let clusters = worldClusters(carrying, zoom: zoom).compactMap(\.cluster).sorted {
                $0.id < $1.id
            }
            let expected = (section[key]?.arrayValue ?? []).sorted {
                ($0["cluster_id"]?.intValue ?? 0) < ($1["cluster_id"]?.intValue ?? 0)
            }
            #expect(
                clusters.map { $0.aggregate?.doubleValue }
                    == expected.map { $0["sum"]?.doubleValue }, "\(key)")
        }
    }

    /// Counts per kind carried by each cluster add up to its point count.
    @Test func countsPerKind() throws {
        let index = try ClusterIndex(
            Fixtures.places(), coordinate: { $0.coordinate },
            aggregation: .counts { $0.properties["featureclass"]?.stringValue ?? "none" })
        let clusters = worldClusters(index, zoom: 1).compactMap(\.cluster)
        #expect(!clusters.isEmpty)
        for c in clusters {
            let counts = c.aggregate?.objectValue ?? [:]
            #expect(counts.values.compactMap(\.intValue).reduce(0, +) == c.pointCount)
        }
    }

    @Test func generatedIDsAreInputIndices() throws {
        let expected = (reference["generate_id_tile_0_0_0_point_ids"]?.arrayValue ?? []).compactMap(
            \.intValue)
        #expect(!expected.isEmpty)
        let tile = try #require(index.tile(z: 0, x: 0, y: 0))
        #expect(tile.features.compactMap { $0.feature.point?.index } == expected)
    }

    @Test func oddBoundingBoxes() throws {
        let cases = try #require(reference["bbox_cases"]?.arrayValue)
        #expect(cases.count > 50)
        for c in cases {
            let b = (c["bbox"]?.arrayValue ?? []).compactMap(\.doubleValue)
            let zoom = try #require(c["zoom"]?.doubleValue)
            let result = index.clusters(
                west: b[0], south: b[1], east: b[2], north: b[3], zoom: zoom)
            #expect(result.count == c["count"]?.intValue, "\(b) at \(zoom)")
            #expect(
                result.map(\.tag) == (c["order"]?.arrayValue ?? []).compactMap(\.stringValue),
                "\(b) at \(zoom)")
        }
    }

    @Test func datelineCrossing() throws {
        let section = try #require(reference["dateline"])
        let index = try ClusterIndex(Fixtures.lonLatList(section["points"]))
        let zoom = try #require(section["zoom"]?.doubleValue)
        for (boxKey, resultKey) in [
            ("non_crossing_bbox", "non_crossing"), ("crossing_bbox", "crossing"),
        ] {
            let b = (section[boxKey]?.arrayValue ?? []).compactMap(\.doubleValue)
            let clusters = index.clusters(
                west: b[0], south: b[1], east: b[2], north: b[3], zoom: zoom)
            let expected = section[resultKey]?.arrayValue ?? []
            try #require(clusters.count == expected.count)
            for (feature, record) in zip(clusters, expected) {
                let cluster = try #require(feature.cluster)
                #expect(cluster.id == record["cluster_id"]?.intValue)
                #expect(cluster.pointCount == record["point_count"]?.intValue)
                #expect(
                    abs(cluster.coordinate.longitude - (record["lon"]?.doubleValue ?? .nan)) <= 1e-9
                )
                #expect(
                    abs(cluster.coordinate.latitude - (record["lat"]?.doubleValue ?? .nan)) <= 1e-9)
            }
        }
    }

    /// `places-z0-0-0.json`: supercluster's own fixture for `getTile(0, 0, 0)`, deep-equal.
    @Test func tileFixture() throws {
        let fixture = try Fixtures.reference("places-z0-0-0.json")
        let expected = try #require(fixture["features"]?.arrayValue)
        let tile = try #require(index.tile(z: 0, x: 0, y: 0))
        try #require(tile.features.count == expected.count)
        for (feature, record) in zip(tile.features, expected) {
            #expect(record["type"] == 1)
            #expect(
                record["geometry"] == .array([.array([.integer(feature.x), .integer(feature.y)])]))
            switch feature.feature {
            case .cluster(let c):
                #expect(record["id"] == .integer(c.id))
                #expect(
                    record["tags"] == [
                        "cluster": true, "cluster_id": .integer(c.id),
                        "point_count": .integer(c.pointCount),
                        "point_count_abbreviated": .integer(c.pointCount),
                    ])
            case .point(let p):
                #expect(record["tags"] == p.element.properties)
                #expect(record["id"] == p.element.id)
            }
        }
    }
}

/// supercluster 8.0.1's per-zoom counts and cluster centers on 10 000 uniform and 10 000 clustered
/// points.
@Suite("supercluster parity: 10k points")
struct TenThousandPointsParityTests {
    @Test(arguments: ["ref-uniform-10k.json", "ref-clustered-10k.json"])
    func everyZoom(_ file: String) throws {
        let reference = try Fixtures.reference(file)
        let input = try #require(reference["input"]?.stringValue)
        let points = try Fixtures.csvPoints(input)
        #expect(points.count == reference["n"]?.intValue)
        let index = try ClusterIndex(points, options: Fixtures.options(reference["options"]))
        let zooms = try #require(reference["zooms"]?.arrayValue)
        #expect(zooms.count == 18)
        let centers = try #require(reference["centers"]?.objectValue)
        for entry in zooms {
            let z = try #require(entry["z"]?.intValue)
            let features = index.clusters(
                west: -180, south: -85, east: 180, north: 85, zoom: Double(z))
            #expect(ZoomCounts(features) == ZoomCounts(entry), "\(file) zoom \(z)")
            let expected = referenceCenters(centers["\(z)"])
            #expect(
                centersMatch(sortedCenters(features), expected, tolerance: 2e-6),
                "\(file) zoom \(z)")
        }
    }
}
