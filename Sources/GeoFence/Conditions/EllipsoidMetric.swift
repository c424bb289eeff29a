import Foundation
import GeoCore

/// Facts about the WGS84 ellipsoid's metric that turn cheap latitude/longitude arithmetic into
/// proven bounds on geodesic distances.
///
/// On the ellipsoid the length element in geodetic latitude φ and longitude λ is
///
///     ds² = M(φ)² dφ² + P(φ)² dλ²,   M = a(1 − e²) / (1 − e² sin²φ)^(3/2),   P = N cos φ = a cos φ / (1 − e² sin²φ)^(1/2)
///
/// (M the meridional radius of curvature, N the prime-vertical radius, P the radius of the
/// parallel). M grows and P shrinks monotonically with |φ|. Three consequences are used everywhere
/// in GeoFence:
///
/// 1. Along any path, |dφ| ≤ ds / M ≤ ds / M₀ with M₀ = a(1 − e²) = 6 335 439.3 m, the smallest
///    meridional radius. So two points a geodesic distance s apart differ in latitude by at most
///    s / M₀ radians, and every point of that geodesic lies within s / (2 M₀) of the latitude of one
///    of its ends.
/// 2. On a latitude band where M ∈ [M_lo, M_hi] and P ∈ [P_lo, P_hi], a path that stays in the band
///    and changes latitude by Δφ and longitude by Δλ (the short way) is at least
///    √((M_lo Δφ)² + (P_lo Δλ)²) long (Minkowski's inequality for integrals), and the path that is
///    straight in (φ, λ) is at most √((M_hi Δφ)² + (P_hi Δλ)²) long.
/// 3. A path of length s from a point stays in the band φ ± s / M₀, so its longitude changes by at
///    most s / P_lo of that band.
enum EllipsoidMetric {
    /// WGS84 semi-major axis a in meters (the kernel's).
    static let equatorialRadius = WGS84.equatorialRadius
    /// WGS84 first eccentricity squared e² = f (2 − f) (the kernel's).
    static let eccentricitySquared = WGS84.eccentricitySquared

    /// M₀ = a (1 − e²), the smallest meridional radius (at the equator), lowered by a relative 1e-12 so
    /// that bounds built on it survive rounding.
    static let minimumMeridionalRadius = equatorialRadius * (1 - eccentricitySquared) * (1 - 1e-12)

    /// The largest radius of curvature, a² / b = a / √(1 − e²) (at the poles), raised by a relative
    /// 1e-12.
    static let maximumRadius =
        equatorialRadius / (1 - eccentricitySquared).squareRoot() * (1 + 1e-12)

    /// Meters per degree of latitude can be as small as this (the equator's meridional degree).
    static let minimumMetersPerDegreeLatitude = minimumMeridionalRadius * .pi / 180

    /// The meridional radius M in meters at a latitude in radians.
    @inline(__always)
    static func meridionalRadius(atLatitudeRadians phi: Double) -> Double {
        WGS84.radiiOfCurvature(atLatitudeRadians: phi).meridional
    }

    /// The radius of the parallel P = N cos φ in meters at a latitude in radians; 0 at the poles.
    @inline(__always)
    static func parallelRadius(atLatitudeRadians phi: Double) -> Double {
        max(0, WGS84.radiiOfCurvature(atLatitudeRadians: phi).primeVertical * cos(phi))
    }

    /// The smallest and largest M and P on the latitude band [low, high] (radians, clamped to the
    /// poles), each widened by a relative 1e-12 for rounding. P's minimum is 0 when the band reaches
    /// a pole.
    static func extremes(
        low: Double, high: Double
    ) -> (mMin: Double, mMax: Double, pMin: Double, pMax: Double) {
        let lo = max(-Double.pi / 2, min(low, high)), hi = min(Double.pi / 2, max(low, high))
        let nearest = lo <= 0 && hi >= 0 ? 0 : min(abs(lo), abs(hi))  // |φ| closest to the equator
        let farthest = max(abs(lo), abs(hi))  // |φ| closest to a pole
        let slack = 1e-12
        let pMin =
            farthest >= .pi / 2 - 1e-12
            ? 0 : parallelRadius(atLatitudeRadians: farthest) * (1 - slack)
        return (
            meridionalRadius(atLatitudeRadians: nearest) * (1 - slack),
            meridionalRadius(atLatitudeRadians: farthest) * (1 + slack),
            pMin,
            parallelRadius(atLatitudeRadians: nearest) * (1 + slack)
        )
    }

    /// A latitude with its sine and cosine, so that bands around it need no further trigonometry.
    struct Latitude: Sendable {
        let radians: Double
        let sin: Double
        let cos: Double

