import CBaselines
import Foundation
import GeoCore
import GeoFence
import GeoTestSupport

/// `meridian-bench fence`: how many of 1,000,000 points lie in which of 100,000 circular fences,
/// exactly on the WGS84 ellipsoid, with `GeofenceIndex`.
///
/// Options:
/// - `--generate uniform|clustered|world` (default `uniform`): seeded workloads. `uniform`: fence
///   centers and points uniform in a 1,000 km × 1,000 km latitude/longitude box round `--center`
///   (default `46,8`), radii log-uniform in 50–5,000 m. `clustered`: 100 city centers uniform in the
///   box; fences and points round a random city at a normal offset (σ 5 km for fences, 8 km for
///   points), so fences overlap heavily. `world`: centers and points uniform over the sphere's area,
///   poles and the 180th meridian included.
/// - `--fences FILE` (CSV `latitude,longitude,radius_m`, header optional) and `--points FILE` (CSV
///   `latitude,longitude`) instead of a generator.
/// - `--fence-count N`, `--point-count N`, `--seed S`, `--runs R` (default 7), `--threads T`
///   (default: all cores), `--brute N` (points of the brute-force baseline, default 40),
///   `--verify yes|no` (the full exact oracle, default yes), `--updates N` (location updates of the
///   per-device evaluation, default 200,000: 2,000 devices on random walks from random points, steps
///   of 0–200 m every 10–60 s, accuracy 0–30 m).
enum FenceBenchmark {
    struct Workload {
        var description: String
        var fenceLatitudes: [Double] = []
        var fenceLongitudes: [Double] = []
        var radii: [Double] = []
        var latitudes: [Double] = []
        var longitudes: [Double] = []
    }

