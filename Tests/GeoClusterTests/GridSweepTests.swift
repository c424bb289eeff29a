import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoCluster

/// The grid sweep builds exactly what supercluster's per-record tree queries build: the same trees,
/// cluster ids, parents, counts and bit-identical centroids, on seeded data with dense spots, exact
/// duplicates, points past ±180° and a pole.
@Suite("GridSweep")
struct GridSweepTests {
    static func points(_ n: Int, seed: UInt64) -> [Coordinate] {
        var rng = SplitMix64(seed: seed)
        var result = [Coordinate]()
        let spots = (0..<6).map { _ in
            (rng.uniform(-179, 179), rng.uniform(-80, 80), rng.uniform(0.001, 3))
        }
        for i in 0..<n {
            switch i % 11 {
            case 0: result.append(result.last ?? Coordinate(latitude: .nan, longitude: .nan))
            case 1:
                result.append(
                    Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-200, 200)))
            case 2 where i % 3 == 0: result.append(Coordinate(latitude: .nan, longitude: .nan))
            case 3 where i % 5 == 0: result.append(Coordinate(latitude: 90, longitude: 0))
            default:
                let s = spots[Int(rng.next() % 6)]
                result.append(
                    Coordinate(
                        latitude: s.1 + rng.uniform(-s.2, s.2),
                        longitude: s.0 + rng.uniform(-s.2, s.2)))
            }
        }
        return result
    }

    @Test(arguments: [
        ClusterOptions(), ClusterOptions(minPoints: 3), ClusterOptions(minPoints: 5, nodeSize: 8),
        ClusterOptions(radius: 120, extent: 256, minZoom: 2, maxZoom: 20),
        ClusterOptions(radius: 3, maxZoom: 30),
    ])
    func sameHierarchyAsTreeQueries(options: ClusterOptions) {
        for seed in [1] as [UInt64] {
            let coordinates = Self.points(2000, seed: seed)
            for threads in [1, 2] {
                let grid = ClusterHierarchy(
                    options: options, coordinates: coordinates,
                    build: ClusterBuildOptions(maximumThreads: threads))
                let reference = ClusterHierarchy(
                    options: options, coordinates: coordinates,
                    build: ClusterBuildOptions(maximumThreads: 1, neighborSearch: .treeQueries))
                #expect(grid.clusterID == reference.clusterID)
                #expect(grid.clusterCount == reference.clusterCount)
                #expect(grid.clusterX == reference.clusterX)
                #expect(grid.clusterY == reference.clusterY)
                #expect(grid.clusterParent == reference.clusterParent)
                #expect(grid.clusterOrigin == reference.clusterOrigin)
                #expect(grid.pointParent == reference.pointParent)
                #expect(grid.clusterRanges == reference.clusterRanges)
                #expect(grid.trees.map(\.refs) == reference.trees.map(\.refs))
            }
        }
    }

    /// Tiny groups where float32 resolution is fine (near lon −176°, lat 84°) at zooms whose radius is
    /// a few float32 steps: cluster centers (double) and their float32 copies then straddle the radius,
    /// so a neighbor of a record is not always the other way round.
    @Test func asymmetricNeighborsNearTheRadius() {
        var rng = SplitMix64(seed: 77)
        var coordinates = [Coordinate]()
        for _ in 0..<600 {
            let lon = rng.uniform(-176.5, -175.5), lat = rng.uniform(83.5, 84.5)
            for _ in 0..<Int(rng.next() % 4 + 2) {
                coordinates.append(
                    Coordinate(
                        latitude: lat + rng.uniform(-3e-6, 3e-6),
                        longitude: lon + rng.uniform(-3e-6, 3e-6)))
            }
        }
        for minPoints in [2, 3] {
            let options = ClusterOptions(maxZoom: 30, minPoints: minPoints)
            let grid = ClusterHierarchy(
                options: options, coordinates: coordinates,
                build: ClusterBuildOptions(maximumThreads: 1))
            let reference = ClusterHierarchy(
                options: options, coordinates: coordinates,
                build: ClusterBuildOptions(maximumThreads: 1, neighborSearch: .treeQueries))
            #expect(grid.clusterID == reference.clusterID)
            #expect(grid.clusterX == reference.clusterX)
            #expect(grid.pointParent == reference.pointParent)
            #expect(grid.clusterParent == reference.clusterParent)
            #expect(grid.trees.map(\.refs) == reference.trees.map(\.refs))
        }
    }

    /// Levels large enough for the build's parallel paths (projection in parts, neighbors swept in
    /// two halves, trees sorted and ranked on several threads) give the hierarchy of a build on one
    /// thread, for clustered and uniform synthetic points.
    @Test func parallelBuildMatchesOneThread() {
        let kinds: [SyntheticPoints.Kind] = [.clustered(centers: 300), .uniform]
        for kind in kinds {
            let coordinates = SyntheticPoints.coordinates(kind, count: 120_000, seed: 11)
            let options = ClusterOptions(maxZoom: 16)
            let one = ClusterHierarchy(
                options: options, coordinates: coordinates,
                build: ClusterBuildOptions(maximumThreads: 1))
            for threads in [2, 4] {
                let many = ClusterHierarchy(
                    options: options, coordinates: coordinates,
                    build: ClusterBuildOptions(maximumThreads: threads))
                #expect(many.clusterID == one.clusterID)
                #expect(many.clusterX == one.clusterX)
                #expect(many.clusterY == one.clusterY)
                #expect(many.clusterCount == one.clusterCount)
                #expect(many.pointParent == one.pointParent)
                #expect(many.clusterParent == one.clusterParent)
                #expect(many.clusterRanges == one.clusterRanges)
                #expect(many.trees.map(\.refs) == one.trees.map(\.refs))
            }
            // The levels really were large: the top zooms hold nearly every point.
            #expect(one.trees.last.map(\.refs.count) == coordinates.count)
        }
    }
}
