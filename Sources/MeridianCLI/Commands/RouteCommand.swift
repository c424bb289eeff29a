import Foundation
import GeoCore
import GeoRoute

/// `meridian route length|simplify|encode|decode|snap|stats`: polylines, tracks and encoded
/// polylines from the command line.
enum RouteCommand: Subcommand {
    static let name = "route"
    static let summary = "lengths, simplification, encoded polylines, snapping and track statistics"
    static let valueOptions: Set<String> = [
        "precision", "tolerance", "area", "method", "format", "output", "moving-speed",
        "elevation-threshold", "max-speed", "max-accuracy",
    ]
    static let help = """
        Usage: meridian route <action> [FILE] [options]

        Actions:
          length [FILE]            length in meters of each track (WGS84 geodesics)
          simplify [FILE] --tolerance M
                                   Douglas-Peucker (or --method topology-preserving): every dropped
                                   point lies within M meters of the simplified line
                                   (topology-preserving is GEOS's, whose checks make long
                                   tracks cost up to quadratic time: 200,000 points 8 s)
          simplify [FILE] --method visvalingam-whyatt --area A
                                   drops points whose triangle with their neighbors is under A m²
                                   (an area: it bounds no distance)
          encode [--precision P]   one polyline per line, points "LAT,LON LAT,LON ..." (points
                                   apart by spaces, tabs or ';', each point's two values by
                                   one ',') -> encoded
          decode [--precision P]   one encoded polyline per line -> "LAT,LON LAT,LON ..." (a
                                   point outside [-90, 90] x [-180, 180] is an error, as in encode)
          snap FILE [LAT LON]      the nearest point of the file's lines to a point (points from
                                   standard input, one "LAT LON" per line, when not given); every
                                   line and segment of the file is searched and the answer names
                                   the track and segment it is on
          stats [FILE]             per track: length (2D and 3D), duration, moving time, speeds
                                   (maximum, and the 95th percentile as a robust maximum),
                                   elevation gain and loss, stops, and which points had no time or
                                   a time out of order

        FILE may be GPX, GeoJSON, CSV ('latitude,longitude[,elevation[,time]]' records, or a
        header naming lat/lon/ele/time/accuracy columns; a blank line starts the next track;
        CRLF, ';' or tab separators and a byte-order mark are fine) or encoded polylines (one per
        line); the format comes from --format, the file name's extension, or the content.
        Without FILE, standard input is read. Errors in a file name the line and column, or the
        JSON path.

        encode, decode and snap's points are batch mode: every input line gets exactly one output
        line, the answer or an error record in its place ("error: line N: ..." as text,
        {"line":N,"error":...,"kind":...} as JSON, the same message on standard error), an empty
        line for a blank or # line. Errors in an encoded polyline give the column of the bad
        character.

        Times that do not increase (jitter, clocks set back) are out of order: they count for the
        lengths, not for the times; see TrackStatistics. --max-speed drops spikes first.

        Options:
          --format F            input format: gpx, geojson, csv or encoded
          --precision P         encoded polyline precision (default 5; 6 for OSRM/Valhalla)
          --tolerance M         simplification distance in meters (Douglas-Peucker, topology-preserving)
          --area A              Visvalingam-Whyatt's threshold in square meters
          --method M            douglas-peucker (default), visvalingam-whyatt or topology-preserving
          --output F            simplify's output: csv, encoded, geojson or gpx (default: the input's
                                kind; csv for GPX input); csv keeps elevations and times under
                                a lat,lon,ele,time header when the points have them
          --moving-speed V      stats: m/s at or above which an interval counts as moving (0.5)
          --elevation-threshold M
                                stats: hysteresis in meters for gain and loss (0)
          --max-speed V         stats: first drop spikes faster than V m/s
          --max-accuracy M      stats: first drop fixes with horizontal accuracy worse than M m
                                (read from a CSV column named accuracy, horizontal_accuracy or hacc)
          --json                one JSON object per result (length, encode, decode, snap, stats)

        Examples:
          meridian route length ride.gpx
          echo '_p~iF~ps|U_ulLnnqC_mqNvxq`@' | meridian route decode
          echo '38.5,-120.2 40.7,-120.95 43.252,-126.453' | meridian route encode
          meridian route simplify track.csv --tolerance 10 --output encoded
          meridian route snap route.geojson 48.8584 2.2945
          meridian route stats ride.gpx --max-speed 30 --json

        \(ExitCode.table)

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
        if ["length", "simplify", "stats"].contains(action) && positional.count > 1 {
            throw UsageError(
                "route \(action) takes one FILE (or standard input), got \(positional.count) arguments"
            )
        }
        switch action {
        case "decode":
            try arguments.rejectUnknown()
            try expectNoFile(positional, action)
            return decode(console: console, precision: precision, json: json)
        case "encode":
            try arguments.rejectUnknown()
            try expectNoFile(positional, action)
            return encode(console: console, precision: precision, json: json)
        case "length":
            try arguments.rejectUnknown()
            return withTracks(positional, format: inputKind, precision: precision, console: console)
            {
                tracks, _ in
                for (i, track) in tracks.enumerated() {
                    let length = track.length
                    console.print(
                        json
                            ? jsonLine([
                                "track": .integer(i),
                                "name": track.name.map { .string($0) } ?? .null,
                                "length": .number(length),
                            ])
                            : "\(format(length, decimals: 3)) m"
                                + (track.name.map { "  \($0)" } ?? ""))
                }
                return ExitCode.success
            }
        case "simplify":
            let method: SimplificationMethod
            switch arguments.option("method") ?? "douglas-peucker" {
            case "douglas-peucker", "dp": method = .douglasPeucker
            case "visvalingam-whyatt", "vw": method = .visvalingamWhyatt
            case "topology-preserving", "tp": method = .topologyPreserving
            case let other:
                throw UsageError(
                    "unknown method \(GeoError.quoted(other)) (use douglas-peucker, visvalingam-whyatt or topology-preserving)"
                )
            }
            let tolerance = try arguments.number("tolerance"), area = try arguments.number("area")
            let threshold: Double
            if method == .visvalingamWhyatt {
                guard tolerance == nil else {
                    throw UsageError(
                        "Visvalingam-Whyatt's threshold is an area: use --area A (square meters) instead of --tolerance"
                    )
                }
                guard let area else { throw UsageError("visvalingam-whyatt needs --area A") }
                guard area >= 0 else { throw UsageError("--area \(area) must not be negative") }
                threshold = area.squareRoot()
            } else {
                guard area == nil else {
                    throw UsageError(
                        "--area is Visvalingam-Whyatt's; \(method) takes --tolerance M")
                }
                guard let tolerance else { throw UsageError("simplify needs --tolerance M") }
                guard tolerance >= 0 else {
                    throw UsageError("option --tolerance: \(tolerance) must not be negative")
                }
                threshold = tolerance
            }
            let output = arguments.option("output")
            if let output, !["csv", "encoded", "geojson", "gpx"].contains(output) {
                throw UsageError(
                    "unknown output \(GeoError.quoted(output)) (use csv, encoded, geojson or gpx)")
            }
            try arguments.rejectUnknown()
            return withTracks(positional, format: inputKind, precision: precision, console: console)
            {
                (tracks, kind) throws(GeoError) in
                try simplify(
                    tracks, tolerance: threshold, method: method,
                    output: output ?? defaultOutput(kind), precision: precision, console: console)
            }
        case "snap":
            try arguments.rejectUnknown()
            return try snap(
                positional, format: inputKind, precision: precision, json: json, console: console)
        case "stats":
            // Speeds, thresholds and accuracies are magnitudes: a negative one is a mistake in
            // the call, not in the data.
            func magnitude(_ name: String) throws(UsageError) -> Double? {
                guard let value = try arguments.number(name) else { return nil }
                guard value >= 0 else {
                    throw UsageError("option --\(name): \(value) must not be negative")
                }
                return value
            }
            let movingSpeed = try magnitude("moving-speed") ?? 0.5
            let threshold = try magnitude("elevation-threshold") ?? 0
            var filters = [TrackFilter]()
            if let accuracy = try magnitude("max-accuracy") {
                filters.append(.horizontalAccuracy(maximum: accuracy))
            }
            if let speed = try magnitude("max-speed") {
                filters += [.duplicateTimestamps, .speedOutliers(maximumSpeed: speed)]
            }
            try arguments.rejectUnknown()
            return withTracks(positional, format: inputKind, precision: precision, console: console)
            {
                (tracks, _) throws(GeoError) in
                // A filter on accuracies the file does not carry would drop nothing while the
                // output says it filtered.
                if filters.contains(where: {
                    if case .horizontalAccuracy = $0 { true } else { false }
                }),
                    !tracks.contains(where: {
                        $0.segments.joined().contains { $0.horizontalAccuracy != nil }
                    })
                {
                    throw GeoError(
                        .invalidArgument,
                        "--max-accuracy: the input has no horizontal accuracies (a CSV column named accuracy, horizontal_accuracy or hacc, in meters)"
                    )
                }
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
                "unknown action \(GeoError.quoted(action)) (use length, simplify, encode, decode, snap or stats)"
            )
        }
    }

    // MARK: - encode and decode

    private static func decode(console: Console, precision: Int, json: Bool) -> Int32 {
        var batch = Batch(command: name, json: json, console: console)
        var number = 0
        while let line = console.readLine() {
            number += 1
            if batch.rejectsUnreadable(line: number) { continue }
            let leading = line.prefix { $0 == " " || $0 == "\t" }.unicodeScalars.count
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") {
                batch.skip(line: number)
                continue
            }
            do throws(GeoError) {
                let points = try EncodedPolyline.decode(text, precision: precision)
                // What encode refuses is not answered as a coordinate either.
                for (i, point) in points.enumerated() {
                    do throws(GeoError) {
                        _ = try point.validated()
                    } catch {
                        throw GeoError(error.kind, "point \(i + 1): \(error.message)")
                    }
                }
                batch.emit(
                    line: number,
                    .success(
                        Answer(
                            text: points.map {
                                "\(decimal($0.latitude, precision)),\(decimal($0.longitude, precision))"
                            }.joined(separator: " "),
                            json: [
                                "points": .array(
                                    points.map { [.number($0.latitude), .number($0.longitude)] })
                            ])))
            } catch {
                var located = error
                if let offset = error.offset { located.column = offset + leading + 1 }
                batch.emit(line: number, .failure(located))
            }
        }
        return batch.exitCode
    }

    private static func encode(console: Console, precision: Int, json: Bool) -> Int32 {
        var batch = Batch(command: name, json: json, console: console)
        var number = 0
        while let line = console.readLine() {
            number += 1
            if batch.rejectsUnreadable(line: number) { continue }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") {
                batch.skip(line: number)
                continue
            }
            let result = Result { () throws(GeoError) -> Answer in
                // Points are separated by spaces or semicolons, coordinates by a comma.
                let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ";" })
                var points = [Coordinate]()
                for (i, token) in tokens.enumerated() {
                    let parts = token.split(separator: ",", omittingEmptySubsequences: false)
                    guard parts.count == 2 else {
                        throw GeoError(
                            .malformedInput,
                            "point \(i + 1) \(GeoError.quoted(token)) is not LAT,LON")
                    }
                    do throws(GeoError) {
                        points.append(try parseCoordinate(String(parts[0]), String(parts[1])))
                    } catch {
                        throw GeoError(error.kind, "point \(i + 1): \(error.message)")
                    }
                }
                let encoded = try EncodedPolyline.encode(points, precision: precision)
                return Answer(text: encoded, json: ["encoded": .string(encoded)])
            }
            batch.emit(line: number, result)
        }
        return batch.exitCode
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
        precision: Int, console: Console
    ) throws(GeoError) -> Int32 {
        var simplified = [Track]()
        for track in tracks {
            var segments = [[TrackPoint]]()
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
            console.write(TrackFile.writeCSV(simplified))
        }
        return ExitCode.success
    }

    private static func snap(
        _ positional: [String], format inputKind: TrackFile.Format?, precision: Int, json: Bool,
        console: Console
    ) throws(UsageError) -> Int32 {
        guard positional.count == 1 || positional.count == 3 else {
            throw UsageError(
                "snap needs a FILE of lines, and a point LAT LON or points on standard input")
        }
        if positional.count == 3 {
            let values = (try? splitJob(positional[1] + " " + positional[2]))?.count
            guard values == 2 else {
                throw UsageError("snap's point is LAT LON: two values, got \(values ?? 0)")
            }
        }
        return withTracks(
            [positional[0]], format: inputKind, precision: precision, console: console
        ) { (tracks, _) throws(GeoError) in
            // Every non-empty segment of every track is a line to snap to.
            var lines = [(track: Int, segment: Int, line: Polyline)]()
            for (t, track) in tracks.enumerated() {
                for (s, segment) in track.segments.enumerated() where !segment.isEmpty {
                    lines.append((t, s, try Polyline(segment.map(\.coordinate))))
                }
            }
            guard !lines.isEmpty else {
                throw GeoError(.notFound, "the file holds no line to snap to")
            }
            let several = lines.count > 1
            let point = positional.count == 3 ? Array(positional.suffix(2)) : []
            do throws(UsageError) {
                return try Batch.run(name, positional: point, json: json, console: console) {
                    (fields) throws(GeoError) in
                    try expectFields(fields, ["LAT", "LON"])
                    let p = try parseCoordinate(fields[0], fields[1])
                    var best: (track: Int, segment: Int, hit: Polyline.Projection)?
                    for (t, s, line) in lines {
                        let hit = line.closestPoint(to: p)
                        if best.map({ hit.distance < $0.hit.distance }) ?? true {
                            best = (t, s, hit)
                        }
                    }
                    guard let (t, s, hit) = best else {
                        throw GeoError(.notFound, "no line to snap to")
                    }
                    var text =
                        "\(format(hit.coordinate.latitude, decimals: 9)), \(format(hit.coordinate.longitude, decimals: 9)), "
                        + "\(format(hit.distanceAlong, decimals: 3)) m along, \(format(hit.distance, decimals: 3)) m away, segment \(hit.segmentIndex)"
                    if several { text += ", track \(t) part \(s)" }
                    return Answer(
                        text: text,
                        json: [
                            "latitude": .number(hit.coordinate.latitude),
                            "longitude": .number(hit.coordinate.longitude),
                            "distanceAlong": .number(hit.distanceAlong),
                            "distance": .number(hit.distance),
                            "segment": .integer(hit.segmentIndex), "track": .integer(t),
                            "part": .integer(s),
                        ])
                }
            } catch {
                // Two arguments that split into more or fewer values.
                throw GeoError(.invalidArgument, error.message)
            }
        }
    }

    private static func statistics(
        _ track: Track, movingSpeed: Double, threshold: Double, json: Bool
    ) -> String {
        let s = track.statistics(movingSpeed: movingSpeed, elevationThreshold: threshold)
        let stops = track.stationaryPeriods()
        func optional(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }
        let filters = s.filters.map { filter -> String in
            switch filter {
            case .horizontalAccuracy(let maximum): "horizontal accuracy <= \(maximum) m"
            case .staleness(let age): "staleness <= \(age) s"
            case .duplicateTimestamps: "duplicate timestamps"
            case .speedOutliers(let speed): "speed outliers > \(speed) m/s"
            }
        }
        if json {
            return jsonLine([
                "name": track.name.map { .string($0) } ?? .null,
                "points": .integer(s.pointCount), "length": .number(s.length),
                "length3D": .number(s.length3D), "duration": .number(s.duration),
                "movingTime": .number(s.movingTime), "movingDistance": .number(s.movingDistance),
                "averageSpeed": optional(s.averageSpeed),
                "averageMovingSpeed": optional(s.averageMovingSpeed),
                "maximumSpeed": optional(s.maximumSpeed),
                "robustMaximumSpeed": optional(s.robustMaximumSpeed),
                "elevationGain": .number(s.elevationChange.gain),
                "elevationLoss": .number(s.elevationChange.loss),
                "stationaryPeriods": .integer(stops.count),
                "untimedPoints": .integer(s.untimedPoints),
                "outOfOrderPoints": .integer(s.outOfOrderPoints),
                "filters": .array(filters.map { .string($0) }),
            ])
        }
        func speed(_ value: Double?) -> String {
            value.map { "\(format($0, decimals: 2)) m/s" } ?? "-"
        }
        var text = track.name.map { "\($0): " } ?? ""
        text +=
            "\(s.pointCount) points, \(format(s.length, decimals: 1)) m (3D \(format(s.length3D, decimals: 1)) m), "
        text +=
            "duration \(format(s.duration, decimals: 0)) s, moving \(format(s.movingTime, decimals: 0)) s, "
        text += "average \(speed(s.averageSpeed)), moving average \(speed(s.averageMovingSpeed)), "
        text +=
            "maximum \(speed(s.maximumSpeed)) (95th percentile \(speed(s.robustMaximumSpeed))), "
        text +=
            "gain \(format(s.elevationChange.gain, decimals: 1)) m, loss \(format(s.elevationChange.loss, decimals: 1)) m, "
        text += "\(stops.count) stops"
        if s.untimedPoints > 0 { text += ", \(s.untimedPoints) points without a time" }
        if s.outOfOrderPoints > 0 {
            text += ", \(s.outOfOrderPoints) points with times out of order"
        }
        if !filters.isEmpty { text += ", filtered: \(filters.joined(separator: ", "))" }
        return text
    }

    // MARK: - Input

    private static func defaultOutput(_ format: TrackFile.Format) -> String {
        switch format {
        case .gpx, .csv: "csv"
        case .geojson: "geojson"
        case .encoded: "encoded"
        }
    }

    private static func inputFormat(_ text: String?) throws(UsageError) -> TrackFile.Format? {
        guard let text else { return nil }
        guard let format = TrackFile.Format(rawValue: text) else {
            throw UsageError(
                "unknown format \(GeoError.quoted(text)) (use gpx, geojson, csv or encoded)")
        }
        return format
    }

    private static func expectNoFile(_ positional: [String], _ action: String) throws(UsageError) {
        guard positional.isEmpty else {
            throw UsageError(
                "\(action) reads standard input, one polyline per line; unexpected \(GeoError.quoted(positional[0]))"
            )
        }
    }

    /// Reads the tracks of the file named in `positional` (or standard input) and runs `body`;
    /// problems are printed (exit 2 for bad input, 1 for a file that cannot be read).
    private static func withTracks(
        _ positional: [String], format inputKind: TrackFile.Format?, precision: Int,
        console: Console, _ body: ([Track], TrackFile.Format) throws(GeoError) -> Int32
    ) -> Int32 {
        let path = positional.first
        let data: Data
        do {
            data = try readInput(path, console: console)
        } catch {
            console.printError("meridian route: \(error.message)")
            return ExitCode.failure
        }
        let kind = inputKind ?? TrackFile.Format.detect(name: path, data: data)
        do throws(GeoError) {
            let tracks = try TrackFile.read(data, format: kind, precision: precision)
            if tracks.isEmpty {
                console.printError(
                    "meridian route: \(path.map { "\(printable($0)): " } ?? "")the \(kind.rawValue) input holds no track or line"
                )
                return ExitCode.badInput
            }
            return try body(tracks, kind)
        } catch {
            var location = ""
            if let line = error.line, !error.message.contains("line \(line)") {
                location = "line \(line)\(error.column.map { ", column \($0)" } ?? ""): "
            } else if let offset = error.offset, error.line == nil {
                location = "offset \(offset): "
            }
            console.printError(
                "meridian route: \(path.map { "\(printable($0)): " } ?? "")\(location)\(error.message)"
            )
            return ExitCode.badInput
        }
    }
}
