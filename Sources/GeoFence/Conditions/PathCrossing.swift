import Foundation
import GeoCore

/// Whether the geodesic path between two fixes passes through a fence, and where it enters and
/// leaves.
///
/// Two fixes far apart (a phone asleep in a train, a tracker reporting every few minutes) can both
/// be outside a fence the device went through. The path between them is taken to be the geodesic;
/// a fence it passes through to a depth of at least the hysteresis margin plus the larger accuracy
/// of the two fixes gets an enter and an exit, dated by interpolating time along the path.
///
/// - Circles are exact: the deepest point is the foot of the perpendicular from the center
///   (`GeodesicLine.closestPoint(to:)`) and the boundary crossings are found by bisection on the
///   geodesic distance to the center, to 1 mm.
/// - Polygons are sampled along the path at 1/32 of the polygon's smaller bounding-box side (at most
///   4 097 samples), so a polygon thinner than that spacing across the path can be missed; the
///   boundary crossings are found by bisection on exact containment. A path can pass through a
///   polygon more than once (a U-shaped fence, a hole): each pass deep enough gets its own enter
///   and exit, and two passes count as one when the path between them does not get as far outside
///   as it must get inside (the same margin, so a path grazing the boundary from inside is not an
///   exit).
enum PathCrossing {
    /// Where the path enters and leaves a fence.
    struct Result: Sendable {
        var entry: Coordinate
        var entryFraction: Double
        var exit: Coordinate
        var exitFraction: Double
        /// The signed distance to the boundary of the path's deepest point found (negative).
        var deepest: Double
    }

    /// The geodesic between two consecutive fixes, set up once for all fences.
    struct Path: Sendable {
        let from: Location
        let to: Location
        let line: GeodesicLine
        /// The midpoint; every point of the path is within `line.length / 2` of it.
        let middle: Coordinate

        /// The path between two valid fixes, or `nil` when they coincide.
        init?(from: Location, to: Location) {
            guard from.coordinate.isValid && to.coordinate.isValid else { return nil }
            let line = Geodesic.wgs84.line(from: from.coordinate, to: to.coordinate)
            guard line.length > 0 && line.length.isFinite else { return nil }
            self.from = from
            self.to = to
            self.line = line
            middle = line.position(atDistance: line.length / 2).coordinate
        }
    }

    /// The path between a device's previous fix and the new one, set up only when a fence needs it
    /// (most fixes change no fence that is outside, and then no geodesic line is built).
    struct LazyPath: Sendable {
        let from: Location?
        let to: Location
        private var cached: Path??

        init(from: Location?, to: Location) {
            self.from = from
            self.to = to
        }

        mutating func get() -> Path? {
            if let cached { return cached }
            let path = from.flatMap { Path(from: $0, to: to) }
            cached = .some(path)
            return path
        }
    }

    /// The passes of a path through a fence that get at least `depth` meters inside it, in
    /// their order along the path (at most one for a circle).
    static func find(
        _ condition: GeographicCondition, along path: Path, depth: Double
    ) -> [Result] {
        switch condition {
        case .circle(let circle):
            return circleCrossing(circle, path: path, depth: depth).map { [$0] } ?? []
        case .polygon(let polygon): return polygonCrossings(polygon, path: path, depth: depth)
        }
    }

    private static func circleCrossing(
        _ circle: CircularGeographicCondition, path: Path, depth: Double
    ) -> Result? {
        let target = circle.radius - depth
        guard target >= 0 else { return nil }
        let line = path.line
        if circle.distance(fromCenterTo: path.middle) - line.length / 2 > target { return nil }
        let foot = line.closestPoint(to: circle.center)
        guard foot.distance <= target else { return nil }
        let inside: (Double) -> Bool = { s in
            circle.distance(fromCenterTo: line.position(atDistance: s).coordinate) <= circle.radius
        }
        let entry = boundary(of: inside, outside: 0, inside: foot.distanceAlong)
        let exit = boundary(of: inside, outside: line.length, inside: foot.distanceAlong)
        return Result(
            entry: line.position(atDistance: entry).coordinate, entryFraction: entry / line.length,
            exit: line.position(atDistance: exit).coordinate, exitFraction: exit / line.length,
            deepest: foot.distance - circle.radius)
    }

