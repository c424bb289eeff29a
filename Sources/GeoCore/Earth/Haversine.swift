import Foundation

/// Great-circle distances on a sphere, by the haversine formula.
///
/// The default radius is the IUGG mean Earth radius R₁ = (2a + b) / 3 of the GRS80 ellipsoid,
/// 6 371 008.8 m as published (H. Moritz, *Geodetic Reference System 1980*, Bulletin Géodésique 54
/// (1980) 395–405; WGS84's axes give the same to 0.1 mm).
///
/// ### Error bound
/// Against the exact WGS84 geodesic, the relative error of a haversine distance lies between
/// R₁ / c − 1 = −0.447 % and R₁ / M₀ − 1 = +0.562 %, where M₀ = a(1 − e²) = 6 335 439 m is the
/// smallest and c = a² / b = 6 399 594 m the largest radius of curvature of the ellipsoid: the sphere
/// is too large for short north–south lines at the equator and too small near the poles. Long lines
/// average the curvature and fall inside the same band. So **|error| ≤ 0.57 % of the distance**
/// (about 5.6 km on 1 000 km), whatever the points.
///
/// Use `Haversine` where a sphere is the agreed model (comparing with other tools that use one) or
/// where half a percent does not matter; use ``Geodesic`` otherwise, and ``LocalPlane`` for short
/// distances in hot loops.
public enum Haversine {
    /// The IUGG mean Earth radius R₁ in meters (Moritz 1980).
    public static let meanEarthRadius = WGS84.meanRadius

    /// The great-circle distance between two coordinates in meters.
    ///
    /// - Parameters:
    ///   - a: One coordinate.
    ///   - b: The other.
    ///   - radius: The sphere's radius in meters; ``meanEarthRadius`` by default.
    /// - Returns: NaN if either coordinate holds NaN or an infinite longitude, or a latitude
    ///   outside [-90, 90] (as ``Geodesic`` answers); longitudes beyond ±180° are fine.
    /// - Complexity: O(1); a few trigonometric calls.
    @inlinable
    public static func distance(
        from a: Coordinate, to b: Coordinate, radius: Double = meanEarthRadius
    ) -> Double {
        // Also false for NaN, so NaN latitudes end here too.
        guard a.latitude.magnitude <= 90, b.latitude.magnitude <= 90 else { return .nan }
        let phi1 = a.latitude * (.pi / 180)
        let phi2 = b.latitude * (.pi / 180)
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * (.pi / 180)
        let s1 = sin(dPhi / 2)
        let s2 = sin(dLambda / 2)
        // At a pole the cosine is 0 exactly (cos(π/2) is 6e-17), so every longitude there is
        // the same point.
        let c1 = a.latitude.magnitude == 90 ? 0 : cos(phi1)
        let c2 = b.latitude.magnitude == 90 ? 0 : cos(phi2)
        let h = s1 * s1 + c1 * c2 * s2 * s2
        let root = h.squareRoot()
        // Not `min(1, root)`, which would turn NaN (from an infinite longitude) into 1.
        return 2 * radius * asin(root > 1 ? 1 : root)
    }

    /// The initial bearing of the great circle from `a` to `b`, in degrees clockwise from north,
    /// in [0, 360).
    public static func initialBearing(from a: Coordinate, to b: Coordinate) -> Double {
        let phi1 = a.latitude * (.pi / 180)
        let phi2 = b.latitude * (.pi / 180)
        let dLambda = (b.longitude - a.longitude) * (.pi / 180)
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        return Angle.normalizedBearing(atan2(y, x) * (180 / .pi))
    }

    /// The bearing of the great circle from `a` to `b` on arrival at `b`, in degrees clockwise from
    /// north, in [0, 360).
    public static func finalBearing(from a: Coordinate, to b: Coordinate) -> Double {
        Angle.normalizedBearing(initialBearing(from: b, to: a) + 180)
    }

    /// The point reached by following a great circle from `start` at a bearing for a distance.
    ///
    /// - Parameters:
    ///   - start: Where the great circle starts.
    ///   - bearing: Degrees clockwise from north.
    ///   - distance: Meters along the great circle.
    ///   - radius: The sphere's radius in meters.
    /// - Returns: The destination, longitude in [-180, 180].
    public static func destination(
        from start: Coordinate, bearing: Double, distance: Double, radius: Double = meanEarthRadius
    ) -> Coordinate {
        let delta = distance / radius
        let theta = bearing * (.pi / 180)
        let phi1 = start.latitude * (.pi / 180)
        let (sinPhi1, cosPhi1) = (sin(phi1), cos(phi1))
        let (sinDelta, cosDelta) = (sin(delta), cos(delta))
        // The destination as a unit vector, in the frame where the start's meridian is 0°:
        // cos δ · start + sin δ · (cos θ · north + sin θ · east). Its latitude by atan2, which
        // keeps full precision next to the poles (asin of the z component loses half the digits
        // there).
        let x = cosDelta * cosPhi1 - sinDelta * cos(theta) * sinPhi1
        let y = sinDelta * sin(theta)
        let z = cosDelta * sinPhi1 + sinDelta * cos(theta) * cosPhi1
        let phi2 = atan2(z, (x * x + y * y).squareRoot())
        return Coordinate(
            latitude: phi2 * (180 / .pi),
            longitude: Angle.normalizedLongitude(start.longitude + atan2(y, x) * (180 / .pi)))
    }
}
