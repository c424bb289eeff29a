/// The `id` of a GeoJSON feature: a string or a number (RFC 7946 §3.2).
public enum FeatureIdentifier: Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral
{
    /// A string identifier.
    case string(String)
    /// A whole-number identifier that fits in `Int`.
    case integer(Int)
    /// Any other numeric identifier.
    case number(Double)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }

    /// Whether two identifiers are the same; numbers compare by value whichever case holds them
    /// (`.integer(3) == .number(3.0)`), as ``JSONValue`` does.
    public static func == (a: FeatureIdentifier, b: FeatureIdentifier) -> Bool {
        a.jsonValue == b.jsonValue
    }

    /// Hashes the identifier as its ``jsonValue``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(jsonValue)
    }

    public init(from decoder: any Decoder) throws {
        switch try JSONValue(from: decoder) {
        case .string(let s): self = .string(s)
        case .integer(let i): self = .integer(i)
        case .number(let d): self = .number(d)
        default:
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a feature id is a string or a number"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }

    /// The identifier as a JSON value.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let s): .string(s)
        case .integer(let i): .integer(i)
        case .number(let d): .number(d)
        }
    }
}

/// A GeoJSON `Feature` (RFC 7946 §3.2): a geometry (or none) with arbitrary JSON properties, an
/// optional identifier and an optional bounding box.
///
/// Members other than `type`, `id`, `geometry`, `properties` and `bbox` ("foreign members") are kept
/// in ``foreignMembers`` and written back out.
public struct Feature: Hashable, Sendable {
    /// The identifier, if any.
    public var id: FeatureIdentifier?
    /// The geometry; `nil` for `"geometry": null` (an unlocated feature).
    public var geometry: Geometry?
    /// The properties: a JSON object, or ``JSONValue/null``.
    public var properties: JSONValue
    /// The bounding box `[west, south, east, north]` (or with heights, `[w, s, low, e, n, high]`), if
    /// given. Not computed automatically; see ``Geometry/bounds``.
    public var bbox: [Double]?
    /// Other members of the feature object.
    public var foreignMembers: [String: JSONValue]

    /// Creates a feature.
    public init(
        id: FeatureIdentifier? = nil, geometry: Geometry?, properties: JSONValue = .null,
        bbox: [Double]? = nil,
        foreignMembers: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.geometry = geometry
        self.properties = properties
        self.bbox = bbox
        self.foreignMembers = foreignMembers
    }

    /// Parses a GeoJSON `Feature` object.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` with the byte offset and JSON path of the
    ///   problem.
    public init(parsing text: String, limits: InputLimits = .standard) throws(GeoError) {
        var parser = JSONParser(Array(text.utf8), limits: limits)
        self = try GeoJSONReader.feature(try parser.parseDocument(), path: "$")
    }

    /// The feature as a JSON object.
    public var jsonValue: JSONValue {
        var object = foreignMembers
        object["type"] = "Feature"
        object["geometry"] = geometry?.geoJSONValue ?? .null
        object["properties"] = properties
        if let id { object["id"] = id.jsonValue }
        if let bbox { object["bbox"] = .array(bbox.map(GeoJSONReader.coordinate)) }
        return .object(object)
    }

    /// The feature as compact GeoJSON text.
    public var jsonText: String { GeoJSON.feature(self).jsonText }
}

extension Feature: Codable {
    public init(from decoder: any Decoder) throws {
        let plain = try JSONValue(from: decoder)
        do {
            self = try GeoJSONReader.feature(LocatedJSON(plain), path: "$")
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}
