import Foundation

/// Rhumb lines (loxodromes) on an ellipsoid: paths of constant bearing, as a ship steering one compass
/// course follows.
///
/// Distances use the meridian arc and the isometric latitude of the ellipsoid, with Krüger's series in
/// the third flattening n to order n⁴ (relative error about n⁵ ≈ 1.4e-12, under 0.1 mm on any
/// rhumb line that does not reach a pole). A rhumb line is longer than the geodesic between the same
/// points: JFK to Singapore is 18 523 563 m by rhumb line and 15 347 628 m by geodesic.
public struct Rhumb: Sendable, Hashable {
    /// The ellipsoid.
    public let ellipsoid: Geodesic

    private let n: Double
    private let e: Double
    private let rectifyingRadius: Double

    /// Rhumb lines on WGS84.
    public static let wgs84 = Rhumb(ellipsoid: .wgs84)

    /// Rhumb lines on an ellipsoid.
    public init(ellipsoid: Geodesic) {
        self.ellipsoid = ellipsoid
        let f = ellipsoid.flattening
        n = f / (2 - f)
        e = (f * (2 - f)).squareRoot()
        let n2 = n * n
        rectifyingRadius = ellipsoid.equatorialRadius / (1 + n) * (1 + n2 / 4 + n2 * n2 / 64)
    }

    /// The solution of the inverse rhumb problem.
    public struct Inverse: Hashable, Sendable {
        /// The length of the rhumb line in meters.
        public var distance: Double
        /// Its constant azimuth in degrees clockwise from north, in [-180, 180].
        public var azimuth: Double
    }

    /// The rhumb line between two points: its length and constant azimuth.
    ///
    /// The longitude difference is taken the short way round (at most 180°). NaN input gives NaN.
    public func inverse(from start: Coordinate, to end: Coordinate) -> Inverse {
        let phi1 = start.latitude * (.pi / 180), phi2 = end.latitude * (.pi / 180)
        let dLambda =
            Angle.longitudeDifference(from: start.longitude, to: end.longitude) * (.pi / 180)
        let dPsi = isometricLatitude(phi2) - isometricLatitude(phi1)
        let ratio = meridianPerIsometric(phi1, phi2)  // dμ/dψ between the two latitudes
        let distance = (dLambda * dLambda + dPsi * dPsi).squareRoot() * ratio
        let azimuth = atan2(dLambda, dPsi) * (180 / .pi)
        return Inverse(distance: distance, azimuth: azimuth)
    }

    /// The point reached by traveling a distance at a constant azimuth.
    ///
    /// - Parameters:
    ///   - start: Where the rhumb line starts.
    ///   - azimuth: Degrees clockwise from north.
    ///   - distance: Meters.
    /// - Returns: The destination, longitude in [-180, 180]; NaN if the rhumb line would pass a pole.
    public func direct(from start: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        let phi1 = start.latitude * (.pi / 180)
        let alpha = azimuth * (.pi / 180)
        let mu2 = meridianArc(phi1) + distance * cos(alpha)
        let quarterMeridian = rectifyingRadius * .pi / 2
        guard abs(mu2) <= quarterMeridian else {
            return Coordinate(latitude: .nan, longitude: .nan)
        }
        let phi2 = latitude(fromMeridianArc: mu2)
        let ratio = meridianPerIsometric(phi1, phi2)
        let dLambda = distance * sin(alpha) / ratio
        return Coordinate(
            latitude: phi2 * (180 / .pi),
            longitude: Angle.normalizedLongitude(start.longitude + dLambda * (180 / .pi)))
    }

    // MARK: - Ellipsoid functions

    /// The isometric latitude ψ = asinh(tan φ) − e·atanh(e sin φ).
    private func isometricLatitude(_ phi: Double) -> Double {
        asinh(tan(phi)) - e * atanh(e * sin(phi))
    }

    /// The meridian arc from the equator to latitude φ, in meters (Krüger's series).
    private func meridianArc(_ phi: Double) -> Double {
        let n2 = n * n, n3 = n2 * n, n4 = n3 * n
        let series =
            phi
            - (3 * n / 2 - 9 * n3 / 16) * sin(2 * phi)
            + (15 * n2 / 16 - 15 * n4 / 32) * sin(4 * phi)
            - (35 * n3 / 48) * sin(6 * phi)
            + (315 * n4 / 512) * sin(8 * phi)
        return rectifyingRadius * series
    }

    /// The latitude whose meridian arc is `mu` meters (the inverse series of Krüger).
    private func latitude(fromMeridianArc mu: Double) -> Double {
        let m = mu / rectifyingRadius
        let n2 = n * n, n3 = n2 * n, n4 = n3 * n
        return m
            + (3 * n / 2 - 27 * n3 / 32) * sin(2 * m)
            + (21 * n2 / 16 - 55 * n4 / 32) * sin(4 * m)
            + (151 * n3 / 96) * sin(6 * m)
            + (1097 * n4 / 512) * sin(8 * m)
    }

    /// The divided difference Δμ / Δψ between two latitudes; the radius of the parallel N cos φ at
    /// their mean when they are too close for the difference quotient to be accurate.
    private func meridianPerIsometric(_ phi1: Double, _ phi2: Double) -> Double {
        if abs(phi2 - phi1) > 1e-6 {
            return (meridianArc(phi2) - meridianArc(phi1))
                / (isometricLatitude(phi2) - isometricLatitude(phi1))
        }
        let phi = (phi1 + phi2) / 2
        let s = sin(phi)
        let a = ellipsoid.equatorialRadius
        return a / (1 - e * e * s * s).squareRoot() * cos(phi)
    }
}
