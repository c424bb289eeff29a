import Foundation
import GeoCore

/// Reading a list of places as people have them: a GeoNames file, or GeoJSON points with names.
public enum PlaceFile {
    /// The error of a file that holds no place (empty, a header alone, or features without
    /// named points): a search over it could only ever answer nothing.
    public static let noPlaces = GeoError(
        .malformedInput,
        "the file holds no places (no GeoNames rows, and no point features with a name)")

    /// Reads places from GeoNames data (any ``GeoNamesFormat``) or from GeoJSON (a
    /// FeatureCollection, a Feature or one document per line) whose point features carry a
    /// `name` (or `title`) property; `country_code`, `admin1` and `population` properties are
    /// kept when present. Non-point features and points without a name are skipped
    /// (``read(_:limits:skipped:)`` lists them).
    ///
    /// - Throws: the GeoNames reader's errors, or GeoJSON's, naming the line or offset.
    /// - Complexity: O(n) in the size of the input.
    public static func read(
        _ data: Data, limits: InputLimits = .standard
    ) throws(GeoError)
        -> [GeoNamesPlace]
    {
        var skipped = [Int]()
        return try read(data, limits: limits, skipped: &skipped)
    }

    /// ``read(_:limits:)``, also listing the GeoJSON features it skipped (not a point, or a
    /// point without a name) by their index among the file's features, so that a caller can say
    /// so: the places' indices count only the places kept.
    public static func read(
        _ data: Data, limits: InputLimits = .standard, skipped: inout [Int]
    ) throws(GeoError) -> [GeoNamesPlace] {
        skipped = []
        let first = data.drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }.first
        guard first == UInt8(ascii: "{") else {
            return try GeoNamesPlace.read(data, limits: limits)
        }
        var features = [Feature]()
        do throws(GeoError) {
            switch try GeoJSON(data: data, limits: limits) {
            case .featureCollection(let c): features = c.features
            case .feature(let f): features = [f]
            case .geometry(let g): features = [Feature(geometry: g, properties: .null)]
            }
        } catch let whole {
            // One document per line.
            let text = String(decoding: data, as: UTF8.self)
            var number = 0
            for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                number += 1
                guard !line.allSatisfy(\.isWhitespace) else { continue }
                do throws(GeoError) {
                    switch try GeoJSON(data: Data(line.utf8), limits: limits) {
                    case .featureCollection(let c): features += c.features
                    case .feature(let f): features.append(f)
                    case .geometry: break
                    }
                } catch {
                    throw number == 1 ? whole : error.at(line: number)
                }
            }
        }
        var places = [GeoNamesPlace]()
        for (i, feature) in features.enumerated() {
            guard case .point(let p?) = feature.geometry else {
                skipped.append(i)
                continue
            }
            let properties = feature.properties.objectValue ?? [:]
            guard let name = properties["name"]?.stringValue ?? properties["title"]?.stringValue
            else {
                skipped.append(i)
                continue
            }
            let coordinate = Coordinate(latitude: p.y, longitude: p.x)
            guard coordinate.isValid else {
                throw GeoError(
                    .invalidCoordinate,
                    "place \(GeoError.quoted(name)): \(p.y), \(p.x) is not a valid coordinate")
            }
            places.append(
                GeoNamesPlace(
                    name: name, coordinate: coordinate,
                    countryCode: properties["country_code"]?.stringValue ?? "",
                    admin1Name: properties["admin1"]?.stringValue,
                    population: properties["population"]?.intValue))
        }
        return places
    }
}
