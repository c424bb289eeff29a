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
    /// The GeoJSON Feature object exactly as read, every member kept (`bbox`, a third
    /// coordinate, foreign members, `properties` missing or `null`): what a clustering answer
    /// returns for an unclustered point, as supercluster returns its input objects. `nil` for CSV
    /// rows and bare Point geometries, whose answers are built from the fields above.
    public var feature: JSONValue?

    /// Creates a point feature.
    public init(
        coordinate: Coordinate?, category: String? = nil, properties: JSONValue = .null,
        id: JSONValue? = nil, feature: JSONValue? = nil
    ) {
        self.coordinate = coordinate
        self.category = category
        self.properties = properties
        self.id = id
        self.feature = feature
    }

    /// Reads points from GeoJSON (text starting with `{` or `[`) or CSV.
    ///
    /// - Throws: `GeoError.Kind.malformedInput` or `invalidCoordinate` naming the line (and column)
    ///   or feature of the first bad point; `GeoError.Kind.limitExceeded` for input beyond `limits`
    ///   (see `InputLimits`).
    public static func read(
        _ data: Data, limits: InputLimits = .standard
    ) throws(GeoError) -> [PointFeature] {
        let records = try self.records(data, limits: limits)
        if let error = records.firstError() { throw error }
        return records.values()
    }

    /// Reads points, one record per CSV line (or per GeoJSON feature), so that a bad line is
    /// reported in its place and the others are still read.
    ///
    /// - Throws: For GeoJSON, the document's first error (a document is read whole); for CSV, a
    ///   header that names only one of longitude and latitude.
    public static func records(
        _ data: Data, limits: InputLimits = .standard
    ) throws(GeoError) -> [LineRecord<PointFeature>] {
        let first = data.first {
            !(ByteCursor.isSpace($0) || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF)
        }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return try readGeoJSON(data, limits: limits).enumerated().map {
                LineRecord(line: $0.offset + 1, value: .success($0.element))
            }
        }
        return try readCSV(data, limits: limits)
    }

    /// Reads `lon,lat[,category]` records (degrees; see `CoordinateCSV` for what it accepts): a
    /// header may name the columns (`lon`, `lat`, and `category`, `kind`, `type` or `group` for the
    /// clustering identifier); without one the third field, if any, is the category.
    ///
    /// - Throws: `GeoError.Kind.malformedInput` for a header that names only one coordinate
    ///   column; bad records become failed records in their place.
    /// - Complexity: O(n).
    public static func readCSV(
        _ data: Data, limits: InputLimits = .standard
    ) throws(GeoError) -> [LineRecord<PointFeature>] {
        let table = try CoordinateCSV.read(data, order: .longitudeFirst, limits: limits)
        let names = ["category", "kind", "type", "group", "class", "clusteringidentifier"]
        let categoryColumn = table.extraNames.flatMap {
            DelimitedText.columns(in: $0, named: [0: names])?[0]
        }
        return zip(table.records, table.extras).map { record, extras in
            LineRecord(
                line: record.line,
                value: record.value.map { coordinate in
                    let category: String?
                    if table.header == nil {
                        category = extras.first.flatMap { $0.isEmpty ? nil : $0 }
                    } else {
                        category = categoryColumn.flatMap { $0 < extras.count ? extras[$0] : nil }
                            .flatMap { $0.isEmpty ? nil : $0 }
                    }
                    return PointFeature(coordinate: coordinate, category: category)
                })
        }
    }

    /// Reads a GeoJSON FeatureCollection (or one Feature, or an array of Features) of Point features;
    /// a feature with a `null` geometry is kept without a coordinate, as supercluster keeps it.
    ///
    /// - Throws: `GeoError.Kind.malformedInput` for invalid JSON or a feature that is
    ///   not a point, `GeoError.Kind.invalidCoordinate` for a point whose longitude is outside
    ///   [-180, 180] or latitude outside [-90, 90] (as CSV records), each naming the feature's
    ///   index.
    public static func readGeoJSON(
        _ data: Data, limits: InputLimits = .standard
    ) throws(GeoError) -> [PointFeature] {
        let json = try JSONValue(parsing: data, limits: limits)
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
            let isFeature = feature["type"]?.stringValue == "Feature"
            let geometry = isFeature ? feature["geometry"] : feature
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
                // Checked as CSV records are: a longitude outside [-180, 180] or a latitude
                // outside [-90, 90] is a mistake, not a place to clamp.
                do {
                    coordinate = try Coordinate(validatingLatitude: lat, longitude: lon)
                } catch {
                    throw GeoError(error.kind, "feature \(index): \(error.message)")
                }
            }
            // `Optional.none`, not `nil`: a `nil` literal here would be read as JSON's null
            // (`JSONValue` is nil-literal expressible) and stand for the whole feature.
            let given: JSONValue? = isFeature ? feature : Optional.none
            result.append(
                PointFeature(
                    coordinate: coordinate, properties: feature["properties"] ?? .null,
                    id: feature["id"], feature: given))
        }
        return result
    }
}
