import GeoCore

extension Polyline {
    /// The point of a polyline nearest to another point, where it is along the line, and how far away.
    public struct Projection: Hashable, Sendable, Codable {
        /// The nearest point of the line.
        public var coordinate: Coordinate
        /// Its distance in meters along the line from the first vertex, in [0, ``Polyline/length``].
        public var distanceAlong: Double
        /// The geodesic distance in meters from the query point to ``coordinate``: how far the point
        /// is from the line.
        public var distance: Double
        /// The segment that holds ``coordinate``: the one from vertex `segmentIndex` to
        /// `segmentIndex + 1` (0 for a polyline of one vertex).
        public var segmentIndex: Int

        /// Creates a projection.
        public init(
            coordinate: Coordinate, distanceAlong: Double, distance: Double, segmentIndex: Int
        ) {
            self.coordinate = coordinate
            self.distanceAlong = distanceAlong
            self.distance = distance
            self.segmentIndex = segmentIndex
        }
    }

    /// The point of the line nearest to a point, on the WGS84 ellipsoid.
    ///
    /// The answer is the exact geodesic foot of the perpendicular on the nearest segment
    /// (`GeodesicLine.closestPoint(to:)`), the same a scan over every segment would give,
    /// to well under a millimeter for points within a few hundred kilometers of the line. A segment
    /// index built with the polyline (bounding boxes in Earth-centered coordinates, see the
    /// ``Polyline`` overview) rules out all but a few segments, so a query on a 10 000-vertex line
    /// touches a handful of them. When two segments are equally near, the first found is returned.
    ///
    /// - Parameter point: Any coordinate; NaN gives a projection of NaNs.
    /// - Returns: The nearest point, its distance along the line, its distance from `point` and its
    ///   segment.
    /// - Complexity: O(log n) box tests for a point near the line, plus one exact segment solution
    ///   (a few µs) for each segment that cannot be ruled out, usually one or two.
    public func closestPoint(to point: Coordinate) -> Projection {
        closestPoint(to: point, segments: 0...max(0, segmentCount - 1))
    }

    /// The point nearest to a point among the stretch of the line between two distances along it.
    ///
    /// Use it to keep a search near a known position, for example to snap a moving vehicle to the
    /// stretch of a route it is on when the route passes the same place twice. The answer lies within
    /// the range: on the segments at its ends only their part inside it is searched (where the
    /// distance from the point grows steadily away from the foot of the perpendicular, which holds
    /// for segments and points within a few thousand kilometers of each other).
    ///
    /// - Parameters:
    ///   - point: Any coordinate; NaN gives a projection of NaNs.
    ///   - distances: Meters along the line; clamped to [0, ``length``].
    /// - Complexity: As ``closestPoint(to:)``, with only the segments in the range considered.
    public func closestPoint(
        to point: Coordinate, alongDistances distances: ClosedRange<Double>
    ) -> Projection {
        guard point.latitude.isFinite && point.longitude.isFinite else {
            return closestPoint(to: point, segments: 0...0)
        }
        let from = min(max(distances.lowerBound, 0), length),
            to = min(max(distances.upperBound, 0), length)
        guard segmentCount > 0 else { return closestPoint(to: point, segments: 0...0) }
        // The first segment that ends after `from` and the last that starts before `to`.
        var first = segment(containing: from)
        while first < segmentCount - 1 && cumulativeDistances[first + 1] <= from && from < to {
            first += 1
        }
        var last = segment(containing: to)
        while last > first && cumulativeDistances[last] >= to { last -= 1 }
        guard
            let hit = index.nearest(
                to: point, segments: first...last, firstStart: from - cumulativeDistances[first],
                lastEnd: to - cumulativeDistances[last])
        else { return closestPoint(to: point, segments: 0...0) }
        return projection(of: hit)
    }

    /// The nearest point among a range of segments.
    func closestPoint(to point: Coordinate, segments: ClosedRange<Int>) -> Projection {
        guard point.latitude.isFinite && point.longitude.isFinite else {
            let nan = Coordinate(latitude: .nan, longitude: .nan)
            return Projection(coordinate: nan, distanceAlong: .nan, distance: .nan, segmentIndex: 0)
        }
        guard segmentCount > 0, let hit = index.nearest(to: point, segments: segments) else {
            return Projection(
                coordinate: coordinates[0], distanceAlong: 0,
                distance: Geodesic.wgs84.distance(from: coordinates[0], to: point), segmentIndex: 0)
        }
        return projection(of: hit)
    }

    /// The nearest point by trying every segment: O(n) exact segment solutions. This is the oracle
    /// the indexed search is tested and benchmarked against.
    func closestPointByLinearScan(to point: Coordinate) -> Projection {
        guard segmentCount > 0,
            let hit = index.nearestByLinearScan(to: point, segments: 0...(segmentCount - 1))
        else {
            return Projection(
                coordinate: coordinates[0], distanceAlong: 0,
                distance: Geodesic.wgs84.distance(from: coordinates[0], to: point), segmentIndex: 0)
        }
        return projection(of: hit)
    }

    private func projection(of hit: SegmentIndex.Hit) -> Projection {
        let i = hit.segment
        let segmentLength = cumulativeDistances[i + 1] - cumulativeDistances[i]
        var along = min(max(hit.distanceAlong, 0), segmentLength)
        var coordinate = hit.coordinate
        // The segment's end points are returned as the vertices themselves, not as points a few
        // nanometers away computed along the geodesic (whose length may differ in the last bit).
        if along <= 1e-9 {
            (along, coordinate) = (0, coordinates[i])
        } else if along >= segmentLength - 1e-9 {
            (along, coordinate) = (segmentLength, coordinates[i + 1])
        }
        return Projection(
            coordinate: coordinate,
            distanceAlong: min(cumulativeDistances[i] + along, length),
            distance: hit.distance,
            segmentIndex: i)
    }
}
