import Foundation
import GeoCore

/// A point read from a `lon,lat[,category]` CSV file or a GeoJSON file: what the `meridian cluster`
/// command and the clustering benchmark cluster.
public struct PointFeature: Hashable, Sendable {
    /// Where the point is; `nil` for a GeoJSON feature whose geometry is `null`.
    public var coordinate: Coordinate?
    /// The CSV's third column, if any: the point's clustering identifier.
    public var category: String?
    /// The GeoJSON feature's `properties` (`null` for CSV rows).
    public var properties: JSONValue
    /// The GeoJSON feature's `id`, if it has one.
    public var id: JSONValue?

    /// Creates a point feature.
    public init(
        coordinate: Coordinate?, category: String? = nil, properties: JSONValue = .null,
        id: JSONValue? = nil
    ) {
        self.coordinate = coordinate
        self.category = category
        self.properties = properties
        self.id = id
    }

    /// Reads points from GeoJSON (text starting with `{` or `[`) or CSV.
    ///
    /// - Throws: `GeoError.Kind.malformedInput` naming the line or feature.
    public static func read(_ data: Data) throws(GeoError) -> [PointFeature] {
        let first = data.first {
            !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB
                || $0 == 0xBF)
        }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return try readGeoJSON(data) }
        return try readCSV(String(decoding: data, as: UTF8.self))
    }

    /// Reads `lon,lat[,category]` lines (degrees; a header line whose first field is not a number is
    /// skipped, as are blank lines).
    ///
    /// - Throws: `GeoError.Kind.malformedInput` naming the line and its text.
    /// - Complexity: O(n).
    public static func readCSV(_ text: String) throws(GeoError) -> [PointFeature] {
        var result = [PointFeature]()
        var lineNumber = 0
        for line in text.split(
            omittingEmptySubsequences: false,
            whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        {
            lineNumber += 1
            let trimmed = line
            if trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let fields = trimmed.split(
                separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
            let lonText = fields[0].trimmingCharacters(in: .whitespaces)
            guard let lon = Double(lonText), fields.count >= 2 else {
                if lineNumber == 1 && Double(lonText) == nil { continue }  // header
                throw GeoError(
                    .malformedInput, "expected lon,lat[,category], got \(GeoError.quoted(trimmed))",
                    line: lineNumber)
            }
            let latText = fields[1].trimmingCharacters(in: .whitespaces)
            guard let lat = Double(latText), lat.isFinite, lon.isFinite else {
                throw GeoError(
                    .malformedInput,
                    "\(GeoError.quoted(trimmed)) does not hold a finite longitude and latitude",
                    line: lineNumber)
            }
            let category = fields.count > 2 ? fields[2].trimmingCharacters(in: .whitespaces) : nil
            result.append(
                PointFeature(
                    coordinate: Coordinate(latitude: lat, longitude: lon),
                    category: category.flatMap { $0.isEmpty ? nil : $0 }))
        }
        return result
    }

    /// Reads a GeoJSON FeatureCollection (or one Feature, or an array of Features) of Point features;
    /// a feature with a `null` geometry is kept without a coordinate, as supercluster keeps it.
    ///
    /// - Throws: `GeoError.Kind.malformedInput` for invalid JSON or a feature that is
    ///   not a point, naming the feature's index.
    public static func readGeoJSON(_ data: Data) throws(GeoError) -> [PointFeature] {
        let json: JSONValue
        do {
            json = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw GeoError(.malformedInput, "not valid JSON: \(error)")
        }
        let features: [JSONValue]
        if let array = json.arrayValue {
            features = array
        } else if json["type"]?.stringValue == "FeatureCollection" {
            features = json["features"]?.arrayValue ?? []
        } else {
            features = [json]
        }
        var result = [PointFeature]()
        result.reserveCapacity(features.count)
        for (index, feature) in features.enumerated() {
            let geometry = feature["type"]?.stringValue == "Feature" ? feature["geometry"] : feature
            var coordinate: Coordinate?
            if let geometry, geometry != .null {
                guard geometry["type"]?.stringValue == "Point",
                    let position = geometry["coordinates"],
                    let lon = position[0]?.doubleValue, let lat = position[1]?.doubleValue
                else {
                    throw GeoError(
                        .malformedInput,
                        "feature \(index) is not a Point with [lon, lat] coordinates")
                }
                coordinate = Coordinate(latitude: lat, longitude: lon)
            }
            result.append(
                PointFeature(
                    coordinate: coordinate, properties: feature["properties"] ?? .null,
                    id: feature["id"]))
        }
        return result
    }
}
