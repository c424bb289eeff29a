import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

/// Batches of random changes in a city, and the model they keep current.
struct CityChanges {
    var rng: SplitMix64
    var model = LiveModel()
    var counter = 0

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// `size` random changes, applied to the model.
    mutating func batch(_ size: Int) -> [LiveClusterChange<String>] {
        var changes = [LiveClusterChange<String>]()
        for _ in 0..<size {
            let change = randomChange(
                &rng, model: model, scatter: .city, categories: false, counter: &counter)
            model.apply(change)
            changes.append(change)
        }
        return changes
    }
}

@Suite("Live cluster diffs from the batch logs")
struct LiveClusterDiffTests {
    /// A diff as comparable lines, in its order.
    static func lines(_ d: LiveClusterDiff<String>) -> [String] {
        d.appeared.map { "+ \($0.feature) from \(String(describing: $0.source))" }
            + d.disappeared.map { "- \($0.feature) into \(String(describing: $0.destination))" }
            + d.changed.map { "~ \($0.old) -> \($0.new)" }
    }

    static let zooms: [Double] = [0, 9.5, 14, 20]

    /// Checks the logged diff against the merged views for every view and zoom; returns how many
    /// lines the diffs had.
    static func check(
        from old: LiveClusterSnapshot<String>, to new: LiveClusterSnapshot<String>,
        views: [BoundingBox], context: String
    ) -> Int {
        var total = 0
        for view in views {
            for zoom in zooms {
                let logged = lines(
                    LiveClusterSnapshot.diff(
                        from: old, to: new, in: view, zoom: zoom, useLogs: true))
                let merged = lines(
                    LiveClusterSnapshot.diff(
                        from: old, to: new, in: view, zoom: zoom, useLogs: false))
                #expect(logged == merged, "\(context), \(view) z\(zoom)")
                if logged != merged { return total }
                total += merged.count
            }
        }
        return total
    }

