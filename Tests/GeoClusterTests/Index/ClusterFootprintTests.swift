import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

@Suite("Cluster footprints")
struct ClusterFootprintTests {
    /// Seeded blobs of points: every cluster's convex hull holds all its points, its vertices are
    /// points of the cluster, and a concave hull is no larger than the convex one.
    @Test func hullsHoldTheirPoints() throws {
        var rng = SplitMix64(seed: 21)
        var points = [Coordinate]()
        for _ in 0..<20 {
            let center = Coordinate(
                latitude: rng.uniform(-60, 60), longitude: rng.uniform(-170, 170))
            for _ in 0..<40 {
                points.append(
                    Coordinate(
                        latitude: center.latitude + rng.uniform(-1, 1),
                        longitude: center.longitude + rng.uniform(-1, 1)))
            }
        }
        let index = try ClusterIndex(points)
        let clusters = index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 4)
            .compactMap(\.cluster)
        #expect(!clusters.isEmpty)
        for cluster in clusters {
            let leaves = try index.leafCoordinates(of: cluster.id)
            let hull = try index.footprint(of: cluster.id)
            guard case .polygon(let rings) = hull, let ring = rings.first else {
                Issue.record("cluster \(cluster.id) of \(leaves.count) points gave \(hull)")
                continue
            }
            let leafSet = Set(leaves.map { Position($0) })
            for vertex in ring { #expect(leafSet.contains(vertex)) }
            for leaf in leaves { #expect(hull.locate(Position(leaf)) != .exterior) }
            let concave = try index.footprint(of: cluster.id, shape: .concaveHull(ratio: 0.2))
            #expect(concave.planarArea <= hull.planarArea * (1 + 1e-12))
        }
    }

    /// A cluster straddling the 180th meridian gets a narrow outline, not one around the globe.
    @Test func acrossTheAntimeridian() throws {
        let points = [
            Coordinate(latitude: 0, longitude: 179.9), Coordinate(latitude: 0.1, longitude: -179.9),
            Coordinate(latitude: -0.1, longitude: 179.95),
            Coordinate(latitude: 0.05, longitude: -179.95),
        ]
        let index = try ClusterIndex(points)
        let cluster = try #require(
            index.clusters(west: 170, south: -5, east: -170, north: 5, zoom: 2).compactMap(
                \.cluster
            ).first)
        let hull = try index.footprint(of: cluster.id)
        let xs = hull.positions.map(\.x)
        #expect((xs.max() ?? 0) - (xs.min() ?? 0) < 1)
        #expect(throws: GeoError.self) { try index.footprint(of: 999_999) }
        #expect(throws: GeoError.self) {
            try index.footprint(of: cluster.id, shape: .concaveHull(ratio: 2))
        }
    }

    /// Coincident points give a point footprint.
    @Test func coincidentPoints() throws {
        let index = try ClusterIndex(
            Array(repeating: Coordinate(latitude: 10, longitude: 10), count: 5))
        let cluster = try #require(
            index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 16).compactMap(
                \.cluster
            ).first)
        let hull = try index.footprint(of: cluster.id)
        #expect(hull == .point(Position(x: 10, y: 10)))
    }
}
