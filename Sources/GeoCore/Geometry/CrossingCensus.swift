/// A bounded count of the places where a geometry's edges cross or overlap one another, taken
/// before GEOS nodes them: noding work and memory grow with that number (about 1.6 KB per
/// crossing), which piles of overlapping parts make quadratic in the input (3.5 GB and still
/// running after two minutes for a repair of 2,000 overlapping triangles, 170 KB of WKT). An
/// input whose edges cross more than a budget linear in its size is refused before GEOS sees it.
///
/// The edges are split between the halves of their bounding box, along whichever axis separates
/// them better (the fewer edges that fall in both halves), recursively, until a cell holds at most
/// 32 edges (or neither split separates anything); the edges of a cell are tested pairwise with
/// exact orientation tests. Splitting along the better axis keeps long, parallel edges (a comb's
/// teeth, a star's spikes) in few cells, where splitting both axes at once would copy each of
/// them into every cell along its length. Edges that share an end as neighbours in one line or
/// ring do not count. Both the pairs tested and the crossings found are bounded, so the census
/// itself is linear in the input: O(n log n) time for edges that cross little.
struct CrossingCensus {
    /// One edge: its ends, the line or ring it belongs to, and its place there.
    private struct Edge {
        var ax, ay, bx, by: Double
        var chain: Int32
        var index: Int32
        /// The number of edges of its chain, to recognise a ring's closing neighbours.
        var count: Int32
        var closed: Bool
    }

    /// The most crossings allowed for n edges: 16 per edge and 100,000 more.
    static func crossingBudget(edges n: Int) -> Int { 16 * n + 100_000 }
    /// The most pair tests (and cell entries) for n edges: 256 per edge and 4,000,000 more.
    static func workBudget(edges n: Int) -> Int { 256 * n + 4_000_000 }

    private var edges = [Edge]()
    private var crossings = Set<UInt64>()
    private var work = 0
    private var crossingLimit = 0
    private var workLimit = 0
    private var exceeded = false

    /// Throws when the edges of `geometries` together cross or overlap each other more often
    /// than ``crossingBudget(edges:)`` allows, or the census needs more than
    /// ``workBudget(edges:)`` tests to tell. The second refuses edges crowded in one place
    /// without crossing too (a star of thousands of long spikes meeting near its center): GEOS's
    /// own checks and noding find every pair of their overlapping boxes there, quadratic as
    /// well (its validity check of 80,000 such edges takes a minute).
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/limitExceeded`` naming `operation`, the number of
    ///   edges and the budget that ran out.
    static func check(_ geometries: [Geometry], operation: String) throws(GeoError) {
        var census = CrossingCensus()
        let n = census.count(geometries)
        guard census.exceeded else { return }
        let tooManyCrossings = census.crossings.count > census.crossingLimit
        let why =
            tooManyCrossings
            ? "the \(n) edges cross or overlap one another more than \(crossingBudget(edges: n)) times (piled or overlapping parts); the result would grow with the square of the input"
            : "telling where the \(n) edges cross took more than \(workBudget(edges: n)) tests (edges crowded in one place, crossing or not)"
        throw GeoError(
            .limitExceeded,
            "\(operation): \(why), so it is not computed: split the input, or treat its parts one at a time"
        )
    }

    /// The number of edges, and the number of pairs of them that cross, touch or overlap (other
    /// than neighbours in one line or ring), or `nil` beyond the budgets.
    static func crossings(_ geometries: [Geometry]) -> (edges: Int, crossings: Int?) {
        var census = CrossingCensus()
        let n = census.count(geometries)
        return (n, census.exceeded ? nil : census.crossings.count)
    }

    /// Collects the edges and counts their crossings within the budgets; returns the number of
    /// edges.
    private mutating func count(_ geometries: [Geometry]) -> Int {
        for geometry in geometries { collect(geometry) }
        let n = edges.count
        guard n > 1 else { return n }
        guard n < Int(Int32.max) else {
            exceeded = true
            return n
        }
        crossingLimit = Self.crossingBudget(edges: n)
        workLimit = Self.workBudget(edges: n)
        var low = (x: Double.infinity, y: Double.infinity)
        var high = (x: -Double.infinity, y: -Double.infinity)
        for e in edges {
            low = (min(low.x, e.ax, e.bx), min(low.y, e.ay, e.by))
            high = (max(high.x, e.ax, e.bx), max(high.y, e.ay, e.by))
        }
        visit(Array(0..<Int32(n)), lowX: low.x, lowY: low.y, highX: high.x, highY: high.y, depth: 0)
        return n
    }

    private mutating func collect(_ geometry: Geometry) {
        func chain(_ ps: [Position], closed: Bool) {
            let id = Int32(truncatingIfNeeded: edges.count)
            var kept = [Edge]()
            for i in 1..<max(1, ps.count) {
                let a = ps[i - 1], b = ps[i]
                guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite,
                    a.x != b.x || a.y != b.y
                else { continue }
                kept.append(
                    Edge(
                        ax: a.x, ay: a.y, bx: b.x, by: b.y, chain: id,
                        index: Int32(truncatingIfNeeded: kept.count), count: 0, closed: closed))
            }
            let count = Int32(truncatingIfNeeded: kept.count)
            for i in kept.indices { kept[i].count = count }
            edges += kept
        }
        switch geometry {
        case .point, .multiPoint: break
        case .lineString(let ps): chain(ps, closed: false)
        case .multiLineString(let lines): for ps in lines { chain(ps, closed: false) }
        case .polygon(let rings): for ring in rings { chain(ring, closed: true) }
        case .multiPolygon(let polygons):
            for rings in polygons { for ring in rings { chain(ring, closed: true) } }
        case .geometryCollection(let members): for member in members { collect(member) }
        }
    }

