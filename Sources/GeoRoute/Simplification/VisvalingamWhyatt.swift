import Foundation
import GeoCore

/// Visvalingam–Whyatt line simplification (Visvalingam & Whyatt, *Line generalisation by repeated
/// elimination of points*, The Cartographic Journal 30(1), 1993) with areas in square meters on the
/// WGS84 ellipsoid.
///
/// Every interior vertex has an effective area: that of the triangle it forms with its current
/// neighbors. The vertex with the smallest area is dropped and its neighbors' areas recomputed,
/// until the smallest area reaches the threshold (the square of the tolerance in meters). Ties go to
/// the earlier vertex.
///
/// Areas are computed in the local plane at the middle vertex (`LocalPlane`); when one is
/// within the plane's error band of the threshold it is recomputed as the area of the geodesic
/// triangle (`Geodesic.measure(exterior:holes:)`), so each decision matches the
/// ellipsoidal one.
enum VisvalingamWhyatt {
    /// The indices of the vertices kept, in increasing order (always the first and the last).
    ///
    /// - Complexity: O(n log n), with a binary heap of the areas.
    static func keptIndices(_ coordinates: [Coordinate], tolerance: Double) -> [Int] {
        let n = coordinates.count
        guard n > 2 else { return Array(0..<n) }
        let threshold = tolerance * tolerance
        var previous = Array(-1..<(n - 1))
        var next = Array(1...n)
        var area = [Double](repeating: .infinity, count: n)
        var heap = AreaHeap()
        for i in 1..<(n - 1) {
            area[i] = triangleArea(
                coordinates[i - 1], coordinates[i], coordinates[i + 1], threshold: threshold)
            heap.push(area[i], i)
        }
        var removed = [Bool](repeating: false, count: n)
        while let (a, i) = heap.pop() {
            if removed[i] || a != area[i] { continue }  // a stale entry
            if !(a < threshold) { break }
            removed[i] = true
            let p = previous[i], q = next[i]
            next[p] = q
            previous[q] = p
            if p > 0 {
                area[p] = triangleArea(
                    coordinates[previous[p]], coordinates[p], coordinates[q], threshold: threshold)
                heap.push(area[p], p)
            }
            if q < n - 1 {
                area[q] = triangleArea(
                    coordinates[p], coordinates[q], coordinates[next[q]], threshold: threshold)
                heap.push(area[q], q)
            }
        }
        var result = [Int]()
        for i in 0..<n where !removed[i] { result.append(i) }
        return result
    }

    /// The area in m² of the triangle a, m, b: in the local plane at m, or on the ellipsoid when the
    /// planar value is too close to the threshold to decide.
    static func triangleArea(
        _ a: Coordinate, _ m: Coordinate, _ b: Coordinate, threshold: Double
    ) -> Double {
        let u = LocalPlane.offset(from: m, to: a), v = LocalPlane.offset(from: m, to: b)
        let planar = abs(u.east * v.north - u.north * v.east) / 2
        // The plane's positions are off by about D²(1 + |tan φ|) / (2R) at distance D from m, which
        // moves the area by at most that times the triangle's perimeter.
        let da = (u.east * u.east + u.north * u.north).squareRoot()
        let db = (v.east * v.east + v.north * v.north).squareRoot()
        let size = max(da, db)
        let phi = m.latitude * (.pi / 180)
        let positionError = size * size * (1 + abs(tan(phi))) / (2 * WGS84.meanRadius)
        let band = positionError * 2 * (da + db) + threshold * 1e-9
        guard abs(planar - threshold) <= band else { return planar }
        return (try? Geodesic.wgs84.measure(exterior: [a, m, b]).area) ?? planar
    }

    /// A binary min-heap of (area, index), ties broken by the smaller index.
    struct AreaHeap {
        private var items: [(Double, Int)] = []

        private static func less(_ x: (Double, Int), _ y: (Double, Int)) -> Bool {
            x.0 < y.0 || (x.0 == y.0 && x.1 < y.1)
        }

        mutating func push(_ area: Double, _ index: Int) {
            items.append((area, index))
            var i = items.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard AreaHeap.less(items[i], items[parent]) else { break }
                items.swapAt(i, parent)
                i = parent
            }
        }

        mutating func pop() -> (Double, Int)? {
            guard let last = items.popLast() else { return nil }
            guard !items.isEmpty else { return last }
            let top = items[0]
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < items.count && AreaHeap.less(items[l], items[smallest]) { smallest = l }
                if r < items.count && AreaHeap.less(items[r], items[smallest]) { smallest = r }
                if smallest == i { break }
                items.swapAt(i, smallest)
                i = smallest
            }
            return top
        }
    }
}
