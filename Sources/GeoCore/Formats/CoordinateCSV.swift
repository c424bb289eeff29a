import Foundation

/// Coordinates from delimited text: one latitude and longitude per record, as people keep them in
/// spreadsheets and exports.
///
/// ```swift
/// let table = try CoordinateCSV.read(data)          // "lat,lon" with or without a header
/// for record in table.records {
///     switch record.value {
///     case .success(let c): print(c)
///     case .failure(let error): print("line \(record.line): \(error.message)")
///     }
/// }
/// ```
///
/// The text is read by ``DelimitedText`` (a byte-order mark, CRLF or CR line ends, `,` `;` tab or
/// space separators, quoted fields). A first record that names its columns is a header:
/// `lat`/`latitude`/`y` and `lon`/`lng`/`long`/`longitude`/`x` (any case, units in parentheses
/// ignored) say where the coordinates are, and other columns are kept as ``Table/extras``.
/// Without a header the coordinates are the first two fields, in the given ``Order``. Blank and
/// `#` lines are skipped.
public enum CoordinateCSV {
    /// Which comes first in records without a header.
    public enum Order: Sendable, Hashable {
        /// `latitude, longitude`, as most people and Google Maps write them.
        case latitudeFirst
        /// `longitude, latitude`, as GeoJSON, WKT and supercluster's point files have them.
        case longitudeFirst
    }

    /// What a file held.
    public struct Table: Sendable, Hashable {
        /// The header's fields, if the file has a header.
        public var header: [String]?
        /// The separator the file uses.
        public var separator: DelimitedText.Separator
        /// One record per data line: its coordinate (valid, in range) or the error naming the bad
        /// field.
        public var records: [LineRecord<Coordinate>]
        /// The other fields of each record, by record (same order as ``records``).
        public var extras: [[String]]
        /// The header's names of the other fields, in the order of ``extras``; `nil` without a
        /// header.
        public var extraNames: [String]? {
            header.map { header in
                header.enumerated().filter {
                    $0.offset != latitudeColumn && $0.offset != longitudeColumn
                }.map(\.element)
            }
        }
        /// The column that holds latitudes (0-based).
        public var latitudeColumn: Int
        /// The column that holds longitudes (0-based).
        public var longitudeColumn: Int
    }

    /// Column names that say where the latitude and longitude are.
    static let columnNames: [Column: [String]] = [
        .latitude: ["lat", "latitude", "y"],
        .longitude: ["lon", "lng", "long", "longitude", "x"],
    ]

    enum Column: Hashable { case latitude, longitude }

    /// Reads coordinates.
    ///
    /// - Parameters:
    ///   - data: The text (see ``DelimitedText``).
    ///   - order: Which field comes first when there is no header.
    ///   - separator: The separator, or `nil` to detect it.
    ///   - limits: What the reader accepts: the size, the number of records (positions) and the
    ///     length of one field.
    /// - Throws: ``GeoError/Kind-swift.struct/limitExceeded`` naming the limit;
    ///   ``GeoError/Kind-swift.struct/malformedInput`` (at line 1) for a header that names
    ///   only one of latitude and longitude. Bad records are not thrown: each becomes a failed
    ///   record in its place.
    /// - Complexity: O(n) for n bytes.
    public static func read(
        _ data: Data, order: Order = .latitudeFirst, separator: DelimitedText.Separator? = nil,
        limits: InputLimits = .standard
    ) throws(GeoError) -> Table {
        try limits.checkSize(data.count, format: "CSV")
        let text = DelimitedText(data, separator: separator)
        try text.check(limits)
        var latitudeColumn = order == .latitudeFirst ? 0 : 1
        var longitudeColumn = order == .latitudeFirst ? 1 : 0
        var table = Table(
            header: nil, separator: text.separator, records: [], extras: [],
            latitudeColumn: latitudeColumn, longitudeColumn: longitudeColumn)
        var first = true
        for record in text.records {
            switch record {
            case .failure(let error):
                table.records.append(LineRecord(line: error.line ?? 0, value: .failure(error)))
                table.extras.append([])
            case .success(let row):
                guard !row.isBlank else { continue }
                defer { first = false }
                if first, let columns = header(row) {
                    guard let lat = columns[.latitude], let lon = columns[.longitude] else {
                        throw GeoError(
                            .malformedInput,
                            "the header names \(columns[.latitude] == nil ? "no latitude" : "no longitude") column (use lat/latitude and lon/longitude)",
                            line: row.line)
                    }
                    (latitudeColumn, longitudeColumn) = (lat, lon)
                    (table.latitudeColumn, table.longitudeColumn) = (lat, lon)
                    table.header = row.fields
                    continue
                }
                let value = Result { () throws(GeoError) -> Coordinate in
                    try coordinate(
                        row.fields, latitude: latitudeColumn, longitude: longitudeColumn,
                        separator: text.separator)
                }
                table.records.append(
                    LineRecord(line: row.line, value: value.mapError { $0.at(line: row.line) }))
                table.extras.append(
                    row.fields.enumerated().filter {
                        $0.offset != latitudeColumn && $0.offset != longitudeColumn
                    }.map(\.element))
            }
        }
        return table
    }

    /// The columns a first record names, if it is a header: one whose coordinate fields are not
    /// both numbers and that names a latitude or longitude column.
    static func header(_ row: DelimitedText.Record) -> [Column: Int]? {
        guard row.fields.count >= 2,
            DelimitedText.number(row.fields[0]) == nil || DelimitedText.number(row.fields[1]) == nil
        else { return nil }
        return DelimitedText.columns(in: row.fields, named: columnNames)
    }

    /// The coordinate in a record's fields (valid, in range), with the column of a bad field.
    package static func coordinate(
        _ fields: [String], latitude: Int, longitude: Int, separator: DelimitedText.Separator
    ) throws(GeoError) -> Coordinate {
        let needed = max(latitude, longitude) + 1
        guard fields.count >= needed else {
            throw GeoError(
                .malformedInput,
                "expected a latitude and a longitude, found \(fields.count) field\(fields.count == 1 ? "" : "s")",
                column: fields.count + 1)
        }
        // The fields in their order on the line, so the first bad one is reported.
        var lat = 0.0, lon = 0.0
        if latitude < longitude {
            lat = try number(fields[latitude], name: "latitude", column: latitude + 1, separator)
            lon = try number(fields[longitude], name: "longitude", column: longitude + 1, separator)
        } else {
            lon = try number(fields[longitude], name: "longitude", column: longitude + 1, separator)
            lat = try number(fields[latitude], name: "latitude", column: latitude + 1, separator)
        }
        do {
            return try Coordinate(validatingLatitude: lat, longitude: lon)
        } catch {
            throw GeoError(
                error.kind, error.message,
                column: (lat >= -90 && lat <= 90 ? longitude : latitude) + 1)
        }
    }

    /// A numeric field, with a message that tells "not a number" from "not finite".
    package static func number(
        _ field: String, name: String, column: Int, _ separator: DelimitedText.Separator
    ) throws(GeoError) -> Double {
        guard let value = DelimitedText.number(field, separator: separator) else {
            throw GeoError(
                .malformedInput,
                field.isEmpty
                    ? "\(name) is empty" : "\(name) \(GeoError.quoted(field)) is not a number",
                column: column)
        }
        guard value.isFinite else {
            // The text as written: 1e400 reads as infinity, which is not what the file says.
            throw GeoError(
                .invalidCoordinate, "\(name) \(GeoError.quoted(field)) is not finite",
                column: column)
        }
        return value
    }
}
