import Foundation
import GeoCore

/// A strict, non-validating XML 1.0 reader for GPX: start tags with their attributes, end tags and
/// text, pulled one at a time; comments, processing instructions and a document type declaration
/// are skipped.
///
/// It checks well-formedness (tags nest and match, one root element, quoted and unique attributes,
/// the five predefined entities and character references only, no characters XML forbids) and
/// reports the first fault with its line and column. It never resolves external entities or expands
/// entities defined in a DTD, so no input expands beyond its size: memory is O(n) and time O(n) in
/// the document's length. Element names are reported without their namespace prefix, as a
/// namespace-aware parser reports them; attribute names as written.
///
/// The bytes are UTF-8 (a byte-order mark is allowed), UTF-16 with a byte-order mark, or
/// ISO-8859-1 or windows-1252 when the XML declaration names them; bytes that are not valid in the
/// encoding are refused with their offset.
struct XMLScanner {
    /// One thing read.
    enum Event: Equatable {
        case start(name: String, attributes: [String: String])
        case end(name: String)
        case text(String)
    }

    private let bytes: [UInt8]
    private var i = 0
    private(set) var line = 1
    private var lineStart = 0
    /// The open elements: qualified name and the line of the start tag.
    private var open: [(name: [UInt8], line: Int)] = []
    private var sawRoot = false
    private var pendingEnd: String?

    /// The column (1-based, in bytes) of the reading position.
    var column: Int { i - lineStart + 1 }

    /// Prepares a document's bytes: detects the encoding and converts it to UTF-8.
    ///
    /// - Throws: `GeoError.Kind.malformedInput` for an unsupported encoding or bytes that are not
    ///   valid in it.
    init(_ data: Data, limits: InputLimits = .standard) throws(GeoError) {
        try limits.checkSize(data.count, format: "XML")
        bytes = try Self.utf8(data)
        self.limits = limits
    }

    /// What the document may hold: its nesting, elements (parts) and the length of one text or
    /// attribute value.
    private let limits: InputLimits
    private var elements = 0

    // MARK: - Events

    /// The next event, or `nil` at the end of a well-formed document (which has one root element).
    ///
    /// - Throws: `GeoError.Kind.malformedInput` naming the line, the column and what is wrong.
    mutating func next() throws(GeoError) -> Event? {
        if let name = pendingEnd {
            pendingEnd = nil
            return .end(name: name)
        }
        while i < bytes.count {
            if bytes[i] != UInt8(ascii: "<") {
                if let text = try readText() { return .text(text) }
                continue
            }
            if starts(with: "<!--") {
                try skip(past: "-->", from: i + 4, reason: "a comment that is not closed")
            } else if starts(with: "<?") {
                try skip(
                    past: "?>", from: i + 2, reason: "a processing instruction that is not closed")
            } else if starts(with: "<![CDATA[") {
                guard !open.isEmpty else { throw fault("a CDATA section outside the root element") }
                let start = i + 9
                try skip(past: "]]>", from: start, reason: "a CDATA section that is not closed")
                guard i - 3 - start <= limits.maximumStringLength else {
                    throw GeoError(
                        .limitExceeded,
                        "XML has a CDATA section longer than InputLimits.maximumStringLength (\(limits.maximumStringLength) bytes) at line \(line)",
                        line: line, column: column)
                }
                let text = String(decoding: bytes[start..<(i - 3)], as: UTF8.self)
                return .text(text.replacingOccurrences(of: "\r\n", with: "\n"))
            } else if starts(with: "<!DOCTYPE") {
                guard !sawRoot else {
                    throw fault("a document type declaration after the root element")
                }
                try skipDoctype()
            } else if starts(with: "</") {
                return .end(name: try readEndTag())
            } else {
                return try readStartTag()
            }
        }
        if let element = open.last {
            throw fault(
                "<\(String(decoding: element.name, as: UTF8.self))> opened on line \(element.line) is never closed"
            )
        }
        guard sawRoot else { throw fault("the document is empty (it has no root element)") }
        return nil
    }

    private func fault(_ reason: String) -> GeoError {
        GeoError(
            .malformedInput, "not well-formed XML at line \(line), column \(column): \(reason)",
            line: line, column: column)
    }

