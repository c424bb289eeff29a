import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport

/// `meridian-bench cluster --live`: what keeping a ``LiveClusterIndex`` up to date costs, measured
/// in the same run as the full rebuild it replaces (a ``ClusterIndex`` over the same points).
///
/// Options: `--generate uniform|clustered` (default: both), `--n N` (default 1,000,000),
/// `--seed S` (default 42), `--runs R` (default 3) rebuilds, `--ops K` (default 300) single
/// changes of each kind, `--ticks T` (default 5) ticks of `--tick-size M` (default 10,000) moves.
enum LiveClusterBenchmark {
    static func run(_ options: [String: String]) {
        let kinds = options["generate"].map { [$0] } ?? ["uniform", "clustered"]
        var results = [JSONValue]()
        for kind in kinds {
            var o = options
            o["generate"] = kind
            results.append(.object(measure(o)))
        }
        Bench.emit([
            "schema": "meridian-bench/2", "name": "cluster-live", "workloads": .array(results),
        ])
    }

    /// A city-sized view (about 20 km square) around a coordinate.
    static func view(around c: Coordinate) -> BoundingBox {
        let dLat = 0.09, dLon = 0.09 / max(0.2, cos(c.latitude * .pi / 180))
        return BoundingBox(
            west: max(-180, c.longitude - dLon), south: max(-85, c.latitude - dLat),
            east: min(180, c.longitude + dLon), north: min(85, c.latitude + dLat))
    }

    /// A short hop of up to about 100 m from a coordinate, as a vehicle makes between two ticks.
    static func hop(_ c: Coordinate, _ rng: inout SplitMix64) -> Coordinate {
        Coordinate(
            latitude: max(-85, min(85, c.latitude + (rng.nextUnit() - 0.5) * 0.0018)),
            longitude: max(-180, min(180, c.longitude + (rng.nextUnit() - 0.5) * 0.0018)))
    }

