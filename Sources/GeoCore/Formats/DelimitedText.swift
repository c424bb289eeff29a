import Foundation

/// Delimited text as people have it: the one reader under every CSV Meridian reads (coordinates,
/// timestamped locations, tracks, fences, points to cluster).
///
/// It accepts:
/// - a UTF-8 byte-order mark, or UTF-16 with its byte-order mark (spreadsheet "Unicode text");
/// - line ends LF, CR LF or a lone CR (old Mac exports), mixed in one file;
/// - fields separated by `,`, `;`, tab, or runs of spaces (``Separator``), detected from the first
///   record when not given: a tab if it has one, else a semicolon, else a comma, else spaces;
/// - quoted fields (RFC 4180): `"a, b"` is one field, `""` inside quotes is a quote, and a quoted
///   field may run over several lines;
/// - blank lines, kept as empty records (some formats use them to separate parts), and comment
///   lines starting with `#` (when the reader is asked to skip them).
///
/// Unquoted fields are trimmed of spaces and tabs. A record whose quote never closes is an error
/// record at its first line, and reading goes on at the next line, so one bad line never swallows
/// the rest of a file.
public struct DelimitedText: Sendable {
    /// What separates the fields of a record.
    public enum Separator: String, Sendable, Hashable, CaseIterable {
        /// `,`
        case comma = ","
        /// `;`, as spreadsheets write CSV where the decimal separator is a comma.
        case semicolon = ";"
        /// A tab.
        case tab = "\t"
        /// One or more spaces or tabs.
        case whitespace = " "

        /// The separator a line most likely uses: tab, semicolon, comma or spaces, in that order of
        /// preference, counting only characters outside quotes.
        public static func detect(in line: some StringProtocol) -> Separator {
            var inQuotes = false
            var tabs = 0, semicolons = 0, commas = 0, spaces = 0
            for c in line.unicodeScalars {
                if c == "\"" { inQuotes.toggle() }
                guard !inQuotes else { continue }
                switch c {
                case "\t": tabs += 1
                case ";": semicolons += 1
                case ",": commas += 1
                case " ": spaces += 1
                default: break
                }
            }
            if tabs > 0 { return .tab }
            if semicolons > 0 { return .semicolon }
            if commas > 0 { return .comma }
            return spaces > 0 ? .whitespace : .comma
        }
    }

    /// One record: its fields and the (first) line it starts on.
    public struct Record: Hashable, Sendable {
        /// The one-based line the record starts on.
        public var line: Int
        /// The fields; empty for a blank line.
        public var fields: [String]

        /// Creates a record.
        public init(line: Int, fields: [String]) {
            self.line = line
            self.fields = fields
        }

        /// Whether the record is a blank line.
        public var isBlank: Bool { fields.isEmpty }
    }

    /// The separator used.
    public let separator: Separator
    /// The records in input order, each either its fields or the error that kept it from being
    /// split (an unterminated quote), located at its line. Comment lines are left out.
    public let records: [Result<Record, GeoError>]

    /// Reads delimited text from bytes.
    ///
    /// - Parameters:
    ///   - data: UTF-8 (with or without a byte-order mark) or UTF-16 with a byte-order mark.
    ///     Invalid UTF-8 is read as U+FFFD, which no number or name matches.
    ///   - separator: The separator, or `nil` to detect it from the first record.
    ///   - comments: Whether lines starting with `#` (after spaces) are comments to skip.
    /// - Complexity: O(n) time and memory for n bytes.
    public init(_ data: Data, separator: Separator? = nil, comments: Bool = true) {
        self.init(DelimitedText.decode(data), separator: separator, comments: comments)
    }

