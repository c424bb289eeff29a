import Foundation
import GeoCore

/// A table of the few positions that can be nearest to each part of the globe: the single nearest
/// place (a reverse geocode) in a handful of chords and one geodesic, with no tree walk.
///
/// The globe is cut into latitude–longitude cells: its two halves (west and east of the prime
/// meridian), each split in four at its middle latitude and longitude while it lists more than
/// ``leafSize`` positions. A cell lists every
/// position that can be the geodesic-nearest to some point of it, found from the cell's box B
/// (axis-aligned in Earth-centered meters, holding every point of the ellipsoid in the cell, with a
/// centimeter to spare for rounding): any position p₀ bounds the chord from every point of the cell
/// to its nearest position by D = maxdist(B, p₀), hence the nearest geodesic by U(D)
/// (``ChordGeodesic/upperBound(chord:)``) and that position's chord too; so a position whose
/// distance to B exceeds U(D) can never be the answer, and every other one is listed. A split cell's
/// children filter its list the same way with their own boxes.
///
/// A query takes the chords to its cell's positions, then the geodesic distances of those within
/// U(smallest chord): every place the tree walk could answer with, measured with the same
/// arithmetic, so the answer is the tree's, ties included (a listed place the walk would not measure
/// is farther by chord than the walk's answer is by geodesic, so it cannot win).
///
/// The build does a bounded amount of work, O(n) for n positions: a cell whose list is still longer
/// than ``longestLeaf`` at the finest size (places piled closer than meters), or that the work
/// budget does not reach, is marked to ask the tree instead. Memory is O(n) for the same reason.
struct NearestCells: Sendable {
    /// A cell: its positions `candidates[start ..< start + count]`, its four children at
    /// `nodes[start ..< start + 4]` (south-west, south-east, north-west, north-east) when `count`
    /// is ``split``, or no list (ask the tree) when `count` is ``fallback``.
    struct Node: Sendable {
        var start: UInt32
        var count: UInt32
    }

    /// A listed position: where it is, its lowest element, and its index in the tree.
    struct Candidate: Sendable {
        var x, y, z: Double
        var element: Int32
        var position: Int32
    }

    static let split = UInt32.max
    static let fallback = UInt32.max - 1
    /// The size in degrees of the top cells: the western and the eastern half of the globe.
    static let cellDegrees = 180.0
    static let rows = 1
    static let columns = 2
    /// A cell listing at most this many positions is not split.
    static let leafSize = 12
    /// Splits stop at cells of 180° / 2²² (about 5 m).
    static let deepest = 22
    /// A finest cell listing more positions than this asks the tree.
    static let longestLeaf = 64
    /// Cells up to this size (about 1,250 km) also filter their lists by geodesic distance.
    static let geodesicTestDegrees = 180.0 / 16
    /// How many of the positions nearest to a cell's center try to rule out the others.
    static let pivotCount = 8
    /// Lists up to this long are filtered by geodesic distance; longer ones are split first.
    static let geodesicTestLength = 512
    /// The box margin in meters: Earth-centered positions are exact to nanometers.
    static let margin = 0.01

    private(set) var nodes: [Node] = []
    private(set) var candidates: [Candidate] = []
    /// The candidates again, in half the bytes: their positions rounded to `Float` (within
    /// ``compactError`` of the exact ones together) and their elements' bits in the fourth lane.
    /// The chords of most queries are decided from these alone (see
    /// ``compactDecision(_:_:limit:)``), reading 16 bytes per candidate rather than 32.
    private(set) var compact: [SIMD4<Float>] = []

    /// The cells of depth ``gridDepth`` (or the leaves above them), row by row from the south
    /// pole and column by column from −180°: a query starts its descent here rather than at the
    /// two halves of the globe, saving the dependent reads of the first levels. Empty for tables
    /// of fewer than ``gridMinimumNodes`` nodes.
    private(set) var grid: [Node] = []
    /// The grid's cells are 180° / 2⁷ (1.4°) on a side: 128 rows, 256 columns, 256 KiB.
    static let gridDepth = 7
    static let gridMinimumNodes = 4_096

    /// How far (meters) a candidate's `Float` position can be from its exact one: each coordinate
    /// is below 2²³ m in magnitude, so rounds by at most a quarter meter; √3/4 m together,
    /// rounded up.
    static let compactError = 0.4331

