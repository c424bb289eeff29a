import Foundation
import GeoCore

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The GPX reader: a streaming XML parse (`XMLParser`) into ``GPXDocument``.
enum GPXReader {
    static func read(
        _ data: Data
    ) throws(GeoError) -> (document: GPXDocument, trackPointLines: [[[Int]]]) {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let delegate = Delegate()
        parser.delegate = delegate
        let parsed = parser.parse()
        if let failure = delegate.failure { throw failure }
        guard parsed else {
            let code = (parser.parserError as NSError?)?.code ?? -1
            throw GeoError(
                .malformedInput,
                "not well-formed XML at line \(parser.lineNumber), column \(parser.columnNumber): \(xmlReason(code))",
                line: parser.lineNumber, column: parser.columnNumber)
        }
        guard delegate.sawRoot else {
            throw GeoError(.malformedInput, "no <gpx> element: the document is empty", line: 1)
        }
        return (delegate.document, delegate.trackPointLines)
    }

    /// A readable reason for an `XMLParser` error code (libxml2's error numbers, which
    /// `XMLParser.ErrorCode` mirrors), instead of "NSXMLParserErrorDomain error 5".
    static func xmlReason(_ code: Int) -> String {
        switch code {
        case 4: "the document is empty"
        case 5: "an element is not closed, or something follows the root element"
        case 9: "a character XML does not allow (or bytes that are not valid UTF-8)"
        case 6, 7, 8, 22, 23, 24, 25: "a malformed character or entity reference"
        case 26: "an undefined entity (write '&' as '&amp;')"
        case 31, 32, 79, 81: "an encoding that cannot be read"
        case 38, 39, 40, 41: "a malformed attribute (values need quotes)"
        case 42: "an attribute given twice"
        case 45: "a comment that is not closed"
        case 62, 63: "a misplaced or unclosed CDATA section"
        case 64, 56, 57: "a misplaced or malformed XML declaration"
        case 68: "a name is missing (a bare '&' or '<' in text?)"
        case 73: "a '>' is missing"
        case 76: "a closing tag that does not match the element it closes"
        case 77: "a tag that is not finished"
        case 85, 86: "elements that do not nest, or content after the root element"
        case 89: "entities that expand without bound (refused)"
        default: "XML error \(code)"
        }
    }

    /// The point being read (`wpt`, `rtept` or `trkpt`).
    private struct PointBuilder {
        var coordinate: Coordinate
        var line: Int
        var elevation: Double?
        var time: Date?
        var speed: Double?
        var course: Double?
        var name: String?
        var comment: String?
        var description: String?
        var symbol: String?
        var type: String?

        var point: TrackPoint {
            TrackPoint(
                coordinate: coordinate, elevation: elevation, time: time, speed: speed,
                course: course)
        }

        var waypoint: GPXWaypoint {
            GPXWaypoint(
                point: point, name: name, comment: comment, description: description,
                symbol: symbol, type: type)
        }
    }

    /// Collects the document from parser events; not shared beyond one `read`.
    private final class Delegate: NSObject, XMLParserDelegate {
        var document = GPXDocument()
        var failure: GeoError?
        var sawRoot = false
        private var path: [String] = []
        private var openedOnLine: [Int] = []
        private var text = ""
        private var point: PointBuilder?
        private var route: GPXRoute?
        private var track: Track?
        private var segment: [TrackPoint]?
        /// The line of each track point, as ``GPX/readWithLines(_:)`` returns them.
        var trackPointLines: [[[Int]]] = []
        private var trackLines: [[Int]] = []
        private var segmentLines: [Int] = []
        /// Depth of `<extensions>` nesting; inside, only `speed` and `course` are read.
        private var extensionDepth = 0

        private func fail(_ parser: XMLParser, _ message: String) {
            guard failure == nil else { return }
            failure = GeoError(
                .malformedInput, "line \(parser.lineNumber): \(message)", line: parser.lineNumber)
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let name = elementName
            if path.isEmpty {
                guard name == "gpx" else {
                    fail(parser, "the root element is <\(qualifiedName ?? name)>, not <gpx>")
                    return
                }
                sawRoot = true
                document.creator = attributes["creator"]
            }
            path.append(name)
            openedOnLine.append(parser.lineNumber)
            text = ""
            if extensionDepth > 0 || name == "extensions" {
                extensionDepth += 1
                return
            }
            switch name {
            case "wpt", "rtept", "trkpt":
                guard let coordinate = coordinate(attributes, parser, element: name) else { return }
                point = PointBuilder(coordinate: coordinate, line: parser.lineNumber)
            case "rte":
                route = GPXRoute(points: [])
            case "trk":
                track = Track(segments: [])
                trackLines = []
            case "trkseg":
                segment = []
                segmentLines = []
            default:
                break
            }
        }

