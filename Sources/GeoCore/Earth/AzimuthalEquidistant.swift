import Foundation

/// The ellipsoidal azimuthal equidistant projection about a center, computed with Karney's geodesics:
/// a point maps to `(s sin α, s cos α)` where `s` and `α` are the geodesic distance and azimuth from
/// the center (as PROJ's `aeqd` does on the ellipsoid). Distances and azimuths from the center are
/// exact; the scale along circles about the center is `k = s / m` (m the reduced length), about
/// `1 + (s/R)² / 6`, so a distance measured elsewhere in the plane is off by at most that factor.
///
/// Used by the `meters:` geometry operations as a local metric plane chosen from the geometry itself.
struct AzimuthalEquidistant: Sendable {
    let center: Coordinate
    let geodesic: Geodesic

    /// The projection centered on the middle of the positions' extent, taking longitudes continuously
    /// from the first position (so a geometry across the 180th meridian is centered on it, not on 0°).
    init(centeredOn positions: [Position], geodesic: Geodesic = .wgs84) {
        self.geodesic = geodesic
        guard let first = positions.first else {
            center = Coordinate(latitude: 0, longitude: 0)
            return
        }
        var minU = Double.infinity, maxU = -Double.infinity, minLat = Double.infinity,
            maxLat = -Double.infinity
        for p in positions {
            let u = first.x + Angle.longitudeDifference(from: first.x, to: p.x)
            minU = min(minU, u); maxU = max(maxU, u)
            minLat = min(minLat, p.y); maxLat = max(maxLat, p.y)
        }
        center = Coordinate(
            latitude: (minLat + maxLat) / 2, longitude: Angle.normalizedLongitude((minU + maxU) / 2)
        )
    }

    /// Longitude/latitude in degrees to meters east and north of the center.
    func forward(_ p: Position) -> Position {
        let line = geodesic.inverse(from: center, to: Coordinate(latitude: p.y, longitude: p.x))
        let azimuth = Angle.radians(line.initialAzimuth)
        return Position(x: line.distance * sin(azimuth), y: line.distance * cos(azimuth), z: p.z)
    }

    /// Meters east and north of the center back to longitude/latitude in degrees; longitudes are
    /// continuous from the center's (they may pass ±180 near the 180th meridian).
    func inverse(_ p: Position) -> Position {
        let distance = (p.x * p.x + p.y * p.y).squareRoot()
        let azimuth = Angle.degrees(atan2(p.x, p.y))
        let end = geodesic.direct(
            from: center, azimuth: azimuth, distance: distance, unrollingLongitude: true)
        return Position(x: end.coordinate.longitude, y: end.coordinate.latitude, z: p.z)
    }

    /// The largest geodesic distance in meters from the center to any of the positions: how far
    /// into the plane a geometry reaches.
    func reach(of positions: [Position]) -> Double {
        var farthest = 0.0
        for p in positions {
            farthest = max(
                farthest,
                geodesic.distance(from: center, to: Coordinate(latitude: p.y, longitude: p.x)))
        }
        return farthest
    }

    /// The largest relative scale error of distances measured in the plane within `radius` meters of
    /// the center: `(radius/R)² / 6` with R the mean radius of the ellipsoid.
    func scaleError(within radius: Double) -> Double {
        let r = geodesic.equatorialRadius * (1 - geodesic.flattening / 3)
        return (radius / r) * (radius / r) / 6
    }
}
