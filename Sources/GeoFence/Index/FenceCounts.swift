import Foundation
import GeoCore

/// Counts from a bulk containment query: what ``GeofenceIndex/fenceCounts(containing:threads:)``
/// found and how much work the proven cheap tests saved (the fence benchmark reports them).
package struct ContainmentStatistics: Hashable, Sendable {
    /// Points queried.
    package var points = 0
    /// (point, fence) pairs with the point inside or on the fence: for circles, geodesic distance
    /// ≤ radius.
    package var pairs = 0
    /// Pairs found in interior cells (a circle covering the point's whole cell), counted without a
    /// test.
    package var interiorPairs = 0
    /// Fences tested for a point (cheap test or polygon predicate).
    package var candidates = 0
    /// Geodesic solutions (`geod_inverse`) needed because the cheap test was undecided, or for large
    /// fences.
    package var exactEvaluations = 0

    /// Creates empty counts.
    package init() {}

    mutating func add(_ other: ContainmentStatistics) {
        points += other.points
        pairs += other.pairs
        interiorPairs += other.interiorPairs
        candidates += other.candidates
        exactEvaluations += other.exactEvaluations
    }
}

extension GeofenceIndex {
    /// How many fences contain each of many points (inside or on the boundary): the server-scale
    /// question "how many zones is each delivery in", answered exactly.
    ///
    /// The points are first sorted into tiles of 16 × 16 grid cells with a counting sort, so that a
    /// tile's cells, entries and fences stay in the processor's cache while its points are tested;
    /// with `threads` > 1 the points are split into that many contiguous parts, each sorted and
    /// tested on its own thread. The answer is the same for any thread count.
    ///
    /// - Parameters:
    ///   - points: The points.
    ///   - threads: How many threads to use (1 by default).
    /// - Returns: The number of fences containing `points[i]`, at index `i`.
    /// - Throws: `GeoError.Kind.invalidCoordinate` naming the first invalid point and
    ///   its index (in `GeoError.offset`).
    /// - Complexity: O(points + candidates); about 56 bytes of memory per point.
    public func fenceCounts(
        containing points: [Coordinate], threads: Int = 1
    ) throws(GeoError) -> [Int] {
        var counts = [Int32](repeating: 0, count: points.count)
        _ = try containmentStatistics(
            latitudes: points.map(\.latitude), longitudes: points.map(\.longitude),
            threads: threads,
            counts: &counts)
        return counts.map(Int.init)
    }

