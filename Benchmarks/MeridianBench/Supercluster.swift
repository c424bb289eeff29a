import Foundation
import GeoCluster
import GeoCore

/// supercluster 8.0.1 itself, run by Node from the peers directory: the peer the cluster build is
/// measured against in the same run. Its runner times `load` (without parsing) and the world query
/// at every zoom, and reports its peak RSS.
struct Supercluster {
    let node: String
    let runner: String
    let library: String

    /// The peer, when Node and `DIR/supercluster/` (default `../shared/peers`) are there.
    static func find(_ directory: String?) -> Supercluster? {
        let base = directory ?? "../shared/peers"
        let runner = base + "/supercluster/run_supercluster.mjs"
        let library = base + "/supercluster/index.js"
        let manager = FileManager.default
        guard manager.fileExists(atPath: runner), manager.fileExists(atPath: library) else {
            return nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin"
        for folder in path.split(separator: ":") {
            let node = "\(folder)/node"
            if manager.isExecutableFile(atPath: node) {
                return Supercluster(node: node, runner: runner, library: library)
            }
        }
        return nil
    }

    /// Writes points as the runner's `.f64` input: little-endian float64 longitude, latitude pairs.
    static func writeInput(_ points: [Coordinate]) throws -> URL {
        var data = Data(capacity: points.count * 16)
        for point in points {
            withUnsafeBytes(of: point.longitude.bitPattern.littleEndian) {
                data.append(contentsOf: $0)
            }
            withUnsafeBytes(of: point.latitude.bitPattern.littleEndian) {
                data.append(contentsOf: $0)
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "meridian-bench-\(getpid()).lonlat.f64")
        try data.write(to: url)
        return url
    }

    /// One run of the peer.
    struct Result {
        /// `load` wall time.
        var loadNanoseconds: Double
        /// Peak RSS of the Node process, and before `load` (the features already built).
        var peakRSS: Double
        var peakRSSBeforeLoad: Double
        /// World-query feature counts and median times per zoom, from zoom 0.
        var features: [Int]
        var queryNanoseconds: [Double]
        var nodeVersion: String
    }

    /// A failed run.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the peer once over an input file.
    func run(input: URL, options: ClusterOptions, queryRepeats: Int) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = [
            "--expose-gc", runner, "--lib", library, "--input", input.path,
            "--radius", "\(options.radius)", "--extent", "\(options.extent)",
            "--minZoom", "\(options.minZoom)", "--maxZoom", "\(options.maxZoom)",
            "--minPoints", "\(options.minPoints)", "--nodeSize", "\(options.nodeSize)",
            "--queryRepeats", "\(queryRepeats)", "--props", "none",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let json = try? JSONDecoder().decode(JSONValue.self, from: data),
            let load = json["load_ms"]?.doubleValue,
            let memory = json["mem"], let peak = memory["peak_rss_mb"]?.doubleValue,
            let zooms = json["zooms"]?.arrayValue
        else {
            throw Failure(description: "supercluster's runner exited \(process.terminationStatus)")
        }
        return Result(
            loadNanoseconds: load * 1e6, peakRSS: peak * 1_048_576,
            peakRSSBeforeLoad: (memory["peak_rss_before_load_mb"]?.doubleValue ?? 0) * 1_048_576,
            features: zooms.map { $0["features"]?.intValue ?? -1 },
            queryNanoseconds: zooms.map { ($0["ms_median"]?.doubleValue ?? .nan) * 1e6 },
            nodeVersion: json["node"]?.stringValue ?? "?")
    }

    /// The peer's figures beside ours: build medians and ratios (on T threads and on one), peak
    /// RSS, the z8 world query, and whether every zoom's feature count agrees.
    static func summary(
        _ runs: [Result], ours: (build: [Double], single: [Double], rss: [Double], features: [Int]),
        ourZ8: JSONValue
    ) -> JSONValue {
        let load = Bench.median(runs.map(\.loadNanoseconds))
        let z8 = Bench.median(
            runs.compactMap { $0.queryNanoseconds.count > 8 ? $0.queryNanoseconds[8] : nil })
        let ourZ8Median = ourZ8["query"]?["median_ns"]?.doubleValue ?? .nan
        let peerFeatures = runs.first?.features ?? []
        let common = min(peerFeatures.count, ours.features.count)
        return [
            "ran": true,
            "runs": .integer(runs.count),
            "node": .string(runs.first?.nodeVersion ?? "?"),
            "load": Bench.summary(runs.map(\.loadNanoseconds)),
            "peak_rss": .number(Bench.median(runs.map(\.peakRSS))),
            "peak_rss_before_load": .number(Bench.median(runs.map(\.peakRSSBeforeLoad))),
            "z8_query_median_ns": .number(z8),
            "speedup_build": .number(load / Bench.median(ours.build)),
            "speedup_build_single_thread": .number(load / Bench.median(ours.single)),
            "speedup_z8_query": .number(z8 / ourZ8Median),
            "rss_ratio": .number(Bench.median(runs.map(\.peakRSS)) / Bench.median(ours.rss)),
            "zoom_feature_counts_equal": .bool(
                common > 0 && Array(peerFeatures[..<common]) == Array(ours.features[..<common])),
        ]
    }
}
