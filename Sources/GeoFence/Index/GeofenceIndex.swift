import Foundation
import GeoCore

/// Geofences at server scale: millions of circles and polygons, batches of location updates from
/// many devices, and the exact geodesic answer.
///
/// ```swift
/// let index = try GeofenceIndex(zones.map { GeofenceIndex.Fence(identifier: $0.id, condition: .circle($0.circle)) })
/// index.fences(containing: depot)               // the fences holding a point
/// try index.nearest(20, to: phone)              // the 20 a phone should register with its OS
/// var devices = GeofenceEvaluator(index: index) // per-device state, one writer
/// let result = devices.evaluate(updates)        // transitions in a deterministic order
/// ```
///
/// ### How a point finds its fences
/// 1. **A flat latitude/longitude grid** (`FenceGrid`) with cells about as large as the median fence
///    lists each fence in every cell its proven bounding box touches. The grid's longitudes start in
///    the widest gap between fences, so fences across the 180th meridian are neighbors. Fences
///    whose box reaches a pole or would cover more than 4 096 cells are listed instead by latitude
///    bands of 0.05°, which a point checks for its own latitude.
/// 2. **Fences are renumbered along a Hilbert curve** of their centers, so fences near each other
///    sit near each other in memory.
/// 3. **Interior cells.** A circle that provably covers a whole cell is listed first in that cell;
///    a point in the cell is inside it without a test.
/// 4. **A cheap test with a proven bound** (`CircleContainmentTest`): the flat-earth distance with
///    the ellipsoid's radii at the center, with `geod_inverse` called only when the cheap answer is
///    within the bound of the radius. Within a few degrees of a pole, where that bound widens, the
///    same kind of proven bound in an azimuthal chart round the pole (u = ψ cos λ, v = ψ sin λ, ψ the
///    colatitude; `PolarCircleTest`) is used when it is the tighter one. Polygons use exact planar
///    predicates.
/// 5. **Bulk queries** (``fenceCounts(containing:threads:)``) sort the points into tiles of 16 × 16
///    cells first, so each tile's cells and fences stay in cache, and can use several threads.
///
/// The answers are exactly those of ``CircularGeographicCondition/contains(_:)`` and
/// ``PolygonGeographicCondition/contains(_:)`` for every point and fence, at any latitude.
///
/// ### Devices
/// The index itself is immutable: build it once and share it with any number of threads. The state
/// of devices moving through its fences lives in a ``GeofenceEvaluator``, which holds the index.
public struct GeofenceIndex: Sendable {
    /// A fence: its identifier and its condition.
    public struct Fence: Hashable, Sendable, Codable {
        /// The name reported in events.
        public var identifier: String
        /// The circle or polygon.
        public var condition: GeographicCondition

        /// Creates a fence.
        public init(identifier: String, condition: GeographicCondition) {
            self.identifier = identifier
            self.condition = condition
        }
    }

    /// The conditions, by input position.
    let conditions: [GeographicCondition]
    /// The identifiers by input position; `nil` means the decimal position.
    let identifiers: [String]?
    /// The input position of each identifier, when they were given.
    let positionOfIdentifier: [String: Int32]
    let grid: FenceGrid
    /// Slot of each fence (by input position) and fence of each slot. Slots: grid circles (Hilbert
    /// order), then grid polygons (Hilbert order), then the large fences.
    let slotOfFence: [Int32]
    let fenceOfSlot: [Int32]
    /// The flat tests of the grid circles in slots `0 ..< flatCircleCount` (the hot data of queries).
    let flatCircles: [FlatCircleTest]
    /// The polar chart tests of the grid circles in slots `flatCircleCount ..< gridCircleCount`.
    let polarCircles: [PolarCircleTest]
    /// The radius and center of every grid circle, by slot.
    let circleRadii: [Double]
    let circleCenters: [Coordinate]
    /// k_lo, k_hi and ρ = 9r/8 of each flat circle's `CircleContainmentTest`, by slot (cold data for
    /// the device evaluator's distance bounds).
    let circleRatios: [(lower: Double, upper: Double, reach: Double)]
    /// Slots below this use the flat test; from it to `gridCircleCount` the polar chart test.
    let flatCircleCount: Int
    let gridCircleCount: Int
    let gridCount: Int
    /// The fences outside the grid (slots `gridCount...`), by latitude band.
    let large: LargeFences

    /// The number of fences.
    public var count: Int { conditions.count }

    /// The fences in the order the index was built from.
    public var fences: [Fence] { conditions.indices.map(fence(atPosition:)) }

