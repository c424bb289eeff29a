import GeoCore

/// One line of a live clustering stream, the input of `meridian cluster --live`.
///
/// A line is a command word and its fields, separated by spaces or tabs, commas or semicolons
/// (one kind per line; a field with a separator in it is quoted, `"..."`, with `""` for a quote):
///
/// ```text
/// insert KEY LAT LON [CATEGORY]   add an element (a category clusters only with its own kind)
/// move KEY LAT LON                move one
/// remove KEY                      remove one
/// view WEST SOUTH EAST NORTH ZOOM  the box and zoom whose changes to report (the zoom floored
///                                  and clamped to minZoom...maxZoom + 1 when read, as
///                                  `getClusters` reads it)
/// commit                          end a batch (so does a blank line, a view line or the end)
/// # ...                           a comment
/// ```
///
/// Command words are case-insensitive; degrees are decimal.
public enum LiveClusterCommand: Hashable, Sendable {
    /// A change to apply with the rest of its batch.
    case change(LiveClusterChange<String>)
    /// A new view: the box and zoom to report.
    case view(BoundingBox, zoom: Double)
    /// The end of a batch.
    case commit

    /// Whether a line ends its batch even when it cannot be read: a blank line, or one whose
    /// command word is `view` or `commit` (case-insensitive). A reader keeps its batches where
    /// the writer meant them although such a line is malformed.
    /// - Complexity: O(length of the command word).
    public static func endsBatch(_ line: some StringProtocol) -> Bool {
        let text = line.trimmingWhitespace
        let word = text.prefix { $0 != " " && $0 != "\t" && $0 != "," && $0 != ";" }.lowercased()
        return text.isEmpty || word == "view" || word == "commit"
    }

    /// Reads one line; `nil` for a comment.
    ///
    /// - Throws: `GeoError.Kind.malformedInput` for an unknown command, a wrong number of fields,
    ///   a field that is not a number or a quote that does not close, and
    ///   `GeoError.Kind.invalidCoordinate` for a latitude or longitude off the globe; the error's
    ///   column is the bad field's number (the command word is 1).
    /// - Complexity: O(length of the line).
    public init?(line: some StringProtocol) throws(GeoError) {
        let text = line.trimmingWhitespace
        if text.isEmpty {
            self = .commit
            return
        }
        if text.hasPrefix("#") { return nil }
        // The command word, then the fields with one kind of separator: a tab, else a
        // semicolon, else a comma, else spaces.
        let wordEnd =
            text.firstIndex { $0 == " " || $0 == "\t" || $0 == "," || $0 == ";" } ?? text.endIndex
        var rest = Substring(text[wordEnd...])
        if let first = rest.first, first == "," || first == ";" { rest.removeFirst() }
        var unquoted = Set<Character>()  // the characters outside quotes
        var quoted = false
        for c in rest {
            if c == "\"" { quoted.toggle() } else if !quoted { unquoted.insert(c) }
        }
        let separator: DelimitedText.Separator =
            unquoted.contains("\t")
            ? .tab
            : unquoted.contains(";") ? .semicolon : unquoted.contains(",") ? .comma : .whitespace
        let trimmed = rest.trimmingWhitespace
        var split = [String]()
        if !trimmed.isEmpty {
            do {
                split = try DelimitedText.split(trimmed, separator: separator).map {
                    $0.trimmingWhitespace
                }
            } catch {
                // The fields' columns count from the command word, column 1.
                var message = error.message
                let column = error.column.map { $0 + 1 }
                if let inner = error.column, let column {
                    message = message.replacingOccurrences(
                        of: "column \(inner)", with: "column \(column)")
                }
                throw GeoError(error.kind, message, column: column)
            }
        }
        let fields = [String(text[..<wordEnd])] + split
        let word = fields.first?.lowercased() ?? ""
        func expect(_ names: String, optional: Int = 0) throws(GeoError) {
            let wanted = names.split(separator: " ").count
            guard (wanted - optional...wanted).contains(fields.count - 1) else {
                throw GeoError(
                    .malformedInput,
                    "\(word) takes \(names.isEmpty ? "no fields" : names), found \(fields.count - 1) field\(fields.count == 2 ? "" : "s")"
                )
            }
        }
        func number(_ i: Int, _ name: String) throws(GeoError) -> Double {
            guard let value = DelimitedText.number(fields[i]), value.isFinite else {
                throw GeoError(
                    .malformedInput,
                    "\(name) \(GeoError.quoted(fields[i])) is not a finite number", column: i + 1)
            }
            return value
        }
        func coordinate(_ i: Int) throws(GeoError) -> Coordinate {
            let lat = try number(i, "latitude"), lon = try number(i + 1, "longitude")
            do {
                return try Coordinate(validatingLatitude: lat, longitude: lon)
            } catch {
                throw GeoError(error.kind, error.message, column: abs(lat) > 90 ? i + 1 : i + 2)
            }
        }
        switch word {
        case "insert":
            try expect("KEY LAT LON [CATEGORY]", optional: 1)
            let category = fields.count == 5 && !fields[4].isEmpty ? fields[4] : nil
            self = .change(.insert(fields[1], try coordinate(2), clusteringIdentifier: category))
        case "move":
            try expect("KEY LAT LON")
            self = .change(.move(fields[1], try coordinate(2)))
        case "remove":
            try expect("KEY")
            self = .change(.remove(fields[1]))
        case "view":
            try expect("WEST SOUTH EAST NORTH ZOOM")
            let w = try number(1, "west"), s = try number(2, "south")
            let e = try number(3, "east"), n = try number(4, "north")
            let zoom = try number(5, "zoom")
            guard s <= n else {
                throw GeoError(.malformedInput, "south \(s) is above north \(n)", column: 3)
            }
            self = .view(BoundingBox(west: w, south: s, east: e, north: n), zoom: zoom)
        case "commit":
            try expect("")
            self = .commit
        default:
            throw GeoError(
                .malformedInput,
                "\(GeoError.quoted(fields[0])) is not a command (insert, move, remove, view, commit)",
                column: 1)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
