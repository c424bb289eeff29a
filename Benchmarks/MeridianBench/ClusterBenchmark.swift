import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport

/// `meridian-bench cluster`: building a ``ClusterIndex`` (every level and search tree) and querying
/// it, against a faithful supercluster port (one search-tree query per record) in the same run.
///
/// Options: `--generate uniform|clustered --n N --seed S [--centers C]` (the gen_points.py port) or
/// `--input FILE` (`lon,lat` CSV or GeoJSON points); `--runs R` (default 5); `--baseline-runs B`
/// (default 1, 0 skips it); `--threads T` (default 2); `--max-zoom M`, `--radius R`, `--extent E`,
/// `--min-points P`; `--build-only` (times the builds and nothing else).
enum ClusterBenchmark {
    /// supercluster 8.0.1 on Node 20 on this machine class (the figures), in seconds, for the
    /// standard workloads.
    static let superclusterSeconds: [String: Double] = [
        "uniform 1000000 42": 9.9, "clustered 1000000 42": 6.3,
    ]

    static func run(_ options: [String: String]) {
        let runs = max(1, Int(options["runs"] ?? "") ?? 5)
        let baselineRuns = max(0, Int(options["baseline-runs"] ?? "") ?? 1)
        let threads = max(1, Int(options["threads"] ?? "") ?? 2)
        var clusterOptions = ClusterOptions()
        if let v = Int(options["max-zoom"] ?? "") { clusterOptions.maxZoom = v }
        if let v = Double(options["radius"] ?? "") { clusterOptions.radius = v }
        if let v = Double(options["extent"] ?? "") { clusterOptions.extent = v }
        if let v = Int(options["min-points"] ?? "") { clusterOptions.minPoints = v }

        // Workload.
        let workload: String
        let points: [Coordinate]
        var referenceKey = ""
        if let path = options["input"] {
            guard let data = FileManager.default.contents(atPath: path),
                let features = try? PointFeature.read(data)
            else {
                FileHandle.standardError.write(
                    Data("meridian-bench cluster: cannot read points from '\(path)'\n".utf8))
                exit(1)
            }
            points = features.map { $0.coordinate ?? Coordinate(latitude: .nan, longitude: .nan) }
            workload = "\(points.count) points from \(path)"
        } else {
            let kindName = options["generate"] ?? "uniform"
            let n = Int(options["n"] ?? "") ?? 1_000_000
            let seed = UInt64(options["seed"] ?? "") ?? 42
            let kind: SyntheticPoints.Kind
            switch kindName {
            case "uniform": kind = .uniform
            case "clustered": kind = .clustered(centers: Int(options["centers"] ?? "") ?? 3000)
            default:
                FileHandle.standardError.write(
                    Data("meridian-bench cluster: --generate uniform|clustered\n".utf8))
                exit(64)
            }
            points = SyntheticPoints.coordinates(kind, count: n, seed: seed)
            workload = "gen_points.py --kind \(kindName) --n \(n) --seed \(seed)"
            if options["centers"] == nil { referenceKey = "\(kindName) \(n) \(seed)" }
        }
        let inputRSS = Bench.peakRSS()

        // The index build, as used (both cores) and on one core.
        let build = ClusterBuildOptions(maximumThreads: threads)
        let single = ClusterBuildOptions(maximumThreads: 1)
        func makeIndex(_ b: ClusterBuildOptions) -> ClusterIndex<Coordinate>? {
            try? ClusterIndex(points, options: clusterOptions, build: b)
        }
        var kept: ClusterIndex<Coordinate>?
        var buildCPU = [Double]()
        // Peak RSS of the first build in this process (later builds also see what the allocator
        // kept from the ones before).
        var buildRSS = -1
        let buildTimes = Bench.measure(runs: runs, warmUp: false) {
            kept = nil
            let canReset = buildRSS < 0 && resetPeakRSS()
            let cpu = processCPUTime()
            kept = makeIndex(build)
            buildCPU.append(processCPUTime() - cpu)
            if buildRSS < 0 { buildRSS = canReset ? Bench.peakRSS() : 0 }
        }
        guard let index = kept else {
            FileHandle.standardError.write(Data("meridian-bench cluster: invalid options\n".utf8))
            exit(64)
        }
        let singleTimes = Bench.measure(runs: runs, warmUp: false) { _ = makeIndex(single) }
        if options["build-only"] != nil {
            Bench.emit([
                "name": "cluster", "build": Bench.summary(buildTimes),
                "build_cpu": Bench.summary(buildCPU),
                "build_single_core": Bench.summary(singleTimes),
            ])
            return
        }

        // World queries.
        var queries = [String: JSONValue]()
        for zoom in [0, 4, 8, 12, 16] {
            var count = 0
            let times = Bench.measure(runs: max(5, runs)) {
                count =
                    index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
                    .count
            }
            var summary = Bench.summary(times)
            if case .object(var object) = summary {
                object["features"] = .integer(count)
                summary = .object(object)
            }
            queries["z\(zoom)"] = summary
        }

        // Per-zoom counts.
        func counts(_ index: ClusterIndex<Coordinate>) -> [JSONValue] {
            (0...(clusterOptions.maxZoom + 1)).map { zoom in
                let features = index.clusters(
                    west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
                var clusters = 0, sum = 0
                for f in features {
                    if f.cluster != nil { clusters += 1 }
                    sum += f.pointCount
                }
                return [
                    "z": .integer(zoom), "features": .integer(features.count),
                    "clusters": .integer(clusters),
                    "sum_point_count": .integer(sum),
                ]
            }
        }
        let ours = counts(index)

        // Baseline: a faithful supercluster port, one tree query per record, one thread.
        var baseline: JSONValue = .null
        if baselineRuns > 0 {
            var reference: ClusterIndex<Coordinate>?
            let times = Bench.measure(runs: baselineRuns, warmUp: false) {
                reference = nil
                reference = makeIndex(
                    ClusterBuildOptions(maximumThreads: 1, neighborSearch: .treeQueries))
            }
            let matches = reference.map { counts($0) == ours } ?? false
            baseline = [
                "name": "supercluster port, one KD-tree query per record, 1 thread",
                "build": Bench.summary(times),
                "speedup": .number(Bench.median(times) / Bench.median(buildTimes)),
                "per_zoom_counts_equal": .bool(matches),
            ]
        }

        var result: [String: JSONValue] = [
            "schema": "meridian-bench/1",
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
            "build_single_core": Bench.summary(singleTimes),
            "median_ns": .number(Bench.median(buildTimes)),
            "query_world": .object(queries),
            "zooms": .array(ours),
            "baseline": baseline,
            "peak_rss": .integer(Bench.peakRSS()),
            "peak_rss_after_input": .integer(inputRSS),
            "peak_rss_during_build": .integer(buildRSS),
        ]
        if let seconds = superclusterSeconds[referenceKey] {
            result["supercluster_8_0_1_node20_seconds"] = .number(seconds)
            result["speedup_vs_supercluster"] = .number(seconds * 1e9 / Bench.median(buildTimes))
            result["target_speedup"] = 10
        }
        Bench.emit(result)
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
