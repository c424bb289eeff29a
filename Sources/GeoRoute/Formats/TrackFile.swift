import Foundation
import GeoCore

/// Tracks from the files people have: GPX, GeoJSON, CSV or encoded polylines, detected or named.
///
/// ```swift
/// let data = try Data(contentsOf: url)
/// let format = TrackFile.Format.detect(name: url.lastPathComponent, data: data)
/// for track in try TrackFile.read(data, format: format) { print(track.statistics().length) }
/// ```
///
/// Errors name where the problem is: the line (and column) for GPX, CSV and encoded polylines, the
/// JSON path and byte for GeoJSON.
public enum TrackFile {
    /// A file format that holds tracks.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// GPX 1.0 or 1.1: its tracks, then its routes as tracks of one segment.
        case gpx
        /// GeoJSON: every `LineString` (a track of one segment) and `MultiLineString` (a track of
        /// several), in features, collections and geometry collections; elevations from a third
        /// position value, times from a `coordTimes` property (Mapbox's togeojson convention) and
        /// the name from a `name` property.
        case geojson
        /// Delimited text (`DelimitedText`): one point per record, `latitude, longitude
        /// [, elevation [, time]]`, or columns named by a header (`lat`, `lon`, `ele`/`elevation`/
        /// `alt`, `time`, and `accuracy`/`horizontal_accuracy`/`hacc`, the horizontal accuracy in
        /// meters that ``TrackFilter/horizontalAccuracy(maximum:)`` reads); a blank line starts
        /// the next track.
        case csv
        /// Encoded polylines (Google's format), one per line, each a track.
        case encoded