    /// Reads delimited text from a string (see ``init(_:separator:comments:)-(Data,_,_)``).
    public init(_ text: String, separator: Separator? = nil, comments: Bool = true) {
        var lines = DelimitedText.lines(of: text)
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        let chosen =
            separator
            ?? lines.first(where: { line in
                let t = line.drop { $0 == " " || $0 == "\t" }
                return !t.isEmpty && !(comments && t.hasPrefix("#"))
            }).map(Separator.detect(in:)) ?? .comma
        self.separator = chosen
        var records = [Result<Record, GeoError>]()
        records.reserveCapacity(lines.count)
        var i = 0
        while i < lines.count {
            let line = lines[i]
            let number = i + 1
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty {
                records.append(.success(Record(line: number, fields: [])))
                i += 1
                continue
            }
            if comments && trimmed.hasPrefix("#") {
                i += 1
                continue
            }
            // A quoted field may continue on the next lines (at most `maximumRecordLines`, so that
            // a quote that never closes costs a bounded look-ahead).
            var text = String(line)
            var quotes = QuoteState()
            quotes.scan(line, separator: chosen)
            var end = i
            while quotes.isOpen && end + 1 < lines.count && end - i + 1 < Self.maximumRecordLines {
                end += 1
                quotes.scan("\n", separator: chosen)
                quotes.scan(lines[end], separator: chosen)
                text += "\n" + lines[end]
            }
            do throws(GeoError) {
                records.append(
                    .success(
                        Record(
                            line: number, fields: try DelimitedText.split(text, separator: chosen)))
                )
                i = end + 1
            } catch {
                records.append(.failure(error.at(line: number)))
                i += 1
            }
        }
        self.records = records
    }

    /// The most lines one record (a quoted field with line breaks) may span.
    public static let maximumRecordLines = 1_000

    /// The records that were read, without blank lines and without the failed ones.
    public var rows: [Record] {
        records.compactMap { try? $0.get() }.filter { !$0.isBlank }
    }

    // MARK: - Fields

    /// Splits one record's text into fields.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` for a quote that does not close or
    ///   text after a closing quote, with the column (the one-based number of the field).
    /// - Complexity: O(length).
    public static func split(
        _ text: some StringProtocol, separator: Separator
    ) throws(GeoError) -> [String] {
        let scalars = Array(text.unicodeScalars)
        let sep: Unicode.Scalar =
            separator == .whitespace ? " " : Unicode.Scalar(separator.rawValue.utf8.first ?? 44)
        func isSeparator(_ c: Unicode.Scalar) -> Bool {
            separator == .whitespace ? (c == " " || c == "\t") : c == sep
        }
        func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" }
        var fields = [String]()
        var i = 0
        let n = scalars.count
        while true {
            // Leading blanks of a field (all of them between fields for whitespace separation).
            while i < n && isBlank(scalars[i]) && !(separator == .tab && scalars[i] == "\t") {
                i += 1
            }
            if separator == .whitespace && i == n {
                break
            }
            var field = String.UnicodeScalarView()
            if i < n && scalars[i] == "\"" {
                field = try quotedField(scalars, &i, column: fields.count + 1, endsAt: isSeparator)
            } else {
                let start = i
                while i < n && !isSeparator(scalars[i]) { i += 1 }
                var end = i
                while end > start && isBlank(scalars[end - 1]) { end -= 1 }
                field.append(contentsOf: scalars[start..<end])
            }
            fields.append(String(field))
            guard i < n else { break }
            // Past the separator (a run of blanks for whitespace separation).
            i += 1
            if separator == .whitespace {
                while i < n && isBlank(scalars[i]) { i += 1 }
                if i == n { break }
            }
        }
        return fields
    }

    /// The quoted field starting at `scalars[i]` (a quote), its doubled quotes made single, with
    /// `i` moved past it and the blanks after it, onto the end or a separator.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` for a quote that does not close or
    ///   text after the closing quote, naming the field's `column` (its one-based number), as
    ///   every other error of a record does.
    private static func quotedField(
        _ scalars: [Unicode.Scalar], _ i: inout Int, column: Int,
        endsAt isSeparator: (Unicode.Scalar) -> Bool
    ) throws(GeoError) -> String.UnicodeScalarView {
        let n = scalars.count
        var field = String.UnicodeScalarView()
        i += 1
        var closed = false
        while i < n {
            if scalars[i] == "\"" {
                if i + 1 < n && scalars[i + 1] == "\"" {
                    field.append("\"")
                    i += 2
                    continue
                }
                closed = true
                i += 1
                break
            }
            field.append(scalars[i])
            i += 1
        }
        guard closed else {
            throw GeoError(
                .malformedInput, "the quote opening column \(column) is never closed",
                column: column)
        }
        while i < n && (scalars[i] == " " || scalars[i] == "\t") && !isSeparator(scalars[i]) {
            i += 1
        }
        guard i == n || isSeparator(scalars[i]) else {
            throw GeoError(
                .malformedInput,
                "unexpected \(GeoError.quoted(String(scalars[i]))) after the quoted value in column \(column)",
                column: column)
        }
        return field
    }

