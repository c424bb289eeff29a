import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

@Suite("Member order")
struct ClusterMemberOrderTests {
    /// 20,000 points around a few towns, with duplicates.
    static let points: [Coordinate] = {
        var rng = SplitMix64(seed: 77)
        let towns = [(47.37, 8.54), (46.2, 6.14), (-33.9, 151.2), (40.7, -74.0), (-17.7, 179.9)]
        return (0..<20_000).map { i in
            let (lat, lon) = towns[i % towns.count]
            if i % 97 == 0 { return Coordinate(latitude: lat, longitude: lon) }
            return Coordinate(
                latitude: lat + (rng.nextUnit() - 0.5) * 0.8 * rng.nextUnit(),
                longitude: max(-180, min(180, lon + (rng.nextUnit() - 0.5) * rng.nextUnit())))
        }
    }()

    @Test("insertion order changes centers in their last bits only, never clusters, ids or counts")
    func sameClusters() throws {
        let reference = try ClusterIndex(Self.points)
        let insertion = try ClusterIndex(
            Self.points, options: ClusterOptions(memberOrder: .insertion))
        var differing = 0
        var clusters = 0
        for zoom in 0...17 {
            let a = reference.clusters(in: BoundingBox.world, zoom: Double(zoom))
            let b = insertion.clusters(in: BoundingBox.world, zoom: Double(zoom))
            #expect(a.map(\.pointCount) == b.map(\.pointCount))
            #expect(a.map { $0.cluster?.id } == b.map { $0.cluster?.id })
            for (x, y) in zip(a, b) {
                guard case .cluster(let c) = x, case .cluster(let d) = y else { continue }
                clusters += 1
                if c.coordinate != d.coordinate { differing += 1 }
                #expect(abs(c.coordinate.latitude - d.coordinate.latitude) < 1e-11)
                #expect(abs(c.coordinate.longitude - d.coordinate.longitude) < 1e-11)
            }
        }
        #expect(clusters > 1000)
        // Centers rarely differ at all (a cluster sums a few records of the level above, most
        // often exactly); the bound above is what holds.
        #expect(differing < clusters / 10)
    }

    @Test("the orders really differ: an order-sensitive aggregate shows it")
    func ordersDiffer() throws {
        // Each cluster's aggregate lists its members' latitudes in the order they were folded.
        let order = ClusterAggregation<Coordinate>(
            map: { .array([.number($0.latitude)]) },
            reduce: { list, next in list = .array((list.arrayValue ?? []) + (next.arrayValue ?? []))
            })
        let points = Array(Self.points.prefix(5000))
        let reference = try ClusterIndex(points, coordinate: { $0 }, aggregation: order)
        let insertion = try ClusterIndex(
            points, options: ClusterOptions(memberOrder: .insertion), coordinate: { $0 },
            aggregation: order)
        let a = reference.clusters(in: BoundingBox.world, zoom: 8).compactMap(\.cluster)
        let b = insertion.clusters(in: BoundingBox.world, zoom: 8).compactMap(\.cluster)
        #expect(a.map(\.pointCount) == b.map(\.pointCount))
        #expect(zip(a, b).contains { $0.aggregate != $1.aggregate })
        // Same members either way.
        for (c, d) in zip(a, b) {
            let x = (c.aggregate?.arrayValue ?? []).compactMap(\.doubleValue).sorted()
            let y = (d.aggregate?.arrayValue ?? []).compactMap(\.doubleValue).sorted()
            #expect(x == y)
        }
    }

    @Test("the tree-query build sums in insertion order too")
    func treeQueriesAgree() throws {
        let options = ClusterOptions(memberOrder: .insertion)
        let grid = try ClusterIndex(Self.points, options: options)
        let tree = try ClusterIndex(
            Self.points, options: options,
            build: ClusterBuildOptions(maximumThreads: 1, neighborSearch: .treeQueries))
        for zoom in 0...17 {
            #expect(
                grid.clusters(in: BoundingBox.world, zoom: Double(zoom))
                    == tree.clusters(in: BoundingBox.world, zoom: Double(zoom)))
        }
    }

    @Test("options decode with defaults for what a JSON object leaves out")
    func decoding() throws {
        let options = try JSONDecoder().decode(
            ClusterOptions.self, from: Data(#"{"radius": 60, "memberOrder": "insertion"}"#.utf8))
        #expect(options == ClusterOptions(radius: 60, memberOrder: .insertion))
        let round = try JSONDecoder().decode(
            ClusterOptions.self, from: JSONEncoder().encode(ClusterOptions(maxZoom: 12)))
        #expect(round == ClusterOptions(maxZoom: 12))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                ClusterOptions.self, from: Data(#"{"memberOrder": "tree"}"#.utf8))
        }
    }
}
