import Foundation
import GeoCore

/// GPX, the GPS Exchange Format (versions 1.0 and 1.1): reading and writing waypoints, routes and
/// tracks as ``TrackPoint`` values.
///
/// ```swift
/// let document = try GPX.read(contentsOf: URL(fileURLWithPath: "ride.gpx"))
/// for track in document.tracks {
///     for segment in track.segments {
///         for point in segment { print(point.coordinate, point.elevation, point.time) }
///     }
/// }
/// let text = try GPX.write(document)    // GPX 1.1
/// ```
///
/// Each point becomes a ``TrackPoint``: its coordinate from `lat` and `lon`, its elevation from
/// `<ele>`, its time from `<time>`, its speed and course from `<speed>` and `<course>` (GPX 1.0,
/// or any extension element of those names); whatever the point lacks is `nil`. GPX has no
/// horizontal accuracy in meters, so that is `nil` too. Extensions are otherwise skipped, and
/// unknown elements ignored.
public enum GPX {
    /// The date of an ISO 8601 date-time as GPX writes it (`xsd:dateTime`):
    /// `YYYY-MM-DDThh:mm:ss[.f…][Z|±hh:mm]`, any number of fractional digits, no zone meaning UTC;
    /// `nil` for anything else.
    public static func date(fromISO8601 text: some StringProtocol) -> Date? {
        ISO8601Time.parse(text)
    }

    /// A date as GPX writes it: ISO 8601 in UTC with as many fractional digits as needed (up to
    /// microseconds), such as `2010-08-05T14:23:59Z`.
    public static func iso8601(_ date: Date) -> String {
        ISO8601Time.format(date)
    }

    /// Reads a GPX document.
    ///
    /// The XML is read by Meridian's own strict reader (not libxml2): it checks well-formedness,
    /// knows the five predefined entities and character references, skips comments, processing
    /// instructions and a DTD, and never expands entities a DTD defines or fetches anything.
    ///
    /// - Parameters:
    ///   - data: The document's bytes: UTF-8 (a byte-order mark is allowed), UTF-16 with a
    ///     byte-order mark, or ISO-8859-1 or windows-1252 when the XML declaration names them.
    ///   - limits: What the reader accepts: the size, the nesting of elements, the number of
    ///     elements (parts) and of points (positions), and the length of one text or attribute.
    /// - Throws: `GeoError.Kind.malformedInput` with the line and column for XML that is not
    ///   well-formed (and a readable reason), bytes not valid in the encoding (with their offset),
    ///   another encoding, a root element other than `<gpx>`, a point with a missing,
    ///   unparseable or out-of-range `lat`/`lon`, or an unparseable `<ele>`, `<time>`, `<speed>` or
    ///   `<course>`; `GeoError.Kind.limitExceeded` naming the limit.
    /// - Complexity: O(size of the document) in time and memory, whatever its nesting.
    public static func read(
        _ data: Data, limits: InputLimits = .standard
    ) throws(GeoError)
        -> GPXDocument
    {
        try GPXReader.read(data, limits: limits).document
    }

    /// Reads a GPX document and where each track point is in it: `lines[t][s][i]` is the line on
    /// which the `<trkpt>` of point `i` of segment `s` of track `t` starts.
    ///
    /// - Throws: As ``read(_:limits:)``.
    public static func readWithLines(
        _ data: Data, limits: InputLimits = .standard
    ) throws(GeoError) -> (document: GPXDocument, trackPointLines: [[[Int]]]) {
        try GPXReader.read(data, limits: limits)
    }

    /// Reads a GPX file.
    ///
    /// - Throws: `GeoError.Kind.io` naming the path if the file cannot be
    ///   read, and the errors of ``read(_:limits:)`` (their messages name the path).
    public static func read(
        contentsOf url: URL, limits: InputLimits = .standard
    ) throws(GeoError) -> GPXDocument {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw GeoError(
                .io,
                "cannot read \(GeoError.quoted(url.path, limit: .max)): \(error.localizedDescription)"
            )
        }
        do throws(GeoError) {
            return try read(data, limits: limits)
        } catch {
            var located = error
            located.message = "\(url.path): \(error.message)"
            throw located
        }
    }
}

/// A GPX file's contents.
public struct GPXDocument: Hashable, Sendable, Codable {
    /// The program that wrote the file (the `creator` attribute).
    public var creator: String?
    /// The document's name (`<metadata><name>` in GPX 1.1, `<name>` in 1.0).
    public var name: String?
    /// The waypoints (`<wpt>`), in order.
    public var waypoints: [GPXWaypoint]
    /// The planned routes (`<rte>`), in order.
    public var routes: [GPXRoute]
    /// The recorded tracks (`<trk>`), in order, each with its segments (`<trkseg>`) of fixes
    /// (`<trkpt>`).
    public var tracks: [Track]

    /// Creates a document.
    public init(
        creator: String? = nil, name: String? = nil, waypoints: [GPXWaypoint] = [],
        routes: [GPXRoute] = [],
        tracks: [Track] = []
    ) {
        self.creator = creator
        self.name = name
        self.waypoints = waypoints
        self.routes = routes
        self.tracks = tracks
    }
}

/// A named point of a GPX file: a waypoint or a route point.
public struct GPXWaypoint: Hashable, Sendable, Codable {
    /// The position, elevation and time (see ``GPX`` for how the fields map).
    public var point: TrackPoint
    /// `<name>`.
    public var name: String?
    /// `<cmt>`.
    public var comment: String?
    /// `<desc>`.
    public var description: String?
    /// `<sym>`: the symbol to draw.
    public var symbol: String?
    /// `<type>`.
    public var type: String?

    /// Creates a waypoint.
    public init(
        point: TrackPoint, name: String? = nil, comment: String? = nil, description: String? = nil,
        symbol: String? = nil, type: String? = nil
    ) {
        self.point = point
        self.name = name
        self.comment = comment
        self.description = description
        self.symbol = symbol
        self.type = type
    }
}

/// A planned route of a GPX file (`<rte>`).
public struct GPXRoute: Hashable, Sendable, Codable {
    /// `<name>`.
    public var name: String?
    /// The route points (`<rtept>`), in order.
    public var points: [GPXWaypoint]

    /// Creates a route.
    public init(name: String? = nil, points: [GPXWaypoint]) {
        self.name = name
        self.points = points
    }
}
