import Foundation

/// The extent of a ``CoordinateRegion``: how many degrees of latitude and longitude it covers.
public struct CoordinateSpan: Hashable, Sendable, Codable {
    /// North–south extent in degrees (a full region spans at most 180).
    public var latitudeDelta: Double
    /// East–west extent in degrees (a full region spans at most 360).
    public var longitudeDelta: Double

    /// Creates a span.
    public init(latitudeDelta: Double, longitudeDelta: Double) {
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }
}

/// A rectangular area of the map given by its center and span, as MapKit's `MKCoordinateRegion`.
///
/// The region covers latitudes `center.latitude ± span.latitudeDelta / 2` and longitudes
/// `center.longitude ± span.longitudeDelta / 2`, the latter measured the short way round, so a region
/// centered near 180° covers both sides of the 180th meridian.
public struct CoordinateRegion: Hashable, Sendable, Codable {
    /// The center of the region.
    public var center: Coordinate
    /// The extent of the region.
    public var span: CoordinateSpan

    /// Creates a region from its center and span.
    public init(center: Coordinate, span: CoordinateSpan) {
        self.center = center
        self.span = span
    }

    /// Creates a region centered on a coordinate that extends a distance north–south and east–west.
    ///
    /// The latitude span is found along the meridian on the WGS84 ellipsoid (half the distance north,
    /// half south, stopping at the poles); the longitude span is the distance divided by the length of
    /// one degree of the parallel through the center. A longitude span reaching round the Earth is
    /// capped at 360°. A negative extent counts as its magnitude.
    ///
    /// - Parameters:
    ///   - center: The center.
    ///   - latitudinalMeters: North–south extent in meters.
    ///   - longitudinalMeters: East–west extent in meters.
    public init(center: Coordinate, latitudinalMeters: Double, longitudinalMeters: Double) {
        let geodesic = Geodesic.wgs84
        let half = abs(latitudinalMeters) / 2
        let longitudinalMeters = abs(longitudinalMeters)
        let north = geodesic.direct(from: center, azimuth: 0, distance: half).coordinate
        let south = geodesic.direct(from: center, azimuth: 180, distance: half).coordinate
        // A half extent as long as the way to a pole (or longer: round the Earth and back up)
        // stops there.
        let toNorthPole = geodesic.distance(
            from: center, to: Coordinate(latitude: 90, longitude: center.longitude))
        let toSouthPole = geodesic.distance(
            from: center, to: Coordinate(latitude: -90, longitude: center.longitude))
        // Past a pole the meridian geodesic comes back down the other side: stop at the pole instead.
        let northLatitude =
            half >= toNorthPole || north.latitude < center.latitude
                || abs(
                    Angle.longitudeDifference(
                        from: center.longitude, to: north.longitude)) > 90
            ? 90 : north.latitude
        let southLatitude =
            half >= toSouthPole || south.latitude > center.latitude
                || abs(
                    Angle.longitudeDifference(
                        from: center.longitude, to: south.longitude)) > 90
            ? -90 : south.latitude
        let phi = Angle.radians(center.latitude)
        let parallelRadius =
            LocalPlane.radiiOfCurvature(atLatitudeRadians: phi).primeVertical * cos(phi)
        let degreesOfLongitude =
            parallelRadius > 0 ? Angle.degrees(longitudinalMeters / parallelRadius) : 360
        let latitudeDelta =
            2 * max(northLatitude - center.latitude, center.latitude - southLatitude)
        self.init(
            center: center,
            span: CoordinateSpan(
                latitudeDelta: min(latitudeDelta, 180), longitudeDelta: min(degreesOfLongitude, 360)
            ))
    }