    static func run(_ options: [String: String]) {
        let runs = max(1, Int(options["runs"] ?? "") ?? 7)
        let threads = max(
            1, Int(options["threads"] ?? "") ?? ProcessInfo.processInfo.activeProcessorCount)
        let bruteCount = max(0, Int(options["brute"] ?? "") ?? 40)
        let verify = (options["verify"] ?? "yes") != "no"
        let workload: Workload
        do {
            workload = try load(options)
        } catch {
            FileHandle.standardError.write(Data("meridian-bench fence: \(error)\n".utf8))
            exit(1)
        }
        let circles: [CircularGeographicCondition]
        do {
            circles = try (0..<workload.radii.count).map { i throws(GeoError) in
                try CircularGeographicCondition(
                    center: Coordinate(
                        latitude: workload.fenceLatitudes[i], longitude: workload.fenceLongitudes[i]
                    ),
                    radius: workload.radii[i])
            }
        } catch {
            FileHandle.standardError.write(
                Data("meridian-bench fence: fence: \(error.message)\n".utf8))
            exit(1)
        }

        // Build, then query on one thread and on all, each the median of `runs`.
        var index: GeofenceIndex?
        let buildTimes = Bench.measure(runs: runs, warmUp: false) {
            index = try? GeofenceIndex(circles: circles)
        }
        guard let index else {
            FileHandle.standardError.write(
                Data("meridian-bench fence: the index could not be built\n".utf8))
            exit(1)
        }
        var stats = ContainmentStatistics()
        let single = Bench.measure(runs: runs) {
            stats =
                (try? index.containmentStatistics(
                    latitudes: workload.latitudes, longitudes: workload.longitudes)) ?? stats
        }
        var parallelStats = ContainmentStatistics()
        let parallel = Bench.measure(runs: runs) {
            parallelStats =
                (try? index.containmentStatistics(
                    latitudes: workload.latitudes, longitudes: workload.longitudes, threads: threads
                )) ?? parallelStats
        }

        // Per-device evaluation: devices walking from the first points, one batch.
        let updateCount = max(0, Int(options["updates"] ?? "") ?? 200_000)
        let updates = walks(updateCount, from: workload, seed: 7)
        var evaluation = GeofenceEvaluation(transitions: [], rejections: [])
        let evaluateTimes = Bench.measure(runs: 1, warmUp: false) {
            guard var devices = try? GeofenceEvaluator(index: index) else { return }
            evaluation = devices.evaluate(updates, now: Date(timeIntervalSince1970: 2e9))
        }

        // Baseline: every pair of a subset of points with geod_inverse, from C.
        let subset = evenlySpaced(bruteCount, of: workload.latitudes.count)
        let subsetLatitudes = subset.map { workload.latitudes[$0] },
            subsetLongitudes = subset.map { workload.longitudes[$0] }
        var brutePairs = 0
        let bruteTimes = Bench.measure(runs: 1, warmUp: false) {
            brutePairs = baseline_fence_pairs(
                subset.count, subsetLatitudes, subsetLongitudes, circles.count,
                workload.fenceLatitudes,
                workload.fenceLongitudes, workload.radii)
        }
        let indexSubsetPairs =
            (try? index.containmentStatistics(
                latitudes: subsetLatitudes, longitudes: subsetLongitudes
            ).pairs) ?? -1
        let bruteSeconds = Bench.median(bruteTimes) / 1e9
        let projected =
            subset.isEmpty
            ? 0 : bruteSeconds * Double(workload.latitudes.count) / Double(subset.count)

        // Oracle: every pair inside each fence's proven bounding box, decided by geod_inverse.
        var oracle: [String: JSONValue] = [:]
        if verify {
            let start = Bench.now()
            let (pairs, calls) = boxOracle(workload)
            oracle = [
                "pairs": .integer(pairs), "agree": .bool(pairs == stats.pairs),
                "geodesic_calls": .integer(calls),
                "ms": .number(Double(Bench.now() - start) / 1e6),
                "method":
                    "points in each fence's proven latitude/longitude box (|Δφ| ≤ r/M₀, |Δλ| ≤ r/P_min), each decided by geod_inverse",
            ]
        }

        let n = workload.latitudes.count
        let buildMs = Bench.median(buildTimes) / 1e6
        let queryMs = Bench.median(single) / 1e6
        let parallelMs = Bench.median(parallel) / 1e6
        let singleSummary = Bench.summary(single)
        let evaluateMs = Bench.median(evaluateTimes) / 1e6
        let evaluateSummary: JSONValue = .object([
            "updates": .integer(updates.count),
            "devices": .integer(Set(updates.map(\.device)).count),
            "ms": .number(evaluateMs),
            "updates_per_second": .number(Double(updates.count) / max(1e-9, evaluateMs / 1e3)),
            "transitions": .integer(evaluation.transitions.count),
            "rejections": .integer(evaluation.rejections.count),
        ])
        Bench.emit([
            "schema": "meridian-bench/1",
            "name": "fence",
            "n": .integer(n),
            "iterations": .integer(runs),
            "workload": .string(workload.description),
            "fences": .integer(circles.count),
            "points": .integer(n),
            "pairs": .integer(stats.pairs),
            "pairs_all_cores": .integer(parallelStats.pairs),
            "interior_pairs": .integer(stats.interiorPairs),
            "candidates": .integer(stats.candidates),
            "exact_calls": .integer(stats.exactEvaluations),
            "build_ms": .number(buildMs),
            "build": Bench.summary(buildTimes),
            "query_ms": .number(queryMs),
            "query": singleSummary,
            "median_ns": singleSummary["median_ns"] ?? .null,
            "p90_ns": singleSummary["p90_ns"] ?? .null,
            "query_ms_all_cores": .number(parallelMs),
            "query_all_cores": Bench.summary(parallel),
            "threads": .integer(threads),
            "points_per_second": .number(Double(n) / (queryMs / 1e3)),
            "points_per_second_all_cores": .number(Double(n) / (parallelMs / 1e3)),
            "evaluate": evaluateSummary,
            "targets": .object([
                "build_ms": 100, "query_ms": 60, "query_ms_all_cores": 30,
                "build_within_target": .bool(buildMs <= 100),
                "query_within_target": .bool(queryMs <= 60),
                "all_cores_within_target": .bool(parallelMs <= 30),
            ]),
            "baseline": .object([
                "brute_force": .object([
                    "what": "every (point, fence) pair with PROJ's geod_inverse, from C",
                    "points": .integer(subset.count), "fences": .integer(circles.count),
                    "pairs": .integer(brutePairs), "index_pairs": .integer(indexSubsetPairs),
                    "agree": .bool(brutePairs == indexSubsetPairs),
                    "ms": .number(bruteSeconds * 1e3),
                    "projected_full_workload_s": .number(projected),
                ]),
                "oracle": verify ? .object(oracle) : .null,
            ]),
            "peak_rss": .integer(Bench.peakRSS()),
        ])
    }

    // MARK: - Workloads

    struct InputError: Error, CustomStringConvertible {
        var description: String
    }

