import Foundation

/// Timestamped location fixes from delimited text: the location logs of phones, trackers and
/// fleet systems.
///
/// The text is read by ``DelimitedText``. A first record that names its columns is a header; the
/// columns it can name (any case, spaces, `_` and units in parentheses ignored) are
///
/// | column | names |
/// |---|---|
/// | time | `time`, `timestamp`, `date`, `datetime`, `utc` |
/// | latitude | `lat`, `latitude`, `y` |
/// | longitude | `lon`, `lng`, `long`, `longitude`, `x` |
/// | horizontal accuracy (m) | `accuracy`, `horizontalaccuracy`, `hacc` |
/// | altitude (m) | `alt`, `altitude`, `ele`, `elevation`, `height`, `z` |
/// | speed (m/s) | `speed` |
/// | course (degrees) | `course`, `heading`, `bearing` |
///
/// Without a header a record is `time, latitude, longitude[, accuracy]`. Times are ISO 8601
/// (`2024-05-01T08:30:00Z`, fractions and offsets allowed; no zone means UTC) or seconds since
/// 1970, between the years 1 and 9999. A missing accuracy is 0 (exact), a missing altitude, speed
/// or course is unknown (Core Location's −1). Coordinates are read but not checked against their
/// ranges: that is the consumer's rule (``Location/validated()``, a monitor's fix checks).
public enum LocationCSV {
    /// What a file held.
    public struct Table: Sendable, Hashable {
        /// The header's fields, if the file has a header.
        public var header: [String]?
        /// The separator the file uses.
        public var separator: DelimitedText.Separator
        /// One record per data line: its fix, or the error naming the bad field.
        public var records: [LineRecord<Location>]
    }

    enum Column: Hashable, CaseIterable {
        case time, latitude, longitude, accuracy, altitude, speed, course
    }

    static let columnNames: [Column: [String]] = [
        .time: ["time", "timestamp", "date", "datetime", "utc"],
        .latitude: ["lat", "latitude", "y"],
        .longitude: ["lon", "lng", "long", "longitude", "x"],
        .accuracy: ["accuracy", "horizontalaccuracy", "hacc"],
        .altitude: ["alt", "altitude", "ele", "elevation", "height", "z"],
        .speed: ["speed"],
        .course: ["course", "heading", "bearing"],
    ]

    /// Reads location fixes.
    ///
    /// - Parameters:
    ///   - data: The text (see ``DelimitedText``).
    ///   - separator: The separator, or `nil` to detect it.
    ///   - limits: What the reader accepts: the size, the number of records (positions) and the
    ///     length of one field.
    /// - Throws: ``GeoError/Kind-swift.struct/limitExceeded`` naming the limit;
    ///   ``GeoError/Kind-swift.struct/malformedInput`` (at the header's line) for a header
    ///   without a time, latitude or longitude column. Bad records are not thrown: each becomes a
    ///   failed record in its place.
    /// - Complexity: O(n) for n bytes.
    public static func read(
        _ data: Data, separator: DelimitedText.Separator? = nil, limits: InputLimits = .standard
    ) throws(GeoError) -> Table {
        try limits.checkSize(data.count, format: "CSV")
        let text = DelimitedText(data, separator: separator)
        try text.check(limits)
        var table = Table(header: nil, separator: text.separator, records: [])
        var columns: [Column: Int] = [.time: 0, .latitude: 1, .longitude: 2, .accuracy: 3]
        var first = true
        for record in text.records {
            switch record {
            case .failure(let error):
                table.records.append(LineRecord(line: error.line ?? 0, value: .failure(error)))
            case .success(let row):
                guard !row.isBlank else { continue }
                defer { first = false }
                if first, row.fields.count >= 3, DelimitedText.number(row.fields[1]) == nil,
                    let named = DelimitedText.columns(in: row.fields, named: columnNames)
                {
                    for required in [Column.time, .latitude, .longitude]
                    where named[required] == nil {
                        throw GeoError(
                            .malformedInput, "the header names no \(required) column",
                            line: row.line)
                    }
                    columns = named
                    table.header = row.fields
                    continue
                }
                let value = Result { () throws(GeoError) -> Location in
                    try location(row.fields, columns: columns, separator: text.separator)
                }
                table.records.append(
                    LineRecord(line: row.line, value: value.mapError { $0.at(line: row.line) }))
            }
        }
        return table
    }

    /// The fix in a record's fields.
    static func location(
        _ fields: [String], columns: [Column: Int], separator: DelimitedText.Separator
    ) throws(GeoError) -> Location {
        func field(_ column: Column) -> (text: String, column: Int)? {
            guard let index = columns[column], index < fields.count, !fields[index].isEmpty else {
                return nil
            }
            return (fields[index], index + 1)
        }
        func number(_ column: Column, _ name: String) throws(GeoError) -> Double? {
            guard let (text, at) = field(column) else { return nil }
            guard let value = DelimitedText.number(text, separator: separator) else {
                throw GeoError(
                    .malformedInput, "\(name) \(GeoError.quoted(text)) is not a number", column: at)
            }
            return value
        }
        for required in [Column.time, .latitude, .longitude] where field(required) == nil {
            let at = (columns[required] ?? 0) + 1
            throw GeoError(
                .malformedInput,
                fields.count < at
                    ? "expected time, latitude and longitude, found \(fields.count) field\(fields.count == 1 ? "" : "s")"
                    : "the \(required) is empty", column: at)
        }
        let timeText = field(.time)?.text ?? ""
        guard let time = ISO8601Time.timestamp(timeText) else {
            throw GeoError(
                .malformedInput,
                "time \(GeoError.quoted(timeText)) is neither ISO 8601 nor seconds since 1970 within the years 1 to 9999",
                column: (columns[.time] ?? 0) + 1)
        }
        let latitude = try number(.latitude, "latitude") ?? .nan
        let longitude = try number(.longitude, "longitude") ?? .nan
        let accuracy = try number(.accuracy, "accuracy") ?? 0
        let altitude = try number(.altitude, "altitude")
        let speed = try number(.speed, "speed")
        let course = try number(.course, "course")
        return Location(
            coordinate: Coordinate(latitude: latitude, longitude: longitude),
            altitude: altitude ?? 0, horizontalAccuracy: accuracy,
            verticalAccuracy: altitude == nil ? -1 : 0, course: course ?? -1,
            speed: speed ?? -1, timestamp: time)
    }
}
