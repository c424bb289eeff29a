import GeoCore

extension Polyline {
    /// The discrete Fréchet distance to another line in meters: how far apart two walkers must be
    /// able to stay if each steps along their own line's vertices, forwards only, at their own pace.
    ///
    /// Unlike the Hausdorff distance it respects the order of the vertices, so a line and its reverse
    /// are far apart, and a route that passes the same places in another order is told apart. This is
    /// the coupling measure of Eiter and Mannila (*Computing discrete Fréchet distance*, TU Wien
    /// CD-TR 94/64, 1994), with geodesic distances between vertices on WGS84. It is an upper bound of
    /// the continuous Fréchet distance; resample both lines (``resampled(every:)``) to approach it.
    ///
    /// - Returns: Meters; 0 exactly when the vertex sequences coincide up to repeated vertices.
    /// - Complexity: O(n·m) time (one inverse geodesic, about 1 µs, per pair of vertices) and O(m)
    ///   memory.
    public func discreteFrechetDistance(to other: Polyline) -> Double {
        let a = coordinates, b = other.coordinates
        let geodesic = Geodesic.wgs84
        // row[j]: the coupling distance of a[0...i] and b[0...j] for the current i.
        var row = [Double](repeating: 0, count: b.count)
        for i in a.indices {
            var diagonal = 0.0  // the previous row's value at j - 1
            for j in b.indices {
                let d = geodesic.distance(from: a[i], to: b[j])
                let above = row[j]  // previous row, same j
                let value: Double
                switch (i, j) {
                case (0, 0): value = d
                case (0, _): value = max(d, row[j - 1])
                case (_, 0): value = max(d, above)
                default: value = max(d, min(above, diagonal, row[j - 1]))
                }
                diagonal = above
                row[j] = value
            }
        }
        return row[b.count - 1]
    }
}
