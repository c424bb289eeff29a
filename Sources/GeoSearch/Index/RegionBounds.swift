import Foundation
import GeoCore

/// A query box in Earth-centered meters.
struct EarthBox {
    var low: SIMD3<Double>
    var high: SIMD3<Double>

    /// An Earth-centered box that holds every point of the ellipsoid inside a latitude–longitude
    /// box that does not cross the 180th meridian, by interval arithmetic on
    /// x = N cos φ cos λ, y = N cos φ sin λ, z = N (1 − e²) sin φ, widened by a meter for rounding.
    init(around box: BoundingBox) {
        let south = box.south * (.pi / 180), north = box.north * (.pi / 180)
        let west = box.west * (.pi / 180), east = box.east * (.pi / 180)
        func radius(_ phi: Double) -> Double {
            WGS84.radiiOfCurvature(atLatitudeRadians: phi).primeVertical * cos(phi)
        }
        func height(_ phi: Double) -> Double {
            let n = WGS84.radiiOfCurvature(atLatitudeRadians: phi).primeVertical
            return n * (1 - WGS84.eccentricitySquared) * sin(phi)
        }
        // N cos φ falls with |φ|; N (1 − e²) sin φ rises with φ.
        let rMax = south <= 0 && north >= 0 ? radius(0) : max(radius(south), radius(north))
        let rMin = min(radius(south), radius(north))
        func range(_ f: (Double) -> Double, peaks: [Double]) -> (Double, Double) {
            var low = min(f(west), f(east)), high = max(f(west), f(east))
            for peak in peaks where peak >= west && peak <= east {
                low = min(low, f(peak))
                high = max(high, f(peak))
            }
            return (low, high)
        }
        let cosRange = range(cos, peaks: [-.pi, 0, .pi])
        let sinRange = range(sin, peaks: [-.pi / 2, .pi / 2])
        func product(_ r: (Double, Double), _ t: (Double, Double)) -> (Double, Double) {
            let values = [r.0 * t.0, r.0 * t.1, r.1 * t.0, r.1 * t.1]
            return (values.min() ?? 0, values.max() ?? 0)
        }
        let x = product((rMin, rMax), cosRange)
        let y = product((rMin, rMax), sinRange)
        let pad = 1.0
        low = SIMD3(x.0 - pad, y.0 - pad, height(south) - pad)
        high = SIMD3(x.1 + pad, y.1 + pad, height(north) + pad)
    }
}

extension PointTree {
    /// The positions inside a latitude–longitude box (across the 180th meridian too), in curve
    /// order.
    func positions(in box: BoundingBox) -> [Int] {
        var found = [Int]()
        // Latitudes beyond the poles hold nothing more, and would fold the box's height back.
        var box = box
        (box.south, box.north) = (max(-90, box.south), min(90, box.north))
        guard box.south <= box.north else { return [] }
        for part in box.splitAt180thMeridian {
            let bounds = EarthBox(around: part)
            forEachPosition(where: { $0.intersects(low: bounds.low, high: bounds.high) }) { i in
                if part.contains(coordinates[i]) { found.append(i) }
            }
        }
        return found
    }
}
