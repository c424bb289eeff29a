/// The byte order of numbers in Well-Known Binary.
public enum WKBByteOrder: Hashable, Sendable {
    /// Most significant byte first (XDR, WKB byte-order flag 0).
    case bigEndian
    /// Least significant byte first (NDR, WKB byte-order flag 1); what x86 and ARM use natively.
    case littleEndian
}

// MARK: - Public entry points

extension Geometry {
    /// Parses Well-Known Binary: ISO WKB (types 1–7, +1000 for Z, +2000 for M, +3000 for ZM) and
    /// PostGIS Extended WKB (Z, M and SRID flags in the high bits of the type), in either byte order,
    /// per part. Measures are read and dropped; an SRID is read and dropped (see
    /// ``parsingEWKB(_:limits:)``). `POINT EMPTY` is the point with NaN coordinates.
    ///
    /// Malformed input never traps: every count is checked against the bytes that remain before
    /// anything is allocated, nesting is limited, and coordinates must be finite.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` with the byte ``GeoError/offset`` of
    ///   the problem (a truncated buffer, an unknown byte-order flag or type, a count larger than the
    ///   bytes that follow, a non-finite coordinate, an unclosed ring, trailing bytes);
    ///   ``GeoError/Kind-swift.struct/limitExceeded`` for input beyond `limits` (its size, nested
    ///   collections, positions, or parts: rings and members).
    /// - Complexity: O(number of bytes) in time and memory.
    public init(wkb bytes: some Collection<UInt8>, limits: InputLimits = .standard) throws(GeoError)
    {
        self = try Geometry.parsingEWKB(bytes, limits: limits).geometry
    }

    /// Parses WKB given as hexadecimal text (`0101000000...`), as PostGIS and GEOS print it.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` naming the offset of a character that is
    ///   not a hex digit or of the WKB problem (in bytes); ``GeoError/Kind-swift.struct/limitExceeded``
    ///   for input beyond `limits` (the size counts the text's bytes).
    public init(wkbHex text: String, limits: InputLimits = .standard) throws(GeoError) {
        try limits.checkSize(text.utf8.count, format: "WKB")
        self = try Geometry.parsingEWKB(try Self.bytes(fromHex: text), limits: limits).geometry
    }

    /// Parses ISO WKB or EWKB and returns the SRID if the EWKB carries one.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` with the byte offset of the problem;
    ///   ``GeoError/Kind-swift.struct/limitExceeded`` for input beyond `limits`.
    public static func parsingEWKB(
        _ bytes: some Collection<UInt8>, limits: InputLimits = .standard
    ) throws(GeoError) -> (geometry: Geometry, srid: Int32?) {
        try limits.checkSize(bytes.count, format: "WKB")
        let array = Array(bytes)
        let result = array.withUnsafeBytes { raw in
            Result { () throws(GeoError) -> (geometry: Geometry, srid: Int32?) in
                var reader = WKBParser(raw, limits: limits)
                return try reader.parseDocument()
            }
        }
        return try result.get()
    }

    /// Bytes from hexadecimal text; whitespace is not allowed.
    static func bytes(fromHex text: String) throws(GeoError) -> [UInt8] {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else {
            throw GeoError(
                .malformedInput, "WKB hex: odd number of hex digits (\(utf8.count))",
                offset: utf8.count)
        }
        var result = [UInt8]()
        result.reserveCapacity(utf8.count / 2)
        func nibble(_ c: UInt8, _ at: Int) throws(GeoError) -> UInt8 {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x41...0x46: return c - 0x41 + 10
            case 0x61...0x66: return c - 0x61 + 10
            default:
                throw GeoError(
                    .malformedInput,
                    "WKB hex: \(GeoError.quoted(String(Character(Unicode.Scalar(c))))) at character \(at) is not a hex digit",
                    offset: at)
            }
        }
        var i = 0
        while i < utf8.count {
            result.append(try nibble(utf8[i], i) << 4 | nibble(utf8[i + 1], i + 1))
            i += 2
        }
        return result
    }
}

