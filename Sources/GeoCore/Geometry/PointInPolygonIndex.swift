/// An index for exact point-in-polygon tests against one polygonal geometry: its edges bucketed
/// into horizontal bands, so that a query looks only at the edges whose y-range contains the point.
///
/// The decision is the crossing-number rule over all rings together with exact orientation tests
/// (``Predicates/orient2d(_:_:_:_:_:_:)``), as GEOS's `IndexedPointInAreaLocator` does: a point on any
/// edge is on the boundary; otherwise it is inside when a ray from it crosses an odd number of edges.
/// For valid polygons and multi-polygons that is exactly the OGC interior, boundary and exterior.
///
/// - Complexity: building O(n + entries), queries O(edges in the point's band); pure Swift, no
///   allocation per query.
struct PointInPolygonIndex: Sendable {
    /// Edge end points, four doubles per edge: ax, ay, bx, by.
    private let edges: [Double]
    /// For band k, the edges `bandEdges[bandStart[k]..<bandStart[k + 1]]`.
    private let bandStart: [Int32]
    private let bandEdges: [Int32]
    private let minX: Double, maxX: Double, minY: Double, maxY: Double
    private let bandHeight: Double
    private let bandCount: Int

    /// The index of a polygon or multi-polygon, or `nil` for other geometries (and for empty or
    /// non-finite ones).
    init?(_ geometry: Geometry) {
        var rings = [[Position]]()
        switch geometry {
        case .polygon(let rs): rings = rs
        case .multiPolygon(let polygons): rings = polygons.flatMap { $0 }
        default: return nil
        }
        var edges = [Double]()
        for ring in rings where ring.count >= 2 {
            for i in 1..<ring.count {
                let a = ring[i - 1], b = ring[i]
                edges += [a.x, a.y, b.x, b.y]
            }
            // Rings are closed; an unclosed one is closed here so the crossing count stays consistent.
            if let first = ring.first, let last = ring.last, first.x != last.x || first.y != last.y
            {
                edges += [last.x, last.y, first.x, first.y]
            }
        }
        // Edge numbers are stored as Int32; larger polygons are left to GEOS.
        guard !edges.isEmpty, edges.count / 4 < 1 << 26, edges.allSatisfy(\.isFinite) else {
            return nil
        }
        let count = edges.count / 4
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity,
            maxY = -Double.infinity
        for e in 0..<count {
            minX = min(minX, edges[4 * e], edges[4 * e + 2]);
            maxX = max(maxX, edges[4 * e], edges[4 * e + 2])
            minY = min(minY, edges[4 * e + 1], edges[4 * e + 3]);
            maxY = max(maxY, edges[4 * e + 1], edges[4 * e + 3])
        }
        // About one band per edge, fewer when long edges would make the bands hold too many entries.
        var bands = max(1, min(count, 1 << 20))
        var height = (maxY - minY) / Double(bands)
        if !(height > 0) || !height.isFinite {
            bands = 1
            height = 1
        }
        func band(_ y: Double, _ bands: Int, _ height: Double) -> Int {
            let k = ((y - minY) / height).rounded(.down)
            return k < 0 ? 0 : k >= Double(bands) ? bands - 1 : Int(k)
        }
        while true {
            var entries = 0
            for e in 0..<count {
                let lo = band(min(edges[4 * e + 1], edges[4 * e + 3]), bands, height)
                let hi = band(max(edges[4 * e + 1], edges[4 * e + 3]), bands, height)
                entries += hi - lo + 1
            }
            if entries <= 16 * count + bands || bands == 1 { break }
            bands = max(1, bands / 4)
            height = (maxY - minY) / Double(bands)
        }
        var counts = [Int32](repeating: 0, count: bands + 1)
        for e in 0..<count {
            let lo = band(min(edges[4 * e + 1], edges[4 * e + 3]), bands, height)
            let hi = band(max(edges[4 * e + 1], edges[4 * e + 3]), bands, height)
            for k in lo...hi { counts[k + 1] += 1 }
        }
        for k in 0..<bands { counts[k + 1] += counts[k] }
        var fill = counts
        var bandEdges = [Int32](repeating: 0, count: Int(counts[bands]))
        for e in 0..<count {
            let lo = band(min(edges[4 * e + 1], edges[4 * e + 3]), bands, height)
            let hi = band(max(edges[4 * e + 1], edges[4 * e + 3]), bands, height)
            for k in lo...hi {
                bandEdges[Int(fill[k])] = Int32(e)
                fill[k] += 1
            }
        }
        self.edges = edges
        self.bandStart = counts
        self.bandEdges = bandEdges
        self.minX = minX; self.maxX = maxX; self.minY = minY; self.maxY = maxY
        self.bandHeight = height
        self.bandCount = bands
    }

    /// Where a point lies: interior, boundary or exterior. The point must be finite.
    func locate(_ x: Double, _ y: Double) -> PointLocation {
        guard x >= minX && x <= maxX && y >= minY && y <= maxY else { return .exterior }
        // The same monotone band function as when building, so every edge whose y-range holds y is
        // in this band.
        let k = ((y - minY) / bandHeight).rounded(.down)
        let band = k < 0 ? 0 : k >= Double(bandCount) ? bandCount - 1 : Int(k)
        var inside = false
        return edges.withUnsafeBufferPointer { e in
            bandEdges.withUnsafeBufferPointer { list in
                for j in Int(bandStart[band])..<Int(bandStart[band + 1]) {
                    let i = 4 * Int(list[j])
                    let ax = e[i], ay = e[i + 1], bx = e[i + 2], by = e[i + 3]
                    if y >= min(ay, by) && y <= max(ay, by) && x >= min(ax, bx) && x <= max(ax, bx)
                        && Predicates.orient2d(ax, ay, bx, by, x, y) == 0
                    {
                        return .boundary
                    }
                    if (ay > y) != (by > y) {
                        let o = Predicates.orient2d(ax, ay, bx, by, x, y)
                        if by > ay ? o > 0 : o < 0 { inside.toggle() }
                    }
                }
                return inside ? .interior : .exterior
            }
        }
    }
}
