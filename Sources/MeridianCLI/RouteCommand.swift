import Foundation
import GeoCore
import GeoRoute

/// `meridian route length|simplify|encode|decode|snap|stats`: polylines, tracks and encoded
/// polylines from the command line.
enum RouteCommand: Subcommand {
    static let name = "route"
    static let summary = "lengths, simplification, encoded polylines, snapping and track statistics"
    static let valueOptions: Set<String> = [
        "precision", "tolerance", "method", "format", "output", "moving-speed",
        "elevation-threshold", "max-speed",
        "max-accuracy",
    ]
    static let help = """
        Usage: meridian route <action> [FILE] [options]

        Actions:
          length [FILE]                       length in meters of each line or track (WGS84 geodesics)
          simplify [FILE] --tolerance M       simplify each line to within M meters
          encode [--precision P]              'latitude,longitude' lines -> encoded polylines
          decode [--precision P]              encoded polylines -> 'latitude,longitude' lines
          snap FILE LAT LON | snap FILE | snap LAT LON
                                              the nearest point of the line to a point (points one per
                                              line on standard input when not given)
          stats [FILE]                        track statistics: length, duration, moving time,
                                              speeds, elevation gain and loss, stops

        FILE may be GPX, GeoJSON, CSV ('latitude,longitude[,elevation[,time]]' rows, or a header
        naming lat/lon/ele/time columns; an empty line starts a new line) or encoded polylines (one
        per line); the format comes from --format, the file name's extension, or the content.
        Without FILE, standard input is read.

        decode reads one encoded polyline per line and writes its points as 'latitude,longitude'
        lines followed by an empty line. encode reads 'latitude,longitude' lines (an empty line ends
        a polyline) and writes one encoded polyline per line. A malformed polyline or line is
        reported on standard error with its line (and offset) and the exit code is 2; the others
        are still answered. Errors in a file name the line or offset.

        Options:
          --format F            input format: gpx, geojson, csv or encoded
          --precision P         encoded polyline precision (default 5; 6 for OSRM/Valhalla)
          --tolerance M         simplification tolerance in meters
          --method M            douglas-peucker (default), visvalingam-whyatt or topology-preserving
          --output F            simplify's output: csv, encoded, geojson or gpx (default: the input's
                                kind; csv for GPX input)
          --moving-speed V      stats: m/s at or above which an interval counts as moving (0.5)
          --elevation-threshold M
                                stats: hysteresis in meters for gain and loss (0)
          --max-speed V         stats: first drop spikes faster than V m/s
          --max-accuracy M      stats: first drop fixes with horizontal accuracy worse than M m
          --json                one JSON object per result (length, snap, stats)

        Examples:
          meridian route length ride.gpx
          echo '_p~iF~ps|U_ulLnnqC_mqNvxq`@' | meridian route decode
          printf '38.5,-120.2\\n40.7,-120.95\\n43.252,-126.453\\n' | meridian route encode
          meridian route simplify track.csv --tolerance 10 --output encoded
          meridian route snap route.geojson 48.8584 2.2945
          meridian route stats ride.gpx --max-speed 30 --json

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        var positional = arguments.positional
        guard !positional.isEmpty else {
            throw UsageError("missing action (length, simplify, encode, decode, snap or stats)")
        }
        let action = positional.removeFirst()
        let json = arguments.flag("json")
        let precision = try arguments.integer("precision") ?? 5
        guard EncodedPolyline.precisionRange.contains(precision) else {
            throw UsageError("option --precision: \(precision) is outside 0...22")
        }
        let inputKind = try inputFormat(arguments.option("format"))
        switch action {
        case "decode":
            try arguments.rejectUnknown()
            try expectNoFile(positional)
            return decode(console: console, precision: precision)
        case "encode":
            try arguments.rejectUnknown()
            try expectNoFile(positional)
            return encode(console: console, precision: precision)
        case "length":
            try arguments.rejectUnknown()
            return withInput(positional, format: inputKind, precision: precision, console: console)
            { tracks in
                for track in tracks {
                    let length = track.length
                    console.print(
                        json
                            ? jsonLine([
                                "name": .string(track.name ?? ""), "length": .number(length),
                            ])
                            : "\(format(length, decimals: 3)) m"
                                + (track.name.map { "  \($0)" } ?? ""))
                }
                return ExitCode.success
            }
        case "simplify":
            guard let tolerance = try arguments.number("tolerance") else {
                throw UsageError("simplify needs --tolerance M")
            }
            guard tolerance >= 0 else {
                throw UsageError("option --tolerance: \(tolerance) must not be negative")
            }
            let method: SimplificationMethod
            switch arguments.option("method") ?? "douglas-peucker" {
            case "douglas-peucker", "dp": method = .douglasPeucker
            case "visvalingam-whyatt", "vw": method = .visvalingamWhyatt
            case "topology-preserving", "tp": method = .topologyPreserving
            case let other:
                throw UsageError(
                    "unknown method '\(other)' (use douglas-peucker, visvalingam-whyatt or topology-preserving)"
                )
            }
            let output = arguments.option("output")
            if let output, !["csv", "encoded", "geojson", "gpx"].contains(output) {
                throw UsageError("unknown output '\(output)' (use csv, encoded, geojson or gpx)")
            }
            try arguments.rejectUnknown()
            return withInput(positional, format: inputKind, precision: precision, console: console)
            { (tracks, kind) throws(GeoError) in
                try simplify(
                    tracks, tolerance: tolerance, method: method,
                    output: output ?? kind.defaultOutput,
                    precision: precision, console: console)
            }
        case "snap":
            try arguments.rejectUnknown()
            return try snap(
                positional, format: inputKind, precision: precision, json: json, console: console)
        case "stats":
            let movingSpeed = try arguments.number("moving-speed") ?? 0.5
            let threshold = try arguments.number("elevation-threshold") ?? 0
            var filters = [TrackFilter]()
            if let accuracy = try arguments.number("max-accuracy") {
                filters.append(.horizontalAccuracy(maximum: accuracy))
            }
            if let speed = try arguments.number("max-speed") {
                filters += [.duplicateTimestamps, .speedOutliers(maximumSpeed: speed)]
            }
            try arguments.rejectUnknown()
            return withInput(positional, format: inputKind, precision: precision, console: console)
            { (tracks) throws(GeoError) in
                for track in tracks {
                    let filtered = try track.filtered(by: filters)
                    console.print(
                        statistics(
                            filtered, movingSpeed: movingSpeed, threshold: threshold, json: json))
                }
                return ExitCode.success
            }
        default:
            throw UsageError(
                "unknown action '\(action)' (use length, simplify, encode, decode, snap or stats)")
        }
    }

    // MARK: - encode and decode

    private static func decode(console: Console, precision: Int) -> Int32 {
        var lineNumber = 0
        var failed = false
        while let line = console.readLine() {
            lineNumber += 1
            let leading = line.prefix { $0 == " " || $0 == "\t" }.count
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            do {
                let points = try EncodedPolyline.decode(text, precision: precision)
                var out = ""
                for p in points {
                    out += "\(decimal(p.latitude, precision)),\(decimal(p.longitude, precision))\n"
                }
                console.write(out + "\n")
            } catch {
                let offset = (error.offset ?? 0) + leading
                console.printError(
                    "meridian: line \(lineNumber), offset \(offset): \(error.message)")
                failed = true
            }
        }
        return failed ? ExitCode.partialFailure : ExitCode.success
    }

    private static func encode(console: Console, precision: Int) -> Int32 {
        var lineNumber = 0
        var failed = false
        var points = [Coordinate]()
        var broken: GeoError?
        var startLine = 1
        func flush() {
            defer {
                points.removeAll(keepingCapacity: true)
                broken = nil
            }
            if let broken {
                console.printError("meridian: line \(broken.line ?? startLine): \(broken.message)")
                failed = true
                return
            }
            guard !points.isEmpty else { return }
            do {
                console.print(try EncodedPolyline.encode(points, precision: precision))
            } catch {
                console.printError(
                    "meridian: polyline starting on line \(startLine): \(error.message)")
                failed = true
            }
        }
        while let line = console.readLine() {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                flush()
                startLine = lineNumber + 1
                continue
            }
            guard broken == nil else { continue }
            let parts = fields(of: trimmed)
            do throws(GeoError) {
                try expectFields(parts, ["LAT", "LON"])
                points.append(
                    Coordinate(
                        latitude: try parseNumber(parts[0], name: "latitude"),
                        longitude: try parseNumber(parts[1], name: "longitude")))
            } catch {
                broken = error.at(line: lineNumber)
            }
        }
        flush()
        return failed ? ExitCode.partialFailure : ExitCode.success
    }

    /// A coordinate decoded at a precision, written with that many decimals at most and no exponent.
    private static func decimal(_ value: Double, _ precision: Int) -> String {
        var text = String(format: "%.\(precision)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    // MARK: - simplify, snap, stats

    private static func simplify(
        _ tracks: [Track], tolerance: Double, method: SimplificationMethod, output: String,
        precision: Int,
        console: Console
    ) throws(GeoError) -> Int32 {
        var simplified = [Track]()
        for track in tracks {
            var segments = [[Location]]()
            for segment in track.segments where !segment.isEmpty {
                let line = try Polyline(segment.map(\.coordinate))
                segments.append(
                    try line.simplifiedIndices(tolerance: tolerance, method: method).map {
                        segment[$0]
                    })
            }
            simplified.append(Track(name: track.name, segments: segments))
        }
        switch output {
        case "encoded":
            for track in simplified {
                for segment in track.segments {
                    console.print(
                        try EncodedPolyline.encode(segment.map(\.coordinate), precision: precision))
                }
            }
        case "geojson":
            let collection: JSONValue = [
                "type": "FeatureCollection", "features": .array(simplified.map { $0.geoJSON() }),
            ]
            console.print(jsonText(collection))
        case "gpx":
            console.write(try GPX.write(simplified))
        default:
            var out = ""
            for track in simplified {
                for segment in track.segments {
                    for fix in segment {
                        out += "\(fix.coordinate.latitude),\(fix.coordinate.longitude)\n"
                    }
                    out += "\n"
                }
            }
            console.write(out)
        }
        return ExitCode.success
    }

    private static func snap(
        _ positional: [String], format inputKind: InputFormat?, precision: Int, json: Bool,
        console: Console
    ) throws(UsageError) -> Int32 {
        var file: [String] = []
        var query: Coordinate?
        switch positional.count {
        case 3, 2:
            file = positional.count == 3 ? [positional[0]] : []
            do {
                query = try parseCoordinate(
                    Substring(positional[positional.count - 2]),
                    Substring(positional[positional.count - 1]))
            } catch {
                console.printError("meridian: \(error.message)")
                return ExitCode.partialFailure
            }
        case 1:
            file = positional
        default:
            throw UsageError("snap needs a line FILE, a point LAT LON, or both")
        }
        return withInput(file, format: inputKind, precision: precision, console: console) {
            (tracks) throws(GeoError) in
            // The line is the first non-empty line (segment) of the input.
            guard let segment = tracks.lazy.flatMap(\.segments).first(where: { !$0.isEmpty }) else {
                throw GeoError(.notFound, "the input holds no line to snap to")
            }
            let line = try Polyline(segment.map(\.coordinate))
            func answer(_ p: Coordinate) -> String {
                let hit = line.closestPoint(to: p)
                if json {
                    return jsonLine([
                        "latitude": .number(hit.coordinate.latitude),
                        "longitude": .number(hit.coordinate.longitude),
                        "distanceAlong": .number(hit.distanceAlong),
                        "distance": .number(hit.distance),
                        "segment": .integer(hit.segmentIndex),
                    ])
                }
                return
                    "\(format(hit.coordinate.latitude, decimals: 9)), \(format(hit.coordinate.longitude, decimals: 9)), "
                    + "\(format(hit.distanceAlong, decimals: 3)) m along, \(format(hit.distance, decimals: 3)) m away, segment \(hit.segmentIndex)"
            }
            if let query {
                console.print(answer(query))
                return ExitCode.success
            }
            return runJobs(positional: [], console: console) { (fields) throws(GeoError) in
                try expectFields(fields, ["LAT", "LON"])
                return answer(try parseCoordinate(fields[0], fields[1]))
            }
        }
    }

    private static func statistics(
        _ track: Track, movingSpeed: Double, threshold: Double, json: Bool
    ) -> String {
        let s = track.statistics(movingSpeed: movingSpeed, elevationThreshold: threshold)
        let stops = track.stationaryPeriods()
        if json {
            func optional(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }
            return jsonLine([
                "name": track.name.map { .string($0) } ?? .null,
                "points": .integer(track.locations.count),
                "length": .number(s.length), "duration": .number(s.duration),
                "movingTime": .number(s.movingTime),
                "movingDistance": .number(s.movingDistance),
                "averageSpeed": optional(s.averageSpeed),
                "averageMovingSpeed": optional(s.averageMovingSpeed),
                "maximumSpeed": optional(s.maximumSpeed),
                "elevationGain": .number(s.elevationChange.gain),
                "elevationLoss": .number(s.elevationChange.loss),
                "stationaryPeriods": .integer(stops.count),
            ])
        }
        func speed(_ value: Double?) -> String {
            value.map { "\(format($0, decimals: 2)) m/s" } ?? "-"
        }
        var text = track.name.map { "\($0): " } ?? ""
        text += "\(track.locations.count) points, \(format(s.length, decimals: 1)) m, "
        text +=
            "duration \(format(s.duration, decimals: 0)) s, moving \(format(s.movingTime, decimals: 0)) s, "
        text += "average \(speed(s.averageSpeed)), moving average \(speed(s.averageMovingSpeed)), "
        text +=
            "maximum \(speed(s.maximumSpeed)), gain \(format(s.elevationChange.gain, decimals: 1)) m, "
        text += "loss \(format(s.elevationChange.loss, decimals: 1)) m, \(stops.count) stops"
        return text
    }

    // MARK: - Input

    enum InputFormat: String {
        case gpx, geojson, csv, encoded

        var defaultOutput: String {
            switch self {
            case .gpx, .csv: "csv"
            case .geojson: "geojson"
            case .encoded: "encoded"
            }
        }
    }

    private static func inputFormat(_ text: String?) throws(UsageError) -> InputFormat? {
        guard let text else { return nil }
        guard let format = InputFormat(rawValue: text) else {
            throw UsageError("unknown format '\(text)' (use gpx, geojson, csv or encoded)")
        }
        return format
    }

    private static func expectNoFile(_ positional: [String]) throws(UsageError) {
        guard positional.isEmpty else {
            throw UsageError("encode and decode read standard input; unexpected '\(positional[0])'")
        }
    }

    /// Reads the file named in `positional` (or standard input), parses it and runs `body`; errors
    /// are printed (exit 2 for bad input, 1 for a file that cannot be read).
    private static func withInput(
        _ positional: [String], format: InputFormat?, precision: Int, console: Console,
        _ body: ([Track], InputFormat) throws(GeoError) -> Int32
    ) -> Int32 {
        let data: Data
        var name: String?
        if let path = positional.first {
            guard positional.count == 1 else {
                console.printError("meridian: expected one FILE, got \(positional.count) arguments")
                return ExitCode.usage
            }
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                console.printError("meridian: cannot read \(path): \(error.localizedDescription)")
                return ExitCode.failure
            }
            name = path
        } else {
            data = console.readAll()
        }
        let kind = format ?? detectFormat(name: name, data: data)
        do throws(GeoError) {
            let tracks = try parse(data, as: kind, precision: precision)
            return try body(tracks, kind)
        } catch {
            let prefix = name.map { "\($0): " } ?? ""
            var location = ""
            if let line = error.line, !error.message.contains("line \(line)") {
                location += "line \(line): "
            }
            if let offset = error.offset, error.line == nil { location += "offset \(offset): " }
            console.printError("meridian: \(prefix)\(location)\(error.message)")
            return ExitCode.partialFailure
        }
    }

    private static func withInput(
        _ positional: [String], format: InputFormat?, precision: Int, console: Console,
        _ body: ([Track]) throws(GeoError) -> Int32
    ) -> Int32 {
        withInput(positional, format: format, precision: precision, console: console) {
            (tracks, _) throws(GeoError) in
            try body(tracks)
        }
    }

    static func detectFormat(name: String?, data: Data) -> InputFormat {
        if let name {
            switch (name as NSString).pathExtension.lowercased() {
            case "gpx": return .gpx
            case "geojson", "json": return .geojson
            case "csv", "tsv": return .csv
            case "polyline", "enc", "encoded": return .encoded
            default: break
            }
        }
        let text = String(decoding: data.prefix(4096), as: UTF8.self)
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if start.hasPrefix("<") { return .gpx }
        if start.hasPrefix("{") || start.hasPrefix("[") { return .geojson }
        let firstLine = start.prefix { $0 != "\n" && $0 != "\r" }
        let parts = fields(of: firstLine)
        if parts.count >= 2 && (Double(parts[0]) != nil || firstLine.lowercased().contains("lat")) {
            return .csv
        }
        return .encoded
    }

    static func parse(
        _ data: Data, as format: InputFormat, precision: Int
    ) throws(GeoError) -> [Track] {
        switch format {
        case .gpx:
            let document = try GPX.read(data)
            return document.tracks
                + document.routes.map { route in
                    Track(name: route.name, segments: [route.points.map(\.location)])
                }
        case .geojson:
            return try geoJSONTracks(data)
        case .csv:
            return try csvTracks(String(decoding: data, as: UTF8.self))
        case .encoded:
            var tracks = [Track]()
            var lineNumber = 0
            for line in String(decoding: data, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false)
            {
                lineNumber += 1
                let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !text.isEmpty else { continue }
                do throws(GeoError) {
                    let points = try EncodedPolyline.decode(text, precision: precision)
                    tracks.append(
                        Track(segments: [
                            points.map { Location(coordinate: $0, timestamp: GPX.missingTime) }
                        ]))
                } catch {
                    throw GeoError(
                        error.kind,
                        "line \(lineNumber), offset \(error.offset ?? 0): \(error.message)",
                        line: lineNumber)
                }
            }
            return tracks
        }
    }

    /// CSV rows `latitude,longitude[,elevation[,time]]`, or with a header naming the columns; an
    /// empty line ends a line.
    static func csvTracks(_ text: String) throws(GeoError) -> [Track] {
        var tracks = [Track]()
        var current = [Location]()
        var columns: (lat: Int, lon: Int, ele: Int?, time: Int?) = (0, 1, 2, 3)
        var sawData = false
        var lineNumber = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") {
                if line.isEmpty && !current.isEmpty {
                    tracks.append(Track(locations: current))
                    current = []
                }
                continue
            }
            let parts = line.split(
                separator: line.contains(",") ? "," : "\t", omittingEmptySubsequences: false
            )
            .map { $0.trimmingCharacters(in: .whitespaces) }
            if !sawData && Double(parts[0]) == nil {
                // A header: find the columns by name.
                let names = parts.map { $0.lowercased() }
                func column(_ candidates: [String]) -> Int? {
                    names.firstIndex { candidates.contains($0) }
                }
                guard let lat = column(["lat", "latitude", "y"]),
                    let lon = column(["lon", "lng", "long", "longitude", "x"])
                else {
                    throw GeoError(
                        .malformedInput,
                        "line \(lineNumber): the header names no latitude and longitude columns",
                        line: lineNumber)
                }
                columns = (
                    lat, lon, column(["ele", "elevation", "alt", "altitude", "z"]),
                    column(["time", "timestamp", "date"])
                )
                sawData = true
                continue
            }
            sawData = true
            guard parts.count > max(columns.lat, columns.lon) else {
                throw GeoError(
                    .malformedInput,
                    "line \(lineNumber): expected latitude and longitude, got '\(line)'",
                    line: lineNumber)
            }
            let coordinate: Coordinate
            do throws(GeoError) {
                coordinate = try parseCoordinate(
                    Substring(parts[columns.lat]), Substring(parts[columns.lon]))
            } catch {
                throw GeoError(error.kind, "line \(lineNumber): \(error.message)", line: lineNumber)
            }
            var altitude: Double?
            if let e = columns.ele, e < parts.count, !parts[e].isEmpty {
                guard let value = Double(parts[e]), value.isFinite else {
                    throw GeoError(
                        .malformedInput,
                        "line \(lineNumber): elevation '\(parts[e])' is not a number",
                        line: lineNumber)
                }
                altitude = value
            }
            var time = GPX.missingTime
            if let t = columns.time, t < parts.count, !parts[t].isEmpty {
                guard let date = GPX.date(fromISO8601: parts[t]) else {
                    throw GeoError(
                        .malformedInput, "line \(lineNumber): time '\(parts[t])' is not ISO 8601",
                        line: lineNumber)
                }
                time = date
            }
            current.append(
                Location(
                    coordinate: coordinate, altitude: altitude ?? 0,
                    verticalAccuracy: altitude == nil ? -1 : 0, timestamp: time))
        }
        if !current.isEmpty { tracks.append(Track(locations: current)) }
        return tracks
    }

    /// Lines of a GeoJSON document: every LineString and MultiLineString, in features, feature
    /// collections and geometry collections; positions [longitude, latitude, elevation?]; times
    /// from a `coordTimes` property when present.
    static func geoJSONTracks(_ data: Data) throws(GeoError) -> [Track] {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw GeoError(.malformedInput, "not JSON: \(jsonErrorDescription(error))")
        }
        var tracks = [Track]()
        func positions(
            _ value: JSONValue?, times: JSONValue?, path: String
        ) throws(GeoError) -> [Location] {
            guard let array = value?.arrayValue else {
                throw GeoError(.malformedInput, "\(path): coordinates are not an array")
            }
            var result = [Location]()
            for (i, position) in array.enumerated() {
                guard let numbers = position.arrayValue, numbers.count >= 2,
                    let lon = numbers[0].doubleValue,
                    let lat = numbers[1].doubleValue
                else {
                    throw GeoError(
                        .malformedInput, "\(path)[\(i)] is not a [longitude, latitude] position")
                }
                let coordinate: Coordinate
                do throws(GeoError) {
                    coordinate = try Coordinate(validatingLatitude: lat, longitude: lon)
                } catch {
                    throw GeoError(error.kind, "\(path)[\(i)]: \(error.message)")
                }
                let altitude = numbers.count > 2 ? numbers[2].doubleValue : nil
                let time =
                    times?[i]?.stringValue.flatMap { GPX.date(fromISO8601: $0) } ?? GPX.missingTime
                result.append(
                    Location(
                        coordinate: coordinate, altitude: altitude ?? 0,
                        verticalAccuracy: altitude == nil ? -1 : 0, timestamp: time))
            }
            return result
        }
        func visit(
            _ value: JSONValue, name: String?, times: JSONValue?, path: String
        ) throws(GeoError) {
            switch value["type"]?.stringValue {
            case "FeatureCollection":
                for (i, feature) in (value["features"]?.arrayValue ?? []).enumerated() {
                    try visit(feature, name: nil, times: nil, path: "\(path).features[\(i)]")
                }
            case "Feature":
                guard let geometry = value["geometry"], geometry != .null else { return }
                try visit(
                    geometry, name: value["properties"]?["name"]?.stringValue,
                    times: value["properties"]?["coordTimes"],
                    path: "\(path).geometry")
            case "GeometryCollection":
                for (i, geometry) in (value["geometries"]?.arrayValue ?? []).enumerated() {
                    try visit(geometry, name: name, times: nil, path: "\(path).geometries[\(i)]")
                }
            case "LineString":
                tracks.append(
                    Track(
                        name: name,
                        locations: try positions(
                            value["coordinates"], times: times, path: "\(path).coordinates")))
            case "MultiLineString":
                var segments = [[Location]]()
                for (i, line) in (value["coordinates"]?.arrayValue ?? []).enumerated() {
                    segments.append(
                        try positions(line, times: times?[i], path: "\(path).coordinates[\(i)]"))
                }
                tracks.append(Track(name: name, segments: segments))
            case .some:
                return  // points and polygons are not lines
            case nil:
                throw GeoError(.malformedInput, "\(path) has no GeoJSON \"type\"")
            }
        }
        try visit(root, name: nil, times: nil, path: "$")
        return tracks
    }

    private static func jsonErrorDescription(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return (context.underlyingError as NSError?)?.localizedDescription
                ?? context.debugDescription
        }
        return error.localizedDescription
    }

    private static func jsonText(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
