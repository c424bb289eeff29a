import Foundation
import GeoCore

/// A flat latitude/longitude grid of cells, each listing the fences whose bounding box touches it:
/// the spatial index behind ``GeofenceIndex``.
///
/// ### Frame
/// Longitudes are measured in a *frame* that starts at the east end of the widest longitude gap
/// between the fences' boxes (x = longitude − origin, wrapped into [0°, 360°)), so fences on both
/// sides of the 180th meridian sit side by side, and the grid spans only the longitudes that hold
/// fences. When the boxes leave no gap the grid spans all 360° and wraps.
///
/// ### Cells
/// Cells are about as tall as the median fence (a flat grid of ~1 km cells beat a packed R-tree
/// 4–6× on this question) and as wide in meters at the fences' median latitude, with at most
/// 16 cells per fence. Each cell lists its fences in compressed rows (`cellStart`, `entries`); a
/// circle that covers the whole cell (proven with the metric bound of ``EllipsoidMetric``) is
/// listed first, among the cell's *interior* entries, so a point in the cell is inside it without
/// any test.
struct FenceGrid: Sendable {
    /// The longitude in degrees where frame x = 0.
    let origin: Double
    /// Whether the grid spans all longitudes (and column indices wrap).
    let wraps: Bool
    /// The southern edge in degrees.
    let south: Double
    let rows: Int
    let cols: Int
    /// Cell height and width in degrees.
    let cellHeight: Double
    let cellWidth: Double
    let inverseCellHeight: Double
    let inverseCellWidth: Double
    /// Entries of cell c: `entries[cellStart[c] ..< cellStart[c + 1]]`, interior ones (proven inside)
    /// up to `interiorEnd[c]`.
    let cellStart: [Int32]
    let interiorEnd: [Int32]
    let entries: [Int32]

    var cellCount: Int { rows * cols }

    /// A fence's box in the frame: latitudes [south, north], frame x from `west` over `span` degrees.
    struct Box: Sendable {
        var south: Double
        var north: Double
        var west: Double
        var span: Double
    }

    /// Frame x of a longitude, in [0, 360).
    @inline(__always)
    static func frameX(_ longitude: Double, origin: Double) -> Double {
        var x = longitude - origin
        if x < 0 { x += 360 }
        if x >= 360 { x -= 360 }
        return x
    }

    @inline(__always)
    func frameX(_ longitude: Double) -> Double { Self.frameX(longitude, origin: origin) }

    /// The row of a latitude, or `nil` outside the grid (or NaN).
    @inline(__always)
    func row(of latitude: Double) -> Int? {
        let r = (latitude - south) * inverseCellHeight
        guard r >= 0 && r < Double(rows) else { return nil }
        return Int(r)
    }

    /// The column of a frame x, or `nil` outside the grid.
    @inline(__always)
    func column(ofFrameX x: Double) -> Int? {
        let c = x * inverseCellWidth
        guard c >= 0 && c < Double(cols) else { return nil }
        return Int(c)
    }

    /// The rows touched by latitudes [south, north], clamped to the grid; `nil` if none.
    func rows(from southLatitude: Double, to northLatitude: Double) -> ClosedRange<Int>? {
        Self.rows(
            from: southLatitude, to: northLatitude, south: south,
            inverseCellHeight: inverseCellHeight, rows: rows)
    }

    /// The columns touched by frame x from `west` over `span` degrees: one or two ranges (two when
    /// the span crosses the frame's seam).
    func columns(west: Double, span: Double) -> [ClosedRange<Int>] {
        Self.columns(west: west, span: span, inverseCellWidth: inverseCellWidth, cols: cols)
    }

    private static func rows(
        from southLatitude: Double, to northLatitude: Double, south: Double,
        inverseCellHeight: Double, rows: Int
    ) -> ClosedRange<Int>? {
        guard rows > 0 else { return nil }
        let lo = (southLatitude - south) * inverseCellHeight,
            hi = (northLatitude - south) * inverseCellHeight
        guard hi >= 0 && lo < Double(rows) && lo <= hi else { return nil }
        return Int(max(0, lo))...Int(min(Double(rows - 1), hi))
    }

    private static func columns(
        west: Double, span: Double, inverseCellWidth: Double, cols: Int
    ) -> [ClosedRange<Int>] {
        guard cols > 0 && span >= 0 else { return [] }
        if span >= 360 { return [0...(cols - 1)] }
        let east = west + span
        func clamp(_ a: Double, _ b: Double) -> ClosedRange<Int>? {
            let lo = a * inverseCellWidth, hi = b * inverseCellWidth
            guard hi >= 0 && lo < Double(cols) && lo <= hi else { return nil }
            return Int(max(0, lo))...Int(min(Double(cols - 1), hi))
        }
        if east < 360 { return clamp(west, east).map { [$0] } ?? [] }
        let ranges = [clamp(west, 360), clamp(0, east - 360)].compactMap { $0 }
        // Within a cell of all the way round, the two parts share a column: take every column once.
        if ranges.count == 2 && ranges[1].upperBound >= ranges[0].lowerBound {
            return [0...(cols - 1)]
        }
        return ranges
    }