    /// The smallest region that contains every coordinate (widened by 1e-12° against rounding).
    ///
    /// The longitude range is the shortest arc that covers all longitudes, so points on both sides of
    /// the 180th meridian give a narrow region centered near it rather than one spanning the globe.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/notFound`` for an empty sequence;
    ///   ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the first invalid coordinate.
    /// - Complexity: O(n log n) for n coordinates.
    public init(fitting coordinates: some Sequence<Coordinate>) throws(GeoError) {
        var south = Double.infinity, north = -Double.infinity
        var longitudes = [Double]()
        for (index, c) in coordinates.enumerated() {
            do throws(GeoError) { _ = try c.validated() } catch {
                throw GeoError(.invalidCoordinate, "coordinate \(index): \(error.message)")
            }
            south = min(south, c.latitude)
            north = max(north, c.latitude)
            longitudes.append(c.longitude == 180 ? -180 : c.longitude)
        }
        guard !longitudes.isEmpty else {
            throw GeoError(.notFound, "cannot fit a region to no coordinates")
        }
        longitudes.sort()
        // The widest gap between neighboring longitudes (circularly) is what the region leaves out.
        var gap = longitudes[0] + 360 - longitudes[longitudes.count - 1]
        var west = longitudes[0]
        for i in 1..<longitudes.count where longitudes[i] - longitudes[i - 1] > gap {
            gap = longitudes[i] - longitudes[i - 1]
            west = longitudes[i]
        }
        let longitudeDelta = 360 - gap
        // Center ± half-span is rounded arithmetic; widening by 1e-12° (0.1 µm) keeps every fitted
        // coordinate inside even when it lies exactly on an edge.
        let slack = 1e-12
        self.init(
            center: Coordinate(
                latitude: (south + north) / 2,
                longitude: Angle.normalizedLongitude(west + longitudeDelta / 2)),
            span: CoordinateSpan(
                latitudeDelta: min(180, north - south + slack),
                longitudeDelta: min(360, longitudeDelta + slack)))
    }

    /// Whether a coordinate lies inside the region or on its edge.
    ///
    /// Longitudes are compared the short way round from the center, so this is correct for regions
    /// that cross the 180th meridian. The edges are those of ``boundingBox``, as rounded there: a
    /// coordinate on one of them is inside.
    public func contains(_ coordinate: Coordinate) -> Bool {
        // The box's edges, as `boundingBox` computes them.
        let south = max(-90, center.latitude - span.latitudeDelta / 2)
        let north = min(90, center.latitude + span.latitudeDelta / 2)
        guard coordinate.latitude >= south && coordinate.latitude <= north else { return false }
        if span.longitudeDelta >= 360 { return coordinate.longitude.isFinite }
        let offset = abs(
            Angle.longitudeDifference(from: center.longitude, to: coordinate.longitude))
        if offset <= span.longitudeDelta / 2 { return true }
        // Within rounding of an edge: on it as the box rounds it (±180° are one meridian).
        guard offset <= span.longitudeDelta / 2 + 1e-9 else { return false }
        let box = boundingBox
        let longitude = Angle.normalizedLongitude(coordinate.longitude)
        for lon in [longitude, longitude == 180 ? -180 : longitude == -180 ? 180 : longitude] {
            if box.contains(Coordinate(latitude: coordinate.latitude, longitude: lon)) {
                return true
            }
        }
        return false
    }

    /// The region's edges as a ``BoundingBox``; `west > east` when it crosses the 180th meridian.
    /// Latitudes are clamped to [-90, 90]; a span of 360° or more gives the full longitude range.
    public var boundingBox: BoundingBox {
        let south = max(-90, center.latitude - span.latitudeDelta / 2)
        let north = min(90, center.latitude + span.latitudeDelta / 2)
        if span.longitudeDelta >= 360 {
            return BoundingBox(west: -180, south: south, east: 180, north: north)
        }
        return BoundingBox(
            west: Angle.normalizedLongitude(center.longitude - span.longitudeDelta / 2),
            south: south,
            east: Angle.normalizedLongitude(center.longitude + span.longitudeDelta / 2),
            north: north)
    }

    /// The region covered by a map rectangle (MapKit's `MKCoordinateRegionForMapRect`).
    ///
    /// The region's edges are the coordinates of the rectangle's edges, so `MapRect(region)` and this
    /// initializer are inverses. MapKit instead centers the region on the rectangle's middle map point,
    /// which lies north of the middle latitude because Mercator stretches high latitudes; that center
    /// is `MapPoint(x: rect.midX, y: rect.midY).coordinate`. The center longitude is wrapped into the
    /// world.
    public init(_ mapRect: MapRect) {
        let north = MapPoint(x: mapRect.minX, y: mapRect.minY).coordinate.latitude
        let south = MapPoint(x: mapRect.minX, y: mapRect.maxY).coordinate.latitude
        let longitudeDelta = mapRect.width / MapSize.world.width * 360
        let west = mapRect.minX / MapSize.world.width * 360 - 180
        self.init(
            center: Coordinate(
                latitude: (north + south) / 2,
                longitude: Angle.normalizedLongitude(west + longitudeDelta / 2)),
            span: CoordinateSpan(latitudeDelta: north - south, longitudeDelta: longitudeDelta))
    }
}
