import Foundation
import GeoCore

/// A bounding-volume hierarchy over the geodesic segments of a polyline, in Earth-centered Cartesian
/// coordinates (ECEF, meters), for nearest-segment queries that touch only a few segments.
///
/// ### Why the bounds are safe
/// Every point X of a geodesic segment from A to B of length L satisfies |XA| + |XB| ≤ L (each
/// straight chord is no longer than the arc it spans), so X lies inside the prolate spheroid with
/// foci A and B and major axis L. Every point of that spheroid is within
/// m = √(L² − c²) / 2 of the chord AB (c = |AB|), its semi-minor axis. So the box of A and B grown
/// by m contains the whole segment, and for any point P on the ellipsoid
///
///     geodesic distance(P, segment) ≥ |P − segment|₃ ≥ distance₃(P, chord AB) − m,
///
/// because a geodesic is never shorter than the straight line between its ends. For a 1 km segment
/// m is about 2 cm; for 100 km about 230 m. The query visits boxes and segments in increasing order
/// of that lower bound and solves the exact geodesic problem (`GeodesicLine.closestPoint(to:)`)
/// only for segments whose bound is below the best exact distance found so far, so the answer is
/// the same as a linear scan over all segments.
///
/// The hierarchy is implicit: level 0 holds one box per segment, and box `j` of level `k` covers
/// boxes `2j` and `2j + 1` of level `k − 1`, so a node always covers a contiguous run of segments.
/// Polylines are spatially coherent in their vertex order, which keeps these boxes tight.
final class SegmentIndex: Sendable {
    /// ECEF coordinates of the vertices, interleaved x, y, z.
    private let vertices: [Double]
    /// Per segment, the distance m by which the geodesic may leave its chord, plus a millimeter.
    private let margins: [Double]
    /// Boxes of all levels, six numbers each (min x, y, z, max x, y, z); level k starts at
    /// `levelStarts[k]`.
    private let boxes: [Double]
    private let levelStarts: [Int]
    private let levelCounts: [Int]
    /// The vertices, for the exact solution.
    private let coordinates: [Coordinate]
    /// The initial azimuth (degrees) and length (meters) of each segment.
    private let azimuths: [Double]
    private let lengths: [Double]

    /// Earth-centered, Earth-fixed Cartesian coordinates in meters of a point on the WGS84 ellipsoid
    /// (height 0).
    @inline(__always)
    static func ecef(_ c: Coordinate) -> (x: Double, y: Double, z: Double) {
        let p = WGS84.earthCentered(c)
        return (p.x, p.y, p.z)
    }

    init(coordinates: [Coordinate], cumulativeDistances: [Double], azimuths: [Double]) {
        self.coordinates = coordinates
        self.azimuths = azimuths
        self.lengths = (0..<max(0, coordinates.count - 1)).map {
            cumulativeDistances[$0 + 1] - cumulativeDistances[$0]
        }
        var vertices = [Double]()
        vertices.reserveCapacity(coordinates.count * 3)
        for c in coordinates {
            let p = SegmentIndex.ecef(c)
            vertices.append(p.x); vertices.append(p.y); vertices.append(p.z)
        }
        let segmentCount = max(0, coordinates.count - 1)
        var margins = [Double]()
        margins.reserveCapacity(segmentCount)
        var boxes = [Double]()
        boxes.reserveCapacity(segmentCount * 12 + 6)
        for i in 0..<segmentCount {
            let length = cumulativeDistances[i + 1] - cumulativeDistances[i]
            let dx = vertices[3 * i + 3] - vertices[3 * i]
            let dy = vertices[3 * i + 4] - vertices[3 * i + 1]
            let dz = vertices[3 * i + 5] - vertices[3 * i + 2]
            let chordSquared = dx * dx + dy * dy + dz * dz
            let margin =
                max(0, length * length - chordSquared).squareRoot() / 2 + 1e-3 + length * 1e-9
            margins.append(margin)
            for axis in 0..<3 {
                boxes.append(min(vertices[3 * i + axis], vertices[3 * i + 3 + axis]) - margin)
            }
            for axis in 0..<3 {
                boxes.append(max(vertices[3 * i + axis], vertices[3 * i + 3 + axis]) + margin)
            }
        }
        var levelStarts = [0]
        var levelCounts = [segmentCount]
        var count = segmentCount
        var start = 0
        while count > 1 {
            let parents = (count + 1) / 2
            let parentStart = boxes.count / 6
            for j in 0..<parents {
                let a = (start + 2 * j) * 6
                if 2 * j + 1 < count {
                    let b = a + 6
                    for axis in 0..<3 { boxes.append(min(boxes[a + axis], boxes[b + axis])) }
                    for axis in 3..<6 { boxes.append(max(boxes[a + axis], boxes[b + axis])) }
                } else {
                    for axis in 0..<6 { boxes.append(boxes[a + axis]) }
                }
            }
            levelStarts.append(parentStart)
            levelCounts.append(parents)
            start = parentStart
            count = parents
        }
        self.vertices = vertices
        self.margins = margins
        self.boxes = boxes
        self.levelStarts = levelStarts
        self.levelCounts = levelCounts
    }