    private func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { p in
            for k in 0..<count where bytes[i + k] != p[k] { return false }
            return true
        }
    }

    /// Moves past `end`, counting lines, starting at `from`.
    private mutating func skip(
        past end: StaticString, from start: Int, reason: String
    ) throws(GeoError) {
        advance(to: start)
        while i < bytes.count {
            if starts(with: end) {
                advance(to: i + end.utf8CodeUnitCount)
                return
            }
            step()
        }
        throw fault(reason)
    }

    /// A document type declaration, with an internal subset in brackets; its declarations are not
    /// used (so entities it defines stay undefined).
    private mutating func skipDoctype() throws(GeoError) {
        advance(to: i + 9)
        var inSubset = false
        var quote: UInt8?
        while i < bytes.count {
            let b = bytes[i]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "[") {
                inSubset = true
            } else if b == UInt8(ascii: "]") {
                inSubset = false
            } else if b == UInt8(ascii: ">") && !inSubset {
                step()
                return
            }
            step()
        }
        throw fault("a document type declaration that is not closed")
    }

    private mutating func step() {
        if bytes[i] == 0x0A || (bytes[i] == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A))
        {
            line += 1
            lineStart = i + 1
        }
        i += 1
    }

    private mutating func advance(to end: Int) {
        while i < min(end, bytes.count) { step() }
    }

    // MARK: - Tags

    private static func isNameStart(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b == UInt8(ascii: "_")
            || b == UInt8(ascii: ":") || b >= 0x80
    }

    private static func isName(_ b: UInt8) -> Bool {
        isNameStart(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            || b == UInt8(ascii: "-")
            || b == UInt8(ascii: ".")
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    private mutating func readName() throws(GeoError) -> [UInt8] {
        guard i < bytes.count, Self.isNameStart(bytes[i]) else {
            throw fault("a name is missing (a bare '<' in text? write it as '&lt;')")
        }
        let start = i
        while i < bytes.count && Self.isName(bytes[i]) { i += 1 }
        return Array(bytes[start..<i])
    }

    private mutating func skipSpaces() {
        while i < bytes.count && Self.isSpace(bytes[i]) { step() }
    }

    private static func localName(_ name: [UInt8]) -> String {
        let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name[...]
        return String(decoding: local, as: UTF8.self)
    }

    private mutating func readStartTag() throws(GeoError) -> Event {
        let tagLine = line
        advance(to: i + 1)
        if sawRoot && open.isEmpty { throw fault("content after the root element") }
        let name = try readName()
        guard open.count < limits.maximumDepth else {
            throw GeoError(
                .limitExceeded,
                "XML nests deeper than InputLimits.maximumDepth (\(limits.maximumDepth) levels) at line \(line)",
                line: line, column: column)
        }
        elements += 1
        guard elements <= limits.maximumParts else {
            throw GeoError(
                .limitExceeded,
                "XML has more elements than InputLimits.maximumParts (\(limits.maximumParts)) at line \(line)",
                line: line, column: column)
        }
        var attributes: [String: String] = [:]
        while true {
            let hadSpace = i < bytes.count && Self.isSpace(bytes[i])
            skipSpaces()
            guard i < bytes.count else { throw fault("a tag that is not finished") }
            if bytes[i] == UInt8(ascii: ">") {
                i += 1
                open.append((name, tagLine))
                sawRoot = true
                return .start(name: Self.localName(name), attributes: attributes)
            }
            if starts(with: "/>") {
                i += 2
                sawRoot = true
                pendingEnd = Self.localName(name)
                return .start(name: Self.localName(name), attributes: attributes)
            }
            guard hadSpace else { throw fault("a '>' is missing") }
            let key = String(decoding: try readName(), as: UTF8.self)
            skipSpaces()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                throw fault("a malformed attribute (values need quotes)")
            }
            i += 1
            skipSpaces()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'")
            else { throw fault("a malformed attribute (values need quotes)") }
            let value = try readValue(until: bytes[i])
            guard attributes.updateValue(value, forKey: key) == nil else {
                throw fault("an attribute given twice (\(GeoError.quoted(key)))")
            }
        }
    }

    private mutating func readEndTag() throws(GeoError) -> String {
        advance(to: i + 2)
        let name = try readName()
        skipSpaces()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else {
            throw fault("a tag that is not finished")
        }
        guard let element = open.last else { throw fault("a closing tag with no element open") }
        guard element.name == name else {
            throw fault(
                "a closing tag that does not match the element it closes (</\(String(decoding: name, as: UTF8.self))> "
                    + "after <\(String(decoding: element.name, as: UTF8.self))> opened on line \(element.line))"
            )
        }
        i += 1
        open.removeLast()
        return Self.localName(name)
    }

    // MARK: - Text

    /// Text up to the next `<`: `nil` if it is only white space outside the root element.
    private mutating func readText() throws(GeoError) -> String? {
        var out: [UInt8] = []
        while i < bytes.count && bytes[i] != UInt8(ascii: "<") {
            try appendCharacter(to: &out, inAttribute: false)
        }
        if open.isEmpty {
            guard out.allSatisfy(Self.isSpace) else {
                throw fault(
                    sawRoot ? "content after the root element" : "text before the root element")
            }
            return nil
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An attribute value in quotes, with references replaced and white space normalized.
    private mutating func readValue(until quote: UInt8) throws(GeoError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fault("an attribute value that is not closed") }
            let b = bytes[i]
            if b == quote {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b == UInt8(ascii: "<") { throw fault("a '<' in an attribute value") }
            try appendCharacter(to: &out, inAttribute: true)
        }
    }

    /// Appends the character at the reading position (a reference decoded) and moves past it.
    private mutating func appendCharacter(
        to out: inout [UInt8], inAttribute: Bool
    ) throws(GeoError) {
        guard out.count < limits.maximumStringLength else {
            throw GeoError(
                .limitExceeded,
                "XML has a text or attribute value longer than InputLimits.maximumStringLength (\(limits.maximumStringLength) bytes) at line \(line)",
                line: line, column: column)
        }
        let b = bytes[i]
        if b == UInt8(ascii: "&") {
            try appendReference(to: &out)
            return
        }
        if b < 0x20 && !Self.isSpace(b) {
            throw fault(
                "a character XML does not allow (byte 0x\(String(b, radix: 16, uppercase: true)))")
        }
        if b == 0x0D {
            // CR LF and a lone CR are one line feed (XML 1.0, 2.11).
            step()
            if i < bytes.count && bytes[i] == 0x0A { step() }
            out.append(inAttribute ? 0x20 : 0x0A)
            return
        }
        out.append(inAttribute && Self.isSpace(b) ? 0x20 : b)
        step()
    }

    private mutating func appendReference(to out: inout [UInt8]) throws(GeoError) {
        let start = i + 1
        var end = start
        while end < bytes.count && end - start < 12 && bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw fault("a malformed character or entity reference (write '&' as '&amp;')")
        }
        let name = String(decoding: bytes[start..<end], as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch name {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            guard name.hasPrefix("#") else {
                throw fault(
                    "an undefined entity \(GeoError.quoted("&" + name + ";")) (write '&' as '&amp;')"
                )
            }
            let digits = name.dropFirst()
            let value =
                digits.hasPrefix("x")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            scalar = value.flatMap(Unicode.Scalar.init)
            guard let s = scalar, s.value >= 0x20 || s == "\t" || s == "\n" || s == "\r",
                s.value != 0xFFFE && s.value != 0xFFFF
            else {
                throw fault("a malformed character reference \(GeoError.quoted("&" + name + ";"))")
            }
        }
        if let scalar { out.append(contentsOf: Array(String(Character(scalar)).utf8)) }
        i = end + 1
    }

    // MARK: - Encodings

    /// The document as UTF-8 without a byte-order mark.
    static func utf8(_ data: Data) throws(GeoError) -> [UInt8] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            let encoding: String.Encoding =
                bytes[0] == 0xFE ? .utf16BigEndian : .utf16LittleEndian
            guard bytes.count % 2 == 0,
                let text = String(data: Data(bytes.dropFirst(2)), encoding: encoding)
            else {
                throw GeoError(
                    .malformedInput, "the document starts as UTF-16 but is not valid UTF-16")
            }
            return Array(text.utf8)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let declared = declaredEncoding(bytes)
        switch declared?.lowercased() {
        case nil, "utf-8", "utf8", "us-ascii", "ascii":
            try validateUTF8(bytes)
            return bytes
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1":
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            return Array(String(scalars).utf8)
        case "windows-1252", "cp1252":
            guard let text = String(data: Data(bytes), encoding: .windowsCP1252) else {
                throw GeoError(.malformedInput, "the document is not valid windows-1252")
            }
            return Array(text.utf8)
        case .some:
            throw GeoError(
                .malformedInput,
                "the XML declaration names the encoding \(GeoError.quoted(declared ?? "")); GPX is read as UTF-8, UTF-16, ISO-8859-1 or windows-1252",
                line: 1)
        }
    }

    /// The `encoding` of an XML declaration at the start, if there is one.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let declaration = bytes.prefix(256).prefix { $0 != UInt8(ascii: ">") }
        let text = String(decoding: declaration, as: UTF8.self)
        guard let range = text.range(of: "encoding") else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// Refuses bytes that are not UTF-8, naming the first bad byte, its offset and line.
    static func validateUTF8(_ bytes: [UInt8]) throws(GeoError) {
        var line = 1
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                if b == 0x0A { line += 1 }
                i += 1
                continue
            }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0
            var valid = length > 0 && b <= 0xF4 && i + length <= bytes.count
            if valid {
                for k in 1..<length where bytes[i + k] & 0xC0 != 0x80 { valid = false }
            }
            if valid && length == 3 {
                let second = bytes[i + 1]
                valid = !(b == 0xE0 && second < 0xA0) && !(b == 0xED && second >= 0xA0)
            } else if valid && length == 4 {
                let second = bytes[i + 1]
                valid = !(b == 0xF0 && second < 0x90) && !(b == 0xF4 && second >= 0x90)
            }
            guard valid else {
                throw GeoError(
                    .malformedInput,
                    "line \(line): byte 0x\(String(b, radix: 16, uppercase: true)) at offset \(i) is not valid UTF-8 "
                        + "(a GPX document is UTF-8 unless its XML declaration names another encoding)",
                    line: line)
            }
            i += length
        }
    }
}
