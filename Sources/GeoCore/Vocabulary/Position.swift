/// A position in a plane: x and y, and an optional height z.
///
/// Geometry, projections and GeoJSON use positions. For geographic data x is the longitude and y the
/// latitude, in degrees (GeoJSON's order); for projected data they are the easting and northing in the
/// projection's units. Encoded as a JSON array `[x, y]` or `[x, y, z]`, as GeoJSON writes positions.
public struct Position: Hashable, Sendable {
    /// Easting, or longitude in degrees.
    public var x: Double
    /// Northing, or latitude in degrees.
    public var y: Double
    /// Height, if the position has one.
    public var z: Double?

    /// Creates a position.
    @inlinable
    public init(x: Double, y: Double, z: Double? = nil) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The position of a coordinate: x = longitude, y = latitude.
    @inlinable
    public init(_ coordinate: Coordinate) {
        self.init(x: coordinate.longitude, y: coordinate.latitude)
    }

    /// The coordinate of a geographic position: latitude = y, longitude = x.
    @inlinable
    public var coordinate: Coordinate { Coordinate(latitude: y, longitude: x) }
}

extension Position: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        x = try container.decode(Double.self)
        y = try container.decode(Double.self)
        z = container.isAtEnd ? nil : try container.decode(Double.self)
        // GeoJSON allows further elements (measures); they are read past and dropped.
        while !container.isAtEnd { _ = try container.decode(Double.self) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
        if let z { try container.encode(z) }
    }
}
