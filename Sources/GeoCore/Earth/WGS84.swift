import Foundation

/// The Earth's figure: the one home of the WGS84 ellipsoid's constants in Meridian, and of the
/// formulas every module builds on (radii of curvature, Earth-centered coordinates, the unit-square
/// Web-Mercator projection).
///
/// Every other file that needs a, f, e², the mean radius or one of these formulas calls this one;
/// none spells the numbers again (CI checks it).
@usableFromInline
package enum WGS84 {
    // MARK: - Constants

    /// The semi-major axis a = 6 378 137 m (NIMA TR8350.2, *Department of Defense World Geodetic
    /// System 1984*, 3rd ed., 2000, table 3.1). GRS80 has the same a.
    @usableFromInline package static let equatorialRadius = 6_378_137.0

    /// The inverse flattening 1/f = 298.257 223 563 (NIMA TR8350.2, table 3.1).
    @usableFromInline package static let inverseFlattening = 298.257_223_563

    /// The flattening f = (a − b) / a.
    @usableFromInline package static let flattening = 1 / inverseFlattening

    /// The first eccentricity squared e² = f (2 − f).
    @usableFromInline package static let eccentricitySquared = flattening * (2 - flattening)

    /// The semi-minor (polar) axis b = a (1 − f) ≈ 6 356 752.314 m.
    @usableFromInline package static let polarRadius = equatorialRadius * (1 - flattening)

    /// The IUGG mean Earth radius R₁ = (2a + b) / 3 = 6 371 008.8 m as published (H. Moritz,
    /// *Geodetic Reference System 1980*, Bulletin Géodésique 54 (1980) 395–405, which gives
    /// 6 371 008.7714 m before rounding; WGS84's a and b give the same to 0.1 mm).
    @usableFromInline package static let meanRadius = 6_371_008.8

    /// GRS80's inverse flattening 1/f = 298.257 222 101 (Moritz 1980); its a is WGS84's.
    @usableFromInline package static let grs80InverseFlattening = 298.257_222_101

    // MARK: - Radii of curvature

    /// The meridional radius of curvature M and the prime-vertical radius N in meters, from sin²φ
    /// of the geodetic latitude φ:
    ///
    ///     N = a / √(1 − e² sin²φ),   M = N (1 − e²) / (1 − e² sin²φ)
    ///
    /// M is the radius of the meridian ellipse (north–south), N cos φ the radius of the parallel
    /// (east–west). M runs from a(1 − e²) = 6 335 439 m at the equator to a²/b = 6 399 594 m at
    /// the poles.
    @inlinable
    package static func radiiOfCurvature(
        sineSquared s2: Double
    ) -> (meridional: Double, primeVertical: Double) {
        let w = 1 - eccentricitySquared * s2
        let n = equatorialRadius / w.squareRoot()
        return (n * (1 - eccentricitySquared) / w, n)
    }

    /// ``radiiOfCurvature(sineSquared:)`` at a geodetic latitude in radians.
    @inlinable
    package static func radiiOfCurvature(
        atLatitudeRadians phi: Double
    ) -> (meridional: Double, primeVertical: Double) {
        let s = sin(phi)
        return radiiOfCurvature(sineSquared: s * s)
    }

    // MARK: - Earth-centered, Earth-fixed coordinates

    /// Earth-centered, Earth-fixed (ECEF) Cartesian coordinates in meters of a geodetic position:
    /// x towards (0°, 0°), y towards (0°, 90° E), z towards the north pole.
    ///
    ///     x = (N + h) cos φ cos λ,  y = (N + h) cos φ sin λ,  z = (N (1 − e²) + h) sin φ
    ///
    /// - Parameter height: Meters above the ellipsoid.
    @inlinable
    package static func earthCentered(
        latitude: Double, longitude: Double, height: Double = 0
    ) -> SIMD3<Double> {
        // Exact at multiples of 90°: a pole is one point whatever the longitude, and longitudes
        // −180 and 180 give the same position.
        let (sinPhi, cosPhi) = Angle.sinCos(degrees: latitude)
        let (sinLambda, cosLambda) = Angle.sinCos(degrees: longitude)
        return earthCentered(
            sinLatitude: sinPhi, cosLatitude: cosPhi, sinLongitude: sinLambda,
            cosLongitude: cosLambda, height: height)
    }

    /// ``earthCentered(latitude:longitude:height:)`` from the sines and cosines of the latitude
    /// and longitude, for callers that compute them their own way.
    @inlinable
    package static func earthCentered(
        sinLatitude sinPhi: Double, cosLatitude cosPhi: Double, sinLongitude sinLambda: Double,
        cosLongitude cosLambda: Double, height: Double = 0
    ) -> SIMD3<Double> {
        let n = equatorialRadius / (1 - eccentricitySquared * sinPhi * sinPhi).squareRoot()
        return SIMD3(
            (n + height) * cosPhi * cosLambda, (n + height) * cosPhi * sinLambda,
            (n * (1 - eccentricitySquared) + height) * sinPhi)
    }

    /// ``earthCentered(latitude:longitude:height:)`` of a coordinate on the ellipsoid's surface.
    @inlinable
    package static func earthCentered(_ coordinate: Coordinate) -> SIMD3<Double> {
        earthCentered(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    /// The geodetic latitude and longitude (degrees) and height (meters) of an ECEF point, in
    /// closed form (H. Vermeille, *Direct transformation from geocentric coordinates to geodetic
    /// coordinates*, Journal of Geodesy 76 (2002) 451–454).
    ///
    /// Exact to about a nanometer for points from the Earth's center region outwards to beyond the
    /// Moon; for points within about 43 km of the center (inside the evolute of the meridian
    /// ellipse, where latitude is not unique) the result is one of the valid answers. The origin
    /// gives latitude 0, longitude 0 and height −a.
    package static func geodetic(
        earthCentered point: SIMD3<Double>
    ) -> (latitude: Double, longitude: Double, height: Double) {
        let (x, y, z) = (point.x, point.y, point.z)
        let a = equatorialRadius, e2 = eccentricitySquared, e4 = e2 * e2
        let rho = (x * x + y * y).squareRoot()
        let longitude = Angle.degrees(atan2(y, x))
        guard rho > 0 || z != 0 else { return (0, 0, -a) }
        let p = rho * rho / (a * a)
        let q = (1 - e2) / (a * a) * z * z
        let r = (p + q - e4) / 6
        let s = e4 * p * q / (4 * r * r * r)
        let t = cbrt(1 + s + (s * (2 + s)).squareRoot())
        let u = r * (1 + t + 1 / t)
        let v = (u * u + e4 * q).squareRoot()
        let w = e2 * (u + v - q) / (2 * v)
        let k = (u + v + w * w).squareRoot() - w
        let d = k * rho / (k + e2)
        let hypotenuse = (d * d + z * z).squareRoot()
        let latitude = Angle.degrees(2 * atan2(z, d + hypotenuse))
        let height = (k + e2 - 1) / k * hypotenuse
        guard latitude.isFinite, height.isFinite else {
            // On the polar axis p = 0 and the formulas degenerate: the pole itself.
            let pole = z >= 0 ? 90.0 : -90.0
            return (pole, 0, abs(z) - polarRadius)
        }
        return (latitude, longitude, height)
    }

    // MARK: - Web Mercator on the unit square

    /// The spherical (Web) Mercator projection onto the unit square: x from 0 (180° W) to 1
    /// (180° E), y from 0 (the north edge, 85.05° N) to 1 (the south edge):
    ///
    ///     x = λ / 360 + 0.5,   y = 0.5 − ln((1 + sin φ) / (1 − sin φ)) / (4π)
    ///
    /// evaluated in exactly this order: `sin(φ · π / 180)` and `0.5 − 0.25 · ln(…) / π`, as
    /// supercluster 8.0.1 evaluates it, so its clustering can use this function and stay bit-exact.
    /// Not clamped and not wrapped: the poles give ∓infinity, longitudes beyond ±180° fall outside
    /// [0, 1].
    @inlinable
    package static func unitSquareMercator(
        latitude: Double, longitude: Double
    ) -> (x: Double, y: Double) {
        (unitSquareX(longitude: longitude), unitSquareY(latitude: latitude))
    }

    /// The x of ``unitSquareMercator(latitude:longitude:)``: `λ / 360 + 0.5`.
    @inlinable
    package static func unitSquareX(longitude: Double) -> Double {
        longitude / 360 + 0.5
    }

    /// The y of ``unitSquareMercator(latitude:longitude:)``, in its operation order.
    @inlinable
    package static func unitSquareY(latitude: Double) -> Double {
        let s = sin(latitude * Double.pi / 180)
        return 0.5 - 0.25 * log((1 + s) / (1 - s)) / Double.pi
    }

    /// The latitude and longitude in degrees of a point of the unit square (the inverse of
    /// ``unitSquareMercator(latitude:longitude:)``); x beyond [0, 1] gives longitudes beyond ±180°.
    @inlinable
    package static func unitSquareMercatorInverse(
        x: Double, y: Double
    ) -> (latitude: Double, longitude: Double) {
        (Angle.degrees(atan(sinh(.pi * (1 - 2 * y)))), x * 360 - 180)
    }
}
