import Foundation
import GeoCore

/// A fence near a location, from ``GeofenceIndex/nearest(_:to:)``.
public struct GeofenceNeighbor: Hashable, Sendable {
    /// The fence's position in the array the index was built from.
    public var fence: Int
    /// The fence's identifier.
    public var identifier: String
    /// The signed geodesic distance in meters from the location to the fence's boundary: negative
    /// inside, positive outside.
    public var distance: Double
}

extension GeofenceIndex {
    /// The `count` fences nearest a location, by signed geodesic distance to their boundaries: the
    /// fences the location is in (deepest first), then the closest others. Ties go to the lower
    /// position.
    ///
    /// This is what an app hands to an operating system that caps the fences it watches (20 on iOS,
    /// 100 on Android), refreshing the set as the device moves.
    ///
    /// The search walks rings of grid cells outward from the location's cell. After each ring, every
    /// fence not yet seen lies outside the window of cells searched, so its distance is at least the
    /// distance to the window's edge: M₀ · Δφ to its northern or southern edge (M₀ the smallest
    /// meridional radius) or P_min · Δλ to its eastern or western edge (P_min the smallest radius of
    /// a parallel inside the window); the search stops when that bound exceeds the `count`-th
    /// distance found. Large fences are always measured.
    ///
    /// - Throws: `GeoError.Kind.invalidCoordinate` for an invalid location,
    ///   `GeoError.Kind.invalidArgument` for a negative count.
    /// - Complexity: O(cells within the `count`-th distance + the fences listed there), one geodesic
    ///   distance per fence looked at.
    public func nearest(
        _ count: Int, to location: Coordinate
    ) throws(GeoError) -> [GeofenceNeighbor] {
        guard count >= 0 else {
            throw GeoError(.invalidArgument, "count \(count) must not be negative")
        }
        let point = try location.validated()
        guard count > 0 && !conditions.isEmpty else { return [] }
        // The `count` nearest so far, as a max-heap: the farthest (and, on ties, the highest
        // position) on top, so that each fence costs O(log count) whatever `count` is.
        var best = NearestHeap(capacity: count)
        var seen = Set<Int32>()
        func consider(_ fence: Int32) {
            guard seen.insert(fence).inserted else { return }
            let d = conditions[Int(fence)].signedDistance(from: point)
            guard d.isFinite else { return }
            best.offer(distance: d, fence: Int(fence))
        }
        for slot in gridCount..<conditions.count { consider(fenceOfSlot[slot]) }

        let g = grid
        if g.rows > 0 && g.cols > 0 {
            // The location's cell, possibly outside the grid.
            let x = g.frameX(point.longitude)
            let rf = ((point.latitude - g.south) * g.inverseCellHeight).rounded(.down)
            let pr = Int(max(-1e9, min(1e9, rf))),
                pc = Int(max(-1e9, min(1e9, (x * g.inverseCellWidth).rounded(.down))))
            // The first ring that holds grid cells.
            let dr = pr < 0 ? -pr : max(0, pr - (g.rows - 1))
            let dc = g.wraps ? 0 : (pc < 0 ? -pc : max(0, pc - (g.cols - 1)))
            var k = max(dr, dc)
            while true {
                visitRing(k, row: pr, column: pc) { cell in
                    for e in Int(g.cellStart[cell])..<Int(g.cellStart[cell + 1]) {
                        consider(fenceOfSlot[Int(g.entries[e])])
                    }
                }
                let coversRows = pr - k <= 0 && pr + k >= g.rows - 1
                let coversColumns =
                    g.wraps ? 2 * k + 1 >= g.cols : (pc - k <= 0 && pc + k >= g.cols - 1)
                if coversRows && coversColumns { break }
                if best.isFull, let worst = best.farthest,
                    distanceOutsideWindow(k, row: pr, column: pc, point: point, frameX: x)
                        * (1 - 1e-9) - 1e-6 > worst
                {
                    break
                }
                k += 1
            }
        }
        return best.sorted().map {
            GeofenceNeighbor(
                fence: $0.fence, identifier: identifier(of: $0.fence), distance: $0.distance)
        }
    }

