import CBaselines
import GeoCore
import GeoTestSupport

/// `meridian-bench transform`: batch CRS transformations per point through `CoordinateTransformer`
/// against PROJ's `proj_trans_generic` called from C on the same points in the same run.
enum TransformBenchmark {
    static func run(_ options: [String: String]) {
        let n = Int(options["n"] ?? "") ?? 1_000_000
        let runs = Int(options["runs"] ?? "") ?? 7
        let seed = UInt64(options["seed"] ?? "") ?? 42
        var results = [String: JSONValue]()
        var ratios = [String: JSONValue]()
        var within = true
        // Points inside each target's domain: the Web-Mercator square, and a band around UTM zone 33.
        for (target, west, east, south, north) in [
            ("EPSG:3857", -180.0, 180.0, -85.0, 85.0), ("EPSG:32633", 3.0, 27.0, 0.0, 84.0),
        ] {
            var rng = SplitMix64(seed: seed)
            let xs = (0..<n).map { _ in rng.uniform(west, east) }
            let ys = (0..<n).map { _ in rng.uniform(south, north) }
            let positions = (0..<n).map { Position(x: xs[$0], y: ys[$0]) }
            guard let transformer = try? CoordinateTransformer(source: "EPSG:4326", target: target),
                let baseline = baseline_proj_create("EPSG:4326", target)
            else {
                print("meridian-bench transform: cannot create EPSG:4326 → \(target)")
                return
            }
            defer { baseline_proj_destroy(baseline) }

            var swiftPositions = [Double](), swiftArrays = [Double](), cBatch = [Double](),
                swiftSingle = [Double]()
            var failures = 0, mismatch = 0.0
            var px = xs, py = ys, cx = xs, cy = ys, batch = positions
            // Interleaved runs (first one a warm-up), inputs restored outside the timed region.
            for r in 0...runs {
                // Restore the inputs and make each array unique now, so no copy-on-write is timed.
                batch = positions
                batch.withUnsafeMutableBufferPointer { _ in }
                px = xs; py = ys; cx = xs; cy = ys
                px.withUnsafeMutableBufferPointer { _ in }
                py.withUnsafeMutableBufferPointer { _ in }
                cx.withUnsafeMutableBufferPointer { _ in }
                cy.withUnsafeMutableBufferPointer { _ in }
                var t0 = Bench.now()
                failures = (try? transformer.transform(&batch).count) ?? -1
                let tPositions = Double(Bench.now() - t0)

                t0 = Bench.now()
                failures += (try? transformer.transform(x: &px, y: &py).count) ?? -1
                let tArrays = Double(Bench.now() - t0)

                t0 = Bench.now()
                _ = cx.withUnsafeMutableBufferPointer { x in
                    cy.withUnsafeMutableBufferPointer { y in
                        baseline_proj_trans(baseline, x.baseAddress, y.baseAddress, n)
                    }
                }
                let tC = Double(Bench.now() - t0)

                let single = min(n, 100_000)
                t0 = Bench.now()
                for i in 0..<single { _ = try? transformer.transform(positions[i]) }
                let tSingle = Double(Bench.now() - t0) * Double(n) / Double(single)
                if r > 0 {
                    swiftPositions.append(tPositions); swiftArrays.append(tArrays);
                    cBatch.append(tC); swiftSingle.append(tSingle)
                }
            }
            for i in 0..<n {
                mismatch = max(
                    mismatch, abs(batch[i].x - cx[i]), abs(batch[i].y - cy[i]), abs(px[i] - cx[i]),
                    abs(py[i] - cy[i]))
            }
            let ratioPositions = Bench.median(swiftPositions) / Bench.median(cBatch)
            let ratioArrays = Bench.median(swiftArrays) / Bench.median(cBatch)
            within = within && ratioPositions <= 1.10 && ratioArrays <= 1.10
            results[target] = .object([
                "swift_positions_in_place": Bench.summary(swiftPositions, per: n),
                "swift_xy_arrays_in_place": Bench.summary(swiftArrays, per: n),
                "swift_one_point_per_call": Bench.summary(swiftSingle, per: n),
                "c_proj_trans_generic": Bench.summary(cBatch, per: n),
                "failed_points": .integer(failures),
                "max_difference_from_c": .number(mismatch),
            ])
            ratios[target] = .object([
                "positions": .number(ratioPositions), "xy_arrays": .number(ratioArrays),
            ])
        }
        Bench.emit([
            "schema": "meridian-bench/1",
            "name": "transform",
            "n": .integer(n),
            "iterations": .integer(runs),
            "workload": .string(
                "\(n) random points (seed \(seed)) transformed EPSG:4326 → EPSG:3857 (lat ±85°) and → EPSG:32633 (lon 3–27°, lat 0–84°); per-point medians"
            ),
            "per_point": .object(results),
            "swift_over_c": .object(
                ratios.merging(["target": .number(1.10), "within_target": .bool(within)]) { a, _ in
                    a
                }),
            "peak_rss": .integer(Bench.peakRSS()),
        ])
    }
}
