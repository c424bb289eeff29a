/// A position in UTF-8 text: the moves every text reader of Meridian makes (look at the next byte,
/// skip white space, match a word, report where a problem is), shared by the JSON and WKT readers.
///
/// Offsets are byte offsets into the text as given, a byte-order mark included; error messages also
/// give the line and column (in characters) of the offset.
package struct ByteCursor {
    /// The text.
    let bytes: [UInt8]
    /// The offset of the next byte.
    var index: Int
    /// The format's name, which starts every error message ("JSON", "WKT").
    let format: String

    /// A cursor at the start of the text, after a UTF-8 byte-order mark if there is one.
    init(_ bytes: [UInt8], format: String) {
        self.bytes = bytes
        self.format = format
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Whether the whole text has been read.
    var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, or `nil` at the end.
    @inline(__always)
    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Moves past spaces, tabs and line breaks.
    mutating func skipSpace() {
        while index < bytes.count, ByteCursor.isSpace(bytes[index]) { index += 1 }
    }

    /// Moves past `byte` if it comes next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        index += 1
        return true
    }

    /// Whether an ASCII word (given in upper case) comes next, in any case.
    func matchesWord(_ upperCase: String) -> Bool {
        let utf8 = Array(upperCase.utf8)
        guard index + utf8.count <= bytes.count else { return false }
        for (k, b) in utf8.enumerated() where bytes[index + k] & 0xDF != b { return false }
        return true
    }

    /// The text from `start` to the cursor.
    func text(from start: Int) -> String {
        String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A description of the text at the cursor for error messages: up to 12 characters, quoted so
    /// that no control character of the input reaches a terminal.
    func found() -> String {
        guard index < bytes.count else { return "the end of the text" }
        let end = min(bytes.count, index + 12)
        let ahead = bytes[index..<end]
        // Text up to its first byte that is not UTF-8 (a lone byte is named in hex, never shown
        // as a replacement character).
        if let bad = UTF8Validation.firstInvalidByte(in: ahead) {
            guard bad > 0 else {
                let hex = String(bytes[index], radix: 16, uppercase: true)
                return "byte 0x\(hex.count < 2 ? "0" : "")\(hex), which is not UTF-8 text"
            }
            return GeoError.quoted(String(decoding: ahead.prefix(bad), as: UTF8.self))
        }
        return GeoError.quoted(String(decoding: ahead, as: UTF8.self))
    }

    /// A ``GeoError/Kind-swift.struct/malformedInput`` error at an offset (the cursor by default),
    /// with the offset, line and column in the message and in the error. Text of one line (line
    /// breaks and white space after it allowed) has no line number (so a line of a batch, which
    /// names its own line, is not given two).
    func error(_ message: String, at offset: Int? = nil) -> GeoError {
        let at = min(offset ?? index, bytes.count)
        let (line, column) = ByteCursor.lineAndColumn(of: at, in: bytes)
        let firstBreak = bytes.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
        guard bytes[firstBreak...].contains(where: { !ByteCursor.isSpace($0) }) else {
            return GeoError(
                .malformedInput, "\(format): \(message) (column \(column), byte \(at))",
                offset: at, column: column)
        }
        return GeoError(
            .malformedInput, "\(format): \(message) (line \(line), column \(column), byte \(at))",
            offset: at, line: line, column: column)
    }

    /// The one-based line and column (in Unicode scalars; a byte-order mark does not count) of a
    /// byte offset. A line ends at LF, CR or CR LF.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, column = 1
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < min(offset, bytes.count) {
            let b = bytes[i]
            if b == 0x0A || (b == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 && b != 0x0D {
                column += 1
            }
            i += 1
        }
        return (line, column)
    }

    /// Whether a byte is a space, tab or line break.
    @inline(__always)
    package static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    @inline(__always)
    static func isLetter(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }
}
