import Foundation
import GeoCore

/// Douglas–Peucker line simplification (Ramer 1972; Douglas & Peucker 1973) with the tolerance in
/// metres on the WGS84 ellipsoid.
///
/// A stretch of the line from vertex `a` to vertex `b` is replaced by its end points if every vertex
/// in between lies within the tolerance of the geodesic from `a` to `b`; otherwise the vertex
/// farthest from it is kept and both halves are simplified in turn. Distances are from a vertex to
/// the geodesic *segment* (not the infinite line), so a vertex beyond an end is measured to that end.
///
/// ### Speed without giving up the metre
/// Solving every vertex-to-segment distance on the ellipsoid would cost microseconds each. Instead
/// each stretch is measured in a local plane at its mean latitude (longitudes scaled by the
/// parallel's radius N cos φ, latitudes by the meridian radius M, both of WGS84), which needs no
/// trigonometry per vertex. The plane's error grows with the square of the stretch's size D
/// (its length plus the largest offset): it is below `D²(1 + |tan φ|) / (2R)`. Only when the largest
/// planar distance falls within that band around the tolerance is the decision checked with exact
/// geodesic distances (``GeoCore/GeodesicLine/closestPoint(to:)``) for the vertices in the band. So
/// every kept or dropped vertex is decided as the exact ellipsoidal test would decide it, and long
/// stretches, whose planar distances are far from the tolerance, never need the exact solution.
enum DouglasPeucker {
    /// The indices of the vertices that Douglas–Peucker keeps, in increasing order (always the first
    /// and the last).
    ///
    /// - Parameters:
    ///   - coordinates: Valid coordinates.
    ///   - tolerance: Metres, not negative (may be infinite).
    /// - Complexity: O(n log n) typically, O(n²) in the worst case; no allocation per vertex.
    static func keptIndices(_ coordinates: [Coordinate], tolerance: Double) -> [Int] {
        let n = coordinates.count
        guard n > 2 else { return Array(0..<n) }
        // Latitudes and longitudes unrolled along the line, so a stretch across the 180th meridian
        // is measured the short way.
        var xs = [Double](repeating: 0, count: n), ys = [Double](repeating: 0, count: n)
        var unrolled = coordinates[0].longitude
        for i in 0..<n {
            if i > 0 {
                var step = coordinates[i].longitude - coordinates[i - 1].longitude
                if step > 180 { step -= 360 } else if step < -180 { step += 360 }
                unrolled += step
            }
            xs[i] = unrolled
            ys[i] = coordinates[i].latitude
        }
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
        var stack = [(Int, Int)]()
        stack.reserveCapacity(64)
        stack.append((0, n - 1))
        let geodesic = Geodesic.wgs84
        let radius = 6_371_008.8  // for the error bound only

        xs.withUnsafeBufferPointer { x in
            ys.withUnsafeBufferPointer { y in
                while let (a, b) = stack.popLast() {
                    guard b - a > 1 else { continue }
                    let meanLatitude = (y[a] + y[b]) * (0.5 * .pi / 180)
                    let (m, nRadius) = LocalPlane.radiiOfCurvature(atLatitudeRadians: meanLatitude)
                    let kx = nRadius * cos(meanLatitude) * (.pi / 180), ky = m * (.pi / 180)
                    let bx = (x[b] - x[a]) * kx, by = (y[b] - y[a]) * ky
                    let bb = bx * bx + by * by
                    let inverse = bb > 0 ? 1 / bb : 0
                    var farthest = a + 1
                    var largest = -1.0
                    for i in (a + 1)..<b {
                        let dx = (x[i] - x[a]) * kx, dy = (y[i] - y[a]) * ky
                        let t = min(max((dx * bx + dy * by) * inverse, 0), 1)
                        let ex = dx - t * bx, ey = dy - t * by
                        let d2 = ex * ex + ey * ey
                        if d2 > largest {
                            largest = d2
                            farthest = i
                        }
                    }
                    let planar = largest.squareRoot()
                    let size = bb.squareRoot() + planar
                    let band = size * size * (1 + abs(tan(meanLatitude))) / (2 * radius) + 1e-9
                    if planar > tolerance + band {
                        keep[farthest] = true
                        stack.append((farthest, b))
                        stack.append((a, farthest))
                        continue
                    }
                    if planar < tolerance - band { continue }
                    // Too close to call in the plane: decide with exact distances for the vertices
                    // whose planar distance is within the band of the tolerance.
                    let segment = geodesic.line(from: coordinates[a], to: coordinates[b])
                    var exactLargest = -1.0
                    var exactFarthest = -1
                    let threshold = max(0, tolerance - band)
                    for i in (a + 1)..<b {
                        let dx = (x[i] - x[a]) * kx, dy = (y[i] - y[a]) * ky
                        let t = min(max((dx * bx + dy * by) * inverse, 0), 1)
                        let ex = dx - t * bx, ey = dy - t * by
                        guard (ex * ex + ey * ey).squareRoot() >= threshold else { continue }
                        let exact = segment.closestPoint(to: coordinates[i]).distance
                        if exact > exactLargest {
                            exactLargest = exact
                            exactFarthest = i
                        }
                    }
                    if exactLargest > tolerance && exactFarthest > a {
                        keep[exactFarthest] = true
                        stack.append((exactFarthest, b))
                        stack.append((a, exactFarthest))
                    }
                }
            }
        }
        var result = [Int]()
        for i in 0..<n where keep[i] { result.append(i) }
        return result
    }
}
