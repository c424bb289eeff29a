import Foundation
import GeoCore

/// The GPX reader: events from ``XMLScanner`` into ``GPXDocument``.
enum GPXReader {
    static func read(
        _ data: Data, limits: InputLimits = .standard
    ) throws(GeoError) -> (document: GPXDocument, trackPointLines: [[[Int]]]) {
        var scanner = try XMLScanner(data, limits: limits)
        var builder = Builder(maximumPoints: limits.maximumPositions)
        while let event = try scanner.next() {
            switch event {
            case .start(let name, let attributes):
                try builder.start(name, attributes, line: scanner.line)
            case .end(let name):
                try builder.end(name, line: scanner.line)
            case .text(let text):
                builder.text += text
            }
        }
        return (builder.document, builder.trackPointLines)
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

    /// Collects the document from the scanner's events.
    private struct Builder {
        let maximumPoints: Int
        private var points = 0

        init(maximumPoints: Int) { self.maximumPoints = maximumPoints }
        var document = GPXDocument()
        private var path: [String] = []
        private var openedOnLine: [Int] = []
        var text = ""
        private var point: PointBuilder?
        private var route: GPXRoute?
        private var track: Track?
        private var segment: [TrackPoint]?
        /// The line of each track point, as ``GPX/readWithLines(_:limits:)`` returns them.
        var trackPointLines: [[[Int]]] = []
        private var trackLines: [[Int]] = []
        private var segmentLines: [Int] = []
        /// Depth of `<extensions>` nesting; inside, only `speed` and `course` are read.
        private var extensionDepth = 0

        private func fail(_ line: Int, _ message: String) -> GeoError {
            GeoError(.malformedInput, "line \(line): \(message)", line: line)
        }

        mutating func start(
            _ name: String, _ attributes: [String: String], line: Int
        ) throws(GeoError) {
            if path.isEmpty {
                guard name == "gpx" else {
                    throw fail(line, "the root element is <\(name)>, not <gpx>")
                }
                document.creator = attributes["creator"]
            }
            path.append(name)
            openedOnLine.append(line)
            text = ""
            if extensionDepth > 0 || name == "extensions" {
                extensionDepth += 1
                return
            }
            switch name {
            case "wpt", "rtept", "trkpt":
                points += 1
                guard points <= maximumPoints else {
                    throw GeoError(
                        .limitExceeded,
                        "line \(line): GPX has more points than InputLimits.maximumPositions (\(maximumPoints))",
                        line: line)
                }
                point = PointBuilder(
                    coordinate: try coordinate(attributes, line, element: name), line: line)
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
            _ attributes: [String: String], _ line: Int, element: String
        ) throws(GeoError) -> Coordinate {
            guard let latText = attributes["lat"], let lonText = attributes["lon"] else {
                throw fail(line, "<\(element)> needs both lat and lon attributes")
            }
            let trimmedLat = latText.trimmingCharacters(in: .whitespaces)
            let trimmedLon = lonText.trimmingCharacters(in: .whitespaces)
            guard let latitude = NumberParsing.decimal(trimmedLat),
                let longitude = NumberParsing.decimal(trimmedLon)
            else {
                throw fail(
                    line,
                    "<\(element)> has lat \(GeoError.quoted(latText)) and lon \(GeoError.quoted(lonText)), which are not both numbers"
                )
            }
            do {
                return try Coordinate(validatingLatitude: latitude, longitude: longitude)
            } catch {
                throw fail(line, "<\(element)>: \(error.message)")
            }
        }

        mutating func end(_ name: String, line: Int) throws(GeoError) {
            defer {
                if !path.isEmpty {
                    path.removeLast()
                    openedOnLine.removeLast()
                }
                text = ""
            }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if extensionDepth > 0 {
                extensionDepth -= 1
                // Speed and course in extensions (Garmin's TrackPointExtension and others).
                if point != nil && (name == "speed" || name == "course") {
                    try readPointField(name, value, line)
                }
                return
            }
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            if point != nil && (parent == "wpt" || parent == "rtept" || parent == "trkpt") {
                try readPointField(name, value, line)
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

        private mutating func readPointField(
            _ name: String, _ value: String, _ line: Int
        ) throws(GeoError) {
            let text: String? = value.isEmpty ? nil : value
            switch name {
            case "ele", "speed", "course":
                guard let text else { return }
                guard let number = NumberParsing.decimal(text), number.isFinite else {
                    throw fail(line, "<\(name)> \(GeoError.quoted(text)) is not a finite number")
                }
                switch name {
                case "ele": point?.elevation = number
                case "speed": point?.speed = number
                default: point?.course = number
                }
            case "time":
                guard let text else { return }
                guard let date = ISO8601Time.parse(text) else {
                    throw fail(
                        line, "<time> \(GeoError.quoted(text)) is not an ISO 8601 date and time")
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
    }
}