    /// The fence with an identifier, or `nil`.
    ///
    /// - Complexity: O(1) expected.
    public func fence(withIdentifier identifier: String) -> Fence? {
        position(of: identifier).map(fence(atPosition:))
    }

    /// The fence at an input position (which must be in range).
    func fence(atPosition position: Int) -> Fence {
        Fence(identifier: identifier(of: position), condition: conditions[position])
    }

    /// The input position of the fence with an identifier.
    func position(of identifier: String) -> Int? {
        if identifiers == nil {
            guard let p = Int(identifier), p >= 0, p < conditions.count, String(p) == identifier
            else { return nil }
            return p
        }
        return positionOfIdentifier[identifier].map(Int.init)
    }

    /// The identifier of the fence at an input position.
    func identifier(of position: Int) -> String {
        identifiers?[position] ?? String(position)
    }

    // MARK: - Building

    /// Builds an index of fences.
    ///
    /// - Parameter fences: Any number of circles and polygons, each with its own identifier.
    /// - Throws: `GeoError.Kind.invalidArgument` for two fences with the same
    ///   identifier (the message names it and both positions) or more than 2³¹ − 1 fences.
    /// - Complexity: O(n log n) for n fences, plus the cells they cover (about 16 per fence).
    public init(_ fences: [Fence]) throws(GeoError) {
        try self.init(conditions: fences.map(\.condition), identifiers: fences.map(\.identifier))
    }

    /// Builds an index of circles whose identifiers are their positions in the array (`"0"`, `"1"`, …).
    ///
    /// - Throws: As ``init(_:)``.
    public init(circles: [CircularGeographicCondition]) throws(GeoError) {
        try self.init(conditions: circles.map { .circle($0) }, identifiers: nil)
    }