    static func load(_ options: [String: String]) throws -> Workload {
        if let fencesPath = options["fences"], let pointsPath = options["points"] {
            var w = Workload(description: "fences from \(fencesPath), points from \(pointsPath)")
            for row in try csv(fencesPath, columns: 3) {
                w.fenceLatitudes.append(row[0])
                w.fenceLongitudes.append(row[1])
                w.radii.append(row[2])
            }
            for row in try csv(pointsPath, columns: 2) {
                w.latitudes.append(row[0])
                w.longitudes.append(row[1])
            }
            return w
        }
        if options["fences"] != nil || options["points"] != nil {
            throw InputError(description: "--fences and --points go together")
        }
        let kind = options["generate"].flatMap { $0.isEmpty ? nil : $0 } ?? "uniform"
        let seed = UInt64(options["seed"] ?? "") ?? 42
        let fenceCount = Int(options["fence-count"] ?? "") ?? 100_000
        let pointCount = Int(options["point-count"] ?? "") ?? 1_000_000
        let centerFields = (options["center"] ?? "46,8").split(separator: ",").compactMap {
            Double($0)
        }
        guard centerFields.count == 2,
            (try? Coordinate(validatingLatitude: centerFields[0], longitude: centerFields[1]))
                != nil
        else { throw InputError(description: "--center needs LAT,LON") }
        return try generate(
            kind, seed: seed, fences: fenceCount, points: pointCount,
            center: Coordinate(latitude: centerFields[0], longitude: centerFields[1]))
    }

