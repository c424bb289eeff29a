import GeoCore

extension Polyline {
    /// The most points ``resampled(every:)`` will produce, to keep a tiny spacing on a long line from
    /// exhausting memory.
    public static let maximumResampledCount = 10_000_000

    /// Points at a fixed spacing along the line, as a new polyline.
    ///
    /// The result has a vertex at 0, `spacing`, `2 × spacing`, … meters along this line, each on its
    /// geodesic segment, and the last vertex of this line at the end (unless the last sample already
    /// falls on it, to within the rounding of the line's length: a nanometer and 10⁻¹² of it). Corners between samples are cut, so the result is a little shorter than this
    /// line where it bends.
    ///
    /// - Parameter spacing: Meters between samples; finite and positive.
    /// - Throws: `GeoError.Kind.invalidArgument` if `spacing` is not finite
    ///   and positive, or would give more than ``maximumResampledCount`` points.
    /// - Complexity: O(n + m) for m samples: one direct geodesic per sample and one inverse per
    ///   segment of the result.
    public func resampled(every spacing: Double) throws(GeoError) -> Polyline {
        guard spacing.isFinite && spacing > 0 else {
            throw GeoError(
                .invalidArgument, "resampling spacing \(spacing) m must be finite and positive")
        }
        let intervals = (length / spacing).rounded(.down)
        guard intervals < Double(Polyline.maximumResampledCount - 1) else {
            throw GeoError(
                .invalidArgument,
                "resampling \(length) m every \(spacing) m would give more than \(Polyline.maximumResampledCount) points"
            )
        }
        let count = Int(intervals)
        var result = [Coordinate]()
        result.reserveCapacity(count + 2)
        let geodesic = Geodesic.wgs84
        var i = 0
        for k in 0...count {
            let d = Double(k) * spacing
            // Advance to the segment that holds d (segments are visited in order, so O(n + m)).
            while i < segmentCount - 1 && cumulativeDistances[i + 1] <= d { i += 1 }
            let offset = d - cumulativeDistances[i]
            if offset <= 0 || segmentCount == 0 {
                result.append(coordinates[i])
            } else if i + 1 < coordinates.count
                && offset >= cumulativeDistances[i + 1] - cumulativeDistances[i]
            {
                result.append(coordinates[i + 1])
            } else {
                result.append(
                    geodesic.direct(
                        from: coordinates[i], azimuth: segmentAzimuths[i], distance: offset
                    ).coordinate)
            }
        }
        // A last sample within the rounding of the line's summed length (a nanometer per
        // kilometer) of its end is the end: 10 km every 1 km gives 11 points, not 12.
        let remainder = length - Double(count) * spacing
        if remainder > 1e-12 * length + 1e-9 {
            result.append(end)
        } else if remainder > 0 {
            // (The first sample, the start, stays: a line shorter than a nanometer ends after it.)
            if count > 0 { result[result.count - 1] = end } else { result.append(end) }
        }
        return Polyline(unchecked: result)
    }
}