    /// Splits a line of values as people type them on a command line or write them one job per
    /// line: separated by runs of spaces or tabs, or by one `,` or `;` with blanks around it or
    /// not, so `47.37,8.54 46.95,7.45`, `47.37; 8.54` and `47.37 8.54` all give two or four
    /// fields. Fields may be quoted (`"New York"`, `""` for a quote inside; `""` alone is an
    /// empty field). A blank line has no fields.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` with the column (the one-based
    ///   number of the missing field) for an empty field that is not quoted: two commas or
    ///   semicolons in a row
    ///   (`10,,20`), or one at the start or the end of the line, since dropping it would shift
    ///   every later value into the wrong place; and for a quote that does not close or text after
    ///   a closing quote.
    /// - Complexity: O(length).
    public static func splitValues(_ text: some StringProtocol) throws(GeoError) -> [String] {
        let scalars = Array(text.unicodeScalars)
        let n = scalars.count
        func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" }
        func isMark(_ c: Unicode.Scalar) -> Bool { c == "," || c == ";" }
        func isSeparator(_ c: Unicode.Scalar) -> Bool { isBlank(c) || isMark(c) }
        // The empty value is the next field: its column is the number of fields so far plus 1.
        func emptyField() -> GeoError {
            let column = fields.count + 1
            return GeoError(
                .malformedInput,
                "empty value in column \(column) (two separators in a row, or one at an end)",
                column: column)
        }
        var fields = [String]()
        var i = 0
        // Whether a `,` or `;` was read that no field has followed yet.
        var markPending = false
        while true {
            while i < n && isBlank(scalars[i]) { i += 1 }
            guard i < n else {
                if markPending { throw emptyField() }
                break
            }
            if isMark(scalars[i]) {
                // A mark with no field before it: at the start, or right after another mark.
                throw emptyField()
            }
            if scalars[i] == "\"" {
                fields.append(
                    String(
                        try quotedField(scalars, &i, column: fields.count + 1, endsAt: isSeparator))
                )
            } else {
                let start = i
                while i < n && !isSeparator(scalars[i]) { i += 1 }
                fields.append(String(String.UnicodeScalarView(scalars[start..<i])))
            }
            markPending = false
            while i < n && isBlank(scalars[i]) { i += 1 }
            if i < n && isMark(scalars[i]) {
                markPending = true
                i += 1
            }
        }
        return fields
    }

    /// A field as a number: a decimal number (`nan` and `inf` included, so callers can say "not
    /// finite" rather than "not a number"; never a hexadecimal one), or a decimal comma (`48,85`) when the separator is
    /// not a comma; `nil` for anything else.
    public static func number(
        _ field: some StringProtocol, separator: Separator = .comma
    ) -> Double? {
        let text = String(field)
        if let value = NumberParsing.decimal(text) { return value }
        guard separator != .comma, text.utf8.filter({ $0 == 44 }).count == 1,
            !text.contains(".")
        else { return nil }
        return NumberParsing.decimal(text.replacingOccurrences(of: ",", with: "."))
    }

    // MARK: - Headers