    /// The totals of ``fenceCounts(containing:threads:)`` over points given as two arrays, with the
    /// work counters; `counts`, when not empty, receives the per-point counts.
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` if the arrays differ in length (or
    ///   from `counts`), and as ``fenceCounts(containing:threads:)``.
    package func containmentStatistics(
        latitudes: [Double], longitudes: [Double], threads: Int = 1
    ) throws(GeoError) -> ContainmentStatistics {
        var none = [Int32]()
        return try containmentStatistics(
            latitudes: latitudes, longitudes: longitudes, threads: threads, counts: &none)
    }

    private func containmentStatistics(
        latitudes: [Double], longitudes: [Double], threads: Int, counts: inout [Int32]
    ) throws(GeoError) -> ContainmentStatistics {
        guard latitudes.count == longitudes.count else {
            throw GeoError(
                .invalidArgument, "\(latitudes.count) latitudes but \(longitudes.count) longitudes")
        }
        let n = latitudes.count
        guard counts.isEmpty || counts.count == n else {
            throw GeoError(.invalidArgument, "\(counts.count) count slots for \(n) points")
        }
        let parts = max(1, min(threads, n / 1_024 + 1))
        let results = counts.withUnsafeMutableBufferPointer { counts in
            // Each part writes the counts of its own points only.
            let slots = counts.isEmpty ? nil : counts.baseAddress.map(WorkerSlots.init)
            return WorkerSlots<Result<ContainmentStatistics, GeoError>>.collect(parts: parts) {
                part in
                let range = (n * part / parts)..<(n * (part + 1) / parts)
                do throws(GeoError) {
                    return .success(try self.count(latitudes, longitudes, range, into: slots))
                } catch {
                    return .failure(error)
                }
            }
        }
        var total = ContainmentStatistics()
        for result in results {
            switch result {
            case .success(let part): total.add(part)
            case .failure(let error): throw error
            }
        }
        return total
    }

    /// Counts one contiguous part of the points, writing each point's count into `perPoint` (at its
    /// index) when given.
    private func count(
        _ latitudes: [Double], _ longitudes: [Double], _ range: Range<Int>,
        into perPoint: WorkerSlots<Int32>?
    ) throws(GeoError) -> ContainmentStatistics {
        var stats = ContainmentStatistics()
        stats.points = range.count
        let m = range.count
        guard m > 0 else { return stats }
        let g = grid
        let shift = Self.tileShift, tileSize = 1 << shift
        let tileCols = (g.cols + tileSize - 1) >> shift, tileRows = (g.rows + tileSize - 1) >> shift
        let outside = tileRows * tileCols  // the bucket of points outside the grid
        var offsets = [Int](repeating: 0, count: outside + 2)
        let bucketOf = UnsafeMutableBufferPointer<Int32>.allocate(capacity: m)
        let cellOf = UnsafeMutableBufferPointer<Int32>.allocate(capacity: m)
        let sorted = UnsafeMutableBufferPointer<SortedPoint>.allocate(capacity: m)
        defer {
            bucketOf.deallocate()
            cellOf.deallocate()
            sorted.deallocate()
        }
        let south = g.south, origin = g.origin, inverseH = g.inverseCellHeight,
            inverseW = g.inverseCellWidth
        let rowsD = Double(g.rows), colsD = Double(g.cols), cols = g.cols
        var firstBad = -1

        // Pass 1: each point's cell and tile, and the tiles' sizes.
        latitudes.withUnsafeBufferPointer { lat in
            longitudes.withUnsafeBufferPointer { lon in
                offsets.withUnsafeMutableBufferPointer { offsets in
                    for i in 0..<m {
                        let la = lat[range.lowerBound &+ i], lo = lon[range.lowerBound &+ i]
                        var bucket = outside, cell = -1
                        if la >= -90 && la <= 90 && lo >= -180 && lo <= 180 {
                            let rf = (la - south) * inverseH
                            var x = lo - origin
                            if x < 0 { x += 360 }
                            if x >= 360 { x -= 360 }
                            let cf = x * inverseW
                            if rf >= 0 && rf < rowsD && cf >= 0 && cf < colsD {
                                let r = Int(rf), c = Int(cf)
                                cell = r &* cols &+ c
                                bucket = (r >> shift) &* tileCols &+ (c >> shift)
                            }
                        } else if firstBad < 0 {
                            firstBad = i
                        }
                        bucketOf[i] = Int32(truncatingIfNeeded: bucket)
                        cellOf[i] = Int32(truncatingIfNeeded: cell)
                        offsets[bucket &+ 1] &+= 1
                    }
                }
            }
        }
        if firstBad >= 0 {
            let index = range.lowerBound + firstBad
            throw GeoError(
                .invalidCoordinate,
                "point \(index): latitude \(latitudes[index]), longitude \(longitudes[index]) is not a valid coordinate",
                offset: index)
        }
        // Pass 2: where each tile starts; pass 3: the points, sorted by tile.
        for b in 0...outside { offsets[b + 1] += offsets[b] }
        latitudes.withUnsafeBufferPointer { lat in
            longitudes.withUnsafeBufferPointer { lon in
                offsets.withUnsafeMutableBufferPointer { next in
                    for i in 0..<m {
                        let b = Int(bucketOf[i])
                        let at = next[b]
                        next[b] = at &+ 1
                        sorted[at] = SortedPoint(
                            latitude: lat[range.lowerBound &+ i],
                            longitude: lon[range.lowerBound &+ i], cell: cellOf[i],
                            index: Int32(truncatingIfNeeded: range.lowerBound &+ i))
                    }
                }
            }
        }
        // Pass 4: the tests, tile by tile.
        g.cellStart.withUnsafeBufferPointer { cellStart in
            g.interiorEnd.withUnsafeBufferPointer { interiorEnd in
                g.entries.withUnsafeBufferPointer { entries in
                    flatCircles.withUnsafeBufferPointer { circles in
                        let flatCount = flatCircleCount, circleCount = gridCircleCount
                        var pairs = 0, interior = 0, candidates = 0, exact = 0
                        for i in 0..<m {
                            let point = sorted[i]
                            let cell = Int(point.cell)
                            let la = point.latitude, lo = point.longitude
                            let pairsBefore = pairs
                            var interiorHere = 0
                            if cell >= 0 {
                                // the point's chart, once per pole
                                var chartPole = 0.0, chartU = 0.0, chartV = 0.0
                                let start = Int(cellStart[cell]), mid = Int(interiorEnd[cell])
                                let end = Int(cellStart[cell &+ 1])
                                interiorHere = mid &- start
                                interior &+= interiorHere
                                candidates &+= end &- mid
                                var k = mid
                                while k < end {
                                    let slot = Int(entries[k])
                                    k &+= 1
                                    if slot < flatCount {
                                        let c = circles[slot]
                                        let d2 = c.distanceSquared(latitude: la, longitude: lo)
                                        // Branch-free for the common outcomes; the undecided band is rare.
                                        let inside = d2 <= c.insideSquared
                                        pairs &+= inside ? 1 : 0
                                        if _slowPath(!inside && d2 <= c.outsideSquared) {
                                            exact &+= 1
                                            if exactlyInside(slot, la, lo) { pairs &+= 1 }
                                        }
                                    } else if slot < circleCount {
                                        // A circle near a pole, in the azimuthal chart.
                                        let c = polarCircles[slot &- flatCount]
                                        if chartPole != c.pole {
                                            chartPole = c.pole
                                            (chartU, chartV) = PolarCircleTest.chart(
                                                latitude: la, longitude: lo, pole: chartPole)
                                        }
                                        switch c.verdict(u: chartU, v: chartV) {
                                        case .inside:
                                            pairs &+= 1
                                        case .undecided:
                                            exact &+= 1
                                            if exactlyInside(slot, la, lo) { pairs &+= 1 }
                                        case .outside:
                                            break
                                        }
                                    } else if conditions[Int(fenceOfSlot[slot])].contains(
                                        Coordinate(latitude: la, longitude: lo))
                                    {
                                        pairs &+= 1
                                    }
                                }
                            }
                            if !large.entries.isEmpty {
                                var charts = LargeFences.Charts(
                                    Coordinate(latitude: la, longitude: lo))
                                let b = LargeFences.band(la)
                                for k in Int(large.bandStart[b])..<Int(large.bandStart[b &+ 1]) {
                                    let slot = Int(large.entries[k])
                                    candidates &+= 1
                                    if large.contains(slot, &charts, exactCount: &exact) {
                                        pairs &+= 1
                                    }
                                }
                            }
                            if let perPoint {
                                perPoint[Int(point.index)] = Int32(
                                    truncatingIfNeeded: pairs &- pairsBefore &+ interiorHere)
                            }
                        }
                        stats.pairs = pairs &+ interior
                        stats.interiorPairs = interior
                        stats.candidates = candidates
                        stats.exactEvaluations = exact
                    }
                }
            }
        }
        return stats
    }

    /// A point in tile order: one 24-byte record, so the sort writes one stream per tile.
    private struct SortedPoint {
        var latitude: Double
        var longitude: Double
        var cell: Int32
        /// The point's index in the input.
        var index: Int32
    }

    /// Tiles of 16 × 16 cells: measured best among 4 × 4 to 128 × 128 on the benchmark (the
    /// tile's cells, entries and fences stay in the first-level cache).
    static let tileShift = 4

    /// The exact decision for a grid circle: `geod_inverse` against the radius.
    private func exactlyInside(_ slot: Int, _ latitude: Double, _ longitude: Double) -> Bool {
        Geodesic.wgs84.distance(
            from: circleCenters[slot], to: Coordinate(latitude: latitude, longitude: longitude))
            <= circleRadii[slot]
    }
}
