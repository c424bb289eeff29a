import Foundation
import GeoCore

/// Geofences from the files people keep them in: delimited text of circles, or GeoJSON circles and
/// polygons.
///
/// ```swift
/// let data = try Data(contentsOf: url)
/// let fences = try FenceFile.read(data, format: .detect(name: url.lastPathComponent, data: data))
/// let index = try GeofenceIndex(fences)
/// ```
///
/// Identifiers name fences in events, so two fences with one identifier are an error that names
/// both.
public enum FenceFile {
    /// A file format that holds fences.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// Delimited text (`DelimitedText`), one circle per record: `latitude, longitude,
        /// radius[, identifier]` with the radius in meters, or columns named by a header (`lat`,
        /// `lon`, `radius`/`radius_m`/`r`, `id`/`identifier`/`name`). A circle without an
        /// identifier is `fence-<line>`.
        case csv
        /// GeoJSON: a `Point` feature with a `radius` property in meters is a circle, a `Polygon`
        /// feature a polygon (holes allowed). The identifier is the feature's `id`, or its
        /// `identifier` or `name` property, or `fence-<index>`.
        case geojson

        /// GeoJSON for names ending in `.json` or `.geojson` or text starting with `{`; CSV
        /// otherwise.
        public static func detect(name: String?, data: Data) -> Format {
            if let name {
                let lower = name.lowercased()
                if lower.hasSuffix(".json") || lower.hasSuffix(".geojson") { return .geojson }
                if lower.hasSuffix(".csv") || lower.hasSuffix(".tsv") { return .csv }
            }
            let start = data.first { !(ByteCursor.isSpace($0) || [0xEF, 0xBB, 0xBF].contains($0)) }
            return start == UInt8(ascii: "{") ? .geojson : .csv
        }
    }

    /// The error of a fences file that holds no fence (empty, a header alone, or an empty
    /// FeatureCollection), for a caller to whom that is a mistake, as to a replay of a log.
    public static let noFences = GeoError(
        .malformedInput, "the file holds no fences (no CSV rows, and no GeoJSON features)")

    /// Reads fences; an empty file gives none (see ``noFences``).
    ///
    /// - Throws: `GeoError.Kind.malformedInput`,
    ///   `GeoError.Kind.invalidCoordinate` or
    ///   `GeoError.Kind.invalidArgument` naming the line and field (CSV) or feature
    ///   (GeoJSON) of the first bad fence, or the two places a duplicate identifier appears;
    ///   `GeoError.Kind.limitExceeded` for input beyond `limits` (see `InputLimits`).
    /// - Complexity: O(size of the file).
    public static func read(
        _ data: Data, format: Format, limits: InputLimits = .standard
    ) throws(GeoError) -> [GeofenceIndex.Fence] {
        let fences: [(place: String, fence: GeofenceIndex.Fence)] =
            switch format {
            case .csv: try readCSV(data, limits: limits)
            case .geojson: try readGeoJSON(data, limits: limits)
            }
        var seen = [String: String]()
        for (place, fence) in fences {
            if let first = seen.updateValue(place, forKey: fence.identifier) {
                throw GeoError(
                    .invalidArgument,
                    "fence identifier \(GeoError.quoted(fence.identifier)) is used twice (\(first) and \(place))"
                )
            }
        }
        return fences.map(\.fence)
    }

    enum Column: Hashable { case latitude, longitude, radius, identifier }

    static let columnNames: [Column: [String]] = [
        .latitude: ["lat", "latitude", "y"],
        .longitude: ["lon", "lng", "long", "longitude", "x"],
        .radius: ["radius", "radiusm", "r", "meters", "distance"],
        .identifier: ["id", "identifier", "name", "fence"],
    ]

    private static func readCSV(
        _ data: Data, limits: InputLimits
    ) throws(GeoError) -> [(place: String, fence: GeofenceIndex.Fence)] {
        try limits.checkSize(data.count, format: "CSV")
        let text = DelimitedText(data)
        try text.check(limits)
        var columns: [Column: Int] = [.latitude: 0, .longitude: 1, .radius: 2, .identifier: 3]
        var result = [(place: String, fence: GeofenceIndex.Fence)]()
        var first = true
        for record in text.records {
            let row = try record.get()
            guard !row.isBlank else { continue }
            defer { first = false }
            if first, row.fields.count >= 3, DelimitedText.number(row.fields[0]) == nil,
                let named = DelimitedText.columns(in: row.fields, named: columnNames)
            {
                for required in [Column.latitude, .longitude, .radius] where named[required] == nil
                {
                    throw GeoError(
                        .malformedInput, "the header names no \(required) column", line: row.line)
                }
                columns = named
                continue
            }
            do throws(GeoError) {
                let center = try CoordinateCSV.coordinate(
                    row.fields, latitude: columns[.latitude] ?? 0,
                    longitude: columns[.longitude] ?? 1, separator: text.separator)
                let r = columns[.radius] ?? 2
                guard r < row.fields.count else {
                    throw GeoError(
                        .malformedInput, "expected a radius in meters after the coordinate",
                        column: r + 1)
                }
                let radius = try CoordinateCSV.number(
                    row.fields[r], name: "radius", column: r + 1, text.separator)
                let circle: CircularGeographicCondition
                do throws(GeoError) {
                    circle = try CircularGeographicCondition(center: center, radius: radius)
                } catch {
                    throw GeoError(error.kind, error.message, column: r + 1)
                }
                var identifier = "fence-\(row.line)"
                if let i = columns[.identifier], i < row.fields.count, !row.fields[i].isEmpty {
                    identifier = row.fields[i]
                }
                result.append(
                    (
                        "line \(row.line)",
                        GeofenceIndex.Fence(identifier: identifier, condition: .circle(circle))
                    ))
            } catch {
                throw error.at(line: row.line)
            }
        }
        return result
    }

    private static func readGeoJSON(
        _ data: Data, limits: InputLimits
    ) throws(GeoError) -> [(place: String, fence: GeofenceIndex.Fence)] {
        let features: [Feature]
        switch try GeoJSON(data: data, limits: limits) {
        case .featureCollection(let collection): features = collection.features
        case .feature(let feature): features = [feature]
        case .geometry:
            throw GeoError(
                .malformedInput,
                "a fences file holds Features (a Point with a radius, or a Polygon), not a bare geometry"
            )
        }
        var result = [(place: String, fence: GeofenceIndex.Fence)]()
        for (index, feature) in features.enumerated() {
            var identifier = "fence-\(index)"
            switch feature.id {
            case .string(let s)?: identifier = s
            case .integer(let n)?: identifier = String(n)
            case .number(let d)?: identifier = "\(d)"
            case nil:
                if let id = feature.properties["identifier"]?.stringValue
                    ?? feature.properties["name"]?.stringValue
                {
                    identifier = id
                }
            }
            let place = "feature \(index) (\(GeoError.quoted(identifier)))"
            do throws(GeoError) {
                let condition: GeographicCondition
                switch feature.geometry {
                case .point(let p?)?:
                    guard let radius = feature.properties["radius"]?.doubleValue else {
                        throw GeoError(
                            .malformedInput, "a Point fence needs a \"radius\" property in meters")
                    }
                    condition = .circle(
                        try CircularGeographicCondition(
                            center: try Coordinate(validatingLatitude: p.y, longitude: p.x),
                            radius: radius))
                case .polygon(let rings)?:
                    var parsed = [[Coordinate]]()
                    for ring in rings {
                        var vertices = [Coordinate]()
                        vertices.reserveCapacity(ring.count)
                        for p in ring {
                            vertices.append(try Coordinate(validatingLatitude: p.y, longitude: p.x))
                        }
                        parsed.append(vertices)
                    }
                    guard let exterior = parsed.first else {
                        throw GeoError(.malformedInput, "the Polygon has no rings")
                    }
                    condition = .polygon(
                        try PolygonGeographicCondition(
                            exterior: exterior, holes: Array(parsed.dropFirst())))
                case nil:
                    throw GeoError(.malformedInput, "the feature has no geometry")
                case let other?:
                    throw GeoError(
                        .malformedInput,
                        "a \(other.type) is not a fence (use a Point with a radius, or a Polygon)")
                }
                result.append(
                    (place, GeofenceIndex.Fence(identifier: identifier, condition: condition)))
            } catch {
                throw GeoError(error.kind, "\(place): \(error.message)")
            }
        }
        return result
    }
}
