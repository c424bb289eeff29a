import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

private let world = BoundingBox(west: -180, south: -90, east: 180, north: 90)

/// A city of `n` seeded points, as insert changes keyed `k1`, `k2`, ...
private func cityInserts(_ n: Int, seed: UInt64) -> [LiveClusterChange<String>] {
    var rng = SplitMix64(seed: seed)
    return (1...n).map { .insert("k\($0)", Scatter.city.coordinate(&rng)) }
}

private func allFeatures(_ s: LiveClusterSnapshot<String>, zoom: Int) -> [ClusterFeature<String>] {
    s.clusters(in: world, zoom: Double(zoom))
}

@Suite("Live clustering: changes, errors, ids, snapshots, queries")
struct LiveClusterBehaviorTests {
    @Test("bad changes throw, name the change and leave the index as it was")
    func badChanges() throws {
        var index = try LiveClusterIndex<String>()
        try index.apply(cityInserts(50, seed: 1))
        let before = index.snapshot
        let cases: [([LiveClusterChange<String>], GeoError.Kind, String)] = [
            ([.insert("k3", Coordinate(latitude: 1, longitude: 1))], .invalidArgument, "change 1"),
            ([.remove("k1"), .remove("nope")], .notFound, "change 2: key \"nope\""),
            (
                [.move("k2", Coordinate(latitude: 91, longitude: 0))], .invalidCoordinate,
                "latitude 91"
            ),
            (
                [.move("k2", Coordinate(latitude: 0, longitude: -180.5))], .invalidCoordinate,
                "-180.5"
            ),
            ([.insert("n", Coordinate(latitude: .nan, longitude: 0))], .invalidCoordinate, "nan"),
            (
                [.insert("n", Coordinate(latitude: 0, longitude: .infinity))], .invalidCoordinate,
                "inf"
            ),
            (
                [.remove("k1"), .move("k1", Coordinate(latitude: 0, longitude: 0))], .notFound,
                "change 2"
            ),
            (
                [
                    .insert("x\u{1}y", Coordinate(latitude: 0, longitude: 0)),
                    .insert("x\u{1}y", Coordinate(latitude: 0, longitude: 0)),
                ], .invalidArgument, "\\u{1}"
            ),
        ]
        for (changes, kind, text) in cases {
            var copy = index
            #expect {
                try copy.apply(changes)
            } throws: { error in
                guard let error = error as? GeoError else { return false }
                return error.kind == kind && error.message.contains(text)
                    && !error.message.unicodeScalars.contains { $0.value < 0x20 }
            }
            #expect(copy.count == 50)
            #expect(copy.snapshot.version == before.version)
            #expect(allFeatures(copy.snapshot, zoom: 12) == allFeatures(before, zoom: 12))
            #expect(copy.consistencyProblems.isEmpty)
        }
        // The single-change calls throw the same way.
        #expect(throws: GeoError.self) {
            try index.insert("k1", at: Coordinate(latitude: 0, longitude: 0))
        }
        #expect(throws: GeoError.self) { try index.remove("zz") }
        #expect(throws: GeoError.self) {
            try index.move("zz", to: Coordinate(latitude: 0, longitude: 0))
        }
        #expect(index.count == 50)
    }

    @Test("a batch may insert, move and remove one key; removing and inserting again puts it last")
    func batchesOfOneKey() throws {
        let options = ClusterOptions(radius: 60, maxZoom: 16)
        var index = try LiveClusterIndex<String>(options: options)
        var model = LiveModel()
        let load = cityInserts(40, seed: 2)
        try index.apply(load)
        for c in load { model.apply(c) }
        let hop = Coordinate(latitude: 47.35, longitude: 8.5)
        let batch: [LiveClusterChange<String>] = [
            .insert("new", hop), .move("new", Coordinate(latitude: 47.36, longitude: 8.52)),
            .remove("k1"), .insert("k1", Coordinate(latitude: 47.33, longitude: 8.45)),
            .insert("gone", hop), .remove("gone"),
            .move("k2", hop), .move("k2", Coordinate(latitude: 47.31, longitude: 8.61)),
        ]
        try index.apply(batch)
        for c in batch { model.apply(c) }
        #expect(index.count == 41)
        #expect(!index.contains("gone"))
        #expect(index.coordinate(of: "k2") == Coordinate(latitude: 47.31, longitude: 8.61))
        // k1 came back as a new element: it is last in the order, with a new serial.
        let k1 = allFeatures(index.snapshot, zoom: 17).compactMap(\.point).first {
            $0.element == "k1"
        }
        #expect(k1?.index == 41)
        try LiveOracle.compare(index.snapshot, model, options: options, context: "one-key batch")
        #expect(index.consistencyProblems.isEmpty && index.greedyProblems.isEmpty)
        try index.apply([])
        #expect(index.count == 41)

        // A key named in a batch before other inserts, then inserted again after them, goes
        // after them: the order is that of the inserts, not of the keys' first mention (k3's
        // remove, and "a"'s first insert, come before "x" and "b"). Three points on a line,
        // each within the radius of the middle one only, tell the orders apart.
        let west = Coordinate(latitude: 10, longitude: 20)
        let middle = Coordinate(latitude: 10, longitude: 20.0003)
        let east = Coordinate(latitude: 10, longitude: 20.0006)
        for again in [
            [.remove("k3"), .insert("x", middle), .insert("k3", west), .insert("y", east)],
            [
                .insert("a", west), .insert("b", middle), .remove("a"), .insert("a", east),
                .remove("b"), .insert("b", middle), .insert("c", west),
            ],
        ] as [[LiveClusterChange<String>]] {
            try index.apply(again)
            for c in again { model.apply(c) }
            // The serials (point indices) follow the model's insertion order.
            var serial = [String: Int]()
            for point in allFeatures(index.snapshot, zoom: 17).compactMap(\.point) {
                serial[point.element] = point.index
            }
            let order = model.keys.map { serial[$0] ?? -1 }
            #expect(
                order == order.sorted() && Set(order).count == order.count && !order.contains(-1))
            let differing = try LiveOracle.compare(
                index.snapshot, model, options: options, context: "inserted again")
            #expect(differing == 0)
            #expect(index.consistencyProblems.isEmpty && index.greedyProblems.isEmpty)
        }
    }

    @Test("bad changes left out of a batch leave it as if they were not there")
    func leavingOutBadChanges() throws {
        let options = ClusterOptions(radius: 60, maxZoom: 16)
        var lenient = try LiveClusterIndex<String>(options: options)
        var strict = try LiveClusterIndex<String>(options: options)
        let load = cityInserts(60, seed: 3)
        try lenient.apply(load)
        try strict.apply(load)
        var present = (1...60).map { "k\($0)" }
        var rng = SplitMix64(seed: 4)
        var fresh = 0, ghost = 0
        func pick() -> Int { Int(rng.next() % UInt64(present.count)) }
        for round in 0..<TestScale.steps(40, minimum: 12) {
            // A good batch (it inserts, moves, removes, inserts and removes one key, removes and
            // inserts one again), with bad changes among it whose positions are noted.
            var good = [LiveClusterChange<String>](), all = [LiveClusterChange<String>]()
            var bad = [(position: Int, kind: GeoError.Kind)]()
            func spoil(_ change: LiveClusterChange<String>, _ kind: GeoError.Kind) {
                bad.append((all.count, kind))
                all.append(change)
            }
            for _ in 0..<(1 + Int(rng.next() % 12)) {
                let here = Scatter.city.coordinate(&rng)
                switch rng.next() % 9 {
                case 0, 1:
                    fresh += 1
                    let key = "n\(fresh)"
                    good.append(.insert(key, here))
                    all.append(.insert(key, here))
                    present.append(key)
                    if rng.next() % 2 == 0 { spoil(.insert(key, here), .invalidArgument) }
                case 2 where present.count > 10:
                    let key = present.remove(at: pick())
                    good.append(.remove(key))
                    all.append(.remove(key))
                    if rng.next() % 2 == 0 { spoil(.move(key, here), .notFound) }
                case 3:
                    fresh += 1
                    let change: [LiveClusterChange<String>] = [
                        .insert("t\(fresh)", here), .remove("t\(fresh)"),
                    ]
                    good += change
                    all += change
                case 4:
                    let key = present[pick()]
                    let change: [LiveClusterChange<String>] = [.remove(key), .insert(key, here)]
                    good += change
                    all += change
                case 5:
                    ghost += 1
                    spoil(
                        rng.next() % 2 == 0
                            ? .remove("ghost\(ghost)") : .move("ghost\(ghost)", here),
                        .notFound)
                case 6:
                    // The key a later insert of this batch may take: the bad insert must not
                    // give it its place in the order.
                    spoil(
                        .insert("n\(fresh + 1)", Coordinate(latitude: 95, longitude: 8)),
                        .invalidCoordinate)
                case 7:
                    spoil(
                        .move(present[pick()], Coordinate(latitude: 47, longitude: .nan)),
                        .invalidCoordinate)
                default:
                    let key = present[pick()]
                    good.append(.move(key, here))
                    all.append(.move(key, here))
                }
            }
            let rejected = try lenient.applyLeavingOutBadChanges(all)
            try strict.apply(good)
            #expect(rejected.map(\.position) == bad.map(\.position), "round \(round)")
            #expect(rejected.map(\.error.kind) == bad.map(\.kind), "round \(round)")
            for (position, error) in rejected {
                #expect(error.message.hasPrefix("change \(position + 1): "), "round \(round)")
            }
            #expect(lenient.count == strict.count)
            #expect(lenient.snapshot.version == strict.snapshot.version, "round \(round)")
            for zoom in 0...17 {
                #expect(
                    allFeatures(lenient.snapshot, zoom: zoom)
                        == allFeatures(strict.snapshot, zoom: zoom), "round \(round), zoom \(zoom)")
            }
        }
        // A bad insert of a key before its good insert gives it no place in the order: the
        // serials are those of the batch without it.
        let here = Coordinate(latitude: 47.37, longitude: 8.54)
        let early: [LiveClusterChange<String>] = [
            .insert("x", Coordinate(latitude: 95, longitude: 0)), .remove(present[1]),
            .insert(present[1], here), .insert("x", here),
        ]
        var a = lenient, b = lenient
        #expect(try a.applyLeavingOutBadChanges(early).map(\.position) == [0])
        try b.apply(Array(early.dropFirst()))
        let serials = { (s: LiveClusterSnapshot<String>) in
            allFeatures(s, zoom: 17).compactMap(\.point).map { "\($0.element) \($0.index)" }
        }
        #expect(serials(a.snapshot) == serials(b.snapshot))
        #expect(serials(a.snapshot).last?.hasPrefix("x ") == true)
        // A batch of bad changes alone changes nothing; apply(_:) throws for the first of them.
        let version = lenient.snapshot.version
        let spoilt: [LiveClusterChange<String>] = [
            .remove("ghost"), .insert(present[0], Coordinate(latitude: 0, longitude: 0)),
        ]
        #expect(try lenient.applyLeavingOutBadChanges(spoilt).map(\.position) == [0, 1])
        #expect(lenient.snapshot.version == version)
        #expect(throws: GeoError.self) { try lenient.apply(spoilt) }
        #expect(lenient.consistencyProblems.isEmpty && lenient.greedyProblems.isEmpty)
    }

    @Test("a cluster away from a change keeps its id; ids name the first element and the zoom")
    func stableIDs() throws {
        var index = try LiveClusterIndex<String>()
        // Two towns 300 km apart.
        var changes = [LiveClusterChange<String>]()
        for i in 0..<30 {
            let t = Double(i) * 0.0007
            changes.append(.insert("a\(i)", Coordinate(latitude: 47.37 + t, longitude: 8.54 + t)))
            changes.append(.insert("b\(i)", Coordinate(latitude: 46.2 + t, longitude: 6.14 + t)))
        }
        try index.apply(changes)
        let zoom = 10
        func townB(_ s: LiveClusterSnapshot<String>) -> [Cluster] {
            s.clusters(
                in: BoundingBox(west: 6, south: 46, east: 6.5, north: 46.5), zoom: Double(zoom)
            )
            .compactMap(\.cluster)
        }
        let before = townB(index.snapshot)
        #expect(!before.isEmpty)
        for c in before {
            let first = try index.snapshot.leaves(of: c.id, limit: 1)[0]
            #expect(c.id >> 5 == first.index)
            #expect((c.id & 31) - 1 >= zoom)
        }
        // Change town A a lot; town B's clusters keep their ids (and everything else).
        try index.apply(
            (0..<30).map {
                .move("a\($0)", Coordinate(latitude: 47.5, longitude: 8.7 + Double($0) * 0.01))
            })
        try index.remove("a0")
        try index.insert("a-new", at: Coordinate(latitude: 47.37, longitude: 8.54))
        #expect(townB(index.snapshot) == before)
    }

    @Test("a snapshot does not change when the index does, and can be read from many threads")
    func snapshotsAreValues() async throws {
        var index = try LiveClusterIndex<String>()
        try index.apply(cityInserts(2000, seed: 3))
        let old = index.snapshot
        let expected = (0...17).map { allFeatures(old, zoom: $0) }
        var rng = SplitMix64(seed: 4)
        for _ in 0..<20 {
            let k = "k\(1 + Int(rng.next() % 2000))"
            try index.move(k, to: Scatter.city.coordinate(&rng))
        }
        try index.remove("k1")
        #expect(old.count == 2000 && index.count == 1999)
        #expect(old.version != index.snapshot.version)
        let seen = await withTaskGroup(of: Bool.self) { group in
            for t in 0..<8 {
                group.addTask {
                    (0...17).allSatisfy { z in
                        allFeatures(old, zoom: (z + t) % 18) == expected[(z + t) % 18]
                    }
                }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(seen)
    }

    @Test("children, leaves, expansion zoom and tiles agree with a rebuild's")
    func queriesMatchRebuild() throws {
        let options = ClusterOptions(radius: 50, maxZoom: 16)
        var index = try LiveClusterIndex<String>(options: options)
        var model = LiveModel()
        var rng = SplitMix64(seed: 5)
        var counter = 0
        var changes = [LiveClusterChange<String>]()
        for _ in 0..<600 {
            let change = randomChange(
                &rng, model: model, scatter: .city, categories: false, counter: &counter)
            model.apply(change)
            changes.append(change)
        }
        try index.apply(changes)
        var staticOptions = options
        staticOptions.memberOrder = .insertion
        let rebuilt = try ClusterIndex(
            model.elements, options: staticOptions, coordinate: { $0.coordinate })
        let snapshot = index.snapshot
        func keys(
            _ f: ClusterFeature<ModelElement>, in index: ClusterIndex<ModelElement>
        ) throws -> [String] {
            switch f {
            case .point(let p): [p.element.key]
            case .cluster(let c):
                try index.leaves(of: c.id, limit: .max).map(\.element.key).sorted()
            }
        }
        func keys(_ f: ClusterFeature<String>) throws -> [String] {
            switch f {
            case .point(let p): [p.element]
            case .cluster(let c): try snapshot.leaves(of: c.id, limit: .max).map(\.element).sorted()
            }
        }
        var checked = 0
        for zoom in 0...16 {
            let live = allFeatures(snapshot, zoom: zoom).compactMap(\.cluster)
            let fixed = rebuilt.clusters(in: world, zoom: Double(zoom)).compactMap(\.cluster)
            #expect(live.count == fixed.count)
            // Match clusters by their members.
            var byMembers = [[String]: Cluster]()
            for c in fixed { byMembers[try keys(.cluster(c), in: rebuilt)] = c }
            for c in live {
                let members = try keys(.cluster(c))
                guard let twin = byMembers[members] else {
                    Issue.record(
                        "zoom \(zoom): no rebuilt cluster has members \(members.prefix(5))")
                    continue
                }
                let liveChildren = try snapshot.children(of: c.id).map(keys).sorted {
                    $0[0] < $1[0]
                }
                let fixedChildren = try rebuilt.children(of: twin.id).map {
                    try keys($0, in: rebuilt)
                }
                .sorted { $0[0] < $1[0] }
                #expect(liveChildren == fixedChildren)
                #expect(try snapshot.expansionZoom(of: c.id) == rebuilt.expansionZoom(of: twin.id))
                let page = try snapshot.leaves(of: c.id, limit: 3, offset: 2)
                #expect(page.count == min(3, max(0, c.pointCount - 2)))
                checked += 1
            }
        }
        #expect(checked > 50)
        let center = Coordinate(latitude: 47.4, longitude: 8.55)
        for zoom in [0, 5, 9, 11, 12, 14] {
            let tile = try TileID(containing: center, zoom: zoom)
            let (z, x, y) = (tile.zoom, tile.x, tile.y)
            let live = snapshot.tile(z: z, x: x, y: y)?.features.map {
                "\($0.x),\($0.y),\($0.feature.pointCount)"
            }.sorted()
            let fixed = rebuilt.tile(z: z, x: x, y: y)?.features.map {
                "\($0.x),\($0.y),\($0.feature.pointCount)"
            }.sorted()
            #expect(live == fixed, "tile \(z)/\(x)/\(y)")
        }
        #expect(throws: GeoError.self) { try snapshot.children(of: 12345) }
        #expect(throws: GeoError.self) { try snapshot.leaves(of: -1) }
        #expect(throws: GeoError.self) { try snapshot.expansionZoom(of: 1 << 40) }
    }

    @Test("a diff names what appeared, disappeared and changed, and where it came from")
    func diffs() throws {
        var index = try LiveClusterIndex<String>()
        let here = Coordinate(latitude: 47.37, longitude: 8.54)
        try index.apply([
            .insert("a", here), .insert("b", Coordinate(latitude: 47.3701, longitude: 8.5401)),
            .insert("c", Coordinate(latitude: 47.45, longitude: 8.7)),
        ])
        let view = BoundingBox(west: 8.3, south: 47.2, east: 8.9, north: 47.6)
        let zoom = 12.0
        let s0 = index.snapshot
        #expect(LiveClusterSnapshot.diff(from: s0, to: s0, in: view, zoom: zoom).isEmpty)
        // c drives into a and b's cluster.
        try index.move("c", to: Coordinate(latitude: 47.3702, longitude: 8.5402))
        let s1 = index.snapshot
        let merged = LiveClusterSnapshot.diff(from: s0, to: s1, in: view, zoom: zoom)
        #expect(merged.disappeared.count == 1)
        #expect(merged.disappeared.first?.feature.point?.element == "c")
        #expect(merged.disappeared.first?.destination?.cluster?.pointCount == 3)
        #expect(merged.changed.count == 1)
        #expect(
            merged.changed.first?.old.pointCount == 2 && merged.changed.first?.new.pointCount == 3)
        #expect(merged.appeared.isEmpty)
        // a, the cluster's first element, leaves: the cluster dissolves into b and c.
        try index.remove("a")
        let s2 = index.snapshot
        let split = LiveClusterSnapshot.diff(from: s1, to: s2, in: view, zoom: zoom)
        #expect(split.disappeared.count == 1)
        #expect(split.disappeared.first?.feature.cluster != nil)
        #expect(split.disappeared.first?.destination == nil)  // its first element was removed
        let appeared = split.appeared.map { $0.feature.cluster?.pointCount ?? 1 }
        #expect(appeared == [2])
        #expect(split.appeared.first?.source?.cluster?.pointCount == 3)
        // Outside the view nothing is reported.
        let far = LiveClusterSnapshot.diff(
            from: s1, to: s2, in: BoundingBox(west: 100, south: 0, east: 101, north: 1), zoom: zoom)
        #expect(far.isEmpty)
    }

    @Test("options a live index cannot keep are refused")
    func options() throws {
        #expect(throws: GeoError.self) {
            try LiveClusterIndex<Int>(options: ClusterOptions(minPoints: 3))
        }
        #expect(throws: GeoError.self) {
            try LiveClusterIndex<Int>(options: ClusterOptions(radius: -1))
        }
        let index = try LiveClusterIndex<Int>(options: ClusterOptions(minPoints: 0))
        #expect(index.options.memberOrder == .insertion)
        #expect(index.snapshot.clusters(in: world, zoom: .nan).isEmpty)
    }

    @Test("a pile of elements at one coordinate stays exact and cheap")
    func pile() throws {
        let options = ClusterOptions(maxZoom: 16)
        var index = try LiveClusterIndex<String>(options: options)
        var model = LiveModel()
        let spot = Coordinate(latitude: 35.6812, longitude: 139.7671)
        let load = (0..<20_000).map { LiveClusterChange<String>.insert("p\($0)", spot) }
        try index.apply(load)
        for c in load { model.apply(c) }
        // Remove the pile's first element, then move one in and out of it.
        let steps: [LiveClusterChange<String>] = [
            .remove("p0"), .move("p5", Coordinate(latitude: 35.7, longitude: 139.8)),
            .move("p5", spot),
            .insert("late", spot), .remove("p1"),
        ]
        for c in steps {
            try index.apply([c])
            model.apply(c)
        }
        try LiveOracle.compare(index.snapshot, model, options: options, context: "pile")
        let top = allFeatures(index.snapshot, zoom: 3).compactMap(\.cluster)
        #expect(top.map(\.pointCount) == [19_999])
    }
}

