/// The one error type of Meridian: what went wrong, in words that name the bad value and where it was.
///
/// Every throwing function in Meridian uses typed throws with `GeoError`, so callers can switch over
/// ``kind`` without casting. The ``message`` is meant for people: it names the offending value and,
/// for parsed input, its position (``offset`` in bytes or characters, ``line`` for line-based input).
/// Errors that come from PROJ or GEOS carry the library's own message and, where it has one, its
/// numeric ``code``.
///
/// ```swift
/// do {
///     let c = try Coordinate(validatingLatitude: 91, longitude: 0)
/// } catch {
///     print(error.kind)     // invalidCoordinate
///     print(error.message)  // latitude 91.0 is outside [-90, 90]
/// }
/// ```
public struct GeoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The category of a ``GeoError``; modules may add their own kinds in extensions.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// A short, stable identifier such as `"invalidCoordinate"`.
        public let name: String

        /// Creates a kind with a stable name. Use a name no other kind uses.
        public init(_ name: String) { self.name = name }

        public var description: String { name }

        /// A coordinate that is NaN, infinite or out of range (latitude outside [-90, 90],
        /// longitude outside [-180, 180]).
        public static let invalidCoordinate = Kind("invalidCoordinate")
        /// A parameter outside its documented domain (a negative radius, a zoom above 30, ...).
        public static let invalidArgument = Kind("invalidArgument")
        /// Text or bytes that do not follow their format (WKT, WKB, GeoJSON, CSV, encoded polylines).
        public static let malformedInput = Kind("malformedInput")
        /// An operation that needs data which is absent (an empty set of coordinates, an unknown id).
        public static let notFound = Kind("notFound")
        /// A failure reported by PROJ; ``GeoError/code`` holds PROJ's error number.
        public static let proj = Kind("proj")
        /// A failure reported by GEOS; the message is GEOS's own.
        public static let geos = Kind("geos")
        /// A file-system or stream failure; the message names the path.
        public static let io = Kind("io")
        /// A required native library is older than Meridian supports.
        public static let unsupportedVersion = Kind("unsupportedVersion")
    }

    /// What went wrong.
    public var kind: Kind
    /// A human-readable explanation that names the bad value and where it was.
    public var message: String
    /// A numeric code from the underlying library (for example PROJ's `proj_errno`), if any.
    public var code: Int?
    /// For parsed input: the zero-based offset (bytes for binary input, characters for text) of the
    /// problem.
    public var offset: Int?
    /// For line-based input: the one-based line number of the problem.
    public var line: Int?
    /// For line-based input: the one-based column (field number for delimited text, character for
    /// other lines) of the problem.
    public var column: Int?

    /// Creates an error.
    public init(
        _ kind: Kind, _ message: String, code: Int? = nil, offset: Int? = nil, line: Int? = nil,
        column: Int? = nil
    ) {
        self.kind = kind
        self.message = message
        self.code = code
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String {
        var text = "\(kind): \(message)"
        switch (line, column) {
        case (let line?, let column?): text += " (line \(line), column \(column))"
        case (let line?, nil): text += " (line \(line))"
        default: break
        }
        if let offset { text += " (offset \(offset))" }
        return text
    }

    /// The same error, located at a line (and column) of line-based input.
    public func at(line: Int, column: Int? = nil) -> GeoError {
        var copy = self
        copy.line = line
        if let column { copy.column = column }
        return copy
    }

    /// A piece of input as an error message shows it: in double quotes, with control characters,
    /// invisible format characters, whitespace other than the space (a no-break space, a line
    /// separator), quotes and backslashes escaped (so a message never carries a terminal escape
    /// sequence from the input, and shows what the eye cannot), and cut to `limit` characters
    /// with an ellipsis.
    ///
    /// `quoted("a\u{1B}[31mb")` is `"a\u{1B}[31mb"` with the escape spelled out.
    public static func quoted(_ text: some StringProtocol, limit: Int = 60) -> String {
        var result = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                    || scalar.properties.generalCategory == .format
                    || (scalar.properties.isWhitespace && scalar != " ")
                {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