    init(conditions: [GeographicCondition], identifiers: [String]?) throws(GeoError) {
        guard conditions.count < Int(Int32.max) else {
            throw GeoError(
                .invalidArgument,
                "\(conditions.count) fences are more than an index holds (2^31 - 1)")
        }
        var positionOfIdentifier = [String: Int32]()
        if let identifiers {
            positionOfIdentifier.reserveCapacity(identifiers.count)
            for (position, identifier) in identifiers.enumerated() {
                if let first = positionOfIdentifier.updateValue(Int32(position), forKey: identifier)
                {
                    throw GeoError(
                        .invalidArgument,
                        "fence identifier \(GeoError.quoted(identifier)) is used twice (fences \(first) and \(position))",
                        offset: position)
                }
            }
        }
        self.positionOfIdentifier = positionOfIdentifier
        self.conditions = conditions
        self.identifiers = identifiers
        let n = conditions.count

        // Proven boxes, sizes and centers (with the sine and cosine of the center's latitude).
        var boxes = [FenceGrid.Box](), sizes = [Double](), centers = [Coordinate]()
        var latitudes = [EllipsoidMetric.Latitude]()
        boxes.reserveCapacity(n)
        sizes.reserveCapacity(n)
        centers.reserveCapacity(n)
        latitudes.reserveCapacity(n)
        // The cheap tests of the circles, computed in input order (the conditions are large values;
        // reading them in Hilbert order would miss the cache on every fence).
        var flatTests = [FlatCircleTest?](), polarTests = [PolarCircleTest?]()
        var radiusOf = [Double](), isCircle = [Bool]()
        var ratiosOf = [(lower: Double, upper: Double, reach: Double)]()
        ratiosOf.reserveCapacity(n)
        var usesChart = [Bool]()
        usesChart.reserveCapacity(n)
        flatTests.reserveCapacity(n)
        polarTests.reserveCapacity(n)
        radiusOf.reserveCapacity(n)
        isCircle.reserveCapacity(n)
        for condition in conditions {
            let (box, size, center, latitude) = Self.box(of: condition)
            boxes.append(box)
            sizes.append(size)
            centers.append(center)
            latitudes.append(latitude)
            if case .circle(let circle) = condition {
                let test = CircleContainmentTest(circle, latitude: latitude)
                // Near a pole the azimuthal chart's bound is the tighter one.
                if abs(circle.center.latitude) > 60, let polar = PolarCircleTest(circle),
                    polar.relativeBand < test.upperRatio / max(test.lowerRatio, 1e-300) - 1
                {
                    flatTests.append(nil)
                    polarTests.append(polar)
                    usesChart.append(true)
                } else {
                    flatTests.append(test.flat)
                    polarTests.append(nil)
                    usesChart.append(false)
                }
                radiusOf.append(circle.radius)
                ratiosOf.append((test.lowerRatio, test.upperRatio, circle.radius * 9 / 8))
                isCircle.append(true)
            } else {
                flatTests.append(nil)
                polarTests.append(nil)
                radiusOf.append(0)
                ratiosOf.append((0, .infinity, 0))
                usesChart.append(false)
                isCircle.append(false)
            }
        }

        // Lay out the grid; fences covering too many of its cells go to the large list, and the grid
        // is laid out again without them.
        var layout = FenceGrid.Layout(
            boxes: boxes, sizes: sizes, latitudes: centers.map(\.latitude))
        var isLarge = [Bool](repeating: false, count: n)
        var anyLarge = false
        for i in 0..<n
        where boxes[i].span >= 360
            || FenceGrid.cellEstimate(
                boxes[i], cellHeight: layout.cellHeight, cellWidth: layout.cellWidth) > 4_096
        {
            isLarge[i] = true
            anyLarge = true
        }
        if anyLarge {
            let kept = (0..<n).filter { !isLarge[$0] }
            layout = FenceGrid.Layout(
                boxes: kept.map { boxes[$0] }, sizes: kept.map { sizes[$0] },
                latitudes: kept.map { centers[$0].latitude })
        }

        // Slots: grid circles, then grid polygons, each along the Hilbert curve; then large fences.
        let extentX = Double(layout.cols) * layout.cellWidth,
            extentY = Double(layout.rows) * layout.cellHeight
        func key(_ i: Int) -> UInt64 {
            let x =
                FenceGrid.frameX(centers[i].longitude, origin: layout.origin) / max(extentX, 1e-12)
            let y = (centers[i].latitude - layout.south) / max(extentY, 1e-12)
            return UInt64(HilbertCurve.index(unitX: x, unitY: y)) << 32 | UInt64(i)
        }
        var circleKeys = [UInt64](), chartKeys = [UInt64](), polygonKeys = [UInt64](),
            large = [Int]()
        for i in 0..<n {
            if isLarge[i] {
                large.append(i)
            } else if isCircle[i] && usesChart[i] {
                chartKeys.append(key(i))
            } else if isCircle[i] {
                circleKeys.append(key(i))
            } else {
                polygonKeys.append(key(i))
            }
        }
        RadixSort.sort(&circleKeys, bits: 32..<64)
        RadixSort.sort(&chartKeys, bits: 32..<64)
        RadixSort.sort(&polygonKeys, bits: 32..<64)
        var fenceOfSlot = [Int32]()
        fenceOfSlot.reserveCapacity(n)
        for k in circleKeys { fenceOfSlot.append(Int32(truncatingIfNeeded: k & 0xFFFF_FFFF)) }
        for k in chartKeys { fenceOfSlot.append(Int32(truncatingIfNeeded: k & 0xFFFF_FFFF)) }
        for k in polygonKeys { fenceOfSlot.append(Int32(truncatingIfNeeded: k & 0xFFFF_FFFF)) }
        for i in large { fenceOfSlot.append(Int32(truncatingIfNeeded: i)) }
        var slotOfFence = [Int32](repeating: 0, count: n)
        for (slot, fence) in fenceOfSlot.enumerated() {
            slotOfFence[Int(fence)] = Int32(truncatingIfNeeded: slot)
        }
        flatCircleCount = circleKeys.count
        gridCircleCount = circleKeys.count + chartKeys.count
        gridCount = gridCircleCount + polygonKeys.count
        self.fenceOfSlot = fenceOfSlot
        self.slotOfFence = slotOfFence
        self.large = LargeFences(
            firstSlot: gridCount, conditions: large.map { conditions[$0] },
            south: large.map { boxes[$0].south },
            north: large.map { boxes[$0].north })

        // What decides the interior cells of circles that can cover a whole cell: the extremes of M
        // and P over the box widened by a cell (every straight path from the center to a point of a
        // touched cell stays in it). Computed in input order, then gathered in slot order.
        let cellMeters = layout.cellHeight * EllipsoidMetric.minimumMetersPerDegreeLatitude
        var scaleOf = [(Double, Double)](repeating: (0, 0), count: n)
        for i in 0..<n where isCircle[i] && radiusOf[i] >= cellMeters / 2 {
            let box = boxes[i]
            let halfWidth =
                (max(box.north - centers[i].latitude, centers[i].latitude - box.south)
                    + layout.cellHeight) * .pi / 180
            let band = EllipsoidMetric.extremes(around: latitudes[i], halfWidth: halfWidth)
            scaleOf[i] = (band.mMax * .pi / 180, band.pMax * .pi / 180)
        }
        var flatCircles = [FlatCircleTest](), polarCircles = [PolarCircleTest]()
        var radii = [Double](), interiorScale = [(Double, Double)]()
        var slotCenters = [Coordinate]()
        slotCenters.reserveCapacity(gridCircleCount)
        var ratios = [(lower: Double, upper: Double, reach: Double)]()
        ratios.reserveCapacity(gridCircleCount)
        flatCircles.reserveCapacity(flatCircleCount)
        radii.reserveCapacity(gridCircleCount)
        interiorScale.reserveCapacity(gridCircleCount)
        for slot in 0..<gridCircleCount {
            let fence = Int(fenceOfSlot[slot])
            if let flat = flatTests[fence] { flatCircles.append(flat) }
            if let polar = polarTests[fence] { polarCircles.append(polar) }
            radii.append(radiusOf[fence])
            interiorScale.append(scaleOf[fence])
            ratios.append(ratiosOf[fence])
            slotCenters.append(centers[fence])
        }
        circleRatios = ratios
        circleCenters = slotCenters
        self.flatCircles = flatCircles
        self.polarCircles = polarCircles
        circleRadii = radii
        let gridBoxes = (0..<gridCount).map { boxes[Int(fenceOfSlot[$0])] }
        let circleCount = gridCircleCount
        let origin = layout.origin
        grid = FenceGrid(
            layout: layout, boxes: gridBoxes,
            interior: { slot, lat0, lat1 in
                // The straight latitude/longitude path from the center to any point of the row's
                // cells within dX of the center in longitude is at most √((M·dLat)² + (P·dX)²) long
                // (an upper bound of the geodesic distance, see EllipsoidMetric); solve for dX.
                guard slot < circleCount, radii[slot] >= cellMeters / 2, interiorScale[slot].1 > 0
                else { return nil }
                let c = slotCenters[slot]
                let (m, p) = interiorScale[slot]
                let dLat = max(abs(lat0 - c.latitude), abs(lat1 - c.latitude))
                let reach = (radii[slot] - 1e-6) / (1 + 1e-9)
                let budget = reach * reach - (m * dLat) * (m * dLat)
                guard budget > 0 && p > 0 else { return nil }
                let dX = min(179, budget.squareRoot() / p * (1 - 1e-12))
                let xc = FenceGrid.frameX(c.longitude, origin: origin)
                return (xc - dX, xc + dX)
            })
    }

