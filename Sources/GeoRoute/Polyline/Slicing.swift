import GeoCore

extension Polyline {
    /// The part of the line between two distances along it.
    ///
    /// The result starts at the point `fromDistance` along the line, keeps every vertex strictly
    /// between the two distances, and ends at the point `toDistance` along it; the cut points lie on
    /// the original geodesic segments, so the slice follows the line exactly. Equal distances give a
    /// polyline of one vertex.
    ///
    /// - Parameters:
    ///   - fromDistance: Meters from the first vertex; clamped to [0, ``length``].
    ///   - toDistance: Meters from the first vertex, not less than `fromDistance`; clamped likewise.
    /// - Throws: `GeoError.Kind.invalidArgument` if a distance is NaN or
    ///   `fromDistance > toDistance`.
    /// - Complexity: O(log n + k) for k vertices in the slice, plus one inverse geodesic per segment
    ///   of the result.
    public func sliced(fromDistance: Double, toDistance: Double) throws(GeoError) -> Polyline {
        guard !fromDistance.isNaN, !toDistance.isNaN else {
            throw GeoError(
                .invalidArgument,
                "slice distances \(fromDistance) m and \(toDistance) m must be numbers")
        }
        guard fromDistance <= toDistance else {
            throw GeoError(
                .invalidArgument,
                "slice start \(fromDistance) m is beyond its end \(toDistance) m; reverse the line to slice backwards"
            )
        }
        let from = min(max(fromDistance, 0), length), to = min(max(toDistance, 0), length)
        var result = [position(atDistance: from).coordinate]
        if to > from {
            var k = segment(containing: from) + 1
            while k < coordinates.count && cumulativeDistances[k] < to {
                if cumulativeDistances[k] > from { result.append(coordinates[k]) }
                k += 1
            }
            result.append(position(atDistance: to).coordinate)
        }
        return Polyline(unchecked: result)
    }

    /// The same line traveled the other way: the vertices in reverse order.
    ///
    /// A point `d` meters along the reversed line is `length - d` meters along this one.
    /// - Complexity: O(n), one inverse geodesic per segment.
    public func reversed() -> Polyline {
        Polyline(unchecked: coordinates.reversed())
    }
}