    /// Calls `body` with each grid cell at Chebyshev distance exactly `k` from (row, column), which
    /// may lie outside the grid; columns wrap when the grid spans all longitudes.
    private func visitRing(_ k: Int, row pr: Int, column pc: Int, _ body: (Int) -> Void) {
        let g = grid
        let r0 = max(0, pr - k), r1 = min(g.rows - 1, pr + k)
        guard r0 <= r1 else { return }
        let allColumns = g.wraps && 2 * k + 1 >= g.cols
        for r in r0...r1 {
            let edge = r == pr - k || r == pr + k
            var columns = [Int]()
            if edge {
                if allColumns {
                    columns = Array(0..<g.cols)
                } else if g.wraps {
                    columns = ((pc - k)...(pc + k)).map { (($0 % g.cols) + g.cols) % g.cols }
                } else if max(0, pc - k) <= min(g.cols - 1, pc + k) {
                    columns = Array(max(0, pc - k)...min(g.cols - 1, pc + k))
                }
            } else {
                for c in k == 0 ? [pc] : [pc - k, pc + k] {
                    if g.wraps {
                        columns.append(((c % g.cols) + g.cols) % g.cols)
                    } else if c >= 0 && c < g.cols {
                        columns.append(c)
                    }
                }
            }
            for c in columns { body(r * g.cols + c) }
        }
    }

    /// A proven lower bound of the geodesic distance from a point to anything in a grid cell that
    /// lies outside the window of cells within Chebyshev distance `k` of the point's cell.
    ///
    /// A path from the point leaves the window through a parallel, after at least M₀ · Δφ, or through
    /// a meridian, after traveling at least the longitude to the nearest unsearched fence-bearing
    /// column inside the window's latitudes, where the parallels' radius is at least P_min.
    private func distanceOutsideWindow(
        _ k: Int, row pr: Int, column pc: Int, point: Coordinate, frameX x: Double
    ) -> Double {
        let g = grid
        let south = g.south + Double(pr - k) * g.cellHeight,
            north = g.south + Double(pr + k + 1) * g.cellHeight
        var bound = Double.infinity
        if south > -90 {
            bound = min(
                bound, (point.latitude - south) * EllipsoidMetric.minimumMetersPerDegreeLatitude)
        }
        if north < 90 {
            bound = min(
                bound, (north - point.latitude) * EllipsoidMetric.minimumMetersPerDegreeLatitude)
        }
        let west = Double(pc - k) * g.cellWidth, east = Double(pc + k + 1) * g.cellWidth
        var longitudeGap = Double.infinity
        if g.wraps {
            if 2 * k + 1 < g.cols { longitudeGap = min(x - west, east - x) }
        } else {
            // Fences lie only in frame x ∈ [0, extent); the unsearched part is what the window misses.
            let extent = Double(g.cols) * g.cellWidth
            func circular(_ a: Double) -> Double {
                let d = abs(a - x).truncatingRemainder(dividingBy: 360)
                return min(d, 360 - d)
            }
            if west > 0 {
                longitudeGap = min(longitudeGap, circular(0), circular(min(west, extent)))
            }
            if east < extent {
                longitudeGap = min(longitudeGap, circular(max(east, 0)), circular(extent))
            }
        }
        if longitudeGap.isFinite {
            let band = EllipsoidMetric.extremes(
                low: max(-90, south) * .pi / 180, high: min(90, north) * .pi / 180)
            bound = min(bound, band.pMin * longitudeGap * .pi / 180)
        }
        return max(0, bound)
    }
}

/// The `capacity` nearest fences offered so far: a binary max-heap ordered by distance, then
/// position, so that the farthest kept is on top.
private struct NearestHeap {
    let capacity: Int
    private var entries: [(distance: Double, fence: Int)] = []

    init(capacity: Int) {
        self.capacity = capacity
        entries.reserveCapacity(min(capacity, 1 << 16))
    }

    /// Whether it holds `capacity` fences.
    var isFull: Bool { entries.count == capacity }

    /// The distance of the farthest fence kept.
    var farthest: Double? { entries.first?.distance }

    private static func before(
        _ a: (distance: Double, fence: Int), _ b: (distance: Double, fence: Int)
    ) -> Bool {
        a.distance < b.distance || (a.distance == b.distance && a.fence < b.fence)
    }

    /// Keeps a fence if it is nearer than the farthest kept (or there is room).
    mutating func offer(distance: Double, fence: Int) {
        let entry = (distance: distance, fence: fence)
        if entries.count < capacity {
            entries.append(entry)
            var i = entries.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard NearestHeap.before(entries[parent], entries[i]) else { break }
                entries.swapAt(parent, i)
                i = parent
            }
            return
        }
        guard let top = entries.first, NearestHeap.before(entry, top) else { return }
        entries[0] = entry
        var i = 0
        while true {
            let left = 2 * i + 1, right = left + 1
            var largest = i
            if left < entries.count && NearestHeap.before(entries[largest], entries[left]) {
                largest = left
            }
            if right < entries.count && NearestHeap.before(entries[largest], entries[right]) {
                largest = right
            }
            guard largest != i else { break }
            entries.swapAt(i, largest)
            i = largest
        }
    }

    /// The fences kept, nearest first.
    func sorted() -> [(distance: Double, fence: Int)] {
        entries.sorted(by: NearestHeap.before)
    }
}