    /// A fence's proven bounding box (every point of it, and every point of its boundary as
    /// measured by distances, lies inside), its size in meters, its center and the center's latitude
    /// with sine and cosine.
    static func box(
        of condition: GeographicCondition
    ) -> (FenceGrid.Box, Double, Coordinate, EllipsoidMetric.Latitude) {
        switch condition {
        case .circle(let circle):
            let c = circle.center
            let phi = EllipsoidMetric.Latitude(degrees: c.latitude)
            let reach = EllipsoidMetric.reach(circle.radius, around: phi)
            let south = max(-90, c.latitude - reach.latitude),
                north = min(90, c.latitude + reach.latitude)
            guard let lon = reach.longitude else {
                return (
                    FenceGrid.Box(south: south, north: north, west: -180, span: 360),
                    2 * circle.radius, c, phi
                )
            }
            var west = c.longitude - lon
            if west < -180 { west += 360 }
            let box = FenceGrid.Box(south: south, north: north, west: west, span: 2 * lon)
            return (box, 2 * circle.radius, c, phi)
        case .polygon(let polygon):
            let g = polygon.rings
            var minX = g.minX, maxX = g.maxX, minY = g.minY, maxY = g.maxY
            var full = false
            // Distances are measured to geodesic pieces, which may bulge out of the vertices'
            // box: each lies within half its length of its midpoint.
            for edge in g.edges {
                let mid = edge.middle
                let reach = EllipsoidMetric.reach(
                    edge.halfLength + edge.stray, around: mid.latitude)
                minY = min(minY, mid.latitude - reach.latitude)
                maxY = max(maxY, mid.latitude + reach.latitude)
                guard let lon = reach.longitude else {
                    full = true
                    continue
                }
                let mx =
                    [mid.longitude, mid.longitude + 360, mid.longitude - 360].min {
                        abs($0 - (g.minX + g.maxX) / 2) < abs($1 - (g.minX + g.maxX) / 2)
                    } ?? mid.longitude
                minX = min(minX, mx - lon)
                maxX = max(maxX, mx + lon)
            }
            let slack = 1e-9
            let south = max(-90, minY - slack), north = min(90, maxY + slack)
            let span = maxX - minX + 2 * slack
            let center = Coordinate(
                latitude: (g.minY + g.maxY) / 2,
                longitude: Angle.normalizedLongitude((g.minX + g.maxX) / 2))
            let size = (g.maxY - g.minY) * EllipsoidMetric.minimumMetersPerDegreeLatitude
            let phi = EllipsoidMetric.Latitude(degrees: center.latitude)
            if full || span >= 360 {
                return (
                    FenceGrid.Box(south: south, north: north, west: -180, span: 360), size, center,
                    phi
                )
            }
            let box = FenceGrid.Box(
                south: south, north: north, west: Angle.normalizedLongitude(minX - slack),
                span: span)
            return (box, size, center, phi)
        }
    }

