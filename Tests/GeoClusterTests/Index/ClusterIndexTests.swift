import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

/// Published values from supercluster's test suite (mapbox/supercluster `test/test.js` at 8dd72ac,
/// ISC), typed in so that they run without the shared data.
@Suite("ClusterIndex: published values")
struct ClusterIndexPublishedTests {
    /// "does not crash on weird bbox values" / dateline test: four points just east of −179°.
    @Test func datelinePoints() throws {
        let points = [-178.989, -178.99, -178.991, -178.992].map {
            Coordinate(latitude: 0, longitude: $0)
        }
        let index = try ClusterIndex(points)
        let plain = index.clusters(west: -179, south: -10, east: -177, north: 10, zoom: 1)
        let crossing = index.clusters(west: 179, south: -10, east: -177, north: 10, zoom: 1)
        #expect(plain == crossing)
        let cluster = try #require(plain.first?.cluster)
        #expect(plain.count == 1)
        #expect(cluster.id == 18)
        #expect(cluster.pointCount == 4)
        #expect(cluster.coordinate.longitude == -178.99050001055002)
        #expect(cluster.coordinate.latitude == 0)
    }

    /// "makes sure unclustered point coords are not rounded".
    @Test func unclusteredPointPixels() throws {
        let index = try ClusterIndex(
            [Coordinate(latitude: -41.340357424709275, longitude: 173.19150559062456)],
            options: ClusterOptions(maxZoom: 19))
        let feature = try #require(index.tile(z: 20, x: 1_028_744, y: 656_754)?.features.first)
        #expect(feature.x == 421 && feature.y == 281)
        // The same tile by its TileID, and the tile containing the point.
        let tile = try TileID(x: 1_028_744, y: 656_754, zoom: 20)
        #expect(index.tile(tile) == index.tile(z: 20, x: 1_028_744, y: 656_754))
        let containing = try TileID(
            containing: Coordinate(latitude: -41.340357424709275, longitude: 173.19150559062456),
            zoom: 20)
        #expect(containing == tile)
    }

    /// "makes sure same-location points are clustered".
    @Test func sameLocation() throws {
        let p = Coordinate(latitude: 53.943034, longitude: -1.426798)
        let index = try ClusterIndex(
            [p, p], options: ClusterOptions(radius: 16, extent: 8192, maxZoom: 20))
        let features = index.clusters(in: BoundingBox.world, zoom: 20)
        #expect(features.count == 1)
        #expect(features.first?.pointCount == 2)
    }

    @Test func abbreviations() {
        let cases: [(Int, String)] = [
            (2, "2"), (999, "999"), (1000, "1k"), (1049, "1k"), (1050, "1.1k"), (1149, "1.1k"),
            (9949, "9.9k"), (9950, "10k"), (10_000, "10k"), (12_499, "12k"), (12_500, "13k"),
        ]
        for (count, text) in cases {
            #expect(
                Cluster(id: 0, coordinate: Coordinate(latitude: 0, longitude: 0), pointCount: count)
                    .abbreviatedPointCount == text)
        }
    }

    /// supercluster writes `point_count_abbreviated` as a number below 1000 and as text above.
    @Test func geoJSONProperties() {
        let small = Cluster(
            id: 97, coordinate: Coordinate(latitude: 0, longitude: 0), pointCount: 999,
            clusteringIdentifier: "cafe")
        #expect(
            small.geoJSONProperties == [
                "cluster": true, "cluster_id": 97, "point_count": 999,
                "point_count_abbreviated": 999, "category": "cafe",
            ])
        let large = Cluster(
            id: 1, coordinate: Coordinate(latitude: 0, longitude: 0), pointCount: 1050)
        #expect(large.geoJSONProperties["point_count_abbreviated"] == "1.1k")
        #expect(large.geoJSONProperties["category"] == nil)
    }
}

@Suite("ClusterIndex")
struct ClusterIndexTests {
    static func randomPoints(_ n: Int, seed: UInt64, spread: Double = 1) -> [Coordinate] {
        var rng = SplitMix64(seed: seed)
        var points = [Coordinate]()
        // A few dense spots, some exact duplicates and background.
        let spots = (0..<8).map { _ in (rng.uniform(-170, 170), rng.uniform(-70, 70)) }
        for i in 0..<n {
            if i % 7 == 0, let last = points.last {
                points.append(last)
            } else if i % 3 == 0 {
                points.append(
                    Coordinate(latitude: rng.uniform(-85, 85), longitude: rng.uniform(-180, 180)))
            } else {
                let s = spots[Int(rng.next() % 8)]
                points.append(
                    Coordinate(
                        latitude: s.1 + rng.uniform(-spread, spread),
                        longitude: s.0 + rng.uniform(-spread, spread)))
            }
        }
        return points
    }