    // MARK: - Building

    /// The shape of a grid: its frame, extent and cell size.
    struct Layout: Sendable {
        var origin: Double
        var wraps: Bool
        var south: Double
        var rows: Int
        var cols: Int
        var cellHeight: Double
        var cellWidth: Double

        init(
            origin: Double, wraps: Bool, south: Double, rows: Int, cols: Int, cellHeight: Double,
            cellWidth: Double
        ) {
            self.origin = origin
            self.wraps = wraps
            self.south = south
            self.rows = rows
            self.cols = cols
            self.cellHeight = cellHeight
            self.cellWidth = cellWidth
        }

        static let empty = Layout(
            origin: -180, wraps: false, south: 0, rows: 0, cols: 0, cellHeight: 1, cellWidth: 1)

        /// Lays out a grid for boxes (true longitudes, `west` in [-180, 180]) whose fences have the
        /// given sizes (meters) and center latitudes.
        init(boxes: [Box], sizes: [Double], latitudes: [Double]) {
            guard !boxes.isEmpty else {
                self = .empty
                return
            }
            // The frame: the widest gap between boxes in longitude, found on a histogram of
            // 0.01° bins (a bin no box touches is certainly free, so the origin, at the east end of
            // the widest run of free bins, lies inside no box).
            let bins = 36_000
            var cover = [Int32](repeating: 0, count: bins + 1)
            func mark(_ a: Double, _ b: Double) {
                // One bin of margin on each side absorbs the rounding of the bin arithmetic.
                let i = max(0, min(bins - 1, Int(((a + 180) * 100).rounded(.down)) - 1))
                let j = max(0, min(bins - 1, Int(((b + 180) * 100).rounded(.down)) + 1))
                cover[i] &+= 1
                cover[j + 1] &-= 1
            }
            for box in boxes {
                if box.span >= 360 {
                    mark(-180, 180)
                    continue
                }
                let east = box.west + box.span
                if east <= 180 {
                    mark(box.west, east)
                } else {
                    mark(box.west, 180)
                    mark(-180, east - 360)
                }
            }
            var covered = [Bool](repeating: false, count: bins)
            var running: Int32 = 0
            for i in 0..<bins {
                running &+= cover[i]
                covered[i] = running > 0
            }
            // The longest run of free bins, going round the circle.
            var bestRun = 0, bestEnd = 0, run = 0
            if let firstCovered = covered.firstIndex(of: true) {
                for step in 1...bins {
                    let i = (firstCovered + step) % bins
                    if covered[i] {
                        if run > bestRun {
                            bestRun = run
                            bestEnd = i
                        }
                        run = 0
                    } else {
                        run += 1
                    }
                }
            }
            var origin = Double(bestEnd) / 100 - 180
            let gap = Double(bestRun) / 100
            if gap <= 0 { origin = -180 }
            let width = 360 - gap
            var south = 90.0, north = -90.0
            for box in boxes {
                south = min(south, box.south)
                north = max(north, box.north)
            }
            let latitudeSpan = max(0, north - south)

            // Cell size: the median fence's height, square in meters at the median latitude.
            let stride = max(1, sizes.count / 4_096)
            var sample = [Double](), sampleLatitudes = [Double]()
            for i in Swift.stride(from: 0, to: sizes.count, by: stride) {
                sample.append(sizes[i])
                sampleLatitudes.append(latitudes[i])
            }
            sample.sort()
            sampleLatitudes.sort()
            let metersPerDegree = EllipsoidMetric.minimumMetersPerDegreeLatitude
            var height = max(1, sample[sample.count / 2]) / metersPerDegree
            let aspect = 1 / max(0.05, cos(sampleLatitudes[sampleLatitudes.count / 2] * .pi / 180))
            // At most 16 cells per fence and 2^24 in all; at most 2^30 entries.
            let maximumCells = Double(min(1 << 24, 16 * boxes.count + 4_096))
            for _ in 0..<8 {
                let cells = (latitudeSpan / height + 1) * (width / (height * aspect) + 1)
                var entries = 0.0
                for box in boxes {
                    entries += FenceGrid.cellEstimate(
                        box, cellHeight: height, cellWidth: height * aspect)
                }
                let factor = max(cells / maximumCells, entries / Double(1 << 30))
                if factor <= 1 { break }
                height *= factor.squareRoot() * 1.05
            }
            height = min(height, 180)
            self.origin = origin
            wraps = gap <= 0
            self.south = south
            cellHeight = height
            cellWidth = min(height * aspect, max(width, 1e-9))
            rows = Int((latitudeSpan / cellHeight).rounded(.down)) + 1
            if gap <= 0 {
                // All longitudes: whole columns, so that column indices wrap exactly.
                cols = max(1, Int((360 / cellWidth).rounded(.up)))
                cellWidth = 360 / Double(cols)
            } else {
                cols = max(1, Int((width / cellWidth).rounded(.down)) + 1)
            }
        }
    }

