import CBaselines
import GeoCore
import GeoTestSupport

/// `meridian-bench geodesic`: the per-call cost of Meridian's geodesic wrappers against PROJ's C
/// functions called from C, and the speed and error of the cheaper distance models.
enum GeodesicBenchmark {
    static func run(_ options: [String: String]) {
        let n = Int(options["n"] ?? "") ?? 200_000
        let runs = Int(options["runs"] ?? "") ?? 7
        let seed = UInt64(options["seed"] ?? "") ?? 42

        // Workload: random point pairs worldwide, plus nearby pairs (within ~0.5°) for the local plane.
        var rng = SplitMix64(seed: seed)
        var lat1 = [Double](), lon1 = [Double](), lat2 = [Double](), lon2 = [Double]()
        var azimuths = [Double](), distances = [Double]()
        for _ in 0..<n {
            lat1.append(rng.uniform(-89, 89)); lon1.append(rng.uniform(-180, 180))
            lat2.append(rng.uniform(-89, 89)); lon2.append(rng.uniform(-180, 180))
            azimuths.append(rng.uniform(-180, 180)); distances.append(rng.uniform(0, 20_000_000))
        }
        let a = (0..<n).map { Coordinate(latitude: lat1[$0], longitude: lon1[$0]) }
        let b = (0..<n).map { Coordinate(latitude: lat2[$0], longitude: lon2[$0]) }
        let near = (0..<n).map { i in
            Coordinate(
                latitude: max(-89, min(89, lat1[i] + (lat2[i] - lat1[i]) / 200)),
                longitude: lon1[i] + (lon2[i] - lon1[i]) / 400)
        }

        var sOut = [Double](repeating: 0, count: n), aOut = sOut, bOut = sOut
        let geodesic = Geodesic.wgs84

        let swiftInverse = Bench.measure(runs: runs) {
            for i in 0..<n {
                let r = geodesic.inverse(from: a[i], to: b[i])
                sOut[i] = r.distance; aOut[i] = r.initialAzimuth; bOut[i] = r.finalAzimuth
            }
        }
        let cInverse = Bench.measure(runs: runs) {
            baseline_geod_inverse(n, lat1, lon1, lat2, lon2, &sOut, &aOut, &bOut)
        }
        let swiftDirect = Bench.measure(runs: runs) {
            for i in 0..<n {
                let r = geodesic.direct(from: a[i], azimuth: azimuths[i], distance: distances[i])
                sOut[i] = r.coordinate.latitude; aOut[i] = r.coordinate.longitude;
                bOut[i] = r.finalAzimuth
            }
        }
        let cDirect = Bench.measure(runs: runs) {
            baseline_geod_direct(n, lat1, lon1, azimuths, distances, &sOut, &aOut, &bOut)
        }
        let haversine = Bench.measure(runs: runs) {
            for i in 0..<n { sOut[i] = Haversine.distance(from: a[i], to: b[i]) }
        }
        let localPlane = Bench.measure(runs: runs) {
            for i in 0..<n { sOut[i] = LocalPlane.distance(from: a[i], to: near[i]) }
        }

        // Errors against the geodesic on the same pairs.
        var haversineError = 0.0, localPlaneError = 0.0, localPlaneMaxDistance = 0.0
        for i in 0..<n {
            let exact = geodesic.distance(from: a[i], to: b[i])
            if exact > 1 {
                haversineError = max(
                    haversineError, abs(Haversine.distance(from: a[i], to: b[i]) - exact) / exact)
            }
            let exactNear = geodesic.distance(from: a[i], to: near[i])
            localPlaneMaxDistance = max(localPlaneMaxDistance, exactNear)
            if exactNear > 1 {
                localPlaneError = max(
                    localPlaneError,
                    abs(LocalPlane.distance(from: a[i], to: near[i]) - exactNear) / exactNear)
            }
        }

        let inverseRatio = Bench.median(swiftInverse) / Bench.median(cInverse)
        let directRatio = Bench.median(swiftDirect) / Bench.median(cDirect)
        Bench.emit([
            "schema": "meridian-bench/1",
            "name": "geodesic",
            "n": .integer(n),
            "iterations": .integer(runs),
            "workload": .string(
                "\(n) random WGS84 point pairs (seed \(seed)); local plane on pairs up to \(Int(localPlaneMaxDistance / 1000)) km apart"
            ),
            "per_call": .object([
                "geodesic_inverse": Bench.summary(swiftInverse, per: n),
                "c_geod_inverse": Bench.summary(cInverse, per: n),
                "geodesic_direct": Bench.summary(swiftDirect, per: n),
                "c_geod_direct": Bench.summary(cDirect, per: n),
                "haversine": Bench.summary(haversine, per: n),
                "local_plane": Bench.summary(localPlane, per: n),
            ]),
            "swift_over_c": .object([
                "inverse": .number(inverseRatio), "direct": .number(directRatio),
                "target": .number(1.10),
                "inverse_within_target": .bool(inverseRatio <= 1.10),
                "direct_within_target": .bool(directRatio <= 1.10),
            ]),
            "max_relative_error_vs_geodesic": .object([
                "haversine": .number(haversineError), "local_plane": .number(localPlaneError),
            ]),
            "peak_rss": .integer(Bench.peakRSS()),
        ])
    }
}
