import Foundation
import GeoCore

/// The cheap test for circles near a pole, where `CircleContainmentTest` cannot work (the radius of
/// the parallels vanishes there): the same kind of proven bound, in an azimuthal chart round the
/// pole.
///
/// ### The chart
/// With the colatitude ψ (π/2 − φ for the north pole, π/2 + φ for the south) and the longitude λ,
/// a point maps to u = ψ cos λ, v = ψ sin λ (radians). In these coordinates du² + dv² = dψ² + ψ² dλ²,
/// and the ellipsoid's length element ds² = M² dψ² + P² dλ² becomes
///
///     ds² = A² dψ² + B² ψ² dλ²,   A = M,   B = P / ψ = N sin ψ / ψ,
///
/// so that min(A, B)² (du² + dv²) ≤ ds² ≤ max(A, B)² (du² + dv²). Both A and B fall monotonically
/// as ψ grows from 0 (where both equal a² / b) to π/2. The cheap distance is the chart distance
/// d = |(u, v)_point − (u, v)_center|, one `sincos` per point and a few multiplications per fence.
///
/// ### The bound
/// Let ρ = 9r/8, Ψ = [ψc − ρ/M₀, ψc + ρ/M₀] ∩ [0, π/2], m = min(A, B) at Ψ's upper end and
/// m̄ = max(A, B) at its lower end (so m ≤ A, B ≤ m̄ on Ψ).
///
/// **Theorem.** If m · d > r the point is outside (s > r); if m̄ · d ≤ r it is inside (s ≤ r).
///
/// *Proof.* A geodesic of length s from the center changes colatitude by at most s / M₀. If s ≤ r,
/// it stays in Ψ, where ds ≥ m |d(u, v)|, so s ≥ m · d (the chart segment is the shortest curve in
/// the chart); m · d > r then contradicts s ≤ r. If m̄ · d ≤ r, then |ψ − ψc| ≤ d ≤ r / m̄ ≤ ρ / M₀
/// (ψ is 1-Lipschitz in the chart and m̄ ≥ M₀), so the chart segment from the center, which stays in
/// the convex disc ψ ≤ max(ψc, ψ) of the chart, lies in Ψ and is at most m̄ · d ≤ r long; s is no
/// longer. ∎
///
/// Within 5° of a pole m̄ / m − 1 is below 2e-3 for ρ up to 100 km, so few candidates need
/// `geod_inverse`. The thresholds are widened by a relative 1e-12 and 1 µm like those of
/// `CircleContainmentTest`.
struct PolarCircleTest: Sendable {
    /// +1 for the north pole's chart, −1 for the south pole's.
    let pole: Double
    let u: Double
    let v: Double
    let insideSquared: Double
    let outsideSquared: Double
    let center: Coordinate
    let radius: Double
    /// m̄ / m − 1: the relative width of the band sent to the exact path.
    let relativeBand: Double

    /// The chart coordinates (radians) of a point for a pole.
    @inline(__always)
    static func chart(latitude: Double, longitude: Double, pole: Double) -> (u: Double, v: Double) {
        let psi = Double.pi / 2 - pole * latitude * (.pi / 180)
        let lambda = longitude * (.pi / 180)
        return (psi * cos(lambda), psi * sin(lambda))
    }

    /// The test for a circle whose reach stays within 45° of the pole nearest its center, or `nil`.
    init?(_ circle: CircularGeographicCondition) {
        let pole: Double = circle.center.latitude >= 0 ? 1 : -1
        let psiCenter = Double.pi / 2 - pole * circle.center.latitude * (.pi / 180)
        let reach = circle.radius * 9 / 8 / EllipsoidMetric.minimumMeridionalRadius
        let psiLow = max(0, psiCenter - reach), psiHigh = psiCenter + reach
        guard psiHigh <= .pi / 4 else { return nil }
        func ab(_ psi: Double) -> (Double, Double) {
            let phi = .pi / 2 - psi
            let (m, _) = EllipsoidMetric.radii(sin: sin(phi), cos: cos(phi))
            let n = WGS84.radiiOfCurvature(atLatitudeRadians: phi).primeVertical
            return (m, psi == 0 ? n : n * sin(psi) / psi)
        }
        let (aLow, bLow) = ab(psiLow), (aHigh, bHigh) = ab(psiHigh)
        let lower = min(aHigh, bHigh) * (1 - 1e-12), upper = max(aLow, bLow) * (1 + 1e-12)
        relativeBand = upper / lower - 1
        let inner = (circle.radius - CircleContainmentTest.absoluteSlack) / upper
        insideSquared = inner > 0 ? inner * inner * (1 - 1e-12) : -1
        let outer = (circle.radius + CircleContainmentTest.absoluteSlack) / lower
        outsideSquared = outer * outer * (1 + 1e-12)
        self.pole = pole
        (u, v) = Self.chart(
            latitude: circle.center.latitude, longitude: circle.center.longitude, pole: pole)
        center = circle.center
        radius = circle.radius
    }

    /// The cheap verdict for a point given its chart coordinates for this test's pole.
    @inline(__always)
    func verdict(u pu: Double, v pv: Double) -> CircleVerdict {
        let du = pu - u, dv = pv - v
        let d2 = du * du + dv * dv
        return d2 <= insideSquared ? .inside : d2 > outsideSquared ? .outside : .undecided
    }

    /// Whether a valid point is inside: the chart test, then `geod_inverse` if it is undecided.
    func contains(_ point: Coordinate, exactCount: inout Int) -> Bool {
        let (pu, pv) = Self.chart(latitude: point.latitude, longitude: point.longitude, pole: pole)
        switch verdict(u: pu, v: pv) {
        case .inside: return true
        case .outside: return false
        case .undecided:
            exactCount += 1
            return Geodesic.wgs84.distance(from: center, to: point) <= radius
        }
    }
}