        /// The format of a file from its name's extension, or else from its first bytes: `<` is GPX,
        /// `{` or `[` GeoJSON, a first line of numbers or naming a latitude column CSV, anything else
        /// encoded polylines.
        public static func detect(name: String?, data: Data) -> Format {
            if let name {
                switch (name as NSString).pathExtension.lowercased() {
                case "gpx": return .gpx
                case "geojson", "json": return .geojson
                case "csv", "tsv", "txt": return .csv
                case "polyline", "enc", "encoded": return .encoded
                default: break
                }
            }
            let text = DelimitedText.decode(data.prefix(4096))
            let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
            if start.hasPrefix("<") { return .gpx }
            if start.hasPrefix("{") || start.hasPrefix("[") { return .geojson }
            let firstLine = start.prefix { $0 != "\n" && $0 != "\r" }
            let fields =
                (try? DelimitedText.split(
                    firstLine, separator: DelimitedText.Separator.detect(in: firstLine))) ?? []
            if fields.count >= 2
                && (DelimitedText.number(fields[0]) != nil
                    || firstLine.lowercased().contains("lat"))
            {
                return .csv
            }
            return .encoded
        }
    }

    /// Reads the tracks of a file.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - format: Its format.
    ///   - precision: The decimal precision of encoded polylines (5 by default; 6 for OSRM and
    ///     Valhalla).
    ///   - limits: What the reader accepts (see `InputLimits`).
    /// - Throws: `GeoError.Kind.malformedInput` or
    ///   `GeoError.Kind.invalidCoordinate` naming the place of the first problem;
    ///   `GeoError.Kind.limitExceeded` for input beyond `limits`.
    /// - Complexity: O(size of the file).
    public static func read(
        _ data: Data, format: Format, precision: Int = 5, limits: InputLimits = .standard
    ) throws(GeoError) -> [Track] {
        switch format {
        case .gpx:
            let document = try GPX.read(data, limits: limits)
            return document.tracks
                + document.routes.map { Track(name: $0.name, points: $0.points.map(\.point)) }
        case .geojson:
            return try readGeoJSON(data, limits: limits)
        case .csv:
            return try readCSV(data, limits: limits)
        case .encoded:
            return try readEncoded(data, precision: precision, limits: limits)
        }
    }

    // MARK: - CSV

    enum Column: Hashable { case latitude, longitude, elevation, time, accuracy }

    static let columnNames: [Column: [String]] = [
        .latitude: ["lat", "latitude", "y"],
        .longitude: ["lon", "lng", "long", "longitude", "x"],
        .elevation: ["ele", "elevation", "alt", "altitude", "height", "z"],
        .time: ["time", "timestamp", "date", "datetime", "utc"],
        // Horizontal accuracy in meters (a fix's radius of uncertainty), as phones log it.
        .accuracy: ["accuracy", "horizontalaccuracy", "hacc", "acc"],
    ]

    /// Tracks as delimited text whose points ``readCSV(_:limits:)`` reads back: one `lat,lon`
    /// row per point in full precision, a blank line after each segment, and, when any point has
    /// an elevation or a time, a header naming the columns (`ele` in meters, `time` in ISO 8601
    /// UTC to the microsecond), with an empty field where a point has none. CSV has no place
    /// for names or for segments within a track: each segment reads back as a track.
    /// - Complexity: O(n) in the points.
    public static func writeCSV(_ tracks: [Track]) -> String {
        let points = tracks.flatMap { $0.segments.joined() }
        let elevations = points.contains { $0.elevation != nil }
        let times = points.contains { $0.time != nil }
        var out = ""
        if elevations || times {
            out += "lat,lon" + (elevations ? ",ele" : "") + (times ? ",time" : "") + "\n"
        }
        for track in tracks {
            for segment in track.segments where !segment.isEmpty {
                for point in segment {
                    out += "\(point.coordinate.latitude),\(point.coordinate.longitude)"
                    if elevations { out += "," + (point.elevation.map { "\($0)" } ?? "") }
                    if times { out += "," + (point.time.map(ISO8601Time.format) ?? "") }
                    out += "\n"
                }
                out += "\n"
            }
        }
        return out
    }

    /// Tracks from delimited text (see ``Format/csv``).
    ///
    /// - Throws: The first bad record's error, at its line and column.
    public static func readCSV(
        _ data: Data, limits: InputLimits = .standard
    ) throws(GeoError) -> [Track] {
        try limits.checkSize(data.count, format: "CSV")
        let text = DelimitedText(data)
        try text.check(limits)
        var columns: [Column: Int] = [.latitude: 0, .longitude: 1, .elevation: 2, .time: 3]
        var tracks = [Track]()
        var current = [TrackPoint]()
        var first = true
        for record in text.records {
            let row = try record.get()
            if row.isBlank {
                if !current.isEmpty { tracks.append(Track(points: current)) }
                current = []
                continue
            }
            defer { first = false }
            if first, row.fields.count >= 2,
                DelimitedText.number(row.fields[0]) == nil
                    || DelimitedText.number(row.fields[1]) == nil,
                let named = DelimitedText.columns(in: row.fields, named: columnNames)
            {
                guard named[.latitude] != nil, named[.longitude] != nil else {
                    throw GeoError(
                        .malformedInput, "the header names no latitude and longitude columns",
                        line: row.line)
                }
                columns = named
                continue
            }
            do throws(GeoError) {
                current.append(try point(row.fields, columns: columns, separator: text.separator))
            } catch {
                throw error.at(line: row.line)
            }
        }
        if !current.isEmpty { tracks.append(Track(points: current)) }
        return tracks
    }

    private static func point(
        _ fields: [String], columns: [Column: Int], separator: DelimitedText.Separator
    ) throws(GeoError) -> TrackPoint {
        let lat = columns[.latitude] ?? 0, lon = columns[.longitude] ?? 1
        let coordinate = try CoordinateCSV.coordinate(
            fields, latitude: lat, longitude: lon, separator: separator)
        var point = TrackPoint(coordinate: coordinate)
        if let e = columns[.elevation], e < fields.count, !fields[e].isEmpty {
            point.elevation = try CoordinateCSV.number(
                fields[e], name: "elevation", column: e + 1, separator)
        }
        if let t = columns[.time], t < fields.count, !fields[t].isEmpty {
            guard let time = ISO8601Time.timestamp(fields[t]) else {
                throw GeoError(
                    .malformedInput,
                    "time \(GeoError.quoted(fields[t])) is neither ISO 8601 nor seconds since 1970 within the years 1 to 9999",
                    column: t + 1)
            }
            point.time = time
        }
        if let a = columns[.accuracy], a < fields.count, !fields[a].isEmpty {
            let accuracy = try CoordinateCSV.number(
                fields[a], name: "accuracy", column: a + 1, separator)
            guard accuracy >= 0 else {
                throw GeoError(
                    .malformedInput, "accuracy \(accuracy) is negative", column: a + 1)
            }
            point.horizontalAccuracy = accuracy
        }
        return point
    }

    // MARK: - GeoJSON

    /// Tracks from GeoJSON (see ``Format/geojson``).
    ///
    /// - Throws: Errors of the GeoJSON reader (with the JSON path and byte), or an invalid
    ///   coordinate or time naming its path.
    public static func readGeoJSON(
        _ data: Data, limits: InputLimits = .standard
    ) throws(GeoError) -> [Track] {
        var tracks = [Track]()
        func points(
            _ positions: [Position], times: JSONValue?, path: String
        ) throws(GeoError) -> [TrackPoint] {
            var result = [TrackPoint]()
            result.reserveCapacity(positions.count)
            for (i, p) in positions.enumerated() {
                let coordinate: Coordinate
                do throws(GeoError) {
                    coordinate = try Coordinate(validatingLatitude: p.y, longitude: p.x)
                } catch {
                    throw GeoError(error.kind, "\(path)[\(i)]: \(error.message)")
                }
                var time: Date?
                if let text = times?[i]?.stringValue {
                    guard let parsed = ISO8601Time.timestamp(text) else {
                        throw GeoError(
                            .malformedInput,
                            "\(path)[\(i)]: coordTimes \(GeoError.quoted(text)) is not an ISO 8601 time"
                        )
                    }
                    time = parsed
                }
                result.append(TrackPoint(coordinate: coordinate, elevation: p.z, time: time))
            }
            return result
        }
        func visit(
            _ geometry: Geometry, name: String?, times: JSONValue?, path: String
        ) throws(GeoError) {
            switch geometry {
            case .lineString(let positions):
                tracks.append(
                    Track(
                        name: name,
                        points: try points(positions, times: times, path: path + ".coordinates")))
            case .multiLineString(let lines):
                var segments = [[TrackPoint]]()
                for (i, line) in lines.enumerated() {
                    segments.append(
                        try points(line, times: times?[i], path: "\(path).coordinates[\(i)]"))
                }
                tracks.append(Track(name: name, segments: segments))
            case .geometryCollection(let members):
                for (i, member) in members.enumerated() {
                    try visit(member, name: name, times: nil, path: "\(path).geometries[\(i)]")
                }
            default:
                return  // points and polygons are not lines
            }
        }
        switch try GeoJSON(data: data, limits: limits) {
        case .geometry(let g):
            try visit(g, name: nil, times: nil, path: "$")
        case .feature(let f):
            if let g = f.geometry {
                try visit(
                    g, name: f.properties["name"]?.stringValue, times: f.properties["coordTimes"],
                    path: "$.geometry")
            }
        case .featureCollection(let c):
            for (i, f) in c.features.enumerated() {
                guard let g = f.geometry else { continue }
                try visit(
                    g, name: f.properties["name"]?.stringValue, times: f.properties["coordTimes"],
                    path: "$.features[\(i)].geometry")
            }
        }
        return tracks
    }

    // MARK: - Encoded polylines

    /// Tracks from encoded polylines, one per line (blank lines skipped).
    ///
    /// - Throws: The first bad polyline's error, with its line and the column of the bad character;
    ///   `GeoError.Kind.invalidCoordinate` with its line and point for one that decodes outside
    ///   latitude [-90, 90] or longitude [-180, 180].
    public static func readEncoded(
        _ data: Data, precision: Int = 5, limits: InputLimits = .standard
    ) throws(GeoError) -> [Track] {
        try limits.checkSize(data.count, format: "encoded polyline")
        var tracks = [Track]()
        for (index, line) in DelimitedText.lines(of: DelimitedText.decode(data)).enumerated() {
            let leading = line.prefix { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            let text = line.dropFirst(leading.count).trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            do throws(GeoError) {
                let points = try EncodedPolyline.decode(text, precision: precision, limits: limits)
                // The encoding holds any integers: a line decoding outside the Earth's range is
                // refused as the other formats refuse it, naming the point.
                for (i, point) in points.enumerated() where !point.isValid {
                    do throws(GeoError) {
                        _ = try Coordinate(
                            validatingLatitude: point.latitude, longitude: point.longitude)
                    } catch {
                        throw GeoError(.invalidCoordinate, "point \(i + 1): \(error.message)")
                    }
                }
                tracks.append(Track(points: points.map { TrackPoint(coordinate: $0) }))
            } catch {
                throw GeoError(
                    error.kind, error.message, offset: error.offset, line: index + 1,
                    column: error.offset.map { $0 + leading.unicodeScalars.count + 1 })
            }
        }
        return tracks
    }
}
