import GeoCore

extension Polyline {
    /// The largest distance in meters from a vertex of this line to the other line (the directed
    /// discrete Hausdorff distance).
    ///
    /// Each vertex is measured to the nearest point of the other line's geodesic segments, not just
    /// to its vertices (as JTS's `DiscreteHausdorffDistance`).
    /// - Complexity: O(n) nearest-point queries on the other line, each sublinear.
    public func directedHausdorffDistance(to other: Polyline) -> Double {
        var largest = 0.0
        for c in coordinates {
            largest = max(largest, other.closestPoint(to: c).distance)
        }
        return largest
    }

    /// The discrete Hausdorff distance to another line in meters: the largest distance from a vertex
    /// of either line to the other line.
    ///
    /// Two lines are within this distance of each other everywhere their vertices are; it ignores the
    /// direction and order of travel (see ``discreteFrechetDistance(to:)`` for a measure that does
    /// not). Distances are geodesic, from each vertex to the nearest point of the other line's
    /// segments, as JTS's `DiscreteHausdorffDistance` measures. It is a lower bound of the
    /// continuous Hausdorff distance; ``hausdorffDistance(to:maximumSpacing:)`` approaches it.
    ///
    /// - Returns: Meters; 0 when each line's vertices lie on the other line.
    /// - Complexity: O(n + m) nearest-point queries, each sublinear in the other line's size.
    public func discreteHausdorffDistance(to other: Polyline) -> Double {
        max(directedHausdorffDistance(to: other), other.directedHausdorffDistance(to: self))
    }

    /// The Hausdorff distance to another line in meters, approximated by measuring from points no
    /// more than `maximumSpacing` apart along each line (its vertices included) to the other line.
    ///
    /// The result is at most the true (continuous) Hausdorff distance and within `maximumSpacing / 2`
    /// of it.
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` if `maximumSpacing` is not
    ///   finite and positive, or would need more than ``maximumResampledCount`` points.
    /// - Complexity: O(L / spacing) nearest-point queries for total length L.
    public func hausdorffDistance(
        to other: Polyline, maximumSpacing: Double
    ) throws(GeoError) -> Double {
        max(
            try densified(maximumSpacing: maximumSpacing).directedHausdorffDistance(to: other),
            try other.densified(maximumSpacing: maximumSpacing).directedHausdorffDistance(to: self))
    }

    /// The vertices plus points evenly spaced along each segment so that no gap exceeds a spacing.
    func densified(maximumSpacing: Double) throws(GeoError) -> Polyline {
        guard maximumSpacing.isFinite && maximumSpacing > 0 else {
            throw GeoError(
                .invalidArgument, "spacing \(maximumSpacing) m must be finite and positive")
        }
        guard
            length / maximumSpacing + Double(coordinates.count)
                < Double(Polyline.maximumResampledCount)
        else {
            throw GeoError(
                .invalidArgument,
                "densifying \(length) m every \(maximumSpacing) m would give more than \(Polyline.maximumResampledCount) points"
            )
        }
        var result = [coordinates[0]]
        let geodesic = Geodesic.wgs84
        for i in 0..<segmentCount {
            let segmentLength = cumulativeDistances[i + 1] - cumulativeDistances[i]
            let pieces = max(1, Int((segmentLength / maximumSpacing).rounded(.up)))
            for k in 1..<pieces {
                let s = segmentLength * Double(k) / Double(pieces)
                result.append(
                    geodesic.direct(from: coordinates[i], azimuth: segmentAzimuths[i], distance: s)
                        .coordinate)
            }
            result.append(coordinates[i + 1])
        }
        return Polyline(unchecked: result)
    }
}