    /// The position of each wanted column in a header record, matching names case-insensitively
    /// and ignoring spaces, `_`, `-` and a unit in parentheses (`"Latitude (deg)"` is `latitude`).
    ///
    /// - Parameters:
    ///   - header: The header record's fields.
    ///   - names: For each wanted column, the names it goes by (lower case, no spaces).
    /// - Returns: The columns found, by wanted column; `nil` when the record names none of them
    ///   (it is then not a header).
    public static func columns<Column: Hashable>(
        in header: [String], named names: [Column: [String]]
    ) -> [Column: Int]? {
        var found = [Column: Int]()
        for (index, field) in header.enumerated() {
            let key = normalizedName(field)
            for (column, aliases) in names where found[column] == nil && aliases.contains(key) {
                found[column] = index
            }
        }
        return found.isEmpty ? nil : found
    }

    /// A header name folded for matching: lower case, without spaces, `_`, `-`, `.` and a
    /// parenthesized or bracketed unit.
    static func normalizedName(_ field: String) -> String {
        var text = field.lowercased()
        if let open = text.firstIndex(where: { $0 == "(" || $0 == "[" }) {
            text = String(text[..<open])
        }
        return text.filter { !" _-.".contains($0) }
    }

    // MARK: - Decoding and lines

    /// The text of bytes: UTF-16 when they start with its byte-order mark, UTF-8 otherwise (a
    /// UTF-8 byte-order mark is kept for ``init(_:separator:comments:)-(String,_,_)`` to drop).
    package static func decode(_ data: Data) -> String {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            let littleEndian = data.first == 0xFF
            var units = [UInt16]()
            units.reserveCapacity(data.count / 2)
            var i = data.startIndex + 2
            while i + 1 < data.endIndex {
                let a = UInt16(data[i]), b = UInt16(data[i + 1])
                units.append(littleEndian ? a | b << 8 : a << 8 | b)
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The lines of a text, split at LF, CR LF and lone CR, without their terminators; a final
    /// line terminator does not start another line.
    package static func lines(of text: String) -> [Substring] {
        var result = [Substring]()
        var start = text.startIndex
        var i = text.startIndex
        // Characters treat "\r\n" as one; splitting on the character view handles all three.
        while i < text.endIndex {
            let c = text[i]
            if c == "\n" || c == "\r" || c == "\r\n" {
                result.append(text[start..<i])
                i = text.index(after: i)
                start = i
            } else {
                i = text.index(after: i)
            }
        }
        if start < text.endIndex { result.append(text[start..<text.endIndex]) }
        return result
    }

    /// Whether a record's text so far ends inside a quoted field, scanned line by line.
    private struct QuoteState {
        private(set) var isOpen = false
        private var atFieldStart = true
        private var previousWasQuote = false

        mutating func scan(_ line: some StringProtocol, separator: Separator) {
            for c in line.unicodeScalars {
                if isOpen {
                    if c == "\"" {
                        isOpen = false
                        previousWasQuote = true
                    }
                    continue
                }
                if c == "\"" && (atFieldStart || previousWasQuote) {
                    // An opening quote, or the second quote of an escaped pair.
                    isOpen = true
                    previousWasQuote = false
                    atFieldStart = false
                    continue
                }
                previousWasQuote = false
                let isSeparator =
                    separator == .whitespace
                    ? (c == " " || c == "\t") : String(c) == separator.rawValue
                if isSeparator {
                    atFieldStart = true
                } else if c != " " && c != "\t" {
                    atFieldStart = false
                }
            }
        }
    }
}

extension DelimitedText {
    /// Throws if the text has more records than ``InputLimits/maximumPositions`` or a field longer
    /// than ``InputLimits/maximumStringLength``.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/limitExceeded`` naming the limit and the line.
    public func check(_ limits: InputLimits) throws(GeoError) {
        guard records.count <= limits.maximumPositions else {
            throw GeoError(
                .limitExceeded,
                "CSV input has more records than InputLimits.maximumPositions (\(limits.maximumPositions))"
            )
        }
        for case .success(let row) in records {
            if let long = row.fields.firstIndex(where: {
                $0.utf8.count > limits.maximumStringLength
            }) {
                throw GeoError(
                    .limitExceeded,
                    "line \(row.line): field \(long + 1) is longer than InputLimits.maximumStringLength (\(limits.maximumStringLength) bytes)",
                    line: row.line, column: long + 1)
            }
        }
    }
}
