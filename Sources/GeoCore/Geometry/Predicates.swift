/// The turn made by three points in the plane.
public enum Orientation: Sendable, Hashable {
    /// A left turn: `c` lies to the left of the directed line from `a` to `b`.
    case counterClockwise
    /// A right turn.
    case clockwise
    /// The three points lie on one line (or two of them coincide).
    case collinear
}

/// Where a point lies relative to a ring or polygon.
public enum PointLocation: Sendable, Hashable {
    /// Strictly inside.
    case interior
    /// On an edge or a vertex.
    case boundary
    /// Strictly outside.
    case exterior
}

/// Geometric predicates that are exact for every pair of finite `Double` inputs.
///
/// Floating-point evaluation of an orientation determinant can give the wrong sign for nearly
/// collinear points, which corrupts point-in-polygon tests and hull and overlay algorithms. These
/// predicates follow J. R. Shewchuk, *Adaptive Precision Floating-Point Arithmetic and Fast Robust
/// Geometric Predicates* (Discrete & Computational Geometry 18, 1997): a fast floating-point
/// evaluation with a proven error bound, and exact expansion arithmetic only when the bound cannot
/// certify the sign. Inputs must be finite and their products must not overflow or underflow.
public enum Predicates {
    /// Twice the signed area of the triangle a, b, c: positive for a counter-clockwise turn, negative
    /// for a clockwise one, zero for collinear points. The sign is exact; the magnitude is the
    /// floating-point approximation.
    ///
    /// - Complexity: O(1); the exact fallback runs only for nearly collinear points.
    public static func orient2d(_ a: Position, _ b: Position, _ c: Position) -> Double {
        orient2d(a.x, a.y, b.x, b.y, c.x, c.y)
    }

    /// ``orient2d(_:_:_:)`` on raw coordinates, for hot loops over packed arrays.
    public static func orient2d(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double
    ) -> Double {
        let detLeft = (ax - cx) * (by - cy)
        let detRight = (ay - cy) * (bx - cx)
        let det = detLeft - detRight
        let detSum: Double
        if detLeft > 0 {
            if detRight <= 0 { return det }
            detSum = detLeft + detRight
        } else if detLeft < 0 {
            if detRight >= 0 { return det }
            detSum = -detLeft - detRight
        } else {
            return det
        }
        let bound = orientErrorBound * detSum
        if det >= bound || -det >= bound { return det }
        return exactOrient2d(ax, ay, bx, by, cx, cy)
    }

    /// The exact orientation of three points.
    public static func orientation(_ a: Position, _ b: Position, _ c: Position) -> Orientation {
        let d = orient2d(a, b, c)
        return d > 0 ? .counterClockwise : d < 0 ? .clockwise : .collinear
    }

    /// Where a point lies relative to a closed ring, exactly.
    ///
    /// The ring may be given open or closed (first position repeated at the end); its orientation does
    /// not matter. Uses the crossing-number rule with exact orientation tests, so points on an edge are
    /// always reported as ``PointLocation/boundary``.
    /// - Complexity: O(n) for n vertices.
    public static func locate(_ p: Position, inRing ring: [Position]) -> PointLocation {
        let n = ring.count
        guard n > 0 else { return .exterior }
        var inside = false
        var a = ring[n - 1]
        for i in 0..<n {
            let b = ring[i]
            if p.x >= min(a.x, b.x) && p.x <= max(a.x, b.x) && p.y >= min(a.y, b.y)
                && p.y <= max(a.y, b.y)
                && orient2d(a, b, p) == 0
            {
                return .boundary
            }
            if (a.y > p.y) != (b.y > p.y) {
                let o = orient2d(a, b, p)
                if b.y > a.y ? o > 0 : o < 0 { inside.toggle() }
            }
            a = b
        }
        return inside ? .interior : .exterior
    }

    /// Where a point lies relative to a polygon with holes, exactly.
    ///
    /// Inside the exterior ring and outside every hole is ``PointLocation/interior``; on any ring is
    /// ``PointLocation/boundary``.
    public static func locate(
        _ p: Position, inPolygon exterior: [Position], holes: [[Position]]
    ) -> PointLocation {
        switch locate(p, inRing: exterior) {
        case .exterior: return .exterior
        case .boundary: return .boundary
        case .interior:
            for hole in holes {
                switch locate(p, inRing: hole) {
                case .interior: return .exterior
                case .boundary: return .boundary
                case .exterior: continue
                }
            }
            return .interior
        }
    }

    // MARK: - Exact arithmetic

    /// Shewchuk's ccwerrboundA = (3 + 16ε)ε with ε = 2⁻⁵³.
    private static let orientErrorBound = (3.0 + 16.0 * 0x1p-53) * 0x1p-53

    /// The determinant expanded into six products, each split exactly into a sum of two doubles with a
    /// fused multiply-add, and summed as a non-overlapping expansion whose largest component carries
    /// the exact sign.
    private static func exactOrient2d(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double
    ) -> Double {
        // det = ax·by − ax·cy − cx·by − ay·bx + ay·cx + cy·bx
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 12) { h in
            var count = 0
            // Shewchuk's GROW-EXPANSION with zero elimination: adds one double to the expansion.
            func grow(_ value: Double) {
                var q = value
                var kept = 0
                for i in 0..<count {
                    let sum = q + h[i]
                    let bv = sum - q
                    let error = (q - (sum - bv)) + (h[i] - bv)
                    q = sum
                    if error != 0 {
                        h[kept] = error
                        kept += 1
                    }
                }
                if q != 0 {
                    h[kept] = q
                    kept += 1
                }
                count = kept
            }
            // Adds x·y exactly: the rounded product and its rounding error (a fused multiply-add).
            func addProduct(_ x: Double, _ y: Double) {
                let product = x * y
                grow(product)
                grow((-product).addingProduct(x, y))
            }
            addProduct(ax, by)
            addProduct(-ax, cy)
            addProduct(-cx, by)
            addProduct(-ay, bx)
            addProduct(ay, cx)
            addProduct(cy, bx)
            return count == 0 ? 0 : h[count - 1]
        }
    }
}