        private func coordinate(
            _ attributes: [String: String], _ parser: XMLParser, element: String
        ) -> Coordinate? {
            guard let latText = attributes["lat"], let lonText = attributes["lon"] else {
                fail(parser, "<\(element)> needs both lat and lon attributes")
                return nil
            }
            let trimmedLat = latText.trimmingCharacters(in: .whitespaces)
            let trimmedLon = lonText.trimmingCharacters(in: .whitespaces)
            guard let latitude = Double(trimmedLat), let longitude = Double(trimmedLon) else {
                fail(
                    parser,
                    "<\(element)> has lat \(GeoError.quoted(latText)) and lon \(GeoError.quoted(lonText)), which are not both numbers"
                )
                return nil
            }
            do {
                return try Coordinate(validatingLatitude: latitude, longitude: longitude)
            } catch {
                fail(parser, "<\(element)>: \(error.message)")
                return nil
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            text += String(decoding: block, as: UTF8.self)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
            qualifiedName: String?
        ) {
            defer {
                if !path.isEmpty {
                    path.removeLast()
                    openedOnLine.removeLast()
                }
                text = ""
            }
            let name = elementName
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if extensionDepth > 0 {
                extensionDepth -= 1
                // Speed and course in extensions (Garmin's TrackPointExtension and others).
                if point != nil && (name == "speed" || name == "course") {
                    readPointField(name, value, parser)
                }
                return
            }
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            if point != nil && (parent == "wpt" || parent == "rtept" || parent == "trkpt") {
                readPointField(name, value, parser)
                return
            }
            switch name {
            case "wpt":
                if let point { document.waypoints.append(point.waypoint) }
                point = nil
            case "rtept":
                if let point { route?.points.append(point.waypoint) }
                point = nil
            case "trkpt":
                if let point, segment != nil {
                    segment?.append(point.point)
                    segmentLines.append(point.line)
                }
                point = nil
            case "trkseg":
                if let segment, track != nil {
                    track?.segments.append(segment)
                    trackLines.append(segmentLines)
                }
                segment = nil
            case "rte":
                if let route { document.routes.append(route) }
                route = nil
            case "trk":
                if let track {
                    document.tracks.append(track)
                    trackPointLines.append(trackLines)
                }
                track = nil
            case "name":
                let text = value.isEmpty ? nil : value
                switch parent {
                case "rte": route?.name = text
                case "trk": track?.name = text
                case "metadata", "gpx": if document.name == nil { document.name = text }
                default: break
                }
            default:
                break
            }
        }

        private func readPointField(_ name: String, _ value: String, _ parser: XMLParser) {
            let text: String? = value.isEmpty ? nil : value
            switch name {
            case "ele", "speed", "course":
                guard let text else { return }
                guard let number = Double(text), number.isFinite else {
                    fail(parser, "<\(name)> \(GeoError.quoted(text)) is not a finite number")
                    return
                }
                switch name {
                case "ele": point?.elevation = number
                case "speed": point?.speed = number
                default: point?.course = number
                }
            case "time":
                guard let text else { return }
                guard let date = ISO8601Time.parse(text) else {
                    fail(parser, "<time> \(GeoError.quoted(text)) is not an ISO 8601 date and time")
                    return
                }
                point?.time = date
            case "name": point?.name = text
            case "cmt": point?.comment = text
            case "desc": point?.description = text
            case "sym": point?.symbol = text
            case "type": point?.type = text
            default: break
            }
        }

        func parserDidEndDocument(_ parser: XMLParser) {
            // A lenient XML parser may reach the end with elements still open.
            if let open = path.last, let line = openedOnLine.last {
                fail(parser, "<\(open)> opened on line \(line) is never closed")
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            // Reported by `read` from the parser's own error, unless a semantic failure came first.
        }
    }
}
