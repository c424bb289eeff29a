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

        /// The projection of a NaN point.
        static let nan = Projection(
            coordinate: Coordinate(latitude: .nan, longitude: .nan), distanceAlong: .nan,
            distance: .nan, segmentIndex: 0)
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
        guard point.latitude.isFinite && point.longitude.isFinite else { return .nan }
        let line = search
        guard line.segmentCount > 0,
            let hit = line.index.nearest(to: point, segments: 0...(line.segmentCount - 1))
        else { return nearestVertex(to: point) }
        return projection(of: hit)
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
        guard point.latitude.isFinite && point.longitude.isFinite else { return .nan }
        let line = search
        let from = min(max(distances.lowerBound, 0), length),
            to = min(max(distances.upperBound, 0), length)
        guard line.segmentCount > 0 else { return nearestVertex(to: point) }
        // The first segment that ends after `from` and the last that starts before `to`.
        var first = line.segment(containing: from)
        while first < line.segmentCount - 1 && line.cumulativeDistances[first + 1] <= from
            && from < to
        {
            first += 1
        }
        var last = line.segment(containing: to)
        while last > first && line.cumulativeDistances[last] >= to { last -= 1 }
        guard
            let hit = line.index.nearest(
                to: point, segments: first...last,
                firstStart: from - line.cumulativeDistances[first],
                lastEnd: to - line.cumulativeDistances[last])
        else { return nearestVertex(to: point) }
        return projection(of: hit)
    }

    /// The first vertex as the nearest point: the answer for a line without segments of length.
    private func nearestVertex(to point: Coordinate) -> Projection {
        Projection(
            coordinate: coordinates[0], distanceAlong: 0,
            distance: Geodesic.wgs84.distance(from: coordinates[0], to: point), segmentIndex: 0)
    }

    /// The nearest point by trying every segment of the polyline: O(n) exact segment solutions.
    /// This is the oracle the indexed search is tested and benchmarked against.
    func closestPointByLinearScan(to point: Coordinate) -> Projection {
        guard segmentCount > 0 else { return nearestVertex(to: point) }
        var best: (projection: GeodesicLine.Projection, segment: Int)?
        for i in 0..<segmentCount {
            let projection = Geodesic.wgs84.line(from: coordinates[i], to: coordinates[i + 1])
                .closestPoint(to: point)
            if best == nil || projection.distance < (best?.projection.distance ?? .infinity) {
                best = (projection, i)
            }
        }
        guard let best else { return nearestVertex(to: point) }
        return projection(
            of: SegmentIndex.Hit(segment: best.segment, best.projection), onPolylineSegment: true)
    }

    /// The projection of a hit on a segment of the search line (or, with `onPolylineSegment`, on
    /// one of the polyline's own), on the polyline's segment.
    private func projection(
        of hit: SegmentIndex.Hit, onPolylineSegment: Bool = false
    ) -> Projection {
        let i =
            onPolylineSegment
            ? hit.segment : search.originalSegment.map { $0[hit.segment] } ?? hit.segment
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

/// The segments a nearest-point search looks at: the polyline's own, or, when it repeats vertices,
/// those of the line that keeps each run of equal vertices once. A segment of length 0 is never
/// nearer than the vertex it sits on, which a neighboring segment (or, when every vertex is the
/// same, the first vertex) holds, so leaving such segments out changes no distance; a line parked
/// at one place for 100,000 fixes is then searched as one point, not 100,000.
struct SearchLine: Sendable {
    let coordinates: [Coordinate]
    let cumulativeDistances: [Double]
    let index: SegmentIndex
    /// The polyline segment of each search segment; `nil` when they are the same.
    let originalSegment: [Int]?

    var segmentCount: Int { coordinates.count - 1 }

    /// The search line of a polyline's vertices.
    init(coordinates: [Coordinate], cumulativeDistances: [Double], azimuths: [Double]) {
        var repeats = false
        for i in coordinates.indices.dropFirst() where coordinates[i] == coordinates[i - 1] {
            repeats = true
            break
        }
        guard repeats else {
            self.coordinates = coordinates
            self.cumulativeDistances = cumulativeDistances
            self.originalSegment = nil
            self.index = SegmentIndex(
                coordinates: coordinates, cumulativeDistances: cumulativeDistances,
                azimuths: azimuths)
            return
        }
        var kept = [coordinates[0]], distances = [cumulativeDistances[0]]
        var segments = [Int](), keptAzimuths = [Double]()
        for i in coordinates.indices.dropFirst() where coordinates[i] != coordinates[i - 1] {
            // The polyline's segment into vertex i is the one of length that ends there.
            kept.append(coordinates[i])
            distances.append(cumulativeDistances[i])
            segments.append(i - 1)
            keptAzimuths.append(azimuths[i - 1])
        }
        self.coordinates = kept
        self.cumulativeDistances = distances
        self.originalSegment = segments
        self.index = SegmentIndex(
            coordinates: kept, cumulativeDistances: distances, azimuths: keptAzimuths)
    }

    /// The last search segment whose start is at or before a distance (clamped to the line).
    func segment(containing distance: Double) -> Int {
        let last = coordinates.count - 2
        guard last >= 0, distance > 0 else { return 0 }
        guard distance < cumulativeDistances[last + 1] else { return last }
        var low = 0, high = last
        while low < high {
            let mid = (low + high + 1) / 2
            if cumulativeDistances[mid] <= distance { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
