/// The most a reader accepts from untrusted input: the size of the input, its nesting, the number
/// of positions and parts, and the length of one string.
///
/// Every reader of Meridian (GeoJSON, WKT, WKB, GPX, delimited text, encoded polylines and the
/// files built on them) takes limits, ``standard`` by default, and checks each before it allocates
/// for it: the size first, then the nesting, counts and strings as it reads. Exceeding one throws
/// ``GeoError/Kind-swift.struct/limitExceeded`` naming the limit, its value and where in the input
/// it was reached. Independently of the limits, no reader uses more than O(n) memory or more than
/// O(n) time on n bytes (nesting is followed without recursion where it is unbounded, and counts in
/// binary input are checked against the bytes that remain).
///
/// ```swift
/// var limits = InputLimits.standard
/// limits.maximumBytes = 1 << 20                   // a 1 MiB upload at most
/// let document = try GeoJSON(data: upload, limits: limits)
/// ```
public struct InputLimits: Sendable, Hashable, Codable {
    /// The largest input, in bytes. Default 256 MiB.
    public var maximumBytes: Int
    /// The deepest nesting: JSON arrays and objects, geometry collections in WKT and WKB, XML
    /// elements. Default 128 (GeoJSON positions sit at depth 6 in a feature collection of
    /// multi-polygons). The recursive readers also stop at their own ceiling, whatever this says,
    /// so that no input can exhaust a thread's stack: 256 levels of JSON, 64 nested geometry
    /// collections in WKT and WKB. XML has no ceiling (its reader keeps its stack on the heap).
    public var maximumDepth: Int
    /// The most positions (coordinates, points, track points, records) in one input. Default
    /// 50,000,000.
    public var maximumPositions: Int
    /// The most parts in one input: rings, members of multi-geometries and collections, features,
    /// tracks and segments. Default 10,000,000.
    public var maximumParts: Int
    /// The longest single string, in bytes: a JSON string, an XML text or attribute value, a
    /// delimited field. Default 16 MiB.
    public var maximumStringLength: Int

    /// Creates limits; each defaults to ``standard``'s value.
    public init(
        maximumBytes: Int = 256 << 20, maximumDepth: Int = 128,
        maximumPositions: Int = 50_000_000, maximumParts: Int = 10_000_000,
        maximumStringLength: Int = 16 << 20
    ) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumPositions = maximumPositions
        self.maximumParts = maximumParts
        self.maximumStringLength = maximumStringLength
    }

    /// The defaults: generous for real data (a planet-scale GeoJSON file of 256 MiB), small enough
    /// that a server can take any input that passes.
    public static let standard = InputLimits()

    /// No limit beyond the machine's (each at `Int.max`); the readers stay O(n).
    public static let unlimited = InputLimits(
        maximumBytes: .max, maximumDepth: .max, maximumPositions: .max, maximumParts: .max,
        maximumStringLength: .max)

    /// Throws unless `count` bytes of `format` are within ``maximumBytes``.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/limitExceeded``.
    public func checkSize(_ count: Int, format: String) throws(GeoError) {
        guard count <= maximumBytes else {
            throw GeoError(
                .limitExceeded,
                "\(format) input of \(count) bytes exceeds InputLimits.maximumBytes (\(maximumBytes))"
            )
        }
    }
}

extension GeoError.Kind {
    /// Input beyond one of its reader's ``InputLimits``; the message names the limit and where it
    /// was reached.
    public static let limitExceeded = GeoError.Kind("limitExceeded")
}

/// Counts what a reader has read against its limits.
struct LimitCounter {
    let limits: InputLimits
    let format: String
    private(set) var positions = 0
    private(set) var parts = 0

    init(_ limits: InputLimits, format: String) {
        self.limits = limits
        self.format = format
    }

    private func exceeded(_ what: String, _ limit: String, _ value: Int, _ at: Int?) -> GeoError {
        let place = at.map { " at offset \($0)" } ?? ""
        return GeoError(
            .limitExceeded,
            "\(format) input has more \(what) than InputLimits.\(limit) (\(value))\(place)",
            offset: at)
    }

    /// Counts `count` more positions, before they are allocated.
    mutating func addPositions(_ count: Int, at offset: Int? = nil) throws(GeoError) {
        let (sum, overflow) = positions.addingReportingOverflow(count)
        guard !overflow, sum <= limits.maximumPositions else {
            throw exceeded("positions", "maximumPositions", limits.maximumPositions, offset)
        }
        positions = sum
    }

    /// Counts `count` more parts (rings, members, features), before they are allocated.
    mutating func addParts(_ count: Int, at offset: Int? = nil) throws(GeoError) {
        let (sum, overflow) = parts.addingReportingOverflow(count)
        guard !overflow, sum <= limits.maximumParts else {
            throw exceeded("parts", "maximumParts", limits.maximumParts, offset)
        }
        parts = sum
    }

    /// Throws if `depth` is deeper than allowed.
    func checkDepth(_ depth: Int, at offset: Int? = nil) throws(GeoError) {
        guard depth <= limits.maximumDepth else {
            let place = offset.map { " at offset \($0)" } ?? ""
            throw GeoError(
                .limitExceeded,
                "\(format) input nests deeper than InputLimits.maximumDepth (\(limits.maximumDepth) levels)\(place)",
                offset: offset)
        }
    }

    /// Throws if a string of `length` bytes is longer than allowed.
    func checkString(_ length: Int, at offset: Int? = nil) throws(GeoError) {
        guard length <= limits.maximumStringLength else {
            let place = offset.map { " at offset \($0)" } ?? ""
            throw GeoError(
                .limitExceeded,
                "\(format) input has a string longer than InputLimits.maximumStringLength (\(limits.maximumStringLength) bytes)\(place)",
                offset: offset)
        }
    }
}
