/// A longitude/latitude box given by its four edges in degrees, the form tile servers, GeoJSON and
/// map SDKs exchange (`west, south, east, north`).
///
/// A box whose `west` edge is greater than its `east` edge crosses the 180th meridian: it runs east
/// from `west` to 180° and on from −180° to `east`. A box with `west == -180` and `east == 180` covers
/// every longitude.
public struct BoundingBox: Hashable, Sendable, Codable {
    /// Western edge in degrees, in [-180, 180].
    public var west: Double
    /// Southern edge in degrees, in [-90, 90].
    public var south: Double
    /// Eastern edge in degrees, in [-180, 180]; less than ``west`` when the box crosses the 180th
    /// meridian.
    public var east: Double
    /// Northern edge in degrees, in [-90, 90], not below ``south``.
    public var north: Double

    /// Creates a box without checking it; see ``validated()``.
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// The whole world: `-180, -90, 180, 90`.
    public static let world = BoundingBox(west: -180, south: -90, east: 180, north: 90)

    /// This box, if its edges are finite and in range and `south <= north`.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` naming the bad edge.
    public func validated() throws(GeoError) -> BoundingBox {
        for (name, value, limit) in [
            ("west", west, 180.0), ("south", south, 90), ("east", east, 180), ("north", north, 90),
        ] {
            guard value >= -limit && value <= limit else {
                throw GeoError(
                    .invalidCoordinate,
                    "\(name) edge \(value) is outside [-\(Int(limit)), \(Int(limit))]")
            }
        }
        guard south <= north else {
            throw GeoError(
                .invalidCoordinate, "south edge \(south) is north of north edge \(north)")
        }
        return self
    }

    /// Whether the box crosses the 180th meridian (`west > east`).
    public var crosses180thMeridian: Bool { west > east }

    /// The longitude extent in degrees, in [0, 360].
    public var longitudeSpan: Double { crosses180thMeridian ? east - west + 360 : east - west }

    /// The box's middle: halfway between its south and north edges, and halfway along its
    /// longitude extent from the west edge (across the 180th meridian too), longitude in
    /// [−180, 180].
    public var center: Coordinate {
        Coordinate(
            latitude: (south + north) / 2,
            longitude: Angle.normalizedLongitude(west + longitudeSpan / 2))
    }

    /// Whether a coordinate lies inside or on the edge of the box.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard coordinate.latitude >= south && coordinate.latitude <= north else { return false }
        let lon = coordinate.longitude
        if crosses180thMeridian { return lon >= west || lon <= east }
        return lon >= west && lon <= east
    }

    /// The box split at the 180th meridian into one or two boxes that do not cross it.
    public var splitAt180thMeridian: [BoundingBox] {
        guard crosses180thMeridian else { return [self] }
        return [
            BoundingBox(west: west, south: south, east: 180, north: north),
            BoundingBox(west: -180, south: south, east: east, north: north),
        ]
    }
}
