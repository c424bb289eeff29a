// MARK: - Public entry points

extension Geometry {
    /// Parses Well-Known Text (OGC 06-103r4 / ISO 13249-3), e.g. `POLYGON ((0 0, 1 0, 1 1, 0 0))`.
    ///
    /// Tags are case-insensitive; `Z`, `M` and `ZM` are accepted (measures are read and dropped, as
    /// ``Position`` has no measure), as are coordinates with 3 or 4 numbers without a tag. Multi-points
    /// may be written with or without parentheses around each point. An EWKT prefix `SRID=n;` is
    /// accepted; use ``parsingEWKT(_:limits:)`` to keep the SRID. Rings must be closed, line strings have at
    /// least two positions; a `LINEARRING` is read as the closed line string it is (it must be
    /// closed; ``Geometry`` has no ring of its own, so its validity is a line string's). Like GEOS, the reader accepts closed rings of fewer than four positions and
    /// the numbers `NaN` and `Inf`, so that ``isValid()`` can report them; operations reject them.
    /// Digits beyond the range of `Double` (`1e999`) are an error, not an infinity.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` whose ``GeoError/offset`` is the
    ///   zero-based character offset of the problem and whose message names what was expected and
    ///   what was found there;
    ///   ``GeoError/Kind-swift.struct/limitExceeded`` for input beyond `limits` (its size, nested
    ///   collections, positions, or parts: rings and members).
    /// - Complexity: O(length of the text) in time and memory.
    public init(wkt text: String, limits: InputLimits = .standard) throws(GeoError) {
        self = try Geometry.parsingEWKT(text, limits: limits).geometry
    }

    /// Parses Extended WKT (`SRID=4326;POINT (1 2)`) or plain WKT, returning the SRID if one is given.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` with the offset of the problem;
    ///   ``GeoError/Kind-swift.struct/limitExceeded`` for input beyond `limits`.
    public static func parsingEWKT(
        _ text: String, limits: InputLimits = .standard
    ) throws(GeoError) -> (geometry: Geometry, srid: Int32?) {
        try limits.checkSize(text.utf8.count, format: "WKT")
        var parser = WKTParser(Array(text.utf8), limits: limits)
        return try parser.parseDocument()
    }
}

// MARK: - Parser

/// A recursive-descent WKT parser over UTF-8 bytes that reports the offset of every error.
struct WKTParser {
    /// Collections deeper than this are rejected whatever the limits say, rather than risking the
    /// stack.
    static let depthCeiling = 64

    /// The limits and what has been read against them.
    private var counter: LimitCounter

    /// Where the parser is.
    private var cursor: ByteCursor
    private var bytes: [UInt8] { cursor.bytes }
    private var index: Int {
        get { cursor.index }
        set { cursor.index = newValue }
    }

    init(_ bytes: [UInt8], limits: InputLimits = .standard) {
        cursor = ByteCursor(bytes, format: "WKT")
        counter = LimitCounter(limits, format: "WKT")
    }

    /// Whether a coordinate has a measure to drop and whether a height is required.
    private enum Dimensions { case unspecified, z, m, zm }

    mutating func parseDocument() throws(GeoError) -> (geometry: Geometry, srid: Int32?) {
        skipSpace()
        var srid: Int32?
        if matchesWord("SRID") {
            let start = index
            index += 4
            skipSpace()
            try expect(UInt8(ascii: "="))
            skipSpace()
            let numberStart = index
            while index < bytes.count, bytes[index] == UInt8(ascii: "-") || isDigit(bytes[index]) {
                index += 1
            }
            guard let value = Int32(String(decoding: bytes[numberStart..<index], as: UTF8.self))
            else {
                throw error("expected an SRID number after 'SRID='", at: start)
            }
            srid = value
            skipSpace()
            try expect(UInt8(ascii: ";"))
        }
        let geometry = try parseGeometry(depth: 0)
        skipSpace()
        guard index == bytes.count else {
            throw error("unexpected \(found()) after the end of the geometry")
        }
        return (geometry, srid)
    }

