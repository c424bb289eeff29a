import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoCluster

/// The grid sweep builds exactly what supercluster's per-record tree queries build: the same trees,
/// cluster ids, parents, counts and bit-identical centroids, on seeded data with dense spots, exact
/// duplicates, points past ±180° and a pole.
@Suite("Hierarchy build")
struct HierarchyBuildTests {
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
        for seed in [1, 0xC1, 0x5EED] as [UInt64] {
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
            // Above the parallel threshold (65,536) at the top zooms, even under the sanitizers.
            let count = TestScale.steps(120_000, minimum: 70_000)
            let coordinates = SyntheticPoints.coordinates(kind, count: count, seed: 11)
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

    /// Asserts that two builds made the same hierarchy, bit for bit.
    static func expectSame(
        _ grid: ClusterHierarchy, _ reference: ClusterHierarchy,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(grid.clusterID == reference.clusterID, sourceLocation: sourceLocation)
        #expect(grid.clusterCount == reference.clusterCount, sourceLocation: sourceLocation)
        #expect(grid.clusterX == reference.clusterX, sourceLocation: sourceLocation)
        #expect(grid.clusterY == reference.clusterY, sourceLocation: sourceLocation)
        #expect(grid.clusterParent == reference.clusterParent, sourceLocation: sourceLocation)
        #expect(grid.clusterOrigin == reference.clusterOrigin, sourceLocation: sourceLocation)
        #expect(grid.pointParent == reference.pointParent, sourceLocation: sourceLocation)
        #expect(grid.clusterRanges == reference.clusterRanges, sourceLocation: sourceLocation)
        #expect(
            grid.trees.map(\.refs) == reference.trees.map(\.refs), sourceLocation: sourceLocation)
    }

    /// Piles of identical points, a 100 m box packed with points, and sparse points around both
    /// (cells far above ``denseCellSize`` with sparse cells beside them), shuffled; one pile is big
    /// enough for the two-half sweep.
    static func densePoints(seed: UInt64) -> [Coordinate] {
        var rng = SplitMix64(seed: seed)
        let tower = Coordinate(latitude: 48.858_37, longitude: 2.294_48)
        var result = [Coordinate](repeating: tower, count: 70_000)
        let piles = [(35.6586, 139.7454), (-33.8568, 151.2153), (40.6892, -74.0445)]
        for (lat, lon) in piles {
            result += repeatElement(Coordinate(latitude: lat, longitude: lon), count: 3000)
        }
        for _ in 0..<20_000 {
            result.append(
                Coordinate(
                    latitude: 48.86 + rng.uniform(-0.000_45, 0.000_45),
                    longitude: 2.35 + rng.uniform(-0.000_68, 0.000_68)))
        }
        for _ in 0..<6_000 {
            // Sparse points within a few kilometres of the piles and the box.
            let (lat, lon) = rng.next() % 2 == 0 ? (48.86, 2.35) : piles[Int(rng.next() % 3)]
            result.append(
                Coordinate(
                    latitude: lat + rng.uniform(-0.05, 0.05),
                    longitude: lon + rng.uniform(-0.05, 0.05)
                ))
        }
        for i in stride(from: result.count - 1, to: 0, by: -1) {
            result.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        return result
    }

    /// Dense cells are searched by the greedy pass instead of listed: the hierarchy is still the
    /// tree queries' one, on one thread and on two.
    @Test(arguments: [2, 3])
    func denseCellsMatchTreeQueries(minPoints: Int) {
        let coordinates = Self.densePoints(seed: 5)
        let options = ClusterOptions(maxZoom: 18, minPoints: minPoints)
        let reference = ClusterHierarchy(
            options: options, coordinates: coordinates,
            build: ClusterBuildOptions(maximumThreads: 1, neighborSearch: .treeQueries))
        for threads in [1, 2] {
            let grid = ClusterHierarchy(
                options: options, coordinates: coordinates,
                build: ClusterBuildOptions(maximumThreads: threads))
            Self.expectSame(grid, reference)
            #expect(!grid.profile.spans.contains { $0.phase == .treeQueries })
        }
    }

    /// The pairs the sweep lists stay linear in the input whatever its density: none for a pile
    /// (its cell is dense), at most five cells of ``denseCellSize`` records per record for a
    /// packed box.
    @Test func listedPairsStayLinear() throws {
        let pile = [Coordinate](
            repeating: Coordinate(latitude: 10, longitude: 20), count: 100_000)
        let pileIndex = try ClusterIndex(pile)
        #expect(pileIndex.buildProfile.largestPairCount == 0)
        let box = HierarchyBuildTests.densePoints(seed: 9)
        let boxIndex = try ClusterIndex(box)
        #expect(boxIndex.buildProfile.largestPairCount <= 5 * denseCellSize * box.count)
        // Every point of the pile ends in one cluster at the highest zoom.
        let top = pileIndex.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 16)
        #expect(top.count == 1 && top.first?.pointCount == 100_000)
    }

    /// Points whose projected x lies outside ``ClusterHierarchy/gridRange`` (longitudes beyond
    /// ±540°) are clustered by tree queries, as supercluster clusters them.
    @Test func farLongitudesUseTreeQueries() throws {
        let points = [
            Coordinate(latitude: 10, longitude: 600), Coordinate(latitude: 10, longitude: 600.0001),
            Coordinate(latitude: 10, longitude: -1e9), Coordinate(latitude: 10, longitude: 20),
        ]
        let index = try ClusterIndex(points)
        #expect(index.buildProfile.spans.contains { $0.phase == .treeQueries })
        let features = index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 16)
        // supercluster's world query covers x in [0, 1]: only the point at 20° is inside.
        #expect(features.count == 1 && features.first?.point?.index == 3)
        let hierarchy = ClusterHierarchy(
            options: ClusterOptions(), coordinates: points, build: ClusterBuildOptions())
        let reference = ClusterHierarchy(
            options: ClusterOptions(), coordinates: points,
            build: ClusterBuildOptions(maximumThreads: 1, neighborSearch: .treeQueries))
        Self.expectSame(hierarchy, reference)
        // The two points at 600° merge at the highest zoom.
        #expect(
            hierarchy.pointParent[0] >= 0 && hierarchy.pointParent[0] == hierarchy.pointParent[1])
    }
}