    /// The nearest segment's nearest point.
    struct Hit {
        /// The segment.
        var segment: Int
        /// The nearest point of the segment.
        var coordinate: Coordinate
        /// Its distance in meters along the segment from the segment's start.
        var distanceAlong: Double
        /// The geodesic distance in meters from the query point.
        var distance: Double

        init(segment: Int, coordinate: Coordinate, distanceAlong: Double, distance: Double) {
            self.segment = segment
            self.coordinate = coordinate
            self.distanceAlong = distanceAlong
            self.distance = distance
        }

        init(segment: Int, _ projection: GeodesicLine.Projection) {
            self.init(
                segment: segment, coordinate: projection.coordinate,
                distanceAlong: projection.distanceAlong,
                distance: projection.distance)
        }
    }

    /// The lower bound in meters on the geodesic distance from a point (ECEF) to anything in a box.
    @inline(__always)
    private func boxBound(_ box: Int, _ px: Double, _ py: Double, _ pz: Double) -> Double {
        let o = box * 6
        return boxes.withUnsafeBufferPointer { b in
            let dx = max(b[o] - px, 0, px - b[o + 3])
            let dy = max(b[o + 1] - py, 0, py - b[o + 4])
            let dz = max(b[o + 2] - pz, 0, pz - b[o + 5])
            return (dx * dx + dy * dy + dz * dz).squareRoot()
        }
    }

    /// The lower bound in meters on the geodesic distance from a point (ECEF) to a segment: the
    /// distance to its chord less its margin.
    @inline(__always)
    func segmentBound(_ i: Int, _ px: Double, _ py: Double, _ pz: Double) -> Double {
        vertices.withUnsafeBufferPointer { v in
            let ax = v[3 * i], ay = v[3 * i + 1], az = v[3 * i + 2]
            let bx = v[3 * i + 3] - ax, by = v[3 * i + 4] - ay, bz = v[3 * i + 5] - az
            let qx = px - ax, qy = py - ay, qz = pz - az
            let bb = bx * bx + by * by + bz * bz
            let t = bb > 0 ? min(max((qx * bx + qy * by + qz * bz) / bb, 0), 1) : 0
            let ex = qx - t * bx, ey = qy - t * by, ez = qz - t * bz
            return max(0, (ex * ex + ey * ey + ez * ez).squareRoot() - margins[i])
        }
    }