    private mutating func parseGeometry(depth: Int) throws(GeoError) -> Geometry {
        guard depth <= Self.depthCeiling else {
            throw GeoError(
                .limitExceeded,
                "WKT geometry collections nested deeper than the reader's ceiling of \(Self.depthCeiling) levels at offset \(index)",
                offset: index)
        }
        try counter.checkDepth(depth, at: index)
        skipSpace()
        let tagStart = index
        var word = readWord().uppercased()
        guard !word.isEmpty else {
            throw error("expected a geometry tag such as POINT or POLYGON, found \(found())")
        }
        var dims = Dimensions.unspecified
        // A dimension glued to the tag (POINTZ, POINTM, POINTZM), as some writers produce.
        for (suffix, d) in [("ZM", Dimensions.zm), ("Z", .z), ("M", .m)]
        where word.hasSuffix(suffix) {
            let base = String(word.dropLast(suffix.count))
            if Self.type(named: base) != nil {
                word = base
                dims = d
                break
            }
        }
        guard let type = Self.type(named: word) else {
            throw error("unknown geometry tag \(GeoError.quoted(word))", at: tagStart)
        }
        skipSpace()
        if dims == .unspecified {
            let save = index
            let next = readWord().uppercased()
            switch next {
            case "Z": dims = .z
            case "M": dims = .m
            case "ZM": dims = .zm
            default: index = save
            }
        }
        if try consumeEmpty() { return Self.empty(type) }
        switch type {
        case .point:
            try expect(UInt8(ascii: "("))
            let p = try parsePosition(dims)
            try expectClose()
            return .point(p)
        case .lineString where word == "LINEARRING":
            // A ring, read as the closed line string it is: it must be closed.
            let start = index
            let ring = try parseLine(dims, what: "linear ring")
            if let first = ring.first, let last = ring.last, first.x != last.x || first.y != last.y
            {
                throw error(
                    "LINEARRING is not closed: it starts at (\(first.x) \(first.y)) and ends at (\(last.x) \(last.y))",
                    at: start)
            }
            return .lineString(ring)
        case .lineString:
            return .lineString(try parseLine(dims, what: "line string"))
        case .polygon:
            return .polygon(try parseRings(dims))
        case .multiPoint:
            return .multiPoint(try parseMultiPointBody(dims))
        case .multiLineString:
            var lines = [[Position]]()
            try parseList { (parser: inout WKTParser) throws(GeoError) in
                if try parser.consumeEmpty() { lines.append([]); return }
                lines.append(try parser.parseLine(dims, what: "line string \(lines.count)"))
            }
            return .multiLineString(lines)
        case .multiPolygon:
            var polygons = [[[Position]]]()
            try parseList { (parser: inout WKTParser) throws(GeoError) in
                if try parser.consumeEmpty() { polygons.append([]); return }
                polygons.append(try parser.parseRings(dims))
            }
            return .multiPolygon(polygons)
        case .geometryCollection:
            var members = [Geometry]()
            try parseList { (parser: inout WKTParser) throws(GeoError) in
                members.append(try parser.parseGeometry(depth: depth + 1))
            }
            return .geometryCollection(members)
        }
    }

    static func type(named word: String) -> GeometryType? {
        switch word {
        case "POINT": .point
        case "LINESTRING", "LINEARRING": .lineString
        case "POLYGON": .polygon
        case "MULTIPOINT": .multiPoint
        case "MULTILINESTRING": .multiLineString
        case "MULTIPOLYGON": .multiPolygon
        case "GEOMETRYCOLLECTION": .geometryCollection
        default: nil
        }
    }

    static func empty(_ type: GeometryType) -> Geometry {
        switch type {
        case .point: .point(nil)
        case .lineString: .lineString([])
        case .polygon: .polygon([])
        case .multiPoint: .multiPoint([])
        case .multiLineString: .multiLineString([])
        case .multiPolygon: .multiPolygon([])
        case .geometryCollection: .geometryCollection([])
        }
    }

    // MARK: Parts

    /// `( x y, x y, ... )` with at least two positions.
    private mutating func parseLine(_ dims: Dimensions, what: String) throws(GeoError) -> [Position]
    {
        let start = index
        try expect(UInt8(ascii: "("))
        var positions = [Position]()
        repeat {
            positions.append(try parsePosition(dims))
        } while try consumeComma()
        try expectClose()
        guard positions.count >= 2 else {
            throw error("\(what) has \(positions.count) position; it needs at least 2", at: start)
        }
        return positions
    }

    /// `( ring, ring, ... )`, each ring closed with at least four positions.
    private mutating func parseRings(_ dims: Dimensions) throws(GeoError) -> [[Position]] {
        var rings = [[Position]]()
        try parseList { (parser: inout WKTParser) throws(GeoError) in
            let start = parser.index
            if try parser.consumeEmpty() { rings.append([]); return }
            let ring = try parser.parseLine(dims, what: "ring \(rings.count)")
            if let problem = Self.ringProblem(ring, index: rings.count) {
                throw parser.error(problem, at: start)
            }
            rings.append(ring)
        }
        return rings
    }

    /// Why a ring is not closed or has fewer than `minimumCount` positions, or `nil` if it is a proper
    /// ring (or empty). WKT and WKB accept closed rings of fewer than four positions, as current GEOS
    /// does, so that validity checks can report them ("Too few points"); GeoJSON requires four.
    static func ringProblem(_ ring: [Position], index: Int, minimumCount: Int = 1) -> String? {
        guard let first = ring.first, let last = ring.last else { return nil }
        guard ring.count >= minimumCount else {
            return
                "ring \(index) has \(ring.count) positions; a ring needs at least \(minimumCount)"
        }
        if first.x != last.x || first.y != last.y {
            return
                "ring \(index) is not closed: it starts at (\(first.x) \(first.y)) and ends at (\(last.x) \(last.y))"
        }
        return nil
    }

