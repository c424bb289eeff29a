import Foundation

/// A flat-Earth approximation for short distances in hot loops: an equirectangular plane scaled by
/// the ellipsoid's own radii of curvature at the mean latitude.
///
/// East–west offsets are scaled by the radius of the parallel N(φ)·cos φ and north–south offsets by
/// the meridional radius M(φ), both of WGS84, at the mean latitude φ of the two points. The result is
/// exact to first order, so the error grows with the square of the distance:
///
/// relative error ≈ (d / R)² · tan²φ / 24 + O((d / R)²),  R ≈ 6 371 km,
///
/// where φ is the larger |latitude| of the two points. Measured against GeographicLib on random
/// pairs (maximum relative error):
///
/// | distance ≤ | \|lat\| ≤ 60° | \|lat\| ≤ 80° | \|lat\| ≤ 89° |
/// |---|---|---|---|
/// | 1 km | 3.5e-9 | 3.4e-8 | 2.9e-6 |
/// | 10 km | 3.4e-7 (3 mm) | 3.4e-6 (3.4 cm) | 3.2e-4 |
/// | 100 km | 3.4e-5 (3.4 m) | 3.4e-4 (34 m) | 1.9e-2 |
///
/// Use it for distances of a few kilometers away from the poles (geofence prefilters, nearest-point
/// scans); use ``Geodesic`` for anything that is reported to a person.
public enum LocalPlane {
    /// The approximate distance in meters between two nearby coordinates.
    ///
    /// Longitude differences are taken the short way round, so points on either side of the 180th
    /// meridian are close.
    /// - Complexity: O(1); one sine, one cosine and a square root.
    @inlinable
    public static func distance(from a: Coordinate, to b: Coordinate) -> Double {
        let (dx, dy) = offset(from: a, to: b)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The east and north offsets in meters from `a` to `b` in the local plane at their mean latitude.
    @inlinable
    public static func offset(from a: Coordinate, to b: Coordinate) -> (east: Double, north: Double)
    {
        let meanLatitude = (a.latitude + b.latitude) * (0.5 * .pi / 180)
        var dLon = b.longitude - a.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let (m, n) = radiiOfCurvature(atLatitudeRadians: meanLatitude)
        return (
            dLon * (.pi / 180) * n * cos(meanLatitude), (b.latitude - a.latitude) * (.pi / 180) * m
        )
    }

    /// The WGS84 meridional radius M and prime-vertical radius N in meters at a latitude in radians.
    @inlinable
    public static func radiiOfCurvature(
        atLatitudeRadians phi: Double
    ) -> (meridional: Double, primeVertical: Double) {
        WGS84.radiiOfCurvature(atLatitudeRadians: phi)
    }
}