    @Test("a diff read from the logs equals the merge of both views", arguments: Scatter.allCases)
    func loggedEqualsMerged(scatter: Scatter) throws {
        var rng = SplitMix64(seed: 0xD1FF + UInt64(Scatter.allCases.firstIndex(of: scatter) ?? 0))
        let options = ClusterOptions(radius: 60, maxZoom: 16)
        var index = try LiveClusterIndex<String>(options: options, reduce: LiveOracle.reduceSum)
        var model = LiveModel()
        var counter = 0
        let views = [
            BoundingBox.world,
            BoundingBox(west: 8.45, south: 47.33, east: 8.6, north: 47.42),
            BoundingBox(west: 179.7, south: -18, east: -179.7, north: -17),
            BoundingBox(west: -180, south: 89.6, east: 180, north: 90),
        ]
        // Each snapshot with whether a rebuilt batch led to it.
        var history = [(snapshot: index.snapshot, rebuilt: true)]
        var lines = 0, logged = 0
        for step in 0..<TestScale.steps(60, minimum: 20) {
            // Mostly small batches (carried down the levels), now and then a large one: 300 new
            // points, more than 256 and than a twentieth of the index, so it is rebuilt and
            // keeps no log.
            let rebuilt = step % 20 == 19
            var changes = [LiveClusterChange<String>]()
            var shadow = model
            for _ in 0..<(rebuilt ? 0 : 1 + Int(rng.next() % 12)) {
                let change = randomChange(
                    &rng, model: shadow, scatter: scatter, categories: step % 2 == 0,
                    counter: &counter)
                shadow.apply(change)
                changes.append(change)
            }
            for _ in 0..<(rebuilt ? 300 : 0) {
                counter += 1
                let change = LiveClusterChange<String>.insert(
                    "k\(counter)", scatter.coordinate(&rng))
                shadow.apply(change)
                changes.append(change)
            }
            #expect(!rebuilt || shadow.elements.count < 20 * 300)
            if step % 3 == 0, let e = shadow.elements.last {
                // A move within the point's float32 position: its record stays, its feature not.
                let c = e.coordinate
                let nudged = Coordinate(
                    latitude: c.latitude,
                    longitude: c.longitude < 180 ? c.longitude + 1e-9 : c.longitude - 1e-9)
                let change = LiveClusterChange<String>.move(e.key, nudged)
                shadow.apply(change)
                changes.append(change)
            }
            try index.apply(changes)
            model = shadow
            let now = index.snapshot
            for (back, old) in history.reversed().enumerated() {
                // The logs lead back exactly to the snapshots after the last rebuilt batch.
                let rebuiltBetween = history.suffix(back + 1).dropFirst().contains { $0.rebuilt }
                let fromLogs = now.diffsFromLogs(since: old.snapshot)
                #expect(
                    fromLogs == !(rebuilt || rebuiltBetween),
                    "\(scatter) step \(step), \(back + 1) batches back")
                if fromLogs { logged += 1 }
                lines += Self.check(
                    from: old.snapshot, to: now, views: views,
                    context: "\(scatter) step \(step), \(back + 1) batches back")
            }
            history = Array((history + [(now, rebuilt)]).suffix(3))
        }
        // The logs were read, and the diffs were not all empty.
        #expect(logged > 0)
        #expect(lines > 0)
    }

    @Test("snapshots of copies changed apart and of a rebuild diff from both views")
    func copiesAndRebuilds() throws {
        var source = CityChanges(seed: 0xC0B1)
        var index = try LiveClusterIndex<String>()
        try index.apply(source.batch(300))
        let start = index.snapshot
        var copy = index
        let saved = source.model
        try index.apply(source.batch(5))
        source.model = saved
        try copy.apply(source.batch(5))
        let views = [
            BoundingBox.world, BoundingBox(west: 8.45, south: 47.33, east: 8.6, north: 47.42),
        ]
        // Each copy's logs lead back to the common start, not to the other copy.
        let fromStart = [
            index.snapshot.diffsFromLogs(since: start), copy.snapshot.diffsFromLogs(since: start),
        ]
        let between = [
            index.snapshot.diffsFromLogs(since: copy.snapshot),
            copy.snapshot.diffsFromLogs(since: index.snapshot),
        ]
        #expect(fromStart == [true, true])
        #expect(between == [false, false])
        _ = Self.check(from: copy.snapshot, to: index.snapshot, views: views, context: "copies")
        _ = Self.check(from: start, to: copy.snapshot, views: views, context: "copy from start")
        // Versions agree, states do not: the copies' diff is not empty.
        let versions = [copy.snapshot.version, index.snapshot.version]
        #expect(versions[0] == versions[1])
        let apart = LiveClusterSnapshot.diff(
            from: copy.snapshot, to: index.snapshot, in: .world, zoom: 20)
        #expect(!apart.isEmpty)
        // A rebuilt batch keeps no log; the diff across it merges the views.
        let before = index.snapshot
        source.model = LiveModel()
        for e in index.snapshot.clusters(in: .world, zoom: 20) {
            if case .point(let p) = e { source.model.apply(.insert(p.element, p.coordinate)) }
        }
        try index.apply(source.batch(1_000))
        let acrossRebuild = index.snapshot.diffsFromLogs(since: before)
        #expect(!acrossRebuild)
        _ = Self.check(from: before, to: index.snapshot, views: views, context: "rebuild")
        // A later small batch logs again.
        let rebuilt = index.snapshot
        try index.apply(source.batch(3))
        let afterRebuild = index.snapshot.diffsFromLogs(since: rebuilt)
        #expect(afterRebuild)
        let same = LiveClusterSnapshot.diff(from: rebuilt, to: rebuilt, in: .world, zoom: 9)
        #expect(same.isEmpty)
    }

    @Test("the logs keep at most their number of batches and records; beyond, the views merge")
    func limits() throws {
        var source = CityChanges(seed: 0x11A1)
        var index = try LiveClusterIndex<String>()
        try index.apply(source.batch(200))
        let views = [BoundingBox.world]
        // Two batches kept: a diff two back reads the logs, three back merges (and one from a
        // snapshot to itself reads nothing).
        index.logLimits = (batches: 2, records: 1_000_000)
        var snapshots = [index.snapshot]
        for _ in 0..<3 {
            try index.apply(source.batch(3))
            snapshots.append(index.snapshot)
        }
        let now = index.snapshot
        let reach = snapshots.map { now.diffsFromLogs(since: $0) }
        #expect(reach == [false, true, true, true])
        for old in snapshots { _ = Self.check(from: old, to: now, views: views, context: "limit") }
        // A batch that changes more records than the budget keeps no log, nor the earlier ones.
        index.logLimits = (batches: 32, records: 20)
        let before = index.snapshot
        try index.apply(source.batch(40))
        let overBudget = [
            index.snapshot.diffsFromLogs(since: before),
            index.snapshot.diffsFromLogs(since: snapshots[2]),
        ]
        #expect(overBudget == [false, false])
        _ = Self.check(from: before, to: index.snapshot, views: views, context: "budget")
        // No logs at all.
        index.logLimits = (batches: 0, records: 1_000_000)
        let unlogged = index.snapshot
        try index.apply(source.batch(2))
        let none = index.snapshot.diffsFromLogs(since: unlogged)
        #expect(!none)
        _ = Self.check(from: unlogged, to: index.snapshot, views: views, context: "no logs")
    }

    @Test("a move within one float32 position is a change of the point, read from the log")
    func subFloatMove() throws {
        var index = try LiveClusterIndex<String>()
        let here = Coordinate(latitude: 10, longitude: 20)
        try index.apply([
            .insert("a", here), .insert("far", Coordinate(latitude: -40, longitude: -70)),
        ])
        let before = index.snapshot
        try index.move("a", to: Coordinate(latitude: 10, longitude: 20.000_000_000_1))
        let logged = index.snapshot.diffsFromLogs(since: before)
        #expect(logged)
        let d = LiveClusterSnapshot.diff(from: before, to: index.snapshot, in: .world, zoom: 20)
        #expect(d.changed.count == 1)
        #expect(d.changed.first?.new.point?.coordinate.longitude == 20.000_000_000_1)
        _ = Self.check(from: before, to: index.snapshot, views: [.world], context: "sub-float")
    }
}