    static func measure(_ options: [String: String]) -> [String: JSONValue] {
        let runs = max(1, Int(options["runs"] ?? "") ?? 3)
        let ops = max(1, Int(options["ops"] ?? "") ?? 300)
        let ticks = max(1, Int(options["ticks"] ?? "") ?? 5)
        let tickSize = max(1, Int(options["tick-size"] ?? "") ?? 10_000)
        let (points, workload) = ClusterBenchmark.loadWorkload(options)
        let seed = UInt64(options["seed"] ?? "") ?? 42
        let kind = options["generate"] ?? "uniform"
        // Fresh points from the same distribution, for inserts and moves.
        let freshCount = 2 * ops + 2 * tickSize
        let fresh =
            kind == "clustered"
            ? SyntheticPoints.coordinates(
                .clustered(centers: 3000), count: freshCount, seed: seed + 1)
            : SyntheticPoints.coordinates(.uniform, count: freshCount, seed: seed + 1)
        let clusterOptions = ClusterOptions()

        // The rebuild the live index replaces, in supercluster's and in insertion member order.
        var rebuild = [Double](), rebuildRSS = [Double](), exactRebuild = [Double]()
        var staticWorldQuery = [Double]()
        for _ in 0..<runs {
            let canReset = resetPeakRSS()
            var start = Bench.now()
            var index = try? ClusterIndex(points, options: clusterOptions)
            rebuild.append(Double(Bench.now() - start))
            if canReset { rebuildRSS.append(Double(Bench.peakRSS())) }
            index = nil
            start = Bench.now()
            index = try? ClusterIndex(points, options: ClusterOptions(memberOrder: .insertion))
            exactRebuild.append(Double(Bench.now() - start))
            if let index, staticWorldQuery.isEmpty {
                // The static index's world query at zoom 10, the baseline of the live one's.
                staticWorldQuery = Bench.measure(runs: 3) {
                    _ = index.clusters(in: BoundingBox.world, zoom: 10)
                }
            }
        }
        let rebuildMedian = Bench.median(rebuild)

        // The live index, loaded at once.
        let rssBefore = Bench.currentRSS()
        let canReset = resetPeakRSS()
        let start = Bench.now()
        guard
            var live = try? LiveClusterIndex<Int>(
                Array(points.indices), options: clusterOptions, key: { $0 },
                coordinate: { points[$0] })
        else {
            FileHandle.standardError.write(
                Data("meridian-bench cluster --live: load failed\n".utf8))
            exit(1)
        }
        let load = Double(Bench.now() - start)
        let loadPeak = canReset ? Bench.peakRSS() : 0
        let liveRSS = Bench.currentRSS() - rssBefore

        // Single changes, one call each: inserts, moves (short hops and across the map), removes.
        var rng = SplitMix64(seed: seed &+ 7)
        var nextKey = points.count
        func timed(_ body: () throws -> Void) -> Double {
            let t = Bench.now()
            try? body()
            return Double(Bench.now() - t)
        }
        var insert = [Double](), remove = [Double](), moveHop = [Double](), moveFar = [Double]()
        for i in 0..<ops {
            insert.append(timed { try live.insert(nextKey, at: fresh[i]) })
            nextKey += 1
            let k = Int(rng.next() % UInt64(points.count))
            let c = live.coordinate(of: k) ?? points[k]
            moveHop.append(timed { try live.move(k, to: hop(c, &rng)) })
            let far = Int(rng.next() % UInt64(points.count))
            moveFar.append(timed { try live.move(far, to: fresh[ops + i]) })
            let gone = Int(rng.next() % UInt64(points.count))
            if live.contains(gone) { remove.append(timed { try live.remove(gone) }) }
        }
        // The same with a snapshot taken before each change (a reader holding the old state).
        var withSnapshot = [Double]()
        for i in 0..<ops {
            let held = live.snapshot
            let k = Int(rng.next() % UInt64(points.count))
            let c = live.coordinate(of: k) ?? fresh[ops + i]
            withSnapshot.append(timed { try live.move(k, to: hop(c, &rng)) })
            _ = held.count
        }

        // Ticks: a fleet of `tickSize` vehicles each hops, in one batch; and the diff of a
        // city-sized view around a vehicle at zooms 10 to 14.
        let fleet = (0..<tickSize).map { _ in Int(rng.next() % UInt64(points.count)) }
        let uniqueFleet = Array(Set(fleet)).sorted().filter { live.contains($0) }
        var tickTimes = [Double](), diffTimes = [Int: [Double]](), diffSizes = [Int: [Int]]()
        // The view: a city around the largest cluster at zoom 10, where most happens.
        // A world query at zoom 10 (about a million features on uniform data), timed.
        // The features are let go before the ticks, so that the memory measured after them is the
        // index's alone (a million features take about 70 MB).
        let (worldQuery, worldFeatures, center): ([Double], Int, Coordinate) = {
            var world = [ClusterFeature<Int>]()
            let times = Bench.measure(runs: 3) {
                world = live.snapshot.clusters(in: BoundingBox.world, zoom: 10)
            }
            let biggest = world.max { $0.pointCount < $1.pointCount }
            return (times, world.count, biggest?.coordinate ?? points[0])
        }()
        let city = view(around: center)
        for _ in 0..<ticks {
            let before = live.snapshot
            let changes = uniqueFleet.map { k -> LiveClusterChange<Int> in
                .move(k, hop(live.coordinate(of: k) ?? center, &rng))
            }
            tickTimes.append(timed { try live.apply(changes) })
            let after = live.snapshot
            for zoom in 10...14 {
                var size = 0
                let times = Bench.measure(runs: 9) {
                    let d = LiveClusterSnapshot.diff(
                        from: before, to: after, in: city, zoom: Double(zoom))
                    size = d.appeared.count + d.disappeared.count + d.changed.count
                }
                diffTimes[zoom, default: []] += times
                diffSizes[zoom, default: []].append(size)
            }
        }
        var teleportTick = [Double]()
        for round in 0..<2 {
            // Each vehicle to a new place of the workload's distribution.
            let changes = uniqueFleet.enumerated().map { i, k -> LiveClusterChange<Int> in
                .move(k, fresh[2 * ops + (i + round * uniqueFleet.count) % (2 * tickSize)])
            }
            teleportTick.append(timed { try live.apply(changes) })
        }
        let viewFeatures = (10...14).map { zoom in
            live.snapshot.clusters(in: city, zoom: Double(zoom)).count
        }
        // What the index holds once its pages have taken the ticks' changes (snapshots let go).
        let rssAfterTicks = Bench.currentRSS() - rssBefore

        func ratio(_ samples: [Double]) -> JSONValue {
            .number(rebuildMedian / Bench.median(samples))
        }
        return [
            "workload": .string(workload), "n": .integer(points.count),
            "rebuild": Bench.summary(rebuild),
            "rebuild_insertion_order": Bench.summary(exactRebuild),
            "rebuild_peak_rss": Bench.summary(rebuildRSS),
            "live_load": Bench.summary([load]),
            "live_load_peak_rss": .integer(loadPeak),
            "live_rss": .integer(liveRSS),
            "live_rss_vs_rebuild_peak": .number(Double(liveRSS) / Bench.median(rebuildRSS)),
            "live_rss_after_ticks": .integer(rssAfterTicks),
            "insert": Bench.summary(insert), "remove": Bench.summary(remove),
            "move_hop": Bench.summary(moveHop), "move_far": Bench.summary(moveFar),
            "move_hop_after_snapshot": Bench.summary(withSnapshot),
            "world_query_z10": [
                "features": .integer(worldFeatures), "time": Bench.summary(worldQuery),
                "static_index_time": Bench.summary(staticWorldQuery),
            ],
            "rebuild_vs_insert": ratio(insert), "rebuild_vs_remove": ratio(remove),
            "rebuild_vs_move_hop": ratio(moveHop), "rebuild_vs_move_far": ratio(moveFar),
            "tick": [
                "moves": .integer(uniqueFleet.count), "hop": Bench.summary(tickTimes),
                "share_of_rebuild": .number(Bench.median(tickTimes) / rebuildMedian),
                "teleport": Bench.summary(teleportTick),
                "teleport_share_of_rebuild": .number(Bench.median(teleportTick) / rebuildMedian),
            ],
            "diff": .array(
                (10...14).map { zoom in
                    [
                        "z": .integer(zoom), "view": .string("\(city)"),
                        "view_features": .integer(viewFeatures[zoom - 10]),
                        "changes": .integer(diffSizes[zoom]?.sorted()[ticks / 2] ?? 0),
                        "time": Bench.summary(diffTimes[zoom] ?? []),
                    ]
                }),
        ]
    }
}
