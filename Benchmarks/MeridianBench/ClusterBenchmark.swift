import CBaselines
import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport

/// `meridian-bench cluster`: building a ``ClusterIndex`` (every level and search tree) and querying
/// it, against supercluster 8.0.1 itself (Node, in the same run, runs interleaved with ours) and a
/// faithful Swift port of supercluster's algorithm (one search-tree query per record).
///
/// Options:
/// - `--generate uniform|clustered|pile|dense` (default `uniform`) with `--n N` (default 1,000,000)
///   and `--seed S` (default 42): gen_points.py's workloads (`--centers C` for clustered), every
///   point at one coordinate, or points uniform in a 100 m box. Or `--input FILE` (`lon,lat` CSV or
///   GeoJSON points).
/// - `--runs R` (default 5): builds of ours on `--threads T` threads (default 2) and on one.
/// - `--peer-runs P` (default 3, 0 skips it): supercluster runs, interleaved with ours; the peer is
///   looked for in `--peers DIR` (default `../shared/peers`) and run with `node`.
/// - `--baseline-runs B` (default 1, 0 skips it): runs of the Swift port.
/// - `--max-zoom M`, `--radius R`, `--extent E`, `--min-points P`; `--build-only` (builds only).
/// - `--timeline FILE`: the median build's spans as tab-separated lines (start and length in ms
///   from the first span, phase, zoom, lane, CPU ms), to see where a core idles.
/// - `--live`: the live index instead (see ``LiveClusterBenchmark``).
enum ClusterBenchmark {
    /// supercluster's runner queries this box (web-mercator's latitude limit, rounded).
    static let worldBox = (west: -180.0, south: -85.0, east: 180.0, north: 85.0)

