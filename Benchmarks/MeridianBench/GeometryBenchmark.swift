import CBaselines
import Foundation
import GeoCore
import GeoTestSupport

/// `meridian-bench geometry`: point-in-polygon for many points against one polygon with
/// `PreparedGeometry` (its exact pure-Swift point index, and a point geometry through GEOS), next to
/// GEOS's prepared predicate called from C in the same run; plus the cost of a few whole-geometry
/// operations.
enum GeometryBenchmark {
    static func run(_ options: [String: String]) {
        let n = Int(options["n"] ?? "") ?? 1_000_000
        let vertices = Int(options["vertices"] ?? "") ?? 1_000
        let runs = Int(options["runs"] ?? "") ?? 5
        let seed = UInt64(options["seed"] ?? "") ?? 42

        // A star-shaped polygon: radius 50–100 around the origin at evenly spaced angles.
        var rng = SplitMix64(seed: seed)
        var ring = (0..<vertices).map { i -> Position in
            let a = Double(i) / Double(vertices) * 2 * .pi
            let r = rng.uniform(50, 100)
            return Position(x: r * cos(a), y: r * sin(a))
        }
        ring.append(ring[0])
        let polygon = Geometry.polygon([ring])
        let points = (0..<n).map { _ in
            Position(x: rng.uniform(-100, 100), y: rng.uniform(-100, 100))
        }
        let xs = points.map(\.x), ys = points.map(\.y)
        let flat = ring.flatMap { [$0.x, $0.y] }

        guard let prepared = try? PreparedGeometry(polygon),
            let baseline = baseline_geos_prepare(flat, ring.count)
        else {
            print("meridian-bench geometry: cannot prepare the polygon")
            return
        }
        defer { baseline_geos_destroy(baseline) }

        var swiftBatch = [Double](), swiftSingle = [Double](), cPrepared = [Double](),
            viaGEOS = [Double]()
        let sample = min(n, 100_000)
        var inside = [Bool](), cInside = [UInt8](repeating: 0, count: n)
        for r in 0...runs {
            var t0 = Bench.now()
            inside = (try? prepared.contains(points)) ?? []
            let tBatch = Double(Bench.now() - t0)

            t0 = Bench.now()
            var count = 0
            for p in points where (try? prepared.contains(p)) == true { count += 1 }
            let tSingle = Double(Bench.now() - t0)

            t0 = Bench.now()
            _ = xs.withUnsafeBufferPointer { x in
                ys.withUnsafeBufferPointer { y in
                    cInside.withUnsafeMutableBufferPointer { out in
                        baseline_geos_contains(
                            baseline, x.baseAddress, y.baseAddress, n, out.baseAddress)
                    }
                }
            }
            let tC = Double(Bench.now() - t0)

            // The same test as a geometry predicate, which goes through GEOS's prepared geometry.
            t0 = Bench.now()
            for p in points[0..<sample] where (try? prepared.contains(Geometry.point(p))) == true {
                count += 1
            }
            let tGEOS = Double(Bench.now() - t0) * Double(n) / Double(sample)
            if r > 0 {
                swiftBatch.append(tBatch); swiftSingle.append(tSingle); cPrepared.append(tC);
                viaGEOS.append(tGEOS)
            }
            _ = count
        }
        let disagreements =
            zip(inside, cInside).filter { $0 != ($1 == 1) }.count + abs(inside.count - n)

        // Whole-geometry operations on the polygon, for scale.
        let other = polygon.mapPositions { Position(x: $0.x + 30, y: $0.y + 10) }
        let buffer = Bench.measure(runs: runs) { _ = try? polygon.buffer(distance: 1) }
        let intersection = Bench.measure(runs: runs) { _ = try? polygon.intersection(other) }
        let simplify = Bench.measure(runs: runs) { _ = try? polygon.simplified(tolerance: 1) }
        let wkb = Bench.measure(runs: runs) { _ = try? Geometry(wkb: polygon.wkb()) }

        let ratioBatch = Bench.median(swiftBatch) / Bench.median(cPrepared)
        let ratioSingle = Bench.median(swiftSingle) / Bench.median(cPrepared)
        Bench.emit([
            "schema": "meridian-bench/1",
            "name": "geometry",
            "n": .integer(n),
            "iterations": .integer(runs),
            "workload": .string(
                "\(n) random points (seed \(seed)) against a \(vertices)-vertex star polygon; \(inside.filter { $0 }.count) inside"
            ),
            "per_point": .object([
                "prepared_contains_batch": Bench.summary(swiftBatch, per: n),
                "prepared_contains_one_call_per_point": Bench.summary(swiftSingle, per: n),
                "prepared_contains_point_geometry_via_geos": Bench.summary(viaGEOS, per: n),
                "c_geos_prepared_contains": Bench.summary(cPrepared, per: n),
            ]),
            "per_operation": .object([
                "buffer": Bench.summary(buffer), "intersection": Bench.summary(intersection),
                "simplify_topology_preserving": Bench.summary(simplify),
                "wkb_round_trip": Bench.summary(wkb),
            ]),
            "disagreements_with_c": .integer(disagreements),
            "swift_over_c": .object([
                "batch": .number(ratioBatch), "one_call_per_point": .number(ratioSingle),
                "target": .number(1.2),
                "within_target": .bool(ratioBatch <= 1.2 && ratioSingle <= 1.2),
            ]),
            "peak_rss": .integer(Bench.peakRSS()),
        ])
    }
}