    /// `( x y, x y )` or `( (x y), (x y), EMPTY )`; empty points are dropped.
    private mutating func parseMultiPointBody(_ dims: Dimensions) throws(GeoError) -> [Position] {
        var points = [Position]()
        try parseList { (parser: inout WKTParser) throws(GeoError) in
            if try parser.consumeEmpty() { return }
            parser.skipSpace()
            if parser.peek() == UInt8(ascii: "(") {
                parser.index += 1
                points.append(try parser.parsePosition(dims))
                try parser.expectClose()
            } else {
                points.append(try parser.parsePosition(dims))
            }
        }
        return points
    }

    /// `( item, item, ... )`.
    private mutating func parseList(
        _ item: (inout WKTParser) throws(GeoError) -> Void
    ) throws(GeoError) {
        try expect(UInt8(ascii: "("))
        repeat {
            try counter.addParts(1, at: index)
            try item(&self)
        } while try consumeComma()
        try expectClose()
    }

    /// Two to four numbers, as the dimension tag requires.
    private mutating func parsePosition(_ dims: Dimensions) throws(GeoError) -> Position {
        let start = index
        try counter.addPositions(1, at: start)
        var values: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var count = 0
        while count < 4 {
            skipSpace()
            guard let byte = peek(), isNumberStart(byte) || startsNonFinite() else { break }
            let value = try parseNumber()
            switch count {
            case 0: values.0 = value
            case 1: values.1 = value
            case 2: values.2 = value
            default: values.3 = value
            }
            count += 1
        }
        let required: ClosedRange<Int>
        switch dims {
        case .unspecified: required = 2...4
        case .z, .m: required = 3...3
        case .zm: required = 4...4
        }
        guard required.contains(count) else {
            if count < 2 {
                throw error("expected a coordinate (two numbers), found \(found())")
            }
            throw error(
                "coordinate has \(count) numbers; expected \(required.lowerBound == required.upperBound ? "\(required.lowerBound)" : "2 to 4")",
                at: start)
        }
        let z: Double?
        switch (dims, count) {
        case (.m, _), (.unspecified, 2): z = nil
        default: z = values.2
        }
        return Position(x: values.0, y: values.1, z: z)
    }

    /// A number; `NaN` and `Inf` (any case, optionally signed) are read as GEOS reads them, so that
    /// validity checks can report them; operations reject non-finite coordinates. Digits beyond
    /// the range of `Double` (`1e999`) are an error naming them.
    private mutating func parseNumber() throws(GeoError) -> Double {
        let start = index
        while index < bytes.count, isNumberByte(bytes[index]) || isLetter(bytes[index]) {
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        switch text.lowercased() {
        case "nan", "+nan", "-nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        // Decimal only: WKT (OGC 06-103r4) has no hexadecimal numbers, which `Double(_:)` reads.
        guard let value = NumberParsing.decimal(text) else {
            throw error("\(GeoError.quoted(text)) is not a number", at: start)
        }
        // Digits that overflow are not the infinity written as `Inf`: they name a number no
        // Double holds (as the GeoJSON reader says of them).
        guard value.isFinite else {
            throw error("number \(GeoError.quoted(text)) is out of the range of Double", at: start)
        }
        return value
    }

    // MARK: Tokens

    private func peek() -> UInt8? { cursor.peek() }
    private mutating func skipSpace() { cursor.skipSpace() }

    private mutating func readWord() -> String {
        let start = index
        while index < bytes.count, isLetter(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func matchesWord(_ word: String) -> Bool { cursor.matchesWord(word) }

    private mutating func consumeEmpty() throws(GeoError) -> Bool {
        skipSpace()
        guard matchesWord("EMPTY") else { return false }
        let after = index + 5
        if after < bytes.count, isLetter(bytes[after]) { return false }
        index = after
        return true
    }

    private mutating func consumeComma() throws(GeoError) -> Bool {
        skipSpace()
        if peek() == UInt8(ascii: ",") {
            index += 1
            return true
        }
        return false
    }

    private mutating func expect(_ byte: UInt8) throws(GeoError) {
        skipSpace()
        guard peek() == byte else {
            throw error("expected '\(Character(Unicode.Scalar(byte)))', found \(found())")
        }
        index += 1
    }

    private mutating func expectClose() throws(GeoError) {
        skipSpace()
        guard peek() == UInt8(ascii: ")") else {
            throw error("expected ',' or ')', found \(found())")
        }
        index += 1
    }

    private func found() -> String { cursor.found() }

    private func error(_ message: String, at offset: Int? = nil) -> GeoError {
        cursor.error(message, at: offset)
    }

    /// Whether `NaN` or `Inf` starts here.
    private func startsNonFinite() -> Bool {
        matchesWord("NAN") || matchesWord("INF")
    }

    private func isLetter(_ b: UInt8) -> Bool { ByteCursor.isLetter(b) }
    private func isDigit(_ b: UInt8) -> Bool { ByteCursor.isDigit(b) }
    private func isNumberStart(_ b: UInt8) -> Bool {
        isDigit(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
    }
    private func isNumberByte(_ b: UInt8) -> Bool {
        isNumberStart(b) || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
    }
}