    /// Lists every box in the cells it touches.
    ///
    /// - Parameters:
    ///   - layout: The grid's shape.
    ///   - boxes: One per grid slot, in slot order, in true longitudes (`west` in [-180, 180]).
    ///   - interior: For a slot that may cover whole cells, and the latitudes [lat0, lat1] of a row:
    ///     the frame x interval [from, to] such that the row's cells lying entirely inside it are
    ///     certainly covered by the fence; `nil` if none are.
    init(
        layout: Layout, boxes: [Box],
        interior: (_ slot: Int, _ lat0: Double, _ lat1: Double) -> (from: Double, to: Double)?
    ) {
        origin = layout.origin
        wraps = layout.wraps
        south = layout.south
        rows = layout.rows
        cols = layout.cols
        cellHeight = layout.cellHeight
        cellWidth = layout.cellWidth
        inverseCellHeight = 1 / cellHeight
        inverseCellWidth = 1 / cellWidth
        let cellCount = rows * cols
        let rowsCount = rows, colsCount = cols, cellH = cellHeight, southEdge = south
        let inverseH = inverseCellHeight, inverseW = inverseCellWidth
        let slack = 1e-9

        // Each slot's rows and columns, and per row the columns it covers whole.
        struct Span {
            var slot: Int32
            var row: Int32
            var first: Int32, last: Int32  // columns, inclusive
            var interiorFirst: Int32, interiorLast: Int32  // empty when first > last
        }
        var spans = [Span]()
        spans.reserveCapacity(boxes.count * 4)
        for (slot, box) in boxes.enumerated() {
            let west = Self.frameX(box.west, origin: origin)
            guard
                let rowRange = Self.rows(
                    from: box.south, to: box.north, south: southEdge, inverseCellHeight: inverseH,
                    rows: rowsCount)
            else { continue }
            let colRanges = Self.columns(
                west: west, span: box.span, inverseCellWidth: inverseW, cols: colsCount)
            for r in rowRange {
                let lat0 = southEdge + Double(r) * cellH - slack,
                    lat1 = southEdge + Double(r + 1) * cellH + slack
                var iFirst = Int32(1), iLast = Int32(0)
                if let x = interior(slot, lat0, lat1) {
                    // Cells [c·W − slack, (c+1)·W + slack] inside [from, to].
                    let lo = ((x.from + slack) * inverseW).rounded(.up),
                        hi = ((x.to - slack) * inverseW).rounded(.down) - 1
                    if lo <= hi && hi >= 0 && lo < Double(colsCount) {
                        iFirst = Int32(max(0, lo))
                        iLast = Int32(min(Double(colsCount - 1), hi))
                    }
                }
                for range in colRanges {
                    spans.append(
                        Span(
                            slot: Int32(truncatingIfNeeded: slot),
                            row: Int32(truncatingIfNeeded: r),
                            first: Int32(truncatingIfNeeded: range.lowerBound),
                            last: Int32(truncatingIfNeeded: range.upperBound),
                            interiorFirst: iFirst, interiorLast: iLast))
                }
            }
        }

        var counts = [Int32](repeating: 0, count: cellCount + 1)
        var interiorEnds = [Int32](repeating: 0, count: cellCount)
        var total = 0
        counts.withUnsafeMutableBufferPointer { counts in
            interiorEnds.withUnsafeMutableBufferPointer { interiorCounts in
                for span in spans {
                    let base = Int(span.row) &* colsCount
                    for c in Int(span.first)...Int(span.last) {
                        counts[base &+ c &+ 1] &+= 1
                        if c >= Int(span.interiorFirst) && c <= Int(span.interiorLast) {
                            interiorCounts[base &+ c] &+= 1
                        }
                    }
                }
                var running = 0
                for i in 0..<cellCount {
                    running &+= Int(counts[i &+ 1])
                    counts[i &+ 1] = Int32(truncatingIfNeeded: running)
                    // now where the cell's boundary entries start
                    interiorCounts[i] = counts[i] &+ interiorCounts[i]
                }
                total = running
            }
        }
        var entries = [Int32](repeating: 0, count: total)
        var nextInterior = Array(counts.prefix(cellCount))
        var nextBoundary = interiorEnds
        entries.withUnsafeMutableBufferPointer { entries in
            nextInterior.withUnsafeMutableBufferPointer { nextInterior in
                nextBoundary.withUnsafeMutableBufferPointer { nextBoundary in
                    for span in spans {
                        let base = Int(span.row) &* colsCount
                        for c in Int(span.first)...Int(span.last) {
                            let cell = base &+ c
                            if c >= Int(span.interiorFirst) && c <= Int(span.interiorLast) {
                                entries[Int(nextInterior[cell])] = span.slot
                                nextInterior[cell] &+= 1
                            } else {
                                entries[Int(nextBoundary[cell])] = span.slot
                                nextBoundary[cell] &+= 1
                            }
                        }
                    }
                }
            }
        }
        cellStart = counts
        interiorEnd = interiorEnds
        self.entries = entries
    }

    /// How many cells a box would touch in a grid of this layout, without building anything.
    static func cellEstimate(_ box: Box, cellHeight: Double, cellWidth: Double) -> Double {
        ((box.north - box.south) / cellHeight + 1) * (min(box.span, 360) / cellWidth + 1)
    }
}
