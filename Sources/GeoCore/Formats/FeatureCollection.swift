/// A GeoJSON `FeatureCollection` (RFC 7946 §3.3).
public struct FeatureCollection: Hashable, Sendable {
    /// The features, in order.
    public var features: [Feature]
    /// The bounding box, if given.
    public var bbox: [Double]?
    /// Other members of the collection object.
    public var foreignMembers: [String: JSONValue]

    /// Creates a collection.
    public init(
        features: [Feature], bbox: [Double]? = nil, foreignMembers: [String: JSONValue] = [:]
    ) {
        self.features = features
        self.bbox = bbox
        self.foreignMembers = foreignMembers
    }

    /// Parses a GeoJSON `FeatureCollection` object.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` with the byte offset and JSON path of the
    ///   problem (`$.features[3].geometry.coordinates[0][1]`).
    public init(parsing text: String, limits: InputLimits = .standard) throws(GeoError) {
        var parser = JSONParser(Array(text.utf8), limits: limits)
        self = try GeoJSONReader.featureCollection(try parser.parseDocument(), path: "$")
    }

    /// The collection as a JSON object.
    public var jsonValue: JSONValue {
        var object = foreignMembers
        object["type"] = "FeatureCollection"
        object["features"] = .array(features.map(\.jsonValue))
        if let bbox { object["bbox"] = .array(bbox.map(GeoJSONReader.coordinate)) }
        return .object(object)
    }

    /// The collection as compact GeoJSON text.
    public var jsonText: String { GeoJSON.featureCollection(self).jsonText }
}

extension FeatureCollection: Codable {
    public init(from decoder: any Decoder) throws {
        let plain = try JSONValue(from: decoder)
        do {
            self = try GeoJSONReader.featureCollection(LocatedJSON(plain), path: "$")
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}