    private mutating func visit(
        _ list: [Int32], lowX: Double, lowY: Double, highX: Double, highY: Double, depth: Int
    ) {
        guard !exceeded else { return }
        if list.count > 32 && depth < 80 {
            // Both halvings are tried; the one whose halves hold fewer edges in all is kept.
            let midX = lowX + (highX - lowX) / 2, midY = lowY + (highY - lowY) / 2
            let splits = [
                [(lowX, lowY, midX, highY), (midX, lowY, highX, highY)],
                [(lowX, lowY, highX, midY), (lowX, midY, highX, highY)],
            ]
            var best: (children: [[Int32]], boxes: [(Double, Double, Double, Double)])?
            for halves in splits {
                let children = halves.map { box in
                    list.filter { touches(edges[Int($0)], box.0, box.1, box.2, box.3) }
                }
                work += 2 * list.count
                let total = children[0].count + children[1].count
                // A halving separates something when a half misses an edge.
                guard children.contains(where: { $0.count < list.count }) else { continue }
                if let kept = best, kept.children[0].count + kept.children[1].count <= total {
                    continue
                }
                best = (children, halves)
            }
            if work > workLimit {
                exceeded = true
                return
            }
            if let (children, boxes) = best {
                for (k, box) in boxes.enumerated() where children[k].count > 1 {
                    visit(
                        children[k], lowX: box.0, lowY: box.1, highX: box.2, highY: box.3,
                        depth: depth + 1)
                }
                return
            }
        }
        // A leaf: every pair.
        work += list.count * (list.count - 1) / 2
        if work > workLimit {
            exceeded = true
            return
        }
        for i in 0..<list.count {
            let p = edges[Int(list[i])]
            for j in (i + 1)..<list.count {
                let q = edges[Int(list[j])]
                guard !Self.neighbours(p, q), Self.meet(p, q) else { continue }
                let (a, b) = (min(list[i], list[j]), max(list[i], list[j]))
                crossings.insert(UInt64(UInt32(a)) << 32 | UInt64(UInt32(b)))
                if crossings.count > crossingLimit {
                    exceeded = true
                    return
                }
            }
        }
    }

    /// Whether an edge meets a closed box (its bounding box overlaps and the box is not wholly
    /// on one side of its line).
    private func touches(
        _ e: Edge, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double
    )
        -> Bool
    {
        guard max(e.ax, e.bx) >= x0, min(e.ax, e.bx) <= x1, max(e.ay, e.by) >= y0,
            min(e.ay, e.by) <= y1
        else { return false }
        let s0 = Predicates.orient2d(e.ax, e.ay, e.bx, e.by, x0, y0)
        let s1 = Predicates.orient2d(e.ax, e.ay, e.bx, e.by, x1, y0)
        let s2 = Predicates.orient2d(e.ax, e.ay, e.bx, e.by, x1, y1)
        let s3 = Predicates.orient2d(e.ax, e.ay, e.bx, e.by, x0, y1)
        return !((s0 > 0 && s1 > 0 && s2 > 0 && s3 > 0) || (s0 < 0 && s1 < 0 && s2 < 0 && s3 < 0))
    }

    /// Whether two edges are consecutive in one line or ring (they share an end by construction).
    private static func neighbours(_ p: Edge, _ q: Edge) -> Bool {
        guard p.chain == q.chain else { return false }
        let d = abs(Int(p.index) - Int(q.index))
        return d == 1 || (p.closed && d == Int(p.count) - 1)
    }

    /// Whether two edges cross, touch or overlap, exactly.
    private static func meet(_ p: Edge, _ q: Edge) -> Bool {
        guard max(p.ax, p.bx) >= min(q.ax, q.bx), max(q.ax, q.bx) >= min(p.ax, p.bx),
            max(p.ay, p.by) >= min(q.ay, q.by), max(q.ay, q.by) >= min(p.ay, p.by)
        else { return false }
        let d1 = Predicates.orient2d(q.ax, q.ay, q.bx, q.by, p.ax, p.ay)
        let d2 = Predicates.orient2d(q.ax, q.ay, q.bx, q.by, p.bx, p.by)
        let d3 = Predicates.orient2d(p.ax, p.ay, p.bx, p.by, q.ax, q.ay)
        let d4 = Predicates.orient2d(p.ax, p.ay, p.bx, p.by, q.bx, q.by)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
        {
            return true
        }
        // Touching or collinear: an end of one lies on the other (the boxes overlap).
        func on(_ x: Double, _ y: Double, _ e: Edge) -> Bool {
            min(e.ax, e.bx) <= x && x <= max(e.ax, e.bx) && min(e.ay, e.by) <= y
                && y <= max(e.ay, e.by)
        }
        return (d1 == 0 && on(p.ax, p.ay, q)) || (d2 == 0 && on(p.bx, p.by, q))
            || (d3 == 0 && on(q.ax, q.ay, p)) || (d4 == 0 && on(q.bx, q.by, p))
    }
}