    /// The point of the segments `segments` nearest to `point` on the ellipsoid, found best-first.
    ///
    /// - Parameters:
    ///   - segments: The segment indices to consider (clamped to the polyline's).
    ///   - firstStart: Meters along the first segment of the range before which it is not searched.
    ///   - lastEnd: Meters along the last segment of the range after which it is not searched.
    /// - Returns: `nil` if the range holds no segment.
    func nearest(
        to point: Coordinate, segments: ClosedRange<Int>, firstStart: Double = 0,
        lastEnd: Double = .infinity
    ) -> Hit? {
        let segmentCount = levelCounts[0]
        let low = max(segments.lowerBound, 0), high = min(segments.upperBound, segmentCount - 1)
        guard low <= high else { return nil }
        let (px, py, pz) = SegmentIndex.ecef(point)
        let topLevel = levelCounts.count - 1

        var heap = MinHeap()
        heap.push(
            Entry(
                bound: boxBound(levelStarts[topLevel], px, py, pz), level: Int32(topLevel), node: 0)
        )
        var best: Hit?
        var bestDistance = Double.infinity
        while let entry = heap.pop() {
            if !(entry.bound < bestDistance) { break }
            let node = Int(entry.node)
            if entry.level < 0 {
                // A segment whose chord bound is below the best exact distance: solve it exactly,
                // unless it repeats the best one's end points (a line parked at one place): the
                // chord bound, always below the geodesic distance, would not prune such copies.
                if let best, node != low && node != high,
                    coordinates[node] == coordinates[best.segment],
                    coordinates[node + 1] == coordinates[best.segment + 1]
                {
                    continue
                }
                var hit = exactNearest(onSegment: node, to: point, px, py, pz)
                // On a partly searched end segment, the nearest point of the searched part is the
                // foot moved to its edge: the distance grows monotonically away from the foot.
                if node == low && hit.distanceAlong < firstStart {
                    hit = pointOf(
                        segment: node, atDistance: min(firstStart, lengths[node]), from: point)
                }
                if node == high && hit.distanceAlong > lastEnd {
                    hit = pointOf(segment: node, atDistance: max(lastEnd, 0), from: point)
                }
                if hit.distance < bestDistance {
                    bestDistance = hit.distance
                    best = hit
                }
            } else if entry.level == 0 {
                let bound = max(entry.bound, segmentBound(node, px, py, pz))
                if bound < bestDistance {
                    heap.push(Entry(bound: bound, level: -1, node: entry.node))
                }
            } else {
                let childLevel = Int(entry.level) - 1
                let span = 1 << childLevel  // segments per child node
                for child in (2 * node)...(2 * node + 1) where child < levelCounts[childLevel] {
                    let first = child * span, last = min(first + span, segmentCount) - 1
                    guard last >= low && first <= high else { continue }
                    let bound = boxBound(levelStarts[childLevel] + child, px, py, pz)
                    if bound < bestDistance {
                        heap.push(Entry(bound: bound, level: Int32(childLevel), node: Int32(child)))
                    }
                }
            }
        }
        return best
    }

    /// The exact nearest point of one segment.
    ///
    /// The foot of the geodesic perpendicular (`GeodesicLine.foot`), started from the foot of the
    /// perpendicular on the chord, which is within millimeters of it for the segments and offsets of
    /// routes and tracks. Segments over 500 km and points over 500 km away use
    /// `GeodesicLine.closestPoint(to:)`, which also compares both ends.
    func exactNearest(
        onSegment i: Int, to point: Coordinate, _ px: Double, _ py: Double, _ pz: Double
    ) -> Hit {
        let geodesic = Geodesic.wgs84
        let length = lengths[i]
        let start = coordinates[i]
        guard length > 0 else {
            return Hit(
                segment: i, coordinate: start, distanceAlong: 0,
                distance: geodesic.distance(from: start, to: point))
        }
        // The chord parameter of the point's foot, as a first guess of the fraction along the arc.
        let t: Double = vertices.withUnsafeBufferPointer { v in
            let ax = v[3 * i], ay = v[3 * i + 1], az = v[3 * i + 2]
            let bx = v[3 * i + 3] - ax, by = v[3 * i + 4] - ay, bz = v[3 * i + 5] - az
            let bb = bx * bx + by * by + bz * bz
            return bb > 0
                ? min(max(((px - ax) * bx + (py - ay) * by + (pz - az) * bz) / bb, 0), 1) : 0
        }
        let foot = SegmentIndex.foot(
            onSegmentFrom: start, azimuth: azimuths[i], length: length, to: coordinates[i + 1],
            nearest: point,
            startingAt: t * length)
        return Hit(
            segment: i, coordinate: foot.coordinate, distanceAlong: foot.distanceAlong,
            distance: foot.distance)
    }