@Suite("Live clustering: loading many elements at once")
struct LiveClusterBulkLoadTests {
    @Test(
        "a bulk load is the index that inserting one by one makes",
        arguments: [Scatter.city, .piles, .antimeridian, .poles])
    func bulkEqualsInserts(scatter: Scatter) throws {
        var rng = SplitMix64(seed: 0xB01C + UInt64(Scatter.allCases.firstIndex(of: scatter) ?? 0))
        // A zoom range that starts above 0 as well, for half of the scatters.
        let options =
            scatter == .piles || scatter == .poles
            ? ClusterOptions(radius: 50, minZoom: 3, maxZoom: 12)
            : ClusterOptions(radius: 50, maxZoom: 17)
        var model = LiveModel()
        for i in 0..<400 {
            let category = i % 5 == 0 ? nil : ["bus", "tram"][i % 2]
            model.apply(
                .insert(
                    "k\(i)", scatter.coordinate(&rng), clusteringIdentifier: category,
                    value: .number(Double(i % 13) / 3)))
        }
        let bulk = try LiveClusterIndex<String>(
            model.elements, options: options, key: { $0.key }, coordinate: { $0.coordinate },
            clusteringIdentifier: { $0.category }, value: { $0.value }, reduce: LiveOracle.reduceSum
        )
        #expect(bulk.consistencyProblems.isEmpty)
        #expect(bulk.greedyProblems.isEmpty)
        var one = try LiveClusterIndex<String>(options: options, reduce: LiveOracle.reduceSum)
        for e in model.elements {
            try one.insert(
                e.key, at: e.coordinate, clusteringIdentifier: e.category, value: e.value)
        }
        for zoom in 0...18 {
            #expect(
                bulk.snapshot.clusters(in: BoundingBox.world, zoom: Double(zoom))
                    == one.snapshot.clusters(in: BoundingBox.world, zoom: Double(zoom)),
                "zoom \(zoom)")
        }
        // And it keeps up with changes like any other.
        var live = bulk
        var counter = 10_000
        for step in 0..<40 {
            let change = randomChange(
                &rng, model: model, scatter: scatter, categories: true, counter: &counter)
            try live.apply([change])
            model.apply(change)
            if step % 10 == 9 {
                #expect(live.consistencyProblems.isEmpty && live.greedyProblems.isEmpty)
            }
        }
        #expect(live.count == model.elements.count)
    }

    /// Box queries and tiles give their features in level order: by serial (a point's index, a
    /// cluster's first element), one partition after another; the records inside the box and no
    /// others, whatever the grid's cells around its edges hold.
    @Test("box queries and tiles come in level order and hold exactly the records inside")
    func queriesInLevelOrder() throws {
        var rng = SplitMix64(seed: 0x0D3E)
        let points = (0..<3_000).map { _ in Scatter.city.coordinate(&rng) }
        let index = try LiveClusterIndex<Int>(
            Array(points.indices), key: { $0 }, coordinate: { points[$0] },
            clusteringIdentifier: { $0 % 3 == 0 ? "bus" : nil })
        func serial(_ f: ClusterFeature<Int>) -> Int {
            switch f {
            case .point(let p): p.index
            case .cluster(let c): c.id >> 5
            }
        }
        func identifier(_ f: ClusterFeature<Int>) -> String? {
            switch f {
            case .point(let p): p.element % 3 == 0 ? "bus" : nil
            case .cluster(let c): c.clusteringIdentifier
            }
        }
        // Partitions in the order they were first seen (element 0 is a bus), each ascending.
        func expectLevelOrder(_ features: [ClusterFeature<Int>], _ label: String) {
            let runs = [
                features.filter { identifier($0) == "bus" },
                features.filter { identifier($0) == nil },
            ]
            #expect(runs[0] + runs[1] == features, "\(label)")
            for run in runs {
                #expect(
                    zip(run, run.dropFirst()).allSatisfy { serial($0) < serial($1) }, "\(label)")
            }
        }
        let boxes = [
            BoundingBox.world,
            BoundingBox(west: 8.5, south: 47.36, east: 8.56, north: 47.4),
            BoundingBox(west: 8.53, south: 47.37, east: 8.531, north: 47.371),
        ]
        for zoom in [0, 8, 11, 13, 15, 17] {
            let all = index.snapshot.clusters(in: BoundingBox.world, zoom: Double(zoom))
            for box in boxes {
                let features = index.snapshot.clusters(in: box, zoom: Double(zoom))
                expectLevelOrder(features, "zoom \(zoom), \(box)")
                // The world's features inside the box, and none outside it (those within about
                // 10 m of an edge, where the index's float32 positions decide, either way).
                let margin = 1e-4
                let found = Set(features.map(serial))
                for f in all {
                    let c = f.coordinate
                    let inner =
                        c.latitude > box.south + margin && c.latitude < box.north - margin
                        && c.longitude > box.west + margin && c.longitude < box.east - margin
                    let outer =
                        c.latitude >= box.south - margin && c.latitude <= box.north + margin
                        && c.longitude >= box.west - margin && c.longitude <= box.east + margin
                    if inner { #expect(found.contains(serial(f)), "zoom \(zoom), \(box)") }
                    if !outer { #expect(!found.contains(serial(f)), "zoom \(zoom), \(box)") }
                }
                #expect(found.count == features.count)
            }
            let id = try TileID(
                containing: Coordinate(latitude: 47.37, longitude: 8.53), zoom: zoom)
            let tile = try #require(index.snapshot.tile(z: id.zoom, x: id.x, y: id.y))
            expectLevelOrder(tile.features.map(\.feature), "tile at zoom \(zoom)")
        }
    }

    @Test("a bulk load names a repeated key or a bad coordinate")
    func bulkErrors() throws {
        let here = Coordinate(latitude: 1, longitude: 2)
        #expect {
            try LiveClusterIndex<String>(["a", "b", "a"], key: { $0 }, coordinate: { _ in here })
        } throws: { ($0 as? GeoError)?.message.contains("element 3 (\"a\")") ?? false }
        #expect {
            try LiveClusterIndex<Int>(
                [0, 1], key: { $0 },
                coordinate: { Coordinate(latitude: $0 == 1 ? .nan : 0, longitude: 0) })
        } throws: { ($0 as? GeoError)?.kind == .invalidCoordinate }
    }
}