    private static func polygonCrossings(
        _ polygon: PolygonGeographicCondition, path: Path, depth: Double
    ) -> [Result] {
        let g = polygon.rings
        let line = path.line
        // Quick rejection: the path's bounding box (from its midpoint and half length) misses the
        // polygon's.
        let middle = path.middle
        let reach = EllipsoidMetric.reach(line.length / 2, around: middle.latitude)
        if middle.latitude + reach.latitude < g.minY || middle.latitude - reach.latitude > g.maxY {
            return []
        }
        if let lonReach = reach.longitude {
            let x = middle.longitude
            let overlaps = [x, x + 360, x - 360].contains { c in
                c + lonReach >= g.minX && c - lonReach <= g.maxX
            }
            if !overlaps { return [] }
        }
        let metersPerDegree = EllipsoidMetric.minimumMetersPerDegreeLatitude
        let height = (g.maxY - g.minY) * metersPerDegree
        let width =
            (g.maxX - g.minX) * metersPerDegree
            * max(0.01, cos(max(abs(g.maxY), abs(g.minY)) * .pi / 180))
        let spacing = max(0.5, min(height, width) / 32, line.length / 4096)
        let count = min(4096, Int((line.length / spacing).rounded(.up)))
        let step = line.length / Double(max(1, count))
        // The runs of samples inside, each with its deepest point; and between two runs, how far
        // outside the path got.
        var runs = [(first: Int, last: Int, deepest: Double)]()
        var farthestOutside = 0.0
        for i in 0...count {
            let point = line.position(atDistance: i == count ? line.length : Double(i) * step)
                .coordinate
            guard polygon.contains(point) else {
                // Only a gap between two runs needs its distance, and only up to `depth`.
                if !runs.isEmpty && farthestOutside < depth {
                    farthestOutside = max(
                        farthestOutside, g.boundaryDistance(from: point, upTo: depth))
                }
                continue
            }
            let inside = -g.boundaryDistance(from: point, upTo: .infinity)
            if let previous = runs.last, previous.last == i - 1 || farthestOutside < depth {
                // The same pass: the next sample, or back in before getting far enough out.
                runs[runs.count - 1].last = i
                runs[runs.count - 1].deepest = min(previous.deepest, inside)
            } else {
                runs.append((i, i, inside))
            }
            farthestOutside = 0
        }
        let inside: (Double) -> Bool = { s in
            polygon.contains(line.position(atDistance: s).coordinate)
        }
        return runs.filter { $0.deepest <= -depth }.map { run in
            let entry =
                run.first == 0
                ? 0
                : boundary(
                    of: inside, outside: Double(run.first - 1) * step,
                    inside: Double(run.first) * step)
            let exit =
                run.last == count
                ? line.length
                : boundary(
                    of: inside, outside: min(line.length, Double(run.last + 1) * step),
                    inside: Double(run.last) * step)
            return Result(
                entry: line.position(atDistance: entry).coordinate,
                entryFraction: entry / line.length,
                exit: line.position(atDistance: exit).coordinate, exitFraction: exit / line.length,
                deepest: run.deepest)
        }
    }

    /// Bisection between a distance along the path that is outside and one that is inside, to 1 mm;
    /// returns the first inside end.
    private static func boundary(
        of inside: (Double) -> Bool, outside: Double, inside insideAt: Double
    ) -> Double {
        var out = outside, into = insideAt
        if inside(out) { return out }
        for _ in 0..<80 where abs(into - out) > 1e-3 {
            let mid = (out + into) / 2
            if inside(mid) { into = mid } else { out = mid }
        }
        return into
    }
}