    /// The seeded workloads described in the type's documentation.
    static func generate(
        _ kind: String, seed: UInt64, fences: Int, points: Int, center: Coordinate
    ) throws -> Workload {
        var rng = SplitMix64(seed: seed)
        var w = Workload(description: "")
        // The 1,000 km × 1,000 km box: ±500 km along the meridian and the parallel of the center.
        let phi = center.latitude * .pi / 180
        let radii = LocalPlane.radiiOfCurvature(atLatitudeRadians: phi)
        let halfLat = 500_000 / (radii.meridional * .pi / 180)
        let halfLon = min(180, 500_000 / (radii.primeVertical * cos(phi) * .pi / 180))
        // Near a pole the box is cut at the pole (not folded onto it).
        let south = max(-90, center.latitude - halfLat), north = min(90, center.latitude + halfLat)
        func inBox() -> Coordinate {
            Coordinate(
                latitude: rng.uniform(south, north),
                longitude: Angle.normalizedLongitude(
                    center.longitude + rng.uniform(-halfLon, halfLon)))
        }
        func radius() -> Double { exp(rng.uniform(log(50), log(5_000))) }
        func gaussian() -> Double {
            let u = max(rng.nextUnit(), 1e-300), v = rng.nextUnit()
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        func near(_ c: Coordinate, sigma: Double) -> Coordinate {
            c.coordinate(atDistance: abs(gaussian()) * sigma, bearing: rng.uniform(0, 360))
        }
        func anywhere() -> Coordinate {
            Coordinate(
                latitude: asin(rng.uniform(-1, 1)) * 180 / .pi, longitude: rng.uniform(-180, 180))
        }
        let box = "1000 km x 1000 km box centered at \(center.latitude), \(center.longitude)"
        switch kind {
        case "uniform":
            w.description =
                "uniform: \(fences) fences and \(points) points uniform in a \(box); radii log-uniform 50-5000 m; seed \(seed)"
            for _ in 0..<fences {
                let c = inBox()
                w.fenceLatitudes.append(c.latitude)
                w.fenceLongitudes.append(c.longitude)
                w.radii.append(radius())
            }
            for _ in 0..<points {
                let c = inBox()
                w.latitudes.append(c.latitude)
                w.longitudes.append(c.longitude)
            }
        case "clustered":
            w.description =
                "clustered: 100 cities uniform in a \(box); \(fences) fences at normal offsets (sigma 5 km) and \(points) points (sigma 8 km) round random cities; radii log-uniform 50-5000 m; seed \(seed)"
            let cities = (0..<100).map { _ in inBox() }
            for _ in 0..<fences {
                let c = near(cities[Int(rng.next() % 100)], sigma: 5_000)
                w.fenceLatitudes.append(c.latitude)
                w.fenceLongitudes.append(c.longitude)
                w.radii.append(radius())
            }
            for _ in 0..<points {
                let c = near(cities[Int(rng.next() % 100)], sigma: 8_000)
                w.latitudes.append(c.latitude)
                w.longitudes.append(c.longitude)
            }
        case "world":
            w.description =
                "world: \(fences) fences and \(points) points uniform over the sphere's area (poles and the 180th meridian included); radii log-uniform 50-5000 m; seed \(seed)"
            for _ in 0..<fences {
                let c = anywhere()
                w.fenceLatitudes.append(c.latitude)
                w.fenceLongitudes.append(c.longitude)
                w.radii.append(radius())
            }
            for _ in 0..<points {
                let c = anywhere()
                w.latitudes.append(c.latitude)
                w.longitudes.append(c.longitude)
            }
        default:
            throw InputError(
                description: "unknown generator '\(kind)' (use uniform, clustered or world)")
        }
        return w
    }

    /// Rows of numbers from a CSV file; a first line that is not numeric is a header.
    static func csv(_ path: String, columns: Int) throws -> [[Double]] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(description: "cannot read \(path)")
        }
        var rows = [[Double]]()
        for (number, line) in String(decoding: data, as: UTF8.self).split(
            whereSeparator: \.isNewline
        ).enumerated() {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let values = fields.compactMap { Double($0) }
            if number == 0 && values.count < columns { continue }
            guard fields.count >= columns, values.count >= columns else {
                throw InputError(
                    description:
                        "\(path) line \(number + 1): expected \(columns) numbers, got '\(line)'")
            }
            rows.append(Array(values.prefix(columns)))
        }
        return rows
    }

    /// Devices on random walks: 2,000 devices (fewer for small counts), each starting at a point of
    /// the workload, with steps of 0–200 m at random bearings every 10–60 s and accuracies of 0–30 m;
    /// the updates interleave the devices in time order.
    static func walks(_ count: Int, from w: Workload, seed: UInt64) -> [GeofenceUpdate] {
        guard count > 0, !w.latitudes.isEmpty else { return [] }
        var rng = SplitMix64(seed: seed)
        let devices = min(2_000, count)
        var positions = (0..<devices).map { i in
            Coordinate(
                latitude: w.latitudes[i % w.latitudes.count],
                longitude: w.longitudes[i % w.longitudes.count])
        }
        var times = [Double](repeating: 0, count: devices)
        var updates = [GeofenceUpdate]()
        updates.reserveCapacity(count)
        for k in 0..<count {
            let d = k % devices
            positions[d] = positions[d].coordinate(
                atDistance: rng.uniform(0, 200), bearing: rng.uniform(0, 360))
            times[d] += rng.uniform(10, 60)
            updates.append(
                GeofenceUpdate(
                    device: "device-\(d)",
                    location: Location(
                        coordinate: positions[d], horizontalAccuracy: rng.uniform(0, 30),
                        timestamp: Date(timeIntervalSince1970: 1.7e9 + times[d]))))
        }
        return updates
    }

    static func evenlySpaced(_ count: Int, of total: Int) -> [Int] {
        guard count > 0 && total > 0 else { return [] }
        let k = min(count, total)
        return (0..<k).map { $0 * total / k }
    }

    /// An independent exact count: points sorted by latitude; for each fence, the points in its
    /// proven box (latitude within r / M₀, longitude within r / P_min of the box's latitude band),
    /// each decided by `geod_inverse`.
    static func boxOracle(_ w: Workload) -> (pairs: Int, calls: Int) {
        let order = w.latitudes.indices.sorted { w.latitudes[$0] < w.latitudes[$1] }
        let lat = order.map { w.latitudes[$0] }, lon = order.map { w.longitudes[$0] }
        let m0 = 6_378_137.0 * (1 - 0.006_694_379_990_14) * (1 - 1e-12)
        var pairs = 0, calls = 0
        for f in w.radii.indices {
            let r = w.radii[f], clat = w.fenceLatitudes[f], clon = w.fenceLongitudes[f]
            let dPhi = r / m0 * 180 / .pi * (1 + 1e-9) + 1e-9
            let lo = clat - dPhi, hi = clat + dPhi
            let band = max(abs(lo), abs(hi))
            var dLon = 360.0
            if band < 90 {
                let p =
                    LocalPlane.radiiOfCurvature(atLatitudeRadians: band * .pi / 180).primeVertical
                    * cos(band * .pi / 180)
                dLon = r / (p * (1 - 1e-12)) * 180 / .pi * (1 + 1e-9) + 1e-9
            }
            var a = 0, b = lat.count
            while a < b {
                let m = (a + b) / 2
                if lat[m] < lo { a = m + 1 } else { b = m }
            }
            let center = Coordinate(latitude: clat, longitude: clon)
            var i = a
            while i < lat.count && lat[i] <= hi {
                var d = abs(lon[i] - clon)
                if d > 180 { d = 360 - d }
                if d <= dLon {
                    calls += 1
                    if Geodesic.wgs84.distance(
                        from: center, to: Coordinate(latitude: lat[i], longitude: lon[i])) <= r
                    {
                        pairs += 1
                    }
                }
                i += 1
            }
        }
        return (pairs, calls)
    }
}
