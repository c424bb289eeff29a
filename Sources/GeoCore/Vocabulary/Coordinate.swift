/// A geographic position on the WGS84 datum: latitude and longitude in degrees.
///
/// `Coordinate` mirrors Core Location's `CLLocationCoordinate2D`. Like it, the memberwise initializer
/// accepts any values, so results that leave the valid range (or NaN from a failed computation) can be
/// represented and inspected; ``isValid`` tells whether a coordinate is usable. Input from outside the
/// program should go through ``init(validatingLatitude:longitude:)``, which rejects NaN, infinities and
/// out-of-range values with a ``GeoError``.
///
/// Equality is exact: `Double`'s IEEE 754 equality on the two numbers, so `0.0 == -0.0` and a NaN
/// equals nothing, not even itself; compare with a tolerance in meters through
/// ``isApproximatelyEqual(to:toleranceMeters:)``.
public struct Coordinate: Hashable, Sendable, Codable {
    /// Latitude in degrees, positive north; valid in [-90, 90].
    public var latitude: Double
    /// Longitude in degrees, positive east; valid in [-180, 180].
    public var longitude: Double

    /// Creates a coordinate without checking it; see ``isValid``.
    ///
    /// - Parameters:
    ///   - latitude: Degrees north of the equator.
    ///   - longitude: Degrees east of the prime meridian.
    @inlinable
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a coordinate from untrusted input.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` if either value is NaN or infinite,
    ///   the latitude is outside [-90, 90] or the longitude outside [-180, 180]. The message names
    ///   the bad value.
    public init(validatingLatitude latitude: Double, longitude: Double) throws(GeoError) {
        try Coordinate.check(latitude: latitude, longitude: longitude)
        self.init(latitude: latitude, longitude: longitude)
    }

    /// Whether both values are finite and in range: latitude in [-90, 90], longitude in [-180, 180].
    @inlinable
    public var isValid: Bool {
        latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180
    }

    /// This coordinate, if it is valid.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the bad value.
    public func validated() throws(GeoError) -> Coordinate {
        try Coordinate.check(latitude: latitude, longitude: longitude)
        return self
    }

    /// The same position with the longitude wrapped into [-180, 180] by whole turns (540 → 180).
    ///
    /// Longitudes already in range are unchanged; latitude is left as it is. NaN and infinite
    /// longitudes become NaN.
    public var normalized: Coordinate {
        Coordinate(latitude: latitude, longitude: Angle.normalizedLongitude(longitude))
    }

    static func check(latitude: Double, longitude: Double) throws(GeoError) {
        guard latitude.isFinite else {
            throw GeoError(.invalidCoordinate, "latitude \(latitude) is not a finite number")
        }
        guard longitude.isFinite else {
            throw GeoError(.invalidCoordinate, "longitude \(longitude) is not a finite number")
        }
        guard latitude >= -90 && latitude <= 90 else {
            throw GeoError(.invalidCoordinate, "latitude \(latitude) is outside [-90, 90]")
        }
        guard longitude >= -180 && longitude <= 180 else {
            throw GeoError(.invalidCoordinate, "longitude \(longitude) is outside [-180, 180]")
        }
    }
}

// MARK: - Distances and bearings on the WGS84 ellipsoid

extension Coordinate {
    /// The geodesic distance to another coordinate in meters, on the WGS84 ellipsoid.
    ///
    /// Computed with Karney's algorithm (``Geodesic/wgs84``); accurate to about 15 nanometers. For a
    /// faster, rougher figure see ``Haversine`` and ``LocalPlane``.
    /// - Complexity: O(1), about a microsecond.
    public func distance(to other: Coordinate) -> Double {
        Geodesic.wgs84.distance(from: self, to: other)
    }

    /// The initial bearing of the geodesic to another coordinate, in degrees clockwise from true
    /// north, in [0, 360).
    ///
    /// The bearing changes along a geodesic; this is its value here. For coincident points (a
    /// geodesic distance of 0, such as two longitudes at a pole) it is 0.
    public func bearing(to other: Coordinate) -> Double {
        let line = Geodesic.wgs84.inverse(from: self, to: other)
        // The inverse problem's azimuth between coincident points is a convention (180 north of
        // the equator): no direction.
        guard line.distance != 0 else { return 0 }
        return Angle.normalizedBearing(line.initialAzimuth)
    }

    /// The coordinate reached by traveling a distance along the geodesic that leaves here at a bearing.
    ///
    /// - Parameters:
    ///   - distance: Meters; negative distances travel backwards.
    ///   - bearing: Degrees clockwise from true north.
    /// - Returns: The destination on the WGS84 ellipsoid, longitude in [-180, 180].
    public func coordinate(atDistance distance: Double, bearing: Double) -> Coordinate {
        Geodesic.wgs84.direct(from: self, azimuth: bearing, distance: distance).coordinate
    }

    /// Whether two coordinates are within a distance of each other on the WGS84 ellipsoid.
    ///
    /// - Parameters:
    ///   - other: The coordinate to compare with.
    ///   - toleranceMeters: The largest geodesic distance, in meters, still counted as equal.
    /// - Returns: `false` if either coordinate holds NaN.
    public func isApproximatelyEqual(to other: Coordinate, toleranceMeters: Double) -> Bool {
        if self == other { return true }
        let d = distance(to: other)
        return d <= toleranceMeters
    }
}

extension Coordinate: CustomStringConvertible {
    /// `latitude, longitude` in degrees, as most tools print a position.
    public var description: String { "\(latitude), \(longitude)" }
}