    static func run(_ options: [String: String]) {
        if options["live"] != nil {
            LiveClusterBenchmark.run(options)
            return
        }
        let runs = max(1, Int(options["runs"] ?? "") ?? 5)
        let peerRuns = max(0, Int(options["peer-runs"] ?? "") ?? 3)
        let baselineRuns = max(0, Int(options["baseline-runs"] ?? "") ?? 1)
        let threads = max(1, Int(options["threads"] ?? "") ?? 2)
        var clusterOptions = ClusterOptions()
        if let v = Int(options["max-zoom"] ?? "") { clusterOptions.maxZoom = v }
        if let v = Double(options["radius"] ?? "") { clusterOptions.radius = v }
        if let v = Double(options["extent"] ?? "") { clusterOptions.extent = v }
        if let v = Int(options["min-points"] ?? "") { clusterOptions.minPoints = v }
        let (points, workload) = loadWorkload(options)
        let buildOnly = options["build-only"] != nil
        let peer = buildOnly ? nil : Supercluster.find(options["peers"])

        // Builds: ours on T threads and on one, and the peer, interleaved so that a slow spell of
        // the machine hits both.
        var peerInput: URL?
        if let peer, peerRuns > 0 {
            peerInput = try? Supercluster.writeInput(points)
            if peerInput == nil { FileHandle.standardError.write(Data("peer input failed\n".utf8)) }
            _ = peer
        }
        defer { if let peerInput { try? FileManager.default.removeItem(at: peerInput) } }
        let build = ClusterBuildOptions(maximumThreads: threads)
        let single = ClusterBuildOptions(maximumThreads: 1)
        func makeIndex(_ b: ClusterBuildOptions) -> ClusterIndex<Coordinate>? {
            try? ClusterIndex(points, options: clusterOptions, build: b)
        }
        var buildTimes = [Double](), singleTimes = [Double](), buildCPU = [Double]()
        var buildRSS = [Double](), profiles = [ClusterBuildProfile]()
        var peerResults = [Supercluster.Result]()
        var peerFailure: String?
        var kept: ClusterIndex<Coordinate>?
        let rssBefore = Bench.currentRSS()
        for round in 0..<max(runs, peerRuns) {
            if round < runs {
                kept = nil
                let canReset = resetPeakRSS()
                let cpu = processCPUTime()
                let start = Bench.now()
                kept = makeIndex(build)
                buildTimes.append(Double(Bench.now() - start))
                buildCPU.append(processCPUTime() - cpu)
                if canReset { buildRSS.append(Double(Bench.peakRSS())) }
                if let kept { profiles.append(kept.buildProfile) }
                let singleStart = Bench.now()
                _ = makeIndex(single)
                singleTimes.append(Double(Bench.now() - singleStart))
            }
            if round < peerRuns, let peer, let peerInput {
                do {
                    peerResults.append(
                        try peer.run(input: peerInput, options: clusterOptions, queryRepeats: 3))
                } catch {
                    peerFailure = "\(error)"
                }
            }
        }
        guard let index = kept else {
            FileHandle.standardError.write(Data("meridian-bench cluster: invalid options\n".utf8))
            exit(64)
        }
        var result: [String: JSONValue] = [
            "schema": "meridian-bench/2",
            "name": "cluster",
            "n": .integer(points.count),
            "iterations": .integer(runs),
            "workload": .string(workload),
            "options": [
                "radius": .number(clusterOptions.radius), "extent": .number(clusterOptions.extent),
                "min_zoom": .integer(clusterOptions.minZoom),
                "max_zoom": .integer(clusterOptions.maxZoom),
                "min_points": .integer(clusterOptions.minPoints),
                "node_size": .integer(clusterOptions.nodeSize),
            ],
            "threads": .integer(threads),
            "build": Bench.summary(buildTimes),
            "build_cpu": Bench.summary(buildCPU),
            "build_single_thread": Bench.summary(singleTimes),
            "peak_rss_build": Bench.summary(buildRSS),
            "rss_before_build": .integer(rssBefore),
            "largest_pair_count": .integer(profiles.last?.largestPairCount ?? 0),
        ]
        let profile = profiles.sorted { $0.nanoseconds < $1.nanoseconds }[profiles.count / 2]
        result["profile"] = Profile.summary(profile, points: points.count)
        if let path = options["timeline"] { Profile.writeTimeline(profile, to: path) }
        if buildOnly {
            Bench.emit(result)
            return
        }

        // World queries, as supercluster's runner makes them, and the z8 query three ways.
        let world = worldBox
        var zooms = [JSONValue]()
        var ourFeatures = [Int]()
        for zoom in 0...(clusterOptions.maxZoom + 1) {
            var features = [ClusterFeature<Coordinate>]()
            let times = Bench.measure(runs: 5) {
                features = index.clusters(
                    west: world.west, south: world.south, east: world.east, north: world.north,
                    zoom: Double(zoom))
            }
            var clusters = 0, sum = 0
            for f in features {
                if f.cluster != nil { clusters += 1 }
                sum += f.pointCount
            }
            ourFeatures.append(features.count)
            zooms.append([
                "z": .integer(zoom), "features": .integer(features.count),
                "clusters": .integer(clusters), "sum_point_count": .integer(sum),
                "query": Bench.summary(times),
            ])
        }
        result["zooms"] = .array(zooms)
        result["query_z8"] = queryZ8(index)

        // The peer's figures and ours side by side.
        if let peerFailure, peerResults.isEmpty {
            result["supercluster"] = ["ran": false, "reason": .string(peerFailure)]
        } else if peerResults.isEmpty {
            result["supercluster"] = [
                "ran": false,
                "reason": .string(
                    peer == nil
                        ? "node or the supercluster peer was not found (--peers DIR)"
                        : "--peer-runs 0"),
            ]
        } else {
            result["supercluster"] = Supercluster.summary(
                peerResults, ours: (buildTimes, singleTimes, buildRSS, ourFeatures),
                ourZ8: zooms.count > 8 ? zooms[8] : .null)
        }

        // The faithful Swift port of supercluster's algorithm, on one thread.
        if baselineRuns > 0 {
            var reference: ClusterIndex<Coordinate>?
            let times = Bench.measure(runs: baselineRuns, warmUp: false) {
                reference = nil
                reference = makeIndex(
                    ClusterBuildOptions(maximumThreads: 1, neighborSearch: .treeQueries))
            }
            let matches = reference.map { reference in
                (0...(clusterOptions.maxZoom + 1)).allSatisfy { zoom in
                    reference.clusters(
                        west: world.west, south: world.south, east: world.east, north: world.north,
                        zoom: Double(zoom))
                        == index.clusters(
                            west: world.west, south: world.south, east: world.east,
                            north: world.north, zoom: Double(zoom))
                }
            }
            result["swift_port"] = [
                "name": "supercluster's algorithm in Swift, one KD-tree query per record, 1 thread",
                "build": Bench.summary(times),
                "speedup": .number(Bench.median(times) / Bench.median(buildTimes)),
                "every_zoom_identical": .bool(matches ?? false),
            ]
        }
        result["memory_bandwidth"] = Profile.bandwidth()
        Bench.emit(result)
    }