    /// The cells over the positions of `tree`; with no positions, the table is empty and every
    /// query asks the tree.
    ///
    /// - Complexity: O(n) time and memory for n positions (a work budget of 2,048 position tests
    ///   per position, plus a constant; GeoNames' places take about 1,050, and a part of the globe
    ///   the budget does not reach is left to the tree), on all cores: 1.2 s for
    ///   96,384 places on two cores.
    init(_ tree: PointTree) {
        guard tree.count > 0, tree.count < Int(Int32.max) else { return }
        var budget = 2048 * tree.count + (1 << 16)
        nodes = [Node](
            repeating: Node(start: 0, count: Self.fallback), count: Self.rows * Self.columns)

        // Pending cells of one depth, their lists of tree positions end to end: first the two
        // halves of the globe, each listing every position.
        var level = [Pending]()
        var lists = [Int32]()
        for column in 0..<Self.columns {
            level.append(
                Pending(
                    node: column, south: -90, west: -180 + Double(column) * Self.cellDegrees,
                    size: Self.cellDegrees, start: lists.count, count: tree.count))
            lists.append(contentsOf: 0..<Int32(tree.count))
        }

        var depth = 0
        while !level.isEmpty {
            // The cells of a depth are decided in parallel, in parts of about equal list length,
            // each with the share of the budget its lists' length gives it, then joined in order
            // (so the table does not depend on the threads' timing).
            let parts = Swift.max(
                1, Swift.min(ProcessInfo.processInfo.activeProcessorCount, level.count))
            let total = Swift.max(1, lists.count)
            var bounds = [0]
            var shares = [Int]()
            var sum = 0
            var from = 0
            for (c, cell) in level.enumerated() {
                sum += cell.count
                if bounds.count < parts && sum * parts >= total * bounds.count {
                    bounds.append(c + 1)
                    shares.append(Int(Double(budget) * Double(sum - from) / Double(total)))
                    from = sum
                }
            }
            if bounds.last != level.count {
                bounds.append(level.count)
                shares.append(Int(Double(budget) * Double(sum - from) / Double(total)))
            }
            budget -= shares.reduce(0, +)
            var decided = [LevelPart](repeating: LevelPart(budget: 0), count: shares.count)
            let cells = level, parents = lists, mayGoDeeper = depth < Self.deepest
            let ranges = bounds, allotted = shares
            decided.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                let slots = WorkerSlots(base)
                DispatchQueue.concurrentPerform(iterations: allotted.count) { part in
                    var work = LevelPart(budget: allotted[part])
                    for c in ranges[part]..<ranges[part + 1] {
                        work.decide(cells[c], parents, tree, mayGoDeeper: mayGoDeeper)
                    }
                    slots[part] = work
                }
            }
            var next = [Pending]()
            var nextLists = [Int32]()
            var c = 0
            for part in decided {
                budget += part.budget
                for decision in part.decisions {
                    let cell = cells[c]
                    c += 1
                    switch decision.kind {
                    case .fallback:
                        break
                    case .leaf:
                        guard candidates.count + cell.count < Int(Self.fallback) else { break }
                        nodes[cell.node] = Node(
                            start: UInt32(candidates.count), count: UInt32(cell.count))
                        for i in parents[cell.start..<(cell.start + cell.count)] {
                            let r = tree.records[Int(i)]
                            let lowest =
                                r.memberCount == 1 ? r.element : tree.members[Int(r.element)]
                            candidates.append(
                                Candidate(x: r.x, y: r.y, z: r.z, element: lowest, position: i))
                        }
                    case .split:
                        // (Beyond 2³² nodes the rest of the globe would be left to the tree; the
                        // budget keeps far below.)
                        guard nodes.count + 4 < Int(Self.fallback) else { break }
                        let first = nodes.count
                        nodes[cell.node] = Node(start: UInt32(first), count: Self.split)
                        nodes.append(
                            contentsOf: repeatElement(
                                Node(start: 0, count: Self.fallback), count: 4))
                        var from = decision.start
                        for (k, count) in decision.counts.enumerated() {
                            next.append(
                                Pending(
                                    cell.child(k), node: first + k, start: nextLists.count,
                                    count: count))
                            nextLists.append(contentsOf: part.childLists[from..<(from + count)])
                            from += count
                        }
                    }
                }
            }
            level = next
            lists = nextLists
            depth += 1
        }
        if nodes.count >= Self.gridMinimumNodes { grid = Self.grid(nodes) }
        compact = candidates.map { c in
            SIMD4(
                Float(c.x), Float(c.y), Float(c.z), Float(bitPattern: UInt32(bitPattern: c.element))
            )
        }
    }

    /// What the cells of one part of a depth became, and their children's lists end to end.
    struct LevelPart: Sendable {
        /// A leaf, a split, or no list (the tree answers).
        enum Kind: Sendable { case leaf, split, fallback }
        struct Decision: Sendable {
            var kind: Kind
            /// Where the children's lists start in ``LevelPart/childLists``, and their lengths.
            var start = 0
            var counts: [Int] = []
        }

        var budget: Int
        var decisions: [Decision] = []
        var childLists: [Int32] = []

        init(budget: Int) { self.budget = budget }

        /// Decides one cell: split it (its children's lists appended), list it, or leave it to
        /// the tree.
        mutating func decide(
            _ cell: Pending, _ lists: [Int32], _ tree: PointTree, mayGoDeeper: Bool
        ) {
            let list = lists[cell.start..<(cell.start + cell.count)]
            let start = childLists.count
            var counts = [Int]()
            if cell.count > NearestCells.leafSize && mayGoDeeper {
                for child in 0..<4 {
                    let before = childLists.count
                    guard
                        NearestCells.filter(
                            list, for: cell.child(child), tree, into: &childLists,
                            budget: &budget)
                    else { break }
                    counts.append(childLists.count - before)
                }
                // A split that ran out of budget is not made, nor one of a list short enough
                // for a leaf whose children list on average more than 3/4 of it (places tied,
                // or a list as short as the places around allow).
                if counts.count == 4
                    && (cell.count > NearestCells.longestLeaf
                        || counts.reduce(0, +) <= 3 * cell.count)
                {
                    decisions.append(Decision(kind: .split, start: start, counts: counts))
                    return
                }
                childLists.removeSubrange(start...)
            }
            decisions.append(
                Decision(kind: cell.count <= NearestCells.longestLeaf ? .leaf : .fallback))
        }
    }

    /// Appends to `out` the positions of a parent's `list` that can be nearest to a point of
    /// `cell`, spending `budget`; returns `false`, with `out` partly written, when it ran out.
    ///
    /// Four necessary conditions, each proven for every point q of the cell:
    /// - By chord (see the type's discussion): the distance from the cell's box to the position is
    ///   at most U(D).
    /// - By the angle θ between Earth-centered directions: the geodesic is at least bθ (b the polar
    ///   radius: the ellipsoid lies outside the ball of radius b, and the radial projection onto
    ///   that ball shortens every curve) and at most aθ(1 + 10⁻⁵) (the plane section through the
    ///   Earth's center, an ellipse of semi-axes a and b′ ∈ [b, a], whose radius turns by at most
    ///   |r′/r| ≤ (a² − b²)/2ab); with ρ the cell's angular radius, only positions with
    ///   b(θ(m, p) − ρ) ≤ aθ(m, p₀)(1 + 10⁻⁵) + aρ(1 + 10⁻⁵) can be nearest: cheap, and within
    ///   0.34 % where the chord is loose.
    /// - By a nearer position: a pivot p′ is nearer than p by chord, everywhere in the box, by more
    ///   than U(maxdist(box, p′)) − maxdist(box, p′) + 1 mm, so its geodesic is shorter everywhere
    ///   (a half-space test at one corner of the box; the eight positions nearest to the center
    ///   are the pivots).
    /// - By geodesic, for cells of at most ``geodesicTestDegrees``: with m the cell's center and
    ///   r = U(maxdist(box, m)) ≥ g(m, q), the triangle inequality gives g(q, p) ≥ g(m, p) − r and
    ///   g(q, nearest) ≤ g(m, p₀) + r, so only positions with g(m, p) ≤ min g(m, ·) + 2r can be
    ///   nearest (plus a millimeter for the distances' rounding). This one is tight where the
    ///   chord is not: far from every place, the chord falls short of the geodesic by up to
    ///   c³/24M₀² (130 km at 5,000 km).
    static func filter(
        _ list: ArraySlice<Int32>, for cell: Pending, _ tree: PointTree, into out: inout [Int32],
        budget: inout Int
    ) -> Bool {
        guard budget >= list.count else { return false }
        budget -= list.count
        let box = Self.box(cell)
        // Scalar loops over the records: generic SIMD code is slow in debug builds.
        let records = tree.records
        var d = Double.infinity
        for i in list { d = min(d, box.maxDistanceSquared(to: records[Int(i)])) }
        let reach = ChordGeodesic.upperBound(chord: d.squareRoot())
        let start = out.count
        for i in list where box.minDistanceSquared(to: records[Int(i)]) <= reach * reach {
            out.append(i)
        }
        let center = Coordinate(
            latitude: cell.south + cell.size / 2, longitude: cell.west + cell.size / 2)
        let m = WGS84.earthCentered(center)
        let farthest = box.maxDistanceSquared(to: m.x, m.y, m.z).squareRoot()

        // By angle at the Earth's center.
        var kept = out.count - start
        guard kept > Self.leafSize else { return true }
        guard budget >= kept else { return false }
        budget -= kept
        // Angles compared by the chords of unit vectors, 2 sin(θ/2), which grow with θ.
        let mNorm = (m.x * m.x + m.y * m.y + m.z * m.z).squareRoot()
        let (umX, umY, umZ) = (m.x / mNorm, m.y / mNorm, m.z / mNorm)
        let b = WGS84.polarRadius, a = WGS84.equatorialRadius * (1 + 1e-5)
        let rho = 2 * asin(Swift.min(1, farthest / b / 2))
        var unitChords = [Double]()
        unitChords.reserveCapacity(kept)
        var nearestUnitChord = Double.infinity
        for i in out[start...] {
            let p = records[Int(i)]
            let norm = (p.x * p.x + p.y * p.y + p.z * p.z).squareRoot()
            let dx = p.x / norm - umX, dy = p.y / norm - umY, dz = p.z / norm - umZ
            let cc = dx * dx + dy * dy + dz * dz
            unitChords.append(cc)
            nearestUnitChord = Swift.min(nearestUnitChord, cc)
        }
        let nearestAngle = 2 * asin(Swift.min(1, nearestUnitChord.squareRoot() / 2))
        let widest = (a * (nearestAngle + rho) / b + rho) * (1 + 1e-12) + 1e-12
        if widest < .pi {
            let t = 2 * sin(widest / 2)
            keep(&out, from: start, scored: unitChords, upTo: t * t * (1 + 1e-12))
        }

        // By a nearer position everywhere in the box.
        kept = out.count - start
        guard kept > Self.leafSize else { return true }
        guard budget >= Self.pivotCount * kept else { return false }
        budget -= Self.pivotCount * kept
        // The pivots, and which of them is farthest; plain index loops, which debug builds run
        // without generic metadata lookups.
        var pivots = [(chord: Double, position: Int32)]()
        var worst = 0
        for i in out[start...] {
            let p = records[Int(i)]
            let dx = p.x - m.x, dy = p.y - m.y, dz = p.z - m.z
            let item = (chord: dx * dx + dy * dy + dz * dz, position: i)
            if pivots.count < Self.pivotCount {
                pivots.append(item)
            } else if item.chord < pivots[worst].chord {
                pivots[worst] = item
            } else {
                continue
            }
            worst = 0
            for k in 1..<pivots.count where pivots[k].chord > pivots[worst].chord { worst = k }
        }
        let pivotPositions = pivots.map { records[Int($0.position)] }
        // U(c) − c grows with c up to where U stops being a formula (0.9 · 2M₀ ≈ 11,404 km);
        // pivots that far from part of the box rule nothing out.
        let pivotSlack = pivotPositions.map { p in
            let far = box.maxDistanceSquared(to: p).squareRoot()
            guard far < 11_000_000 else { return (far, Double.infinity) }
            return (far, ChordGeodesic.upperBound(chord: far) - far + 0.001)
        }
        var w = start
        for j in start..<out.count {
            let i = out[j]
            let p = records[Int(i)]
            let far = box.maxDistanceSquared(to: p).squareRoot()
            var dominated = false
            for k in 0..<pivotPositions.count where pivots[k].position != i {
                let q = pivotPositions[k]
                if box.dominates(q, over: p, margin: pivotSlack[k].1 * (far + pivotSlack[k].0)) {
                    dominated = true
                    break
                }
            }
            if !dominated {
                out[w] = i
                w += 1
            }
        }
        out.removeSubrange(w...)

        // By geodesic.
        kept = out.count - start
        guard cell.size <= Self.geodesicTestDegrees, kept > Self.leafSize,
            kept <= Self.geodesicTestLength
        else { return true }
        guard budget >= 4 * kept else { return false }
        budget -= 4 * kept
        let r = ChordGeodesic.upperBound(chord: farthest)
        var nearest = Double.infinity
        var distances = [Double]()
        distances.reserveCapacity(kept)
        for i in out[start...] {
            let g = tree.geodesicDistance(from: m, center, to: Int(i))
            distances.append(g)
            nearest = min(nearest, g)
        }
        keep(&out, from: start, scored: distances, upTo: nearest + 2 * r + 0.001)
        return true
    }

    /// Keeps, in order, the entries of `out[start...]` whose score (`scores[j]` for entry
    /// `start + j`) is at most `bound`.
    private static func keep(
        _ out: inout [Int32], from start: Int, scored scores: [Double], upTo bound: Double
    ) {
        var w = start
        for j in 0..<scores.count where scores[j] <= bound {
            out[w] = out[start + j]
            w += 1
        }
        out.removeSubrange(w...)
    }

    /// The grid of ``grid``: for each cell of depth ``gridDepth``, the node the descent reaches
    /// there (a leaf above that depth, or the cell itself).
    private static func grid(_ nodes: [Node]) -> [Node] {
        let side = 1 << gridDepth
        var grid = [Node]()
        grid.reserveCapacity(side * side * columns)
        for row in 0..<side {
            for column in 0..<(side * columns) {
                var node = nodes[column >> gridDepth]
                var depth = 0
                while node.count == split && depth < gridDepth {
                    depth += 1
                    let bit = gridDepth - depth
                    node =
                        nodes[
                            Int(node.start) + ((row >> bit) & 1) * 2 + ((column >> bit) & 1)]
                }
                grid.append(node)
            }
        }
        return grid
    }

    /// The row (or column) of the cell of size `size` degrees, counted from `origin`, that holds
    /// `angle`, as the descent's exact comparisons with the cells' edges place it (the division
    /// may round across an edge), within `0 ..< count`.
    @inline(__always)
    private static func slot(_ angle: Double, from origin: Double, size: Double, count: Int) -> Int
    {
        var k = min(count - 1, max(0, Int((angle - origin) / size)))
        if k > 0 && angle < origin + Double(k) * size { k -= 1 }
        if k < count - 1 && angle >= origin + Double(k + 1) * size { k += 1 }
        return k
    }

    /// The cell holding a coordinate (valid: latitude in [−90, 90], longitude in [−180, 180]).
    @inline(__always)
    func leaf(latitude: Double, longitude: Double) -> Node {
        guard !grid.isEmpty else { return leafFromTop(latitude: latitude, longitude: longitude) }
        let side = 1 << Self.gridDepth
        let size = Self.cellDegrees / Double(side)
        let row = Self.slot(latitude, from: -90, size: size, count: side)
        let column = Self.slot(longitude, from: -180, size: size, count: side * Self.columns)
        return descend(
            from: grid[row * side * Self.columns + column], south: -90 + Double(row) * size,
            west: -180 + Double(column) * size, size: size, latitude: latitude,
            longitude: longitude)
    }

    /// ``leaf(latitude:longitude:)`` without the grid: the descent from the two halves of the
    /// globe.
    @inline(__always)
    func leafFromTop(latitude: Double, longitude: Double) -> Node {
        let row = Self.slot(latitude, from: -90, size: Self.cellDegrees, count: Self.rows)
        let column = Self.slot(
            longitude, from: -180, size: Self.cellDegrees, count: Self.columns)
        return descend(
            from: nodes[row * Self.columns + column], south: -90 + Double(row) * Self.cellDegrees,
            west: -180 + Double(column) * Self.cellDegrees, size: Self.cellDegrees,
            latitude: latitude, longitude: longitude)
    }

    /// The leaf under `node`, a cell of `size` degrees at `south`, `west`, that holds a
    /// coordinate.
    @inline(__always)
    private func descend(
        from node: Node, south: Double, west: Double, size: Double, latitude: Double,
        longitude: Double
    ) -> Node {
        var (node, south, west, size) = (node, south, west, size)
        while node.count == Self.split {
            size /= 2
            var child = Int(node.start)
            if latitude >= south + size {
                child += 2
                south += size
            }
            if longitude >= west + size {
                child += 1
                west += size
            }
            node = nodes[child]
        }
        return node
    }

    /// The leaf listing the positions that can be nearest to `origin` (valid), or `nil` when the
    /// tree answers there.
    @inline(__always)
    private func listedLeaf(_ origin: Coordinate) -> Node? {
        guard !nodes.isEmpty else { return nil }
        let node = leaf(latitude: origin.latitude, longitude: origin.longitude)
        return node.count == Self.fallback ? nil : node
    }

    /// The nearest element to `origin` (valid) and its geodesic distance, at most `limit` meters
    /// away, ties to the lower element index: the answer of `tree.nearest(1, …)`.
    func nearest(
        to origin: Coordinate, limit: Double, in tree: PointTree
    ) -> (distance: Double, element: Int32)? {
        guard let node = listedLeaf(origin) else {
            var found: (distance: Double, element: Int32)?
            tree.nearest(1, to: origin, limit: limit, accepts: nil) { found = $0.first }
            return found
        }
        let query = WGS84.earthCentered(origin)
        return candidates.withUnsafeBufferPointer { all in
            let list = UnsafeBufferPointer(
                rebasing: all[Int(node.start)..<(Int(node.start) + Int(node.count))])
            var smallest = Double.infinity
            for c in list {
                let dx = c.x - query.x, dy = c.y - query.y, dz = c.z - query.z
                smallest = min(smallest, dx * dx + dy * dy + dz * dz)
            }
            guard smallest <= limit * limit else { return nil }
            let cut = min(limit, ChordGeodesic.upperBound(chord: smallest.squareRoot()))
            var best: (distance: Double, element: Int32)?
            // Places the inside ball puts farther than the cut by more than the margin can be
            // neither within the limit nor nearer than the nearest chord's place.
            var ball: ChordGeodesic.InsideBall?
            for c in list {
                let dx = c.x - query.x, dy = c.y - query.y, dz = c.z - query.z
                let cc = dx * dx + dy * dy + dz * dz
                guard cc <= cut * cut else { continue }
                if cc > smallest {
                    if ball == nil { ball = ChordGeodesic.InsideBall(touching: query) }
                    if let ball,
                        ball.lowerBound(to: SIMD3(c.x, c.y, c.z)) > cut + Self.decisionMargin
                    {
                        continue
                    }
                }
                let s = tree.geodesicDistance(from: query, origin, to: Int(c.position))
                guard s <= limit else { continue }
                if let b = best, !BestK.precedes((s, c.element), b) { continue }
                best = (s, c.element)
            }
            return best
        }
    }

    /// What the chords alone say about the nearest element.
    enum ChordDecision: Equatable {
        /// No position within the limit.
        case none
        /// This element is the nearest.
        case nearest(Int32)
        /// Only geodesics can tell.
        case undecided
    }

    /// How much farther (meters) the second-nearest chord must be than the nearest chord's
    /// geodesic bound for the chords alone to decide: far above the rounding of either and of the
    /// geodesics that would otherwise be compared (nanometers).
    static let decisionMargin = 0.001

    /// The element of ``nearest(to:limit:in:)``, measured by geodesic only when the chords do not
    /// decide it.
    ///
    /// With c₁ ≤ c₂ the two least chords from `origin` to the positions its leaf lists: the
    /// nearest-chord position's geodesic is at most U(c₁) (``ChordGeodesic/upperBound(chord:)``),
    /// every other listed position's at least its chord, so U(c₁) + ``decisionMargin`` < c₂ makes
    /// the first the geodesic-nearest (by more than the geodesics' rounding, so
    /// ``nearest(to:limit:in:)`` picks it too); positions the leaf does not list cannot be nearest.
    /// When c₂ is within that bound, the positions there are tested against the inside ball's
    /// floor (``ChordGeodesic/InsideBall``), twenty times tighter than the chord, before anything
    /// is measured. Equal positions never decide (their floors are equal and below U(c₁)), so ties
    /// go through the geodesics to the lower element.
    func nearestElement(to origin: Coordinate, limit: Double, in tree: PointTree) -> Int32? {
        if let node = listedLeaf(origin) {
            let query = Self.position(latitude: origin.latitude, longitude: origin.longitude)
            switch compactDecision(node, query, limit: limit) {
            case .none: return nil
            case .nearest(let element): return element
            case .undecided: break
            }
            switch decision(node, query, limit: limit) {
            case .none: return nil
            case .nearest(let element): return element
            case .undecided: break
            }
        }
        return nearest(to: origin, limit: limit, in: tree)?.element
    }

    /// The Earth-centered position of a valid coordinate to within 10 nm, by polynomials rather
    /// than the library's sines and cosines: the query of a ``decision(_:_:limit:)``, whose
    /// millimeter of ``decisionMargin`` covers that error many times over (chords, the bound and
    /// the inside ball's floor each move by at most as much as the query does).
    ///
    /// Each angle is reduced exactly to r ∈ [−45°, 45°] about the nearest multiple of 90°
    /// (Sterbenz's lemma), and sin r and cos r are their Taylor series to r¹⁵ and r¹⁶, whose
    /// remainders at π/4 are below 10⁻¹⁶: what is left is rounding, a few nanometers.
    @inline(__always)
    static func position(latitude: Double, longitude: Double) -> SIMD3<Double> {
        let (sinPhi, cosPhi) = sinCos(degrees: latitude)
        let (sinLambda, cosLambda) = sinCos(degrees: longitude)
        return WGS84.earthCentered(
            sinLatitude: sinPhi, cosLatitude: cosPhi, sinLongitude: sinLambda,
            cosLongitude: cosLambda)
    }

    /// Sine and cosine of an angle in [−180°, 180°] in degrees, to a few units of 10⁻¹⁶ (see
    /// ``position(latitude:longitude:)``).
    @inline(__always)
    static func sinCos(degrees x: Double) -> (sin: Double, cos: Double) {
        let q = (x / 90).rounded()
        let r = (x - 90 * q) * (Double.pi / 180)
        let r2 = r * r
        var s = -1 / 1_307_674_368_000.0
        s = s * r2 + 1 / 6_227_020_800.0
        s = s * r2 - 1 / 39_916_800.0
        s = s * r2 + 1 / 362_880.0
        s = s * r2 - 1 / 5_040.0
        s = s * r2 + 1 / 120.0
        s = s * r2 - 1 / 6.0
        s = r + r * r2 * s
        var c = 1 / 20_922_789_888_000.0
        c = c * r2 - 1 / 87_178_291_200.0
        c = c * r2 + 1 / 479_001_600.0
        c = c * r2 - 1 / 3_628_800.0
        c = c * r2 + 1 / 40_320.0
        c = c * r2 - 1 / 720.0
        c = c * r2 + 1 / 24.0
        c = c * r2 - 1 / 2.0
        c = 1 + r2 * c
        switch Int(q) & 3 {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// The ``ChordDecision`` from the positions `node` lists, seen from `query` (Earth-centered),
    /// at most `limit` meters away.
    @inline(__always)
    func decision(_ node: Node, _ query: SIMD3<Double>, limit: Double) -> ChordDecision {
        candidates.withUnsafeBufferPointer { all in
            var first = Double.infinity, second = Double.infinity
            var element: Int32 = -1
            for j in Int(node.start)..<(Int(node.start) + Int(node.count)) {
                let c = all[j]
                let dx = c.x - query.x, dy = c.y - query.y, dz = c.z - query.z
                let cc = dx * dx + dy * dy + dz * dz
                if cc < first {
                    second = first
                    first = cc
                    element = c.element
                } else if cc < second {
                    second = cc
                }
            }
            guard element >= 0, first <= limit * limit else { return .none }
            let bound = ChordGeodesic.upperBound(chord: first.squareRoot()) + Self.decisionMargin
            guard bound <= limit else { return .undecided }
            if bound * bound < second { return .nearest(element) }
            // Near-ties by chord: the inside ball's tighter floor may still part them.
            let ball = ChordGeodesic.InsideBall(touching: query)
            for j in Int(node.start)..<(Int(node.start) + Int(node.count)) {
                let c = all[j]
                let dx = c.x - query.x, dy = c.y - query.y, dz = c.z - query.z
                let cc = dx * dx + dy * dy + dz * dz
                guard cc > first || c.element != element, cc < bound * bound else { continue }
                if ball.lowerBound(to: SIMD3(c.x, c.y, c.z)) <= bound { return .undecided }
            }
            return .nearest(element)
        }
    }

    /// The ``ChordDecision`` from the `Float` positions of ``compact``, allowing for their error
    /// e = ``compactError``: with f₁ ≤ f₂ the two least chords to them, the nearest position's
    /// exact chord is at most f₁ + e and every other one's at least f₂ − e, so
    /// U(f₁ + e) + ``decisionMargin`` < f₂ − e decides as ``decision(_:_:limit:)`` would (U
    /// from ``ChordGeodesic/seriesUpperBound(chord:)``, without an arcsine), and
    /// f₁ − e > `limit` leaves nothing. Anything closer is left to that decision on the exact
    /// positions (`undecided` here means only "ask it").
    @inline(__always)
    func compactDecision(_ node: Node, _ query: SIMD3<Double>, limit: Double) -> ChordDecision {
        compact.withUnsafeBufferPointer { all in
            var first = Double.infinity, second = Double.infinity
            // The nearest's slot, its element's bits read at the end: the bits never pass
            // through a floating-point operation.
            var nearestSlot = 0
            for j in Int(node.start)..<(Int(node.start) + Int(node.count)) {
                let c = all[j]
                let dx = Double(c.x) - query.x, dy = Double(c.y) - query.y
                let dz = Double(c.z) - query.z
                let cc = dx * dx + dy * dy + dz * dz
                if cc < first {
                    second = first
                    first = cc
                    nearestSlot = j
                } else if cc < second {
                    second = cc
                }
            }
            guard first.isFinite else { return .none }
            let nearest = first.squareRoot()
            guard nearest - Self.compactError <= limit else { return .none }
            let bound =
                ChordGeodesic.seriesUpperBound(chord: nearest + Self.compactError)
                + Self.decisionMargin
            let apart = bound + Self.compactError
            guard bound <= limit, apart * apart < second else { return .undecided }
            return .nearest(Int32(bitPattern: all[nearestSlot].w.bitPattern))
        }
    }

    /// A cell still to be listed or split, its list at `start ..< start + count` of its depth's
    /// lists.
    struct Pending: Sendable {
        var node: Int
        var south, west, size: Double
        var start: Int
        var count: Int

        init(node: Int, south: Double, west: Double, size: Double, start: Int, count: Int) {
            (self.node, self.south, self.west, self.size) = (node, south, west, size)
            (self.start, self.count) = (start, count)
        }

        init(_ cell: Pending, node: Int? = nil, start: Int, count: Int) {
            self = cell
            (self.start, self.count) = (start, count)
            if let node { self.node = node }
        }

        /// Quarter `k` of the cell: south-west, south-east, north-west, north-east (no node or
        /// list yet).
        func child(_ k: Int) -> Pending {
            let half = size / 2
            return Pending(
                node: 0, south: south + (k >= 2 ? half : 0), west: west + (k & 1 == 1 ? half : 0),
                size: half, start: 0, count: 0)
        }
    }

    /// An axis-aligned box in Earth-centered meters.
    struct CellBox {
        var lowX, lowY, lowZ, highX, highY, highZ: Double

        @inline(__always)
        func minDistanceSquared(to p: PointTree.Record) -> Double {
            let gx = Swift.max(lowX - p.x, p.x - highX, 0)
            let gy = Swift.max(lowY - p.y, p.y - highY, 0)
            let gz = Swift.max(lowZ - p.z, p.z - highZ, 0)
            return gx * gx + gy * gy + gz * gz
        }

        @inline(__always)
        func maxDistanceSquared(to p: PointTree.Record) -> Double {
            maxDistanceSquared(to: p.x, p.y, p.z)
        }

        @inline(__always)
        func maxDistanceSquared(to x: Double, _ y: Double, _ z: Double) -> Double {
            let gx = Swift.max(x - lowX, highX - x)
            let gy = Swift.max(y - lowY, highY - y)
            let gz = Swift.max(z - lowZ, highZ - z)
            return gx * gx + gy * gy + gz * gz
        }

        /// Whether |x − p|² − |x − q|² > `margin` for every x in the box: q is nearer than p
        /// everywhere in it, by more than margin / (|x − p| + |x − q|) meters.
        ///
        /// The difference is linear in x (the bisecting plane of p and q), so its least value is
        /// at the corner that goes farthest towards p.
        @inline(__always)
        func dominates(
            _ q: PointTree.Record, over p: PointTree.Record, margin: Double
        ) -> Bool {
            let x = q.x > p.x ? lowX : highX
            let y = q.y > p.y ? lowY : highY
            let z = q.z > p.z ? lowZ : highZ
            let px = x - p.x, py = y - p.y, pz = z - p.z
            let qx = x - q.x, qy = y - q.y, qz = z - q.z
            return (px * px + py * py + pz * pz) - (qx * qx + qy * qy + qz * qz) > margin
        }
    }

    /// The box of every point of the ellipsoid in a cell, plus ``margin``.
    ///
    /// z grows with the latitude; the parallels' radius ρ shrinks away from the equator; and over a
    /// range of longitudes, ρ·cos λ and ρ·sin λ take their extremes at the range's ends or where the
    /// range passes 0°, ±90° or ±180°.
    static func box(_ cell: Pending) -> CellBox {
        let north = cell.south + cell.size, east = cell.west + cell.size
        func surface(_ latitude: Double) -> SIMD3<Double> {
            WGS84.earthCentered(latitude: latitude, longitude: 0)
        }
        let nearestToEquator =
            cell.south <= 0 && north >= 0 ? 0 : Swift.min(Swift.abs(cell.south), Swift.abs(north))
        let farthest = Swift.max(Swift.abs(cell.south), Swift.abs(north))
        let rhoMax = surface(nearestToEquator).x, rhoMin = Swift.max(0, surface(farthest).x)
        var low = SIMD3(Double.infinity, .infinity, surface(cell.south).z)
        var high = SIMD3(-Double.infinity, -.infinity, surface(north).z)
        func include(_ x: Double, _ y: Double) {
            low.x = Swift.min(low.x, x)
            low.y = Swift.min(low.y, y)
            high.x = Swift.max(high.x, x)
            high.y = Swift.max(high.y, y)
        }
        for longitude in [cell.west, east] {
            let lambda = longitude * (.pi / 180)
            for rho in [rhoMin, rhoMax] { include(rho * cos(lambda), rho * sin(lambda)) }
        }
        for (angle, x, y) in [
            (0.0, rhoMax, 0.0), (90, 0, rhoMax), (-90, 0, -rhoMax), (180, -rhoMax, 0),
            (-180, -rhoMax, 0),
        ] where cell.west <= angle && angle <= east {
            include(x, y)
        }
        return CellBox(
            lowX: low.x - margin, lowY: low.y - margin, lowZ: low.z - margin,
            highX: high.x + margin, highY: high.y + margin, highZ: high.z + margin)
    }
}
