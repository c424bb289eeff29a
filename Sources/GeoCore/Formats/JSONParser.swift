/// A JSON value with the byte offset where it starts in its source text, so that readers built on it
/// (GeoJSON) can say where a problem is. Values that did not come from text (decoded through
/// `Decoder`) have no offset.
struct LocatedJSON {
    /// Whether the value is a number (an integer or not).
    var isNumber: Bool {
        switch value {
        case .integer, .number: true
        default: false
        }
    }

    enum Value {
        case null
        case bool(Bool)
        case integer(Int)
        case number(Double)
        case string(String)
        case array([LocatedJSON])
        case object([(key: String, value: LocatedJSON)])
    }

    var value: Value
    var offset: Int?

    /// The member of an object with a key (the last one if a key repeats).
    subscript(key: String) -> LocatedJSON? {
        guard case .object(let members) = value else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// The number, for integers and numbers.
    var doubleValue: Double? {
        switch value {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }

    /// A short name of the kind of value, for error messages.
    var kindName: String {
        switch value {
        case .null: "null"
        case .bool: "a Boolean"
        case .integer, .number: "a number"
        case .string(let s): "the string \(GeoError.quoted(s, limit: 40))"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The plain value, without offsets.
    var jsonValue: JSONValue {
        switch value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .integer(let i): .integer(i)
        case .number(let d): .number(d)
        case .string(let s): .string(s)
        case .array(let items): .array(items.map(\.jsonValue))
        case .object(let members):
            .object(
                Dictionary(
                    members.map { ($0.key, $0.value.jsonValue) },
                    uniquingKeysWith: { _, last in last }))
        }
    }

    /// A located value for a plain value (no offsets).
    init(_ plain: JSONValue) {
        offset = nil
        switch plain {
        case .null: value = .null
        case .bool(let b): value = .bool(b)
        case .integer(let i): value = .integer(i)
        case .number(let d): value = .number(d)
        case .string(let s): value = .string(s)
        case .array(let items): value = .array(items.map(LocatedJSON.init))
        case .object(let members):
            value = .object(
                members.sorted { $0.key < $1.key }.map { ($0.key, LocatedJSON($0.value)) })
        }
    }

    init(value: Value, offset: Int?) {
        self.value = value
        self.offset = offset
    }
}

/// A strict RFC 8259 JSON parser that records where each value starts and reports the byte offset of
/// every syntax error. Numbers are correctly rounded (`Double(String)`); numbers without a fraction
/// or exponent that fit in `Int` are integers, as ``JSONValue`` decodes them.
struct JSONParser {
    /// Arrays and objects nested deeper than this are rejected whatever the limits say, rather than
    /// risking the stack.
    static let depthCeiling = 256

    /// The limits, and what has been read against them: an array of numbers counts as a position,
    /// any other array or object as a part.
    private var counter: LimitCounter

    /// Where the parser is; a UTF-8 byte-order mark is allowed and skipped.
    private var cursor: ByteCursor
    private var bytes: [UInt8] { cursor.bytes }
    private var index: Int {
        get { cursor.index }
        set { cursor.index = newValue }
    }

    init(_ bytes: [UInt8], limits: InputLimits = .standard) {
        cursor = ByteCursor(bytes, format: "JSON")
        counter = LimitCounter(limits, format: "JSON")
    }

    /// Parses one value that must fill the text (surrounding whitespace allowed).
    mutating func parseDocument() throws(GeoError) -> LocatedJSON {
        try counter.limits.checkSize(bytes.count, format: "JSON")
        let value = try parseValue(depth: 0)
        skipSpace()
        guard index == bytes.count else {
            throw error("unexpected \(found()) after the JSON value")
        }
        return value
    }

    private mutating func parseValue(depth: Int) throws(GeoError) -> LocatedJSON {
        guard depth <= Self.depthCeiling else {
            throw GeoError(
                .limitExceeded,
                "JSON nested deeper than the reader's ceiling of \(Self.depthCeiling) levels at offset \(index)",
                offset: index)
        }
        try counter.checkDepth(depth, at: index)
        skipSpace()
        let start = index
        guard index < bytes.count else {
            throw error("expected a JSON value, found the end of the text")
        }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members = [(key: String, value: LocatedJSON)]()
            skipSpace()
            if peek() == UInt8(ascii: "}") {
                index += 1
                try counter.addParts(1, at: start)
                return LocatedJSON(value: .object(members), offset: start)
            }
            while true {
                skipSpace()
                guard peek() == UInt8(ascii: "\"") else {
                    throw error("expected a member name in quotes, found \(found())")
                }
                let keyStart = index
                let key = try parseString()
                try counter.checkString(index - keyStart - 2, at: keyStart)
                skipSpace()
                guard peek() == UInt8(ascii: ":") else {
                    throw error("expected ':' after member name \"\(key)\", found \(found())")
                }
                index += 1
                members.append((key, try parseValue(depth: depth + 1)))
                skipSpace()
                if peek() == UInt8(ascii: ",") { index += 1; continue }
                if peek() == UInt8(ascii: "}") { index += 1; break }
                throw error("expected ',' or '}' in an object, found \(found())")
            }
            try counter.addParts(1, at: start)
            return LocatedJSON(value: .object(members), offset: start)
        case UInt8(ascii: "["):
            index += 1
            var items = [LocatedJSON]()
            skipSpace()
            if peek() == UInt8(ascii: "]") {
                index += 1
                try counter.addParts(1, at: start)
                return LocatedJSON(value: .array(items), offset: start)
            }
            while true {
                items.append(try parseValue(depth: depth + 1))
                skipSpace()
                if peek() == UInt8(ascii: ",") { index += 1; continue }
                if peek() == UInt8(ascii: "]") { index += 1; break }
                throw error("expected ',' or ']' in an array, found \(found())")
            }
            if items.allSatisfy(\.isNumber) {
                try counter.addPositions(1, at: start)
            } else {
                try counter.addParts(1, at: start)
            }
            return LocatedJSON(value: .array(items), offset: start)
        case UInt8(ascii: "\""):
            let string = try parseString()
            try counter.checkString(index - start - 2, at: start)
            return LocatedJSON(value: .string(string), offset: start)
        case UInt8(ascii: "t"):
            try literal("true")
            return LocatedJSON(value: .bool(true), offset: start)
        case UInt8(ascii: "f"):
            try literal("false")
            return LocatedJSON(value: .bool(false), offset: start)
        case UInt8(ascii: "n"):
            try literal("null")
            return LocatedJSON(value: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return LocatedJSON(value: try parseNumber(), offset: start)
        default:
            throw error("expected a JSON value, found \(found())")
        }
    }

    private mutating func literal(_ word: String) throws(GeoError) {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<(index + utf8.count)]) == utf8
        else {
            throw error("expected '\(word)', found \(found())")
        }
        index += utf8.count
    }

    private mutating func parseNumber() throws(GeoError) -> LocatedJSON.Value {
        let start = index
        var isInteger = true
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else {
            throw error("expected a digit in a number, found \(found())")
        }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let b = peek(), isDigit(b) { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let b = peek(), isDigit(b) else {
                throw error("expected a digit after '.', found \(found())")
            }
            while let b = peek(), isDigit(b) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let b = peek(), isDigit(b) else {
                throw error("expected a digit in an exponent, found \(found())")
            }
            while let b = peek(), isDigit(b) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else {
            throw error("number \(text) is out of the range of Double", at: start)
        }
        return .number(value)
    }

    private mutating func parseString() throws(GeoError) -> String {
        let start = index
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ end: Int) throws(GeoError) {
            guard end > runStart else { return }
            let run = bytes[runStart..<end]
            if let bad = UTF8Validation.firstInvalidByte(in: run) {
                let at = runStart + bad
                throw error(UTF8Validation.message(byte: bytes[at], place: "in a string"), at: at)
            }
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                try flush(index)
                index += 1
                return String(scalars)
            }
            if b < 0x20 { throw error("control character 0x\(String(b, radix: 16)) in a string") }
            if b != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            try flush(index)
            index += 1
            guard index < bytes.count else {
                throw error("unterminated escape in a string", at: start)
            }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            scalars.append("\u{FFFD}")
                            code = low
                        }
                    }
                }
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default:
                // Printable ASCII as it is; anything else (a control or a UTF-8 byte) in hex.
                let shown =
                    (0x21...0x7E).contains(escape)
                    ? "'\\\(Character(Unicode.Scalar(escape)))'"
                    : "'\\' followed by byte 0x\(String(escape, radix: 16, uppercase: true))"
                throw error("invalid escape \(shown) in a string", at: index - 2)
            }
            runStart = index
        }
    }

    private mutating func hex4() throws(GeoError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default:
                throw error(
                    "\(GeoError.quoted(String(Character(Unicode.Scalar(c))))) is not a hex digit in a \\u escape"
                )
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func peek() -> UInt8? { cursor.peek() }
    private func isDigit(_ b: UInt8) -> Bool { ByteCursor.isDigit(b) }
    private mutating func skipSpace() { cursor.skipSpace() }
    private func found() -> String { cursor.found() }

    private func error(_ message: String, at offset: Int? = nil) -> GeoError {
        cursor.error(message, at: offset)
    }
}
