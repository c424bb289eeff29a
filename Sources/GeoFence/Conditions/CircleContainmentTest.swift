import GeoCore

/// The cheap test ``GeofenceIndex`` runs before the exact geodesic: a flat-earth distance with a
/// **proven** error bound, so the exact distance (`geod_inverse`) is needed only when the cheap
/// answer falls within that bound of the radius, and the answer is always the geodesic one.
///
/// ### The cheap distance
/// For a circle with center latitude φc and radius r, and a point at Δφ, Δλ from the center (radians,
/// Δλ the short way round), the cheap distance is
///
///     d = √((M_c Δφ)² + (P_c Δλ)²),   M_c = M(φc),   P_c = N(φc) cos φc,
///
/// with the WGS84 meridional radius M and the radius of the parallel P at the center, precomputed per
/// fence: two subtractions, four multiplications and two comparisons per candidate, no square root.
///
/// ### The bound
/// Let ρ = 9r/8 and B = [φc − ρ/M₀, φc + ρ/M₀] with M₀ = a(1 − e²) = 6 335 439 m, the smallest
/// meridional radius. Let M_lo, M_hi, P_lo, P_hi be the extremes of M and P on B (M grows, P shrinks
/// with |φ|, so they sit at B's ends or on the equator), and
///
///     k_lo = min(M_lo / M_c, P_lo / P_c) ≤ 1 ≤ k_hi = max(M_hi / M_c, P_hi / P_c).
///
/// **Theorem.** For every point whose geodesic distance s from the center is at most ρ,
/// k_lo · d ≤ s ≤ k_hi · d, so |d − s| ≤ ε · d with ε = max(1 − k_lo, k_hi − 1). For every point
/// whatsoever, k_hi · d ≤ r implies s ≤ r, and k_lo · d > r implies s > r.
///
/// *Proof.* On the ellipsoid ds² = M(φ)² dφ² + P(φ)² dλ², and M(φ) ≥ M₀.
/// (i) *Lower bound.* Take s ≤ ρ. Every point of the geodesic is within s of the center along it,
/// so its latitude differs from φc by at most s / M₀ ≤ ρ / M₀ (since |dφ| ≤ ds / M₀): the geodesic
/// stays in B, where M ≥ M_lo and P ≥ P_lo. By Minkowski's inequality for integrals,
/// s = ∫ √(M²φ'² + P²λ'²) ≥ √((M_lo ∫|φ'|)² + (P_lo ∫|λ'|)²) ≥ √((M_lo Δφ)² + (P_lo Δλ)²), because
/// the path changes latitude by at least |Δφ| and longitude by at least the short-way |Δλ|; and
/// M_lo ≥ k_lo M_c, P_lo ≥ k_lo P_c give s ≥ k_lo · d.
/// (ii) *Upper bound.* If |Δφ| ≤ ρ / M₀ (true when s ≤ ρ, by the same inequality), the path that is
/// straight in (φ, λ) from the center to the point stays in B, where M ≤ M_hi and P ≤ P_hi, so its
/// length, which is at least s, is at most √((M_hi Δφ)² + (P_hi Δλ)²) ≤ k_hi · d.
/// (iii) *The decisions, for any point.* If k_hi · d ≤ r then M_c |Δφ| ≤ d ≤ r, so
/// |Δφ| ≤ r / M_c ≤ ρ / M₀ and (ii) gives s ≤ k_hi · d ≤ r. If k_lo · d > r but s ≤ r ≤ ρ, then (i)
/// gives s ≥ k_lo · d > r, a contradiction; so s > r. ∎
///
/// Near a pole P_lo = 0, so k_lo = 0 and no point is declared outside by the cheap test; for large
/// circles ε is large. Both just send more candidates to the exact path, which is what the theorem
/// allows for any radius and latitude.
///
/// ### Size of the bound
/// To first order ε ≈ (ρ / R) |tan φc| with R ≈ 6 371 km (the parallel's radius changes across B);
/// on the equator that term vanishes and ε is of order (ρ / R)². Values of ε computed by this type
/// (with ρ = 9r/8), and in brackets the width 2εr of the band of distances sent to `geod_inverse`:
///
/// | r | φc = 0° | 45° | 60° | 80° |
/// |---|---|---|---|---|
/// | 100 m | 1.6e-10 | 1.8e-5 (3.5 mm) | 3.1e-5 (6 mm) | 1.0e-4 (2 cm) |
/// | 1 km | 1.6e-8 | 1.8e-4 (35 cm) | 3.1e-4 (61 cm) | 1.0e-3 (2 m) |
/// | 5 km | 3.9e-7 | 8.9e-4 (8.9 m) | 1.5e-3 (15 m) | 5.0e-3 (50 m) |
/// | 100 km | 1.6e-4 | 1.8e-2 (3.6 km) | 3.1e-2 | 1.0e-1 |
///
/// Only candidates that fall in that band cost a geodesic solution; `GeofenceIndexTests` and the
/// `fence` benchmark count them.
///
/// ### Rounding
/// The thresholds are widened by a relative 1e-12 (rounding in M, P and the squares) and by 1 µm
/// absolute, which covers the rounding of longitude differences across the 180th meridian (at most
/// 3 nm) and the 15 nm accuracy of `geod_inverse` itself, so a cheap answer is never on the other
/// side of the radius from the exact one.
struct CircleContainmentTest: Sendable {
    /// The circle's center.
    let center: Coordinate
    /// The circle's radius in meters.
    let radius: Double
    /// k_lo: a proven lower bound of geodesic / cheap distance for points within 9/8 of the radius.
    let lowerRatio: Double
    /// k_hi: a proven upper bound of geodesic / cheap distance for points within 9/8 of the radius.
    let upperRatio: Double
    /// The cheap distance and the thresholds derived from k_lo and k_hi.
    let flat: FlatCircleTest

