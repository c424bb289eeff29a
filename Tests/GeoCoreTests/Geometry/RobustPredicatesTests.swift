import GeoCore
import Testing

@Suite("Robust predicates")
struct RobustPredicatesTests {
    /// Exact orientation with 128-bit integers for points whose coordinates are multiples of 2⁻⁵³.
    private func exactSign(
        _ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double)
    ) -> Int {
        func scaled(_ v: Double) -> Int128 { Int128(v * 0x1p53) }  // exact for these inputs
        let (ax, ay, bx, by, cx, cy) = (
            scaled(a.0), scaled(a.1), scaled(b.0), scaled(b.1), scaled(c.0), scaled(c.1)
        )
        let det = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx)
        return det > 0 ? 1 : det < 0 ? -1 : 0
    }

    /// Kettner, Mehlhorn, Pion, Schirra & Yap, "Classroom examples of robustness problems in geometric
    /// computations" (2008): points near (0.5, 0.5) on the line through (12, 12) and (24, 24), where
    /// naive floating-point orientation gets the sign wrong for a large share of the grid.
    @Test func classroomExample() {
        var naiveWrong = 0
        for i in 0..<256 {
            for j in 0..<256 {
                let p = (0.5 + Double(i) * 0x1p-53, 0.5 + Double(j) * 0x1p-53)
                let q = (12.0, 12.0), r = (24.0, 24.0)
                let exact = exactSign(p, q, r)
                let robust = Predicates.orient2d(
                    Position(x: p.0, y: p.1), Position(x: q.0, y: q.1), Position(x: r.0, y: r.1))
                #expect((robust > 0 ? 1 : robust < 0 ? -1 : 0) == exact, "i \(i) j \(j)")
                let naive = (p.0 - r.0) * (q.1 - r.1) - (p.1 - r.1) * (q.0 - r.0)
                if (naive > 0 ? 1 : naive < 0 ? -1 : 0) != exact { naiveWrong += 1 }
            }
        }
        #expect(naiveWrong > 0, "the example should defeat naive arithmetic")
    }

    @Test func orientations() {
        let a = Position(x: 0, y: 0), b = Position(x: 1, y: 0)
        #expect(Predicates.orientation(a, b, Position(x: 0, y: 1)) == .counterClockwise)
        #expect(Predicates.orientation(a, b, Position(x: 0, y: -1)) == .clockwise)
        #expect(Predicates.orientation(a, b, Position(x: 1e300, y: 0)) == .collinear)
    }

    /// Point in ring against an independent oracle (a grid-aligned polygon whose inside is known), with
    /// points exactly on edges and vertices reported as boundary.
    @Test func pointInRing() {
        // An L-shaped ring (counter-clockwise) and its known interior.
        let ring = [(0.0, 0.0), (4, 0), (4, 1), (1, 1), (1, 3), (0, 3)].map {
            Position(x: $0.0, y: $0.1)
        }
        func oracle(_ x: Double, _ y: Double) -> PointLocation {
            let inBottom = x >= 0 && x <= 4 && y >= 0 && y <= 1
            let inLeft = x >= 0 && x <= 1 && y >= 0 && y <= 3
            guard inBottom || inLeft else { return .exterior }
            let strictBottom = x > 0 && x < 4 && y > 0 && y < 1
            let strictLeft = x > 0 && x < 1 && y > 0 && y < 3
            let seam = x > 0 && x < 1 && y == 1  // shared by both rectangles, interior of the L
            return strictBottom || strictLeft || seam ? .interior : .boundary
        }
        for i in -2...18 {
            for j in -2...14 {
                let x = Double(i) / 4, y = Double(j) / 4
                #expect(
                    Predicates.locate(Position(x: x, y: y), inRing: ring) == oracle(x, y),
                    "(\(x), \(y))")
                #expect(
                    Predicates.locate(Position(x: x, y: y), inRing: ring.reversed() + [ring[5]])
                        == oracle(x, y))
            }
        }
    }

    @Test func polygonWithHole() {
        let outer = [(0.0, 0.0), (10, 0), (10, 10), (0, 10)].map { Position(x: $0.0, y: $0.1) }
        let hole = [(4.0, 4.0), (6, 4), (6, 6), (4, 6)].map { Position(x: $0.0, y: $0.1) }
        #expect(
            Predicates.locate(Position(x: 5, y: 5), inPolygon: outer, holes: [hole]) == .exterior)
        #expect(
            Predicates.locate(Position(x: 4, y: 5), inPolygon: outer, holes: [hole]) == .boundary)
        #expect(
            Predicates.locate(Position(x: 2, y: 5), inPolygon: outer, holes: [hole]) == .interior)
        #expect(
            Predicates.locate(Position(x: 12, y: 5), inPolygon: outer, holes: [hole]) == .exterior)
    }
}