    /// The point of a geodesic segment nearest to a point: the foot of the geodesic perpendicular
    /// from a first guess (`GeodesicLine.foot`), or `GeodesicLine.closestPoint(to:)` for segments
    /// or points over 500 km away, where the ends must be compared too.
    static func foot(
        onSegmentFrom start: Coordinate, azimuth: Double, length: Double, to end: Coordinate,
        nearest point: Coordinate,
        startingAt guess: Double
    ) -> (coordinate: Coordinate, distanceAlong: Double, distance: Double) {
        let geodesic = Geodesic.wgs84
        if length <= 500_000,
            let foot = GeodesicLine.foot(
                of: point, alongSegmentOfLength: length, startingAt: guess, geodesic: geodesic,
                position: { s in
                    let here = geodesic.direct(from: start, azimuth: azimuth, distance: s)
                    return GeodesicLine.Point(
                        coordinate: here.coordinate, azimuth: here.finalAzimuth)
                }), foot.distance <= 500_000
        {
            return (foot.coordinate, foot.distanceAlong, foot.distance)
        }
        let p = geodesic.line(from: start, to: end).closestPoint(to: point)
        return (p.coordinate, p.distanceAlong, p.distance)
    }

    /// The point a distance along a segment, with its distance from another point.
    private func pointOf(segment i: Int, atDistance s: Double, from point: Coordinate) -> Hit {
        let geodesic = Geodesic.wgs84
        let at =
            s <= 0
            ? coordinates[i]
            : s >= lengths[i]
                ? coordinates[i + 1]
                : geodesic.direct(from: coordinates[i], azimuth: azimuths[i], distance: s)
                    .coordinate
        return Hit(
            segment: i, coordinate: at, distanceAlong: s,
            distance: geodesic.distance(from: at, to: point))
    }

    /// The exact nearest point by a linear scan over every segment (the oracle for tests and the
    /// baseline for benchmarks).
    func nearestByLinearScan(to point: Coordinate, segments: ClosedRange<Int>) -> Hit? {
        let low = max(segments.lowerBound, 0), high = min(segments.upperBound, levelCounts[0] - 1)
        guard low <= high else { return nil }
        var best: Hit?
        var bestDistance = Double.infinity
        for i in low...high {
            let projection = Geodesic.wgs84.line(from: coordinates[i], to: coordinates[i + 1])
                .closestPoint(to: point)
            if best == nil || projection.distance < bestDistance {
                best = Hit(segment: i, projection)
                bestDistance = projection.distance
            }
        }
        return best
    }

    // MARK: - A small binary heap of (bound, level, node)

    struct Entry {
        var bound: Double
        /// The level of a box, or −1 for a segment whose chord bound has been computed.
        var level: Int32
        var node: Int32
    }

    struct MinHeap {
        private var items: [Entry] = []

        init() { items.reserveCapacity(64) }

        mutating func push(_ entry: Entry) {
            items.append(entry)
            var i = items.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard items[i].bound < items[parent].bound else { break }
                items.swapAt(i, parent)
                i = parent
            }
        }

        mutating func pop() -> Entry? {
            guard let last = items.popLast() else { return nil }
            guard !items.isEmpty else { return last }
            let top = items[0]
            items[0] = last
            var i = 0
            let n = items.count
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < n && items[l].bound < items[smallest].bound { smallest = l }
                if r < n && items[r].bound < items[smallest].bound { smallest = r }
                if smallest == i { break }
                items.swapAt(i, smallest)
                i = smallest
            }
            return top
        }
    }
}
