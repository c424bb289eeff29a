import Foundation

/// Geodesic distances on WGS84 from the straight line between two points: the fast path of the
/// point indexes, exact to a stated bound for short lines, and a proven bracket for long ones.
///
/// A geodesic is a curve on the ellipsoid whose curvature in space is the surface's normal
/// curvature in its direction, so it is at most 1/M₀, M₀ = a(1 − e²) = 6 335 439 m the smallest
/// radius of curvature (the meridian at the equator). Two consequences for the chord c (the
/// straight-line distance between the Earth-centered positions) and the geodesic distance s:
///
/// - c ≤ s always (a straight line is the shortest curve), and
/// - s ≤ (2M₀) asin(c / 2M₀) (Schur's comparison theorem: of all curves with curvature at most
///   1/M₀, the circular arc has the shortest chord for its length), see ``upperBound(chord:)``.
///
/// For short lines the difference s − c is the arc's sagitta term: a curve of constant curvature κ
/// has s = c + κ²c³/24 + 3κ⁴c⁵/640 + …. With κ² the mean of the squared normal curvatures
/// (Euler's formula 1/R = cos²α/M + sin²α/N) in the chord's direction at its two ends (the
/// curvature varies slowly and nearly linearly along a short line), ``distance(from:to:)`` agrees with
/// Karney's geodesic (GeographicLib 2.1) to 6 nm for lines up to 50 km (0.17 µm at 100 km, where
/// the next terms start to show), on 3,000 random lines per band at every latitude; the tests
/// check 0.1 µm against PROJ's `geod_inverse` on 20,000 lines up to 60 km (the worst seen is
/// 72 nm). Beyond ``formulaLimit`` it gives `nil` and the caller asks ``Geodesic``.
package enum ChordGeodesic {
    /// The longest chord (meters) for which ``distance(from:to:)`` answers: 60 km.
    package static let formulaLimit = 60_000.0

    /// The smallest radius of curvature of the ellipsoid, M₀ = a(1 − e²), in meters.
    @usableFromInline static let smallestRadius =
        WGS84.equatorialRadius * (1 - WGS84.eccentricitySquared)

    /// Half the meridian ellipse's circumference, 20 003 931.46 m rounded up: no geodesic on the
    /// ellipsoid is longer.
    @usableFromInline static let longestGeodesic = 20_003_932.0

    /// The squared normal curvature (1/m²) of the ellipsoid at Earth-centered position `p` in the
    /// direction of `d` projected on the tangent plane (Euler's formula).
    @inlinable
    package static func normalCurvatureSquared(
        at p: SIMD3<Double>, along d: SIMD3<Double>
    )
        -> Double
    {
        NormalCurvature(at: p).squared(along: d)
    }

    /// What the normal curvature at one point needs of the point, computed once for the many
    /// directions a nearest search measures from its query: the normal, and the inverse radii of
    /// curvature 1/M and 1/N (one square root, one division).
    package struct NormalCurvature: Sendable {
        /// The outward normal of x²/a² + y²/a² + z²/b² = 1, scaled by a²: (x, y, z / (1 − e²)).
        @usableFromInline let n: SIMD3<Double>
        /// 1 / |n|².
        @usableFromInline let inverseNormSquared: Double
        /// n.x² + n.y²: the normal's horizontal part, squared.
        @usableFromInline let horizontal: Double
        /// 1/M and 1/N in 1/m.
        @usableFromInline let inverseMeridional: Double
        @usableFromInline let inversePrimeVertical: Double

        /// The curvature's terms at Earth-centered position `p`.
        @inlinable
        package init(at p: SIMD3<Double>) {
            let e2 = WGS84.eccentricitySquared
            n = SIMD3(p.x, p.y, p.z / (1 - e2))
            let nn = (n * n).sum()
            inverseNormSquared = nn > 0 ? 1 / nn : 0
            horizontal = n.x * n.x + n.y * n.y
            // N = a / √w and M = N (1 − e²) / w, w = 1 − e² sin²φ.
            let w = 1 - e2 * (n.z * n.z * inverseNormSquared)
            let root = w.squareRoot()
            inversePrimeVertical = root * (1 / WGS84.equatorialRadius)
            inverseMeridional = w * root * (1 / (WGS84.equatorialRadius * (1 - e2)))
        }

        /// The squared normal curvature (1/m²) in the direction of `d` projected on the tangent
        /// plane (Euler's formula 1/R = cos²α/M + sin²α/N).
        @inlinable
        package func squared(along d: SIMD3<Double>) -> Double {
            let dd = (d * d).sum()
            let up = (d * n).sum()
            let tangential = dd - up * up * inverseNormSquared
            // East is (−n.y, n.x, 0) / √horizontal; at a pole M = N and the direction does not
            // matter.
            guard horizontal > 0, tangential > 0 else {
                return inversePrimeVertical * inversePrimeVertical
            }
            let east = d.y * n.x - d.x * n.y
            let sin2Azimuth = min(1, east * east / (horizontal * tangential))
            let k = inverseMeridional + sin2Azimuth * (inversePrimeVertical - inverseMeridional)
            return k * k
        }
    }

    /// The geodesic distance in meters between two points of the ellipsoid given by their
    /// Earth-centered positions, when their chord is at most ``formulaLimit``; `nil` otherwise.
    ///
    /// Within 0.1 µm of Karney's geodesic (see the type's discussion), and exactly 0 for equal
    /// positions.
    /// - Complexity: O(1); three square roots, three divisions and about 80 other operations.
    @inlinable
    package static func distance(from p: SIMD3<Double>, to q: SIMD3<Double>) -> Double? {
        distance(from: p, curvature: NormalCurvature(at: p), to: q)
    }

    /// ``distance(from:to:)`` with the curvature terms at `p` computed once by the caller: the
    /// same value, bit for bit.
    @inlinable
    package static func distance(
        from p: SIMD3<Double>, curvature: NormalCurvature, to q: SIMD3<Double>
    ) -> Double? {
        let d = q - p
        let cc = (d * d).sum()
        guard cc <= formulaLimit * formulaLimit else { return nil }
        guard cc > 0 else { return 0 }
        let k2 =
            (curvature.squared(along: d) + normalCurvatureSquared(at: q, along: d))
            / 2
        let c = cc.squareRoot()
        return c + c * cc * k2 / 24 * (1 + 9 / 80 * k2 * cc)
    }

    /// A lower bound on geodesic distances from one point of the ellipsoid, much tighter than the
    /// chord: the ball inside the ellipsoid that touches it there.
    ///
    /// Every radius of curvature of the ellipsoid is at least M₀ = b²/a, so by Blaschke's rolling
    /// theorem the ball of radius M₀ tangent at any point q from inside, centered at
    /// C = q − M₀ n(q) (n the outward normal), lies inside the ellipsoid. Radial projection from C
    /// onto that ball's sphere shortens every curve outside the ball, so a geodesic from q to p is
    /// at least M₀ ∠(q − C, p − C), the great circle on the sphere between q and p's projection.
    /// Where the chord c falls short of the geodesic s by about s³/24R² (R the radius of curvature
    /// along the line), this bound falls short by about s³(1/3 − ρ/2 + ρ²/6)/M₀², ρ = M₀/R ∈
    /// [0.99, 1]: under 0.002 s³/M₀², some twenty times less (at most 43 m rather than about 1 km
    /// at 1,000 km; the tests check both against PROJ's geodesic).
    package struct InsideBall: Sendable {
        /// The ball's center, Earth-centered meters.
        let center: SIMD3<Double>
        /// The unit outward normal at the point touched.
        let normal: SIMD3<Double>

        /// The radius used: M₀ less a meter, so rounding never makes the ball poke out (a smaller
        /// ball touching at the same point lies inside the larger one).
        @usableFromInline static let radius = smallestRadius - 1

        /// The ball touching the ellipsoid at `q`, a point on its surface (Earth-centered meters).
        @inlinable
        package init(touching q: SIMD3<Double>) {
            // The outward normal of x²/a² + y²/a² + z²/b² = 1, scaled by a²: (x, y, z / (1 − e²)).
            let g = SIMD3(q.x, q.y, q.z / (1 - WGS84.eccentricitySquared))
            normal = g / (g * g).sum().squareRoot()
            center = q - Self.radius * normal
        }

        /// A lower bound (meters) on the geodesic distance from the point touched to `p`, a point
        /// on the ellipsoid (Earth-centered meters), rounded down by far more than its rounding
        /// error (a relative 10⁻¹² and a micrometer).
        /// - Complexity: O(1); a square root and an arctangent.
        @inlinable
        package func lowerBound(to p: SIMD3<Double>) -> Double {
            let v = p - center
            let n = normal
            let cross = SIMD3(n.y * v.z - n.z * v.y, n.z * v.x - n.x * v.z, n.x * v.y - n.y * v.x)
            let angle = atan2((cross * cross).sum().squareRoot(), (n * v).sum())
            return Swift.max(0, Self.radius * angle * (1 - 1e-12) - 1e-6)
        }
    }

    /// An upper bound (meters) on the geodesic distance between two points whose chord is `c`
    /// meters: (2M₀) asin(c / 2M₀) while c is at most 0.9 · 2M₀ (11 404 km), and the longest
    /// geodesic beyond.
    @inlinable
    package static func upperBound(chord c: Double) -> Double {
        let x = c / (2 * smallestRadius)
        guard x < 0.9 else { return longestGeodesic }
        // Rounded up by a relative 1e-15 so the bound survives the rounding of asin.
        return 2 * smallestRadius * asin(x) * (1 + 1e-15)
    }

    /// An upper bound (meters) on ``upperBound(chord:)`` without its arcsine, for hot paths:
    /// asin x = x + x³/6 + 3x⁵/40 + Σ aₖx²ᵏ⁺¹ with the aₖ decreasing, so
    /// asin x ≤ x + x³/6 + (3/40) x⁵ / (1 − x²). Looser by at most (3/40) x⁷ / (1 − x²) · 2M₀
    /// (x = c / 2M₀): 2 cm at 1,000 km, 1.7 km at 5,000 km, where the bound itself is looser
    /// than that by far.
    /// Rounded up by a relative 10⁻¹⁴; the longest geodesic from x = 0.9 on, as the exact one.
    @inlinable
    package static func seriesUpperBound(chord c: Double) -> Double {
        let x = c / (2 * smallestRadius)
        guard x < 0.9 else { return longestGeodesic }
        let x2 = x * x
        let series = x + x * x2 * (1 / 6 + x2 * (3 / 40) / (1 - x2))
        return 2 * smallestRadius * series * (1 + 1e-14)
    }

    /// 1 / 2M₀, so that the hot path multiplies instead of dividing (x may differ from
    /// c / 2M₀ in its last bit, far inside the bound's margin).
    @usableFromInline static let inverseDiameter = 1 / (2 * smallestRadius)

    /// ``seriesUpperBound(chord:)`` made cheaper for chords up to 1,267 km (x = c / 2M₀ ≤ 0.1),
    /// where (3/40) x⁵ / (1 − x²) ≤ 0.000758 x³, so asin x ≤ x (1 + 0.1675 x²): three
    /// multiplications, looser than the series by under 0.00083 x² relative (10⁻⁵ at x = 0.1,
    /// 10⁻⁷ at 127 km). Beyond, the series.
    @inlinable @inline(__always)
    package static func quickUpperBound(chord c: Double) -> Double {
        let x = c * inverseDiameter
        guard x <= 0.1 else { return seriesUpperBound(chord: c) }
        return c * (1 + 0.1675 * x * x) * (1 + 1e-14)
    }
}