    @Test func optionsAreChecked() {
        #expect(throws: GeoError.self) {
            try ClusterIndex([Coordinate](), options: ClusterOptions(maxZoom: 31))
        }
        #expect(throws: GeoError.self) {
            try ClusterIndex([Coordinate](), options: ClusterOptions(minZoom: 5, maxZoom: 4))
        }
        #expect(throws: GeoError.self) {
            try ClusterIndex([Coordinate](), options: ClusterOptions(radius: 0))
        }
        #expect(throws: GeoError.self) {
            try ClusterIndex([Coordinate](), options: ClusterOptions(extent: .nan))
        }
        #expect(throws: GeoError.self) {
            try ClusterIndex([Coordinate](), options: ClusterOptions(minPoints: -1))
        }
        #expect((try? ClusterIndex([Coordinate](), options: ClusterOptions(maxZoom: 30))) != nil)
    }

    @Test func unknownIDsThrow() throws {
        let index = try ClusterIndex(Self.randomPoints(300, seed: 3))
        for id in [-1, 0, 299, 300, 1 << 40, Int.min, Int.max] {
            #expect(throws: GeoError.self) { try index.children(of: id) }
            #expect(throws: GeoError.self) { try index.leaves(of: id) }
            #expect(throws: GeoError.self) { try index.expansionZoom(of: id) }
            #expect(throws: GeoError.self) { try index.leafCoordinates(of: id) }
            #expect(throws: GeoError.self) { try index.spiderfy(id, zoom: 3) }
        }
    }

    /// Every zoom accounts for every point once; children add up to their cluster; leaves are the
    /// points; expansion zooms show more than one child.
    @Test(arguments: [2, 3, 5])
    func hierarchyInvariants(minPoints: Int) throws {
        let points = Self.randomPoints(1500, seed: UInt64(minPoints))
        let index = try ClusterIndex(
            points, options: ClusterOptions(maxZoom: 12, minPoints: minPoints))
        for zoom in 0...13 {
            let features = index.clusters(in: BoundingBox.world, zoom: Double(zoom))
            #expect(features.reduce(0) { $0 + $1.pointCount } == points.count, "zoom \(zoom)")
            for case .cluster(let cluster) in features where zoom % 4 == 0 {
                #expect(cluster.pointCount >= max(2, minPoints))
                let children = try index.children(of: cluster.id)
                #expect(children.reduce(0) { $0 + $1.pointCount } == cluster.pointCount)
                let leaves = try index.leaves(of: cluster.id, limit: .max)
                #expect(leaves.count == cluster.pointCount)
                #expect(Set(leaves.map(\.index)).count == leaves.count)
                let expansion = try index.expansionZoom(of: cluster.id)
                #expect(expansion > zoom && expansion <= 13)
            }
        }
        let all = index.clusters(in: BoundingBox.world, zoom: 13)
        #expect(Set(all.compactMap { $0.point?.index }) == Set(0..<points.count))
    }

    /// Many points at one spot (supercluster #103): one cluster at every zoom whose children and
    /// leaves work, expanding only past maxZoom; spiderfy spreads them out.
    @Test func duplicatePoints() throws {
        let spot = Coordinate(latitude: 48.8566, longitude: 2.3522)
        let points = Array(repeating: spot, count: 25) + [Coordinate(latitude: 10, longitude: 10)]
        let index = try ClusterIndex(points)
        for zoom in 0...16 {
            let clusters = index.clusters(in: BoundingBox.world, zoom: Double(zoom)).compactMap(
                \.cluster)
            #expect(clusters.count == 1)
            #expect(clusters.first?.pointCount == 25)
        }
        let top = try #require(
            index.clusters(in: BoundingBox.world, zoom: 0).compactMap(\.cluster).first)
        #expect(try index.leaves(of: top.id, limit: .max).count == 25)
        #expect(try index.expansionZoom(of: top.id) == 17)
        // Walk down: at every zoom the chain of clusters still holds all 25.
        var id = top.id
        while let child = try index.children(of: id).compactMap(\.cluster).first {
            #expect(
                child.pointCount + (try index.children(of: id).count - 1) == 25
                    || child.pointCount <= 25)
            id = child.id
        }
        let legs = try index.spiderfy(top.id, zoom: 16)
        #expect(legs.count == 25)
        #expect(Set(legs.map(\.coordinate)).count == 25)
        #expect(legs.allSatisfy { $0.point.coordinate == spot })
        // At zoom 16 on 256-point tiles every leg is at least 11 screen points from the center.
        let scale = 256 * exp2(16.0) / 360
        for leg in legs {
            let dx = (leg.coordinate.longitude - spot.longitude) * scale
            #expect(abs(dx) < 200)
        }
        let five = try ClusterIndex(Array(repeating: spot, count: 5))
        let small = try #require(five.clusters(in: BoundingBox.world, zoom: 0).first?.cluster)
        let circle = try five.spiderfy(small.id, zoom: 10)
        #expect(circle.count == 5)
        #expect(Set(circle.map(\.coordinate)).count == 5)
    }

    /// Boxes, regions and map rectangles across the 180th meridian (supercluster #69/#71).
    @Test func antimeridian() throws {
        let east = (0..<5).map { Coordinate(latitude: -17 + Double($0) * 0.01, longitude: 179.5) }
        let west = (0..<5).map { Coordinate(latitude: -17 + Double($0) * 0.01, longitude: -179.5) }
        let far = [Coordinate(latitude: -17, longitude: 0)]
        let index = try ClusterIndex(east + west + far)
        for zoom in [5.0, 17.0] {
            let box = index.clusters(
                in: BoundingBox(west: 179, south: -20, east: -179, north: -10), zoom: zoom)
            #expect(box.reduce(0) { $0 + $1.pointCount } == 10, "zoom \(zoom)")
            // East part first, then west.
            #expect(box.first?.coordinate.longitude ?? 0 > 0)
            #expect(box.last?.coordinate.longitude ?? 0 < 0)
            let region = CoordinateRegion(
                center: Coordinate(latitude: -15, longitude: 180),
                span: CoordinateSpan(latitudeDelta: 10, longitudeDelta: 2))
            #expect(index.clusters(in: region, zoom: zoom).reduce(0) { $0 + $1.pointCount } == 10)
            #expect(
                index.clusters(in: MapRect(region), zoom: zoom).reduce(0) { $0 + $1.pointCount }
                    == 10)
            // Written with an east edge past 180.
            #expect(
                index.clusters(west: 179, south: -20, east: 181, north: -10, zoom: zoom).reduce(0) {
                    $0 + $1.pointCount
                } == 10)
        }
        // Clusters never span the antimeridian: the two sides stay apart even at zoom 0.
        let z0 = index.clusters(in: BoundingBox.world, zoom: 0)
        #expect(z0.compactMap(\.cluster).allSatisfy { $0.pointCount == 5 })
        // The whole world through a 360°-wide box.
        #expect(
            index.clusters(west: -500, south: -90, east: -140, north: 90, zoom: 0).reduce(0) {
                $0 + $1.pointCount
            } == 11)
    }

    @Test func viewSizePicksTheZoom() throws {
        let index = try ClusterIndex(Self.randomPoints(400, seed: 9))
        // 360° of longitude in a 512-point-wide view of 256-point tiles: zoom 1.
        let world = CoordinateRegion(
            center: Coordinate(latitude: 0, longitude: 0),
            span: CoordinateSpan(latitudeDelta: 170, longitudeDelta: 360))
        #expect(index.clusters(in: world, viewSize: MapSize(width: 512, height: 4096)).zoom == 1)
        let city = CoordinateRegion(
            center: Coordinate(latitude: 0, longitude: 0),
            span: CoordinateSpan(latitudeDelta: 0.01, longitudeDelta: 360.0 / 1024))
        let view = index.clusters(in: city, viewSize: MapSize(width: 1024, height: 100_000))
        #expect(view.zoom == 12)
        #expect(view.features == index.clusters(in: city, zoom: 12))
        let tiny = CoordinateRegion(
            center: Coordinate(latitude: 0, longitude: 0),
            span: CoordinateSpan(latitudeDelta: 0, longitudeDelta: 0))
        #expect(index.clusters(in: tiny, viewSize: MapSize(width: 100, height: 100)).zoom == 17)
    }

    /// Clustering identifiers: each identifier clusters as an index of its elements alone would;
    /// elements without one stay points.
    @Test func clusteringIdentifiers() throws {
        struct Pin: Hashable, Sendable { var coordinate: Coordinate; var kind: String? }
        let points = Self.randomPoints(900, seed: 21)
        let kinds: [String?] = ["bike", "car", nil, "car", "bike", "bus"]
        let pins = points.enumerated().map {
            Pin(coordinate: $0.element, kind: kinds[$0.offset % kinds.count])
        }
        let index = try ClusterIndex(
            pins, coordinate: { $0.coordinate }, clusteringIdentifier: { $0.kind })
        for kind in ["bike", "car", "bus"] {
            let members = pins.indices.filter { pins[$0].kind == kind }
            let alone = try ClusterIndex(members.map { pins[$0] }, coordinate: { $0.coordinate })
            for zoom in [0.0, 3, 6, 17] {
                let mine = index.clusters(in: BoundingBox.world, zoom: zoom).filter {
                    $0.cluster?.clusteringIdentifier == kind || $0.point?.element.kind == kind
                }
                let theirs = alone.clusters(in: BoundingBox.world, zoom: zoom)
                #expect(mine.count == theirs.count)
                for (a, b) in zip(mine, theirs) {
                    #expect(a.pointCount == b.pointCount)
                    #expect(a.coordinate == b.coordinate)
                    if let p = a.point, let q = b.point { #expect(p.index == members[q.index]) }
                    if let c = a.cluster, let d = b.cluster {
                        #expect(
                            try index.leaves(of: c.id, limit: .max).map(\.index)
                                == alone.leaves(of: d.id, limit: .max).map { members[$0.index] })
                    }
                }
            }
        }
        // No identifier: never clustered.
        let loners = index.clusters(in: BoundingBox.world, zoom: 0).filter {
            $0.point != nil && $0.point?.element.kind == nil
        }
        #expect(loners.count == pins.filter { $0.kind == nil }.count)
        #expect(
            index.clusters(in: BoundingBox.world, zoom: 0).compactMap(\.cluster).allSatisfy {
                $0.clusteringIdentifier != nil
            })
        // Ids of different identifiers never collide.
        let ids = (0...16).flatMap {
            index.clusters(in: BoundingBox.world, zoom: Double($0)).compactMap(\.cluster)
        }
        #expect(
            Dictionary(grouping: ids, by: \.id).values.allSatisfy {
                Set($0.map(\.clusteringIdentifier)).count == 1
            })
    }

    @Test func elementsWithoutCoordinatesKeepTheirIndex() throws {
        let coordinates: [Coordinate?] = [
            nil, Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 1, longitude: 1.001),
            Coordinate(latitude: .nan, longitude: 0),
        ]
        let index = try ClusterIndex(coordinates, coordinate: { $0 })
        let cluster = try #require(index.clusters(in: BoundingBox.world, zoom: 0).first?.cluster)
        #expect(cluster.pointCount == 2)
        // supercluster's id: (origin index 0 << 5) + zoom 0 + 1 + N with N = 4 input elements.
        #expect(try index.expansionZoom(of: cluster.id) >= 1)
        #expect(
            index.clusters(in: BoundingBox.world, zoom: 17).compactMap { $0.point?.index } == [
                1, 2,
            ])
    }

    /// The lazy collection and the streamed walk give the array query's features in its order,
    /// with clustering identifiers (several partitions) and across the 180th meridian.
    @Test func lazyAndStreamedQueriesMatchTheArray() throws {
        let points = Self.randomPoints(3000, seed: 8)
        let index = try ClusterIndex(
            points, coordinate: { $0 },
            clusteringIdentifier: { $0.latitude > 0 ? "north" : "south" })
        let boxes = [
            BoundingBox.world, BoundingBox(west: 170, south: -40, east: -170, north: 40),
            BoundingBox(west: 10, south: 10, east: 11, north: 11),
        ]
        for box in boxes {
            for zoom in [0.0, 3, 8, 17] {
                let array = index.clusters(in: box, zoom: zoom)
                let lazy = index.features(in: box, zoom: zoom)
                var streamed = [ClusterFeature<Coordinate>]()
                index.forEachFeature(in: box, zoom: zoom) { streamed.append($0) }
                #expect(Array(lazy) == array && streamed == array)
                #expect(lazy.count == array.count)
            }
        }
        // A throwing body stops the walk at its first error.
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try index.forEachFeature(in: BoundingBox.world, zoom: 17) { _ throws(Stop) in
                seen += 1
                if seen == 5 { throw Stop() }
            }
        }
        #expect(seen == 5)
    }

    /// Queries make their features a block of references at a time, copying the elements out
    /// first: each point still carries its own element, and a body that throws anywhere in a block
    /// (or an iterator dropped halfway) leaves no copy behind. Class elements make a leaked copy
    /// outlive the index, and a copy released twice crash.
    @Test func blockedQueriesHandOutEachElementOnceAndReleaseTheRest() throws {
        final class Marker {
            let coordinate: Coordinate
            init(_ coordinate: Coordinate) { self.coordinate = coordinate }
        }
        struct Watch { weak var marker: Marker? }
        struct Stop: Error {}
        var watches = [Watch]()
        do {
            let markers = Self.randomPoints(700, seed: 12).map(Marker.init)
            watches = markers.map { Watch(marker: $0) }
            // Two partitions, one of them unclustered, so that local and input indices differ.
            let index = try ClusterIndex(
                markers, coordinate: { $0.coordinate },
                clusteringIdentifier: { $0.coordinate.longitude > 0 ? "east" : nil })
            for zoom in [3.0, 17] {
                let total = index.clusters(in: BoundingBox.world, zoom: zoom).count
                #expect(total > 3 * 64)
                for stopAt in [1, 2, 63, 64, 65, 129, total] {
                    var seen = 0
                    do {
                        try index.forEachFeature(in: BoundingBox.world, zoom: zoom) {
                            (feature) throws(Stop) in
                            if let point = feature.point {
                                #expect(point.element === markers[point.index])
                                #expect(point.coordinate == markers[point.index].coordinate)
                            }
                            seen += 1
                            if seen == stopAt { throw Stop() }
                        }
                    } catch {}
                    #expect(seen == stopAt)
                }
                var iterator = index.features(in: BoundingBox.world, zoom: zoom).makeIterator()
                for _ in 0..<70 {
                    if let point = iterator.next()?.point {
                        #expect(point.element === markers[point.index])
                    }
                }
            }
        }
        #expect(watches.count == 700)
        #expect(watches.allSatisfy { $0.marker == nil })
    }

    @Test func queriesNeverTrapOnOddInput() throws {
        let index = try ClusterIndex(Self.randomPoints(200, seed: 5))
        for zoom in [-.infinity, -5, .nan, 1e300, .infinity] as [Double] {
            _ = index.clusters(west: .nan, south: -90, east: 180, north: .infinity, zoom: zoom)
            _ = index.clusters(in: MapRect.null, zoom: zoom)
        }
        for (z, x, y) in [(-3, 0, 0), (2000, 5, 5), (0, -1, 0), (40, Int.max, Int.min), (3, 7, 7)] {
            _ = index.tile(z: z, x: x, y: y)
        }
        #expect(index.tile(z: 0, x: 0, y: 0) != nil)
    }

    /// The index is Sendable: concurrent queries from tasks give the same answers as serial ones.
    @Test func concurrentQueries() async throws {
        let index = try ClusterIndex(Self.randomPoints(500, seed: 1))
        let serial = (0...17).map { index.clusters(in: BoundingBox.world, zoom: Double($0)).count }
        let parallel = await withTaskGroup(of: (Int, Int).self) { group in
            for zoom in 0...17 {
                group.addTask {
                    (zoom, index.clusters(in: BoundingBox.world, zoom: Double(zoom)).count)
                }
            }
            var counts = [Int](repeating: 0, count: 18)
            for await (zoom, count) in group { counts[zoom] = count }
            return counts
        }
        #expect(parallel == serial)
    }

    /// Builds running at once in several tasks, empty and tiny ones included (their levels are
    /// empty arrays, which all share one storage), are independent: same answers as serial
    /// builds, and no data race under ThreadSanitizer.
    @Test func concurrentBuildsOfEmptyAndTinyIndexes() async throws {
        let inputs = (0..<16).map { Self.randomPoints($0 % 4, seed: UInt64($0)) }
        let serial = try inputs.map {
            try ClusterIndex($0).clusters(in: BoundingBox.world, zoom: 0).count
        }
        let parallel = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for (i, points) in inputs.enumerated() {
                group.addTask {
                    (i, try ClusterIndex(points).clusters(in: BoundingBox.world, zoom: 0).count)
                }
            }
            var counts = [Int](repeating: -1, count: inputs.count)
            for try await (i, count) in group { counts[i] = count }
            return counts
        }
        #expect(parallel == serial)
        #expect(serial[0] == 0 && serial[1] == 1)
    }
}