    // MARK: - Containment of single points

    /// The fences that contain a point (inside or on the boundary), in the order the index was built
    /// from.
    ///
    /// - Returns: An empty array for an invalid coordinate.
    /// - Complexity: O(fences listed in the point's cell + large fences); a geodesic solution only for
    ///   circles whose radius is within the cheap test's bound of the distance.
    public func fences(containing point: Coordinate) -> [Fence] {
        positions(containing: point).map(fence(atPosition:))
    }

    /// The input positions of the fences that contain a point, ascending.
    func positions(containing point: Coordinate) -> [Int] {
        guard point.isValid else { return [] }
        var result = [Int]()
        var exact = 0
        forEachSlot(near: point) { slot, interior in
            if interior || slotContains(slot, point, exactCount: &exact) {
                result.append(Int(fenceOfSlot[slot]))
            }
        }
        return result.sorted()
    }

    /// Calls `body` for every slot listed in the point's cell (with whether it is an interior entry)
    /// and every large fence.
    func forEachSlot(near point: Coordinate, _ body: (Int, Bool) -> Void) {
        if let r = grid.row(of: point.latitude),
            let c = grid.column(ofFrameX: grid.frameX(point.longitude))
        {
            let cell = r * grid.cols + c
            let start = Int(grid.cellStart[cell]), mid = Int(grid.interiorEnd[cell]),
                end = Int(grid.cellStart[cell + 1])
            for k in start..<end { body(Int(grid.entries[k]), k < mid) }
        }
        large.forEach(atLatitude: point.latitude) { body($0, false) }
    }

    /// Proven bounds of the signed distance from a point to a grid circle's boundary, from the cheap
    /// distance d of `CircleContainmentTest`: the geodesic distance s satisfies
    /// s ≥ min(k_lo · d, ρ) always, and s ≤ k_hi · d when |Δφ| ≤ ρ / M₀ (see the theorem there).
    func signedDistanceBounds(slot: Int, _ point: Coordinate) -> (lower: Double, upper: Double)? {
        guard slot < flatCircleCount else { return nil }
        let c = flatCircles[slot]
        let dLat = point.latitude - c.centerLatitude
        let d =
            c.distanceSquared(latitude: point.latitude, longitude: point.longitude).squareRoot()
            * (1 + 1e-12)
        let (kLo, kHi, reach) = circleRatios[slot]
        let r = circleRadii[slot]
        let lower = min(kLo * d * (1 - 1e-12), reach) - 1e-6
        let withinBand = abs(dLat) * (.pi / 180) * EllipsoidMetric.minimumMeridionalRadius <= reach
        let upper = withinBand ? kHi * d + 1e-6 : .infinity
        return (lower - r, upper - r)
    }

    /// Whether the fence in a slot contains a valid point: the cheap test and, when it is undecided,
    /// the exact geodesic.
    func slotContains(_ slot: Int, _ point: Coordinate, exactCount: inout Int) -> Bool {
        if slot >= gridCount {
            var charts = LargeFences.Charts(point)
            return large.contains(slot, &charts, exactCount: &exactCount)
        }
        if slot < gridCircleCount {
            let verdict: CircleVerdict
            if slot < flatCircleCount {
                let c = flatCircles[slot]
                verdict = c.verdict(
                    distanceSquared: c.distanceSquared(
                        latitude: point.latitude, longitude: point.longitude))
            } else {
                let c = polarCircles[slot - flatCircleCount]
                let (u, v) = PolarCircleTest.chart(
                    latitude: point.latitude, longitude: point.longitude, pole: c.pole)
                verdict = c.verdict(u: u, v: v)
            }
            switch verdict {
            case .inside: return true
            case .outside: return false
            case .undecided:
                exactCount += 1
                return Geodesic.wgs84.distance(from: circleCenters[slot], to: point)
                    <= circleRadii[slot]
            }
        }
        return conditions[Int(fenceOfSlot[slot])].contains(point)
    }
}
