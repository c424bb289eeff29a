import GeoCore

/// What the cheap test of a circle concludes about a point.
enum CircleVerdict: Hashable, Sendable {
    /// Proven inside: the geodesic distance is at most the radius.
    case inside
    /// Proven outside: the geodesic distance exceeds the radius.
    case outside
    /// Within the error bound of the radius; only the exact distance decides.
    case undecided
}

/// The flat-earth test of one circle, packed for hot loops (48 bytes): the cheap distance of
/// `CircleContainmentTest` and the thresholds that make its verdict proven.
///
/// Every place that tests a point against a circle cheaply (the index's single-point and bulk
/// queries, the device evaluator's bounds, `CircleContainmentTest` itself) goes through
/// ``distanceSquared(latitude:longitude:)``.
struct FlatCircleTest: Sendable {
    /// The centre in degrees.
    var centerLatitude: Double
    var centerLongitude: Double
    /// Metres per degree at the centre: M(φc) · π / 180 north–south, P(φc) · π / 180 east–west.
    var metersPerDegreeLatitude: Double
    var metersPerDegreeLongitude: Double
    /// A squared cheap distance at or below this is certainly inside (−1 when nothing is).
    var insideSquared: Double
    /// A squared cheap distance above this is certainly outside (infinity when nothing is).
    var outsideSquared: Double

    /// The squared cheap distance in m² from the centre to a point: (M_c Δφ)² + (P_c Δλ)², with Δλ
    /// taken the short way round.
    ///
    /// - Complexity: O(1); two subtractions, four multiplications, no trigonometry.
    @inline(__always)
    func distanceSquared(latitude: Double, longitude: Double) -> Double {
        let dLat = latitude - centerLatitude
        var dLon = longitude - centerLongitude
        if dLon > 180 {
            dLon -= 360
        } else if dLon < -180 {
            dLon += 360
        }
        let y = metersPerDegreeLatitude * dLat, x = metersPerDegreeLongitude * dLon
        return x * x + y * y
    }

    /// The verdict for a squared cheap distance.
    @inline(__always)
    func verdict(distanceSquared d2: Double) -> CircleVerdict {
        d2 <= insideSquared ? .inside : d2 > outsideSquared ? .outside : .undecided
    }
}