// MARK: - Parser

/// A bounds-checked WKB reader over raw bytes.
struct WKBParser {
    /// Collections deeper than this are rejected rather than risking the stack.
    static let depthCeiling = 64

    /// The limits and what has been read against them.
    private var counter: LimitCounter

    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer, limits: InputLimits = .standard) {
        self.bytes = bytes
        counter = LimitCounter(limits, format: "WKB")
    }

    private var remaining: Int { bytes.count - offset }

    mutating func parseDocument() throws(GeoError) -> (geometry: Geometry, srid: Int32?) {
        var srid: Int32?
        let geometry = try parseGeometry(depth: 0, srid: &srid)
        guard remaining == 0 else {
            throw error("\(remaining) unexpected bytes after the end of the geometry")
        }
        return (geometry, srid)
    }

    private mutating func parseGeometry(depth: Int, srid: inout Int32?) throws(GeoError) -> Geometry
    {
        guard depth <= Self.depthCeiling else {
            throw GeoError(
                .limitExceeded,
                "WKB geometry collections nested deeper than the reader's ceiling of \(Self.depthCeiling) levels at offset \(offset)",
                offset: offset)
        }
        try counter.checkDepth(depth, at: offset)
        let start = offset
        let orderByte = try readByte()
        let bigEndian: Bool
        switch orderByte {
        case 0: bigEndian = true
        case 1: bigEndian = false
        default:
            throw error(
                "byte-order flag \(orderByte) is neither 0 (big-endian) nor 1 (little-endian)",
                at: start)
        }
        let typeOffset = offset
        let rawType = try readUInt32(bigEndian)
        var hasZ = rawType & 0x8000_0000 != 0
        var hasM = rawType & 0x4000_0000 != 0
        let hasSRID = rawType & 0x2000_0000 != 0
        var code = rawType & 0x0FFF_FFFF
        switch code / 1000 {
        case 0: break
        case 1: hasZ = true
        case 2: hasM = true
        case 3: hasZ = true; hasM = true
        default: throw error("unknown geometry type \(rawType)", at: typeOffset)
        }
        code %= 1000
        guard let type = GeometryType(rawValue: Int(code)) else {
            throw error("unknown geometry type \(rawType)", at: typeOffset)
        }
        if hasSRID {
            let value = Int32(bitPattern: try readUInt32(bigEndian))
            if depth == 0 { srid = value }
        }
        let dims = 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0)
        let positionBytes = 8 * dims

        switch type {
        case .point:
            let at = offset
            let x = try readDouble(bigEndian), y = try readDouble(bigEndian)
            let z = hasZ ? try readDouble(bigEndian) : nil
            if hasM { _ = try readDouble(bigEndian) }
            if x.isNaN && y.isNaN { return .point(nil) }
            return .point(try position(x, y, z, at: at))
        case .lineString:
            let positions = try readPositions(
                bigEndian, hasZ: hasZ, hasM: hasM, positionBytes: positionBytes)
            guard positions.count != 1 else {
                throw error("line string has 1 position; it needs 0 or at least 2", at: start)
            }
            return .lineString(positions)
        case .polygon:
            return .polygon(
                try readRings(bigEndian, hasZ: hasZ, hasM: hasM, positionBytes: positionBytes))
        case .multiPoint, .multiLineString, .multiPolygon, .geometryCollection:
            // The smallest member is an empty line string or collection: 1 + 4 + 4 bytes.
            let count = try readCount(bigEndian, minimumBytesEach: 9, what: "members")
            var members = [Geometry]()
            members.reserveCapacity(count)
            for _ in 0..<count {
                let memberStart = offset
                var ignored: Int32?
                let member = try parseGeometry(depth: depth + 1, srid: &ignored)
                if type != .geometryCollection {
                    let expected: GeometryType =
                        type == .multiPoint
                        ? .point : type == .multiLineString ? .lineString : .polygon
                    guard member.type == expected else {
                        throw error(
                            "\(type.wktName) member is a \(member.type.wktName), not a \(expected.wktName)",
                            at: memberStart)
                    }
                }
                members.append(member)
            }
            switch type {
            case .multiPoint:
                return .multiPoint(
                    members.compactMap { if case .point(let p) = $0 { p } else { nil } })
            case .multiLineString:
                return .multiLineString(
                    members.map { if case .lineString(let ps) = $0 { ps } else { [] } })
            case .multiPolygon:
                return .multiPolygon(
                    members.map { if case .polygon(let rings) = $0 { rings } else { [] } })
            default:
                return .geometryCollection(members)
            }
        }
    }

    private mutating func readRings(
        _ bigEndian: Bool, hasZ: Bool, hasM: Bool, positionBytes: Int
    ) throws(GeoError) -> [[Position]] {
        let count = try readCount(bigEndian, minimumBytesEach: 4, what: "rings")
        var rings = [[Position]]()
        rings.reserveCapacity(count)
        for r in 0..<count {
            let ringStart = offset
            let ring = try readPositions(
                bigEndian, hasZ: hasZ, hasM: hasM, positionBytes: positionBytes)
            if let problem = WKTParser.ringProblem(ring, index: r) {
                throw error(problem, at: ringStart)
            }
            rings.append(ring)
        }
        return rings
    }

    private mutating func readPositions(
        _ bigEndian: Bool, hasZ: Bool, hasM: Bool, positionBytes: Int
    ) throws(GeoError) -> [Position] {
        let count = try readCount(bigEndian, minimumBytesEach: positionBytes, what: "positions")
        var positions = [Position]()
        positions.reserveCapacity(count)
        for _ in 0..<count {
            let at = offset
            let x = try readDouble(bigEndian), y = try readDouble(bigEndian)
            let z = hasZ ? try readDouble(bigEndian) : nil
            if hasM { _ = try readDouble(bigEndian) }
            positions.append(try position(x, y, z, at: at))
        }
        return positions
    }

    private func position(
        _ x: Double, _ y: Double, _ z: Double?, at: Int
    ) throws(GeoError) -> Position {
        guard x.isFinite && y.isFinite && (z?.isFinite ?? true) else {
            throw error("coordinate (\(x), \(y)\(z.map { ", \($0)" } ?? "")) is not finite", at: at)
        }
        return Position(x: x, y: y, z: z)
    }

    /// A count, checked against the bytes that remain so a huge count cannot cause a huge allocation.
    private mutating func readCount(
        _ bigEndian: Bool, minimumBytesEach: Int, what: String
    ) throws(GeoError) -> Int {
        let at = offset
        let count = Int(try readUInt32(bigEndian))
        let (needed, overflow) = count.multipliedReportingOverflow(by: minimumBytesEach)
        guard !overflow && needed <= remaining else {
            throw error(
                "count of \(count) \(what) needs at least \(count) × \(minimumBytesEach) bytes but only \(remaining) remain",
                at: at)
        }
        if what == "positions" {
            try counter.addPositions(count, at: at)
        } else {
            try counter.addParts(count, at: at)
        }
        return count
    }

    // MARK: Primitives

    private mutating func readByte() throws(GeoError) -> UInt8 {
        guard remaining >= 1 else { throw truncated(needing: 1) }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func readUInt32(_ bigEndian: Bool) throws(GeoError) -> UInt32 {
        guard remaining >= 4 else { throw truncated(needing: 4) }
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
    }

    private mutating func readDouble(_ bigEndian: Bool) throws(GeoError) -> Double {
        guard remaining >= 8 else { throw truncated(needing: 8) }
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return Double(bitPattern: bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw))
    }

    private func truncated(needing count: Int) -> GeoError {
        error("truncated: needed \(count) more bytes, \(remaining) remain")
    }

    private func error(_ message: String, at location: Int? = nil) -> GeoError {
        let position = location ?? offset
        return GeoError(.malformedInput, "WKB: \(message) (at byte \(position))", offset: position)
    }
}