@Suite("Live clustering: the stream format")
struct LiveClusterCommandTests {
    @Test("lines as people write them")
    func parses() throws {
        let here = Coordinate(latitude: 47.37, longitude: 8.54)
        #expect(
            try LiveClusterCommand(line: "insert bus-1 47.37 8.54")
                == .change(.insert("bus-1", here)))
        #expect(
            try LiveClusterCommand(line: "INSERT,bus-1,47.37,8.54,tram")
                == .change(.insert("bus-1", here, clusteringIdentifier: "tram")))
        #expect(
            try LiveClusterCommand(line: "insert\t\"a b\"\t47.37\t8.54\t")
                == .change(.insert("a b", here)))
        #expect(try LiveClusterCommand(line: "  move;k;47.37;8.54 ") == .change(.move("k", here)))
        #expect(try LiveClusterCommand(line: "remove \"x,y\"") == .change(.remove("x,y")))
        #expect(
            try LiveClusterCommand(line: "insert \"a,b\" 47.37 8.54")
                == .change(.insert("a,b", here)))
        #expect(throws: GeoError.self) { try LiveClusterCommand(line: "move k 10 200") }
        do {
            _ = try LiveClusterCommand(line: "move k 10 200")
        } catch {
            #expect(error.column == 4)  // the longitude's field
        }
        do {
            _ = try LiveClusterCommand(line: "insert \"k 1 2")
        } catch {
            #expect(error.column == 2 && error.message.contains("column 2"))  // the quoted key
        }
        #expect(
            try LiveClusterCommand(line: "view -10 40 20 60 5.5")
                == .view(BoundingBox(west: -10, south: 40, east: 20, north: 60), zoom: 5.5))
        #expect(try LiveClusterCommand(line: "") == .commit)
        #expect(try LiveClusterCommand(line: "commit") == .commit)
        #expect(try LiveClusterCommand(line: "# a comment") == nil)
    }

    @Test("a view or commit line ends its batch even when it cannot be read")
    func endsBatch() {
        for line in ["", " \t", "view 1 2", "VIEW,a,b,c,d,e", "commit now", "Commit;x", "view"] {
            #expect(LiveClusterCommand.endsBatch(line), "\(line)")
        }
        for line in ["insert k 1", "viewer 1 2 3 4 5", "# commit", "move k 1 2", "commits"] {
            #expect(!LiveClusterCommand.endsBatch(line), "\(line)")
        }
    }

    @Test(
        "bad lines name what is wrong and where",
        arguments: [
            ("teleport k 1 2", "not a command"), ("insert k 1", "found 2"), ("remove", "found 0"),
            ("move k north 2", "latitude \"north\""), ("move k 1 inf", "not a finite number"),
            ("insert k 95 0", "latitude"), ("view 0 10 1 5 3", "above north"),
            ("commit now", "no fields"),
            ("insert \"k 1 2", "never closed"), ("move k\u{7} 1 2 3", "takes"),
        ])
    func rejects(line: String, text: String) {
        #expect {
            try LiveClusterCommand(line: line)
        } throws: { error in
            guard let error = error as? GeoError else { return false }
            return error.message.contains(text)
                && !error.message.unicodeScalars.contains { $0.value == 7 }
        }
    }
}
