import Foundation
import GeoCore

/// The seeded point sets Meridian's clustering benchmark and parity tests use: a port of the
/// reference data's `gen_points.py` that produces the identical text, line for line.
///
/// Points come from `SplitMix64` draws: `uniform` puts longitude in [-180, 180) and latitude in
/// [-80, 80) (two draws per point, longitude first, as supercluster's own benchmark); `clustered`
/// draws `centers` Gaussian centers (longitude in [-170, 170), latitude in [-60, 70), σ log-uniform in
/// 0.02°...2°) picked with Zipf weights 1/(k+1), and a `noise` fraction of uniform points. Each point
/// is printed as `lon,lat` with exactly seven decimals (`%.7f`, minus zero printed as zero) and the
/// coordinates are the parsed text, so every language that parses the text gets the same doubles.
public enum SyntheticPoints {
    /// What kind of point set to generate.
    public enum Kind: Hashable, Sendable {
        /// Uniform in longitude and latitude within ±80°.
        case uniform
        /// Gaussian clusters of Zipf-distributed sizes over uniform background noise
        /// (`gen_points.py` defaults: 3000 centers, 5 % noise).
        case clustered(centers: Int = 3000, noise: Double = 0.05)
    }

    /// The CSV text of a point set: one `lon,lat\n` line per point, no header.
    ///
    /// - Complexity: O(n).
    public static func csv(_ kind: Kind, count: Int, seed: UInt64) -> String {
        var text = ""
        text.reserveCapacity(count * 24)
        generate(kind, count: count, seed: seed) { line, _ in text += line }
        return text
    }

    /// The coordinates of a point set, parsed from its seven-decimal text.
    ///
    /// - Complexity: O(n).
    public static func coordinates(_ kind: Kind, count: Int, seed: UInt64) -> [Coordinate] {
        var result = [Coordinate]()
        result.reserveCapacity(max(0, count))
        draw(kind, count: count, seed: seed) { lon, lat in
            result.append(Coordinate(latitude: rounded7(lat), longitude: rounded7(lon)))
        }
        return result
    }

    private static func generate(
        _ kind: Kind, count: Int, seed: UInt64, _ body: (String, Coordinate) -> Void
    ) {
        draw(kind, count: count, seed: seed) { lon, lat in
            var lonText = format7(lon), latText = format7(lat)
            if lonText == "-0.0000000" { lonText = "0.0000000" }
            if latText == "-0.0000000" { latText = "0.0000000" }
            body(
                lonText + "," + latText + "\n",
                Coordinate(latitude: Double(latText) ?? .nan, longitude: Double(lonText) ?? .nan))
        }
    }

    /// The value `%.7f` prints, parsed back: printed into a stack buffer and read with `strtod`, with
    /// no strings made. (Minus zero reads as minus zero; as a coordinate it equals zero.)
    private static func rounded7(_ value: Double) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> Double in
            guard let base = buffer.baseAddress else { return .nan }
            let written = withVaList([value]) { vsnprintf(base, 64, "%.7f", $0) }
            guard written > 0 && written < 64 else {
                return Double(String(format: "%.7f", value)) ?? .nan
            }
            let parsed = strtod(base, nil)
            return parsed == 0 ? 0 : parsed
        }
    }

    /// The raw longitude and latitude draws of gen_points.py, before printing.
    private static func draw(
        _ kind: Kind, count: Int, seed: UInt64, _ emit: (Double, Double) -> Void
    ) {
        var rng = SplitMix64(seed: seed)
        switch kind {
        case .uniform:
            for _ in 0..<max(0, count) {
                let lon = -180.0 + 360.0 * rng.nextUnit()
                let lat = -80.0 + 160.0 * rng.nextUnit()
                emit(lon, lat)
            }
        case .clustered(let centerCount, let noise):
            let centerCount = max(1, centerCount)
            var centers = [(lon: Double, lat: Double, sigma: Double)]()
            for _ in 0..<centerCount {
                let lon = -170.0 + 340.0 * rng.nextUnit()
                let lat = -60.0 + 130.0 * rng.nextUnit()
                let sigma = 0.02 * pow(100.0, rng.nextUnit())
                centers.append((lon, lat, sigma))
            }
            var cumulative = [Double]()
            var total = 0.0
            for k in 0..<centerCount {
                total += 1.0 / Double(k + 1)
                cumulative.append(total)
            }
            for _ in 0..<max(0, count) {
                if rng.nextUnit() < noise {
                    let lon = -180.0 + 360.0 * rng.nextUnit()
                    let lat = -80.0 + 160.0 * rng.nextUnit()
                    emit(lon, lat)
                    continue
                }
                // The first center whose cumulative weight exceeds u · total.
                let target = rng.nextUnit() * total
                var lo = 0, hi = centerCount - 1
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if cumulative[mid] > target { hi = mid } else { lo = mid + 1 }
                }
                let center = centers[lo]
                // Box–Muller with u1 in (0, 1].
                let u1 = 1.0 - rng.nextUnit()
                let u2 = rng.nextUnit()
                let radius = (-2.0 * log(u1)).squareRoot()
                let g1 = radius * cos(2.0 * Double.pi * u2)
                let g2 = radius * sin(2.0 * Double.pi * u2)
                var lon = center.lon + center.sigma * g1
                var lat = center.lat + center.sigma * g2
                lat = max(-85.0, min(85.0, lat))
                lon = pythonModulo(lon + 180.0, 360.0) - 180.0
                emit(lon, lat)
            }
        }
    }

    /// Python's float `%`: the remainder with the sign of the divisor.
    private static func pythonModulo(_ x: Double, _ y: Double) -> Double {
        var m = fmod(x, y)
        if m != 0 && ((y < 0) != (m < 0)) { m += y }
        return m
    }

    /// `%.7f`, correctly rounded (C's printf).
    private static func format7(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String in
            guard let base = buffer.baseAddress else { return "" }
            let written = withVaList([value]) { vsnprintf(base, 64, "%.7f", $0) }
            guard written > 0 && written < 64 else { return String(format: "%.7f", value) }
            return String(cString: base)
        }
    }
}
