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

/// A rectangular area of the map given by its centre and span, as MapKit's `MKCoordinateRegion`.
///
/// The region covers latitudes `center.latitude ± span.latitudeDelta / 2` and longitudes
/// `center.longitude ± span.longitudeDelta / 2`, the latter measured the short way round, so a region
/// centred near 180° covers both sides of the 180th meridian.
public struct CoordinateRegion: Hashable, Sendable, Codable {
    /// The centre of the region.
    public var center: Coordinate
    /// The extent of the region.
    public var span: CoordinateSpan

    /// Creates a region from its centre and span.
    public init(center: Coordinate, span: CoordinateSpan) {
        self.center = center
        self.span = span
    }

    /// Creates a region centred on a coordinate that extends a distance north–south and east–west.
    ///
    /// The latitude span is found along the meridian on the WGS84 ellipsoid (half the distance north,
    /// half south, stopping at the poles); the longitude span is the distance divided by the length of
    /// one degree of the parallel through the centre. A longitude span reaching round the Earth is
    /// capped at 360°.
    ///
    /// - Parameters:
    ///   - center: The centre.
    ///   - latitudinalMeters: North–south extent in metres.
    ///   - longitudinalMeters: East–west extent in metres.
    public init(center: Coordinate, latitudinalMeters: Double, longitudinalMeters: Double) {
        let geodesic = Geodesic.wgs84
        let north = geodesic.direct(from: center, azimuth: 0, distance: latitudinalMeters / 2).coordinate
        let south = geodesic.direct(from: center, azimuth: 180, distance: latitudinalMeters / 2).coordinate
        // Past a pole the meridian geodesic comes back down the other side: stop at the pole instead.
        let northLatitude = north.latitude < center.latitude || abs(Angle.longitudeDifference(
            from: center.longitude, to: north.longitude)) > 90 ? 90 : north.latitude
        let southLatitude = south.latitude > center.latitude || abs(Angle.longitudeDifference(
            from: center.longitude, to: south.longitude)) > 90 ? -90 : south.latitude
        let phi = Angle.radians(center.latitude)
        let parallelRadius = LocalPlane.radiiOfCurvature(atLatitudeRadians: phi).primeVertical * cos(phi)
        let degreesOfLongitude = parallelRadius > 0 ? Angle.degrees(longitudinalMeters / parallelRadius) : 360
        let latitudeDelta = 2 * max(northLatitude - center.latitude, center.latitude - southLatitude)
        self.init(
            center: center,
            span: CoordinateSpan(latitudeDelta: min(latitudeDelta, 180), longitudeDelta: min(degreesOfLongitude, 360)))
    }

    /// The smallest region that contains every coordinate.
    ///
    /// The longitude range is the shortest arc that covers all longitudes, so points on both sides of
    /// the 180th meridian give a narrow region centred near it rather than one spanning the globe.
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
        // The widest gap between neighbouring longitudes (circularly) is what the region leaves out.
        var gap = longitudes[0] + 360 - longitudes[longitudes.count - 1]
        var west = longitudes[0]
        for i in 1..<longitudes.count where longitudes[i] - longitudes[i - 1] > gap {
            gap = longitudes[i] - longitudes[i - 1]
            west = longitudes[i]
        }
        let longitudeDelta = 360 - gap
        self.init(
            center: Coordinate(
                latitude: (south + north) / 2,
                longitude: Angle.normalizedLongitude(west + longitudeDelta / 2)),
            span: CoordinateSpan(latitudeDelta: north - south, longitudeDelta: longitudeDelta))
    }

    /// Whether a coordinate lies inside the region or on its edge.
    ///
    /// Longitudes are compared the short way round from the centre, so this is correct for regions
    /// that cross the 180th meridian.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard abs(coordinate.latitude - center.latitude) <= span.latitudeDelta / 2 else { return false }
        if span.longitudeDelta >= 360 { return coordinate.longitude.isFinite }
        return abs(Angle.longitudeDifference(from: center.longitude, to: coordinate.longitude)) <= span.longitudeDelta / 2
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

    /// The region covered by a map rectangle, as MapKit's `MKCoordinateRegionForMapRect`.
    ///
    /// The centre is the coordinate of the rectangle's midpoint (wrapped into the world) and the span
    /// runs between the coordinates of its edges.
    public init(_ mapRect: MapRect) {
        let topLeft = MapPoint(x: mapRect.minX, y: mapRect.minY).coordinate
        let bottomRight = MapPoint(x: mapRect.maxX, y: mapRect.maxY).coordinate
        let middle = MapPoint(x: mapRect.midX, y: mapRect.midY).coordinate
        self.init(
            center: Coordinate(latitude: middle.latitude, longitude: Angle.normalizedLongitude(middle.longitude)),
            span: CoordinateSpan(
                latitudeDelta: topLeft.latitude - bottomRight.latitude,
                longitudeDelta: mapRect.width / MapSize.world.width * 360))
    }
}