    /// The points of `--generate` or `--input`, and a description.
    static func loadWorkload(_ options: [String: String]) -> ([Coordinate], String) {
        if let path = options["input"] {
            guard let data = FileManager.default.contents(atPath: path),
                let features = try? PointFeature.read(data)
            else {
                FileHandle.standardError.write(
                    Data("meridian-bench cluster: cannot read points from '\(path)'\n".utf8))
                exit(1)
            }
            let points = features.map {
                $0.coordinate ?? Coordinate(latitude: .nan, longitude: .nan)
            }
            return (points, "\(points.count) points from \(path)")
        }
        let kind = options["generate"] ?? "uniform"
        let n = Int(options["n"] ?? "") ?? 1_000_000
        let seed = UInt64(options["seed"] ?? "") ?? 42
        switch kind {
        case "uniform":
            return (
                SyntheticPoints.coordinates(.uniform, count: n, seed: seed),
                "gen_points.py --kind uniform --n \(n) --seed \(seed)"
            )
        case "clustered":
            let centers = Int(options["centers"] ?? "") ?? 3000
            return (
                SyntheticPoints.coordinates(.clustered(centers: centers), count: n, seed: seed),
                "gen_points.py --kind clustered --n \(n) --seed \(seed)"
                    + (options["centers"].map { " --centers \($0)" } ?? "")
            )
        case "pile":
            return (AdversarialPoints.pile(count: n), "\(n) points at one coordinate")
        case "dense":
            return (
                AdversarialPoints.denseBox(count: n, seed: seed),
                "\(n) points uniform in a 100 m box (seed \(seed))"
            )
        default:
            FileHandle.standardError.write(
                Data("meridian-bench cluster: --generate uniform|clustered|pile|dense\n".utf8))
            exit(64)
        }
    }

    /// The world query at zoom 8 as an array, as a lazy collection, and streamed; each read once
    /// (every feature's point count summed), as a server that serializes the result reads it.
    static func queryZ8(_ index: ClusterIndex<Coordinate>) -> JSONValue {
        let world = worldBox
        var count = 0
        var total = 0
        let array = Bench.measure(runs: 7) {
            let features = index.clusters(
                west: world.west, south: world.south, east: world.east, north: world.north, zoom: 8)
            count = features.count
            total = 0
            for feature in features { total &+= feature.pointCount }
        }
        let lazy = Bench.measure(runs: 7) {
            total = 0
            for feature in index.features(
                west: world.west, south: world.south, east: world.east, north: world.north, zoom: 8)
            {
                total &+= feature.pointCount
            }
        }
        let streamed = Bench.measure(runs: 7) {
            total = 0
            index.forEachFeature(
                west: world.west, south: world.south, east: world.east, north: world.north, zoom: 8
            ) { total &+= $0.pointCount }
        }
        return [
            "features": .integer(count),
            "array_read_once": Bench.summary(array),
            "lazy_collection_read_once": Bench.summary(lazy),
            "streamed": Bench.summary(streamed),
        ]
    }
}

/// Inputs that defeat an index built for spread-out points.
enum AdversarialPoints {
    /// The Eiffel Tower, where the piles are.
    static let center = Coordinate(latitude: 48.858_37, longitude: 2.294_48)

    /// `count` check-ins at one coordinate.
    static func pile(count: Int) -> [Coordinate] {
        [Coordinate](repeating: center, count: count)
    }

    /// `count` points drawn uniformly in a 100 m × 100 m box around ``center``.
    static func denseBox(count: Int, seed: UInt64) -> [Coordinate] {
        var rng = SplitMix64(seed: seed)
        let halfLatitude = 50 / 111_132.954
        let halfLongitude = halfLatitude / cos(center.latitude * .pi / 180)
        return (0..<count).map { _ in
            Coordinate(
                latitude: center.latitude + rng.uniform(-halfLatitude, halfLatitude),
                longitude: center.longitude + rng.uniform(-halfLongitude, halfLongitude))
        }
    }
}

/// Resets the kernel's peak-RSS mark (`VmHWM`) to the current RSS, so that the next reading is the
/// peak of what follows; `false` where that is not possible.
func resetPeakRSS() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
}

/// User plus system CPU time of the whole process so far, in nanoseconds: unlike wall time it does not
/// grow while other processes hold the cores.
func processCPUTime() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    let user = Double(usage.ru_utime.tv_sec) * 1e9 + Double(usage.ru_utime.tv_usec) * 1e3
    let system = Double(usage.ru_stime.tv_sec) * 1e9 + Double(usage.ru_stime.tv_usec) * 1e3
    return user + system
}