        init(degrees: Double) {
            radians = degrees * (.pi / 180)
            sin = Foundation.sin(radians)
            cos = Foundation.cos(radians)
        }
    }

    /// M and P in meters from the sine and cosine of a latitude.
    @inline(__always)
    static func radii(sin s: Double, cos c: Double) -> (m: Double, p: Double) {
        let (m, n) = WGS84.radiiOfCurvature(sineSquared: s * s)
        return (m, max(0, n * c))
    }

    /// ``extremes(low:high:)`` for the band [φ − δ, φ + δ], from φ's sine and cosine.
    ///
    /// For δ ≤ 0.01 rad the band's edges come from the angle-addition formulas with sin δ and cos δ
    /// from their Taylor series to δ⁷ and δ⁸ (truncation below 3e-16 relative, inside the 1e-12
    /// widening); wider bands and bands reaching a pole use ``extremes(low:high:)``.
    static func extremes(
        around phi: Latitude, halfWidth delta: Double
    ) -> (mMin: Double, mMax: Double, pMin: Double, pMax: Double) {
        let lo = phi.radians - delta, hi = phi.radians + delta
        guard delta >= 0 && delta <= 0.01 && lo > -.pi / 2 + 1e-9 && hi < .pi / 2 - 1e-9 else {
            return extremes(low: lo, high: hi)
        }
        let d2 = delta * delta
        let sd = delta * (1 - d2 / 6 * (1 - d2 / 20 * (1 - d2 / 42)))
        let cd = 1 - d2 / 2 * (1 - d2 / 12 * (1 - d2 / 30))
        let sinHi = phi.sin * cd + phi.cos * sd, cosHi = phi.cos * cd - phi.sin * sd
        let sinLo = phi.sin * cd - phi.cos * sd, cosLo = phi.cos * cd + phi.sin * sd
        // The |φ| closest to the equator and to a pole, as (|sin|, cos).
        let nearest: (Double, Double)
        let farthest: (Double, Double)
        if lo <= 0 && hi >= 0 {
            nearest = (0, 1)
            farthest = phi.radians >= 0 ? (abs(sinHi), cosHi) : (abs(sinLo), cosLo)
        } else if phi.radians > 0 {
            (nearest, farthest) = ((sinLo, cosLo), (sinHi, cosHi))
        } else {
            (nearest, farthest) = ((-sinHi, cosHi), (-sinLo, cosLo))
        }
        let near = radii(sin: nearest.0, cos: nearest.1),
            far = radii(sin: farthest.0, cos: farthest.1)
        let slack = 1e-12
        return (
            near.m * (1 - slack), far.m * (1 + slack), far.p * (1 - slack), near.p * (1 + slack)
        )
    }

    /// How far in latitude and longitude (degrees) a point can be from `coordinate` when it is within
    /// a geodesic distance of it: a proven bound (facts 1 and 3 above), widened for rounding.
    ///
    /// - Returns: `longitude` is `nil` when the band reaches a pole or the distance can wrap the
    ///   Earth, meaning "any longitude".
    static func reach(
        _ distance: Double, around latitude: Double
    ) -> (latitude: Double, longitude: Double?) {
        reach(distance, around: Latitude(degrees: latitude))
    }

    /// ``reach(_:around:)`` from a latitude's sine and cosine.
    static func reach(
        _ distance: Double, around phi: Latitude
    ) -> (latitude: Double, longitude: Double?) {
        let d = max(0, distance)
        let dPhi = d / minimumMeridionalRadius  // radians
        let latitudeReach = dPhi * (180 / .pi) * (1 + 1e-9) + 1e-9
        let band = extremes(around: phi, halfWidth: dPhi)
        guard band.pMin > 0 else { return (latitudeReach, nil) }
        let longitudeReach = d / band.pMin * (180 / .pi) * (1 + 1e-9) + 1e-9
        return (latitudeReach, longitudeReach >= 180 ? nil : longitudeReach)
    }

    /// Earth-centered, Earth-fixed coordinates in meters of a point on the ellipsoid's surface.
    static func cartesian(_ c: Coordinate) -> SIMD3<Double> {
        WGS84.earthCentered(c)
    }

    /// The straight-line (chord) distance in meters between two surface points: a lower bound of
    /// their geodesic distance, since no path on the surface is shorter than the straight segment.
    /// Lowered by a relative 1e-12 and 1 µm for rounding.
    static func chordLowerBound(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return max(0, (d * d).sum().squareRoot() * (1 - 1e-12) - 1e-6)
    }
}