    /// The absolute widening of the thresholds in meters (1 µm).
    static let absoluteSlack = 1e-6

    /// Precomputes the test for a circle.
    ///
    /// - Complexity: O(1); a few trigonometric calls.
    init(_ circle: CircularGeographicCondition) {
        self.init(circle, latitude: EllipsoidMetric.Latitude(degrees: circle.center.latitude))
    }

    /// The test, given the sine and cosine of the center's latitude.
    init(_ circle: CircularGeographicCondition, latitude phi: EllipsoidMetric.Latitude) {
        center = circle.center
        radius = circle.radius
        let reach = radius * 9 / 8 / EllipsoidMetric.minimumMeridionalRadius
        let band = EllipsoidMetric.extremes(around: phi, halfWidth: reach)
        let (mc, pc) = EllipsoidMetric.radii(sin: phi.sin, cos: phi.cos)
        let lowerRatio: Double, upperRatio: Double
        if pc > 0 {
            lowerRatio = max(0, min(band.mMin / mc, band.pMin / pc) * (1 - 1e-12))
            upperRatio = max(band.mMax / mc, band.pMax / pc) * (1 + 1e-12)
        } else {
            // Center on a pole: P_c = 0 makes the cheap distance ignore longitude, which is right at
            // the pole itself; only the lower bound via M survives.
            lowerRatio = max(0, band.mMin / mc * (1 - 1e-12))
            upperRatio = band.mMax / mc * (1 + 1e-12)
        }
        let inner = (radius - Self.absoluteSlack) / upperRatio
        let outer = (radius + Self.absoluteSlack) / lowerRatio
        flat = FlatCircleTest(
            centerLatitude: center.latitude, centerLongitude: center.longitude,
            metersPerDegreeLatitude: mc * (.pi / 180), metersPerDegreeLongitude: pc * (.pi / 180),
            insideSquared: inner > 0 ? inner * inner * (1 - 1e-12) : -1,
            outsideSquared: lowerRatio > 0 ? outer * outer * (1 + 1e-12) : .infinity)
        self.lowerRatio = lowerRatio
        self.upperRatio = upperRatio
    }

    /// ε = max(1 − k_lo, k_hi − 1): |cheap − geodesic| ≤ ε · cheap for points within 9/8 of the
    /// radius.
    var relativeErrorBound: Double { max(1 - lowerRatio, upperRatio - 1) }

    /// The cheap flat-earth distance in meters from the center to a point.
    ///
    /// - Complexity: O(1); no trigonometry.
    func approximateDistance(to point: Coordinate) -> Double {
        flat.distanceSquared(latitude: point.latitude, longitude: point.longitude).squareRoot()
    }

    /// The cheap test alone.
    ///
    /// - Complexity: O(1); no trigonometry.
    func verdict(for point: Coordinate) -> CircleVerdict {
        flat.verdict(
            distanceSquared: flat.distanceSquared(
                latitude: point.latitude, longitude: point.longitude))
    }

    /// Whether a valid point is inside or on the circle: the cheap test, and `geod_inverse` when it
    /// is undecided. Always the same answer as ``CircularGeographicCondition/contains(_:)``.
    func contains(_ point: Coordinate) -> Bool {
        switch verdict(for: point) {
        case .inside: return true
        case .outside: return false
        case .undecided: return Geodesic.wgs84.distance(from: center, to: point) <= radius
        }
    }
}
