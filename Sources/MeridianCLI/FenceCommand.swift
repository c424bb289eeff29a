import Foundation
import GeoCore
import GeoFence
import GeoRoute
import Synchronization

/// `meridian fence --fences FILE --locations FILE`: replays a location log through a geofence
/// monitor and prints its events.
enum FenceCommand: Subcommand {
    static let name = "fence"
    static let summary = "replay a location log through geofences and print the events"
    static let valueOptions: Set<String> = [
        "fences", "locations", "dwell", "hysteresis", "max-accuracy", "storage", "name",
    ]
    static let help = """
        Usage: meridian fence --fences FILE --locations FILE [--dwell SECONDS] [--hysteresis METERS]
                              [--max-accuracy METERS] [--no-crossings] [--storage DIR --name NAME]

        Replays a location log through a GeofenceMonitor and prints one JSON line per event: the
        fence, the new state (satisfied, unsatisfied), the time, the position, and the reason with
        the log line of the fix, the signed geodesic distance to the boundary in meters (negative
        inside) and the fix's accuracy. A fix whose accuracy circle straddles a boundary decides
        nothing; fences passed through between two fixes get an enter and an exit ("crossing").

        Fixes the monitor rejects (NaN or out-of-range coordinates, negative accuracy, a time
        before the previous fix, too inaccurate for --max-accuracy) are printed as
        {"type":"rejected",...} lines with their line number; unreadable lines are reported on
        standard error. Either makes the exit code 2; the other fixes are still replayed.

        Fences FILE: CSV 'latitude,longitude,radius_m[,identifier]' (header optional; identifiers
        default to fence-<line>), or GeoJSON (.json, .geojson): Point features with a 'radius'
        property in meters become circles, Polygon features polygons (holes allowed); the
        identifier is the feature's id or its 'identifier' or 'name' property.

        Locations FILE: CSV 'timestamp,latitude,longitude,accuracy' (header optional; timestamp in
        ISO 8601 or seconds since 1970; accuracy in meters, 0 if the column is missing), or GPX
        (.gpx: every timed track point is a fix, named by the line of its <trkpt>).

        Options:
          --dwell S          report a dwell after S seconds inside a fence
          --hysteresis M     margin in meters against flapping (default 5)
          --max-accuracy M   reject fixes less accurate than M meters
          --no-crossings     do not infer fences crossed between two fixes
          --storage DIR      keep the monitor's state in DIR (default: in memory only)
          --name NAME        the monitor's name in DIR (default: meridian)
          --json             accepted for symmetry; the output is always JSON lines

        Example:
          meridian fence --fences sites.csv --locations track.csv --dwell 300

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        switch try prepare(&arguments, console: console) {
        case .done(let code):
            return code
        case .replay(let replay, let hadProblems):
            return finish(
                blocking { await replay.run() }, hadProblems: hadProblems, console: console)
        }
    }

    /// The same command for callers that are already asynchronous (and for tests, whose threads
    /// belong to the concurrency pool and must not block on it): arguments without the command name.
    static func run(_ raw: [String], console: Console) async -> Int32 {
        do throws(UsageError) {
            var arguments = try Arguments(raw, valueOptions: valueOptions)
            switch try prepare(&arguments, console: console) {
            case .done(let code):
                return code
            case .replay(let replay, let hadProblems):
                return finish(await replay.run(), hadProblems: hadProblems, console: console)
            }
        } catch {
            console.printError("meridian \(name): \(error.message)")
            console.writeError(help)
            return ExitCode.usage
        }
    }

    private enum Plan {
        case done(Int32)
        case replay(Replay, hadProblems: Bool)
    }

    /// Parses the options and reads the files.
    private static func prepare(
        _ arguments: inout Arguments, console: Console
    ) throws(UsageError) -> Plan {
        guard let fencesPath = arguments.option("fences") else {
            throw UsageError("--fences FILE is required")
        }
        guard let locationsPath = arguments.option("locations") else {
            throw UsageError("--locations FILE is required")
        }
        _ = arguments.flag("json")  // the output is always JSON lines
        var configuration = GeofenceConfiguration(detectsCrossings: !arguments.flag("no-crossings"))
        if let dwell = try arguments.number("dwell") { configuration.dwellTime = dwell }
        if let hysteresis = try arguments.number("hysteresis") {
            configuration.hysteresis = hysteresis
        }
        if let accuracy = try arguments.number("max-accuracy") {
            configuration.fixFilter.maximumAccuracy = accuracy
        }
        let storagePath = arguments.option("storage")
        let monitorName = arguments.option("name") ?? "meridian"
        try arguments.rejectUnknown()
        guard arguments.positional.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positional[0])'")
        }
        do {
            _ = try configuration.validated()
        } catch {
            throw UsageError(error.message)
        }

        let fences: [(String, GeographicCondition)]
        let locations: LocationLog
        do {
            fences = try FenceFile.read(fencesPath)
            locations = try LocationLog.read(locationsPath)
        } catch {
            console.printError("meridian fence: \(error.message)")
            return .done(ExitCode.failure)
        }
        for problem in locations.problems {
            console.printError("meridian fence: \(locationsPath): \(problem)")
        }

        let storage: GeofenceStorage =
            storagePath.map { .directory(URL(fileURLWithPath: $0)) } ?? .inMemory
        let name = storagePath == nil ? "meridian-fence-\(UUID().uuidString)" : monitorName
        let replay = Replay(
            fences: fences, fixes: locations.fixes, configuration: configuration, storage: storage,
            name: name)
        return .replay(replay, hadProblems: !locations.problems.isEmpty)
    }

    /// Prints the replay's lines and picks the exit code.
    private static func finish(
        _ outcome: Result<([String], Bool), GeoError>, hadProblems: Bool, console: Console
    ) -> Int32 {
        switch outcome {
        case .failure(let error):
            console.printError("meridian fence: \(error.message)")
            return ExitCode.failure
        case .success(let (lines, rejected)):
            for line in lines { console.print(line) }
            return rejected || hadProblems ? ExitCode.partialFailure : ExitCode.success
        }
    }

    /// Runs async work to completion from the synchronous command on the main thread, which is not
    /// one of the concurrency pool's threads, so waiting here cannot starve the pool.
    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            box.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        guard let value = box.withLock({ $0 }) else { return blocking(body) }
        return value
    }
}

// MARK: - Replaying

/// The replay of a log through a monitor; produces the output lines.
private struct Replay: Sendable {
    var fences: [(String, GeographicCondition)]
    var fixes: [(line: Int, location: Location)]
    var configuration: GeofenceConfiguration
    var storage: GeofenceStorage
    var name: String

    func run() async -> Result<([String], Bool), GeoError> {
        let monitor: GeofenceMonitor
        do {
            monitor = try GeofenceMonitor(
                name: name, storage: storage, configuration: configuration,
                clock: { Date.distantFuture })
            // With stored state, fences that are already monitored unchanged keep their state.
            for (identifier, condition) in fences
            where await monitor.record(for: identifier)?.condition != condition {
                try await monitor.add(condition, identifier: identifier)
            }
        } catch {
            return .failure(error)
        }
        var lines = [String]()
        var rejected = false
        var lineOfTime = [Date: Int]()
        for (line, location) in fixes {
            do {
                let events = try await monitor.process(location)
                lineOfTime[location.timestamp] = line
                for event in events {
                    lines.append(Self.describe(event, line: line, lineOfTime: lineOfTime))
                }
            } catch {
                rejected = true
                lines.append(
                    jsonLine([
                        "type": "rejected", "line": .integer(line),
                        "error": .string(error.kind.name),
                        "message": .string(error.message),
                    ]))
            }
        }
        await monitor.close()
        return .success((lines, rejected))
    }

    static func describe(_ event: GeofenceEvent, line: Int, lineOfTime: [Date: Int]) -> String {
        var fields: [String: JSONValue] = [
            "type": "event", "identifier": .string(event.identifier),
            "state": .string(event.state.rawValue),
            "date": .string(iso8601(event.date)), "line": .integer(line),
            "latitude": .number(event.location.coordinate.latitude),
            "longitude": .number(event.location.coordinate.longitude),
            "accuracy": .number(event.location.horizontalAccuracy),
        ]
        switch event.reason {
        case .fix(let distance, let accuracy):
            fields["reason"] = "fix"
            fields["distanceToBoundary"] = .number(distance)
            fields["accuracy"] = .number(accuracy)
        case .crossing(let from, let to, let deepest):
            fields["reason"] = "crossing"
            fields["fromLine"] = lineOfTime[from].map { .integer($0) } ?? .null
            fields["toLine"] = lineOfTime[to].map { .integer($0) } ?? .integer(line)
            fields["distanceToBoundary"] = 0
            fields["deepestDistanceToBoundary"] = .number(deepest)
        case .dwell(let since):
            fields["reason"] = "dwell"
            fields["since"] = .string(iso8601(since))
            fields["seconds"] = .number(event.date.timeIntervalSince(since))
        }
        return jsonLine(fields)
    }

    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

// MARK: - Input files

/// A fences file: CSV or GeoJSON.
enum FenceFile {
    static func read(_ path: String) throws(GeoError) -> [(String, GeographicCondition)] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GeoError(.io, "cannot read fences file \(path)")
        }
        let lower = path.lowercased()
        if lower.hasSuffix(".json") || lower.hasSuffix(".geojson") {
            return try geoJSON(data, path: path)
        }
        return try csv(String(decoding: data, as: UTF8.self), path: path)
    }

    static func csv(
        _ text: String, path: String
    ) throws(GeoError) -> [(String, GeographicCondition)] {
        var result = [(String, GeographicCondition)]()
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
        {
            let lineNumber = index + 1
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if result.isEmpty && fields.count >= 3 && Double(fields[0]) == nil
                && Double(fields[2]) == nil
            {
                continue
            }  // header
            guard fields.count == 3 || fields.count == 4 else {
                throw GeoError(
                    .malformedInput,
                    "fences file \(path): expected latitude,longitude,radius_m[,identifier], got '\(line)'",
                    line: lineNumber)
            }
            do throws(GeoError) {
                let center = try parseCoordinate(Substring(fields[0]), Substring(fields[1]))
                let radius = try parseNumber(Substring(fields[2]), name: "radius")
                let circle = try CircularGeographicCondition(center: center, radius: radius)
                let identifier =
                    fields.count == 4 && !fields[3].isEmpty ? fields[3] : "fence-\(lineNumber)"
                result.append((identifier, .circle(circle)))
            } catch {
                throw GeoError(
                    error.kind, "fences file \(path) line \(lineNumber): \(error.message)",
                    line: lineNumber)
            }
        }
        return result
    }

    static func geoJSON(
        _ data: Data, path: String
    ) throws(GeoError) -> [(String, GeographicCondition)] {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw GeoError(.malformedInput, "fences file \(path) is not JSON: \(error)")
        }
        let features: [JSONValue]
        if root["type"]?.stringValue == "FeatureCollection", let list = root["features"]?.arrayValue
        {
            features = list
        } else if root["type"]?.stringValue == "Feature" {
            features = [root]
        } else {
            throw GeoError(
                .malformedInput, "fences file \(path) is not a GeoJSON Feature or FeatureCollection"
            )
        }
        var result = [(String, GeographicCondition)]()
        for (index, feature) in features.enumerated() {
            let properties = feature["properties"]
            var identifier = "fence-\(index)"
            if let id = feature["id"]?.stringValue {
                identifier = id
            } else if let id = feature["id"]?.intValue {
                identifier = String(id)
            } else if let id = properties?["identifier"]?.stringValue {
                identifier = id
            } else if let id = properties?["name"]?.stringValue {
                identifier = id
            }
            guard let geometry = feature["geometry"], let type = geometry["type"]?.stringValue,
                let coordinates = geometry["coordinates"]
            else {
                throw GeoError(
                    .malformedInput, "fences file \(path): feature \(index) has no geometry")
            }
            do throws(GeoError) {
                switch type {
                case "Point":
                    guard let radius = properties?["radius"]?.doubleValue else {
                        throw GeoError(
                            .malformedInput, "a Point fence needs a 'radius' property in meters")
                    }
                    let center = try position(coordinates)
                    result.append(
                        (
                            identifier,
                            .circle(try CircularGeographicCondition(center: center, radius: radius))
                        ))
                case "Polygon":
                    guard let rings = coordinates.arrayValue, !rings.isEmpty else {
                        throw GeoError(.malformedInput, "a Polygon needs at least one ring")
                    }
                    var parsed = [[Coordinate]]()
                    for ring in rings {
                        var vertices = [Coordinate]()
                        for p in ring.arrayValue ?? [] { vertices.append(try position(p)) }
                        parsed.append(vertices)
                    }
                    let polygon = try PolygonGeographicCondition(
                        exterior: parsed[0], holes: Array(parsed.dropFirst()))
                    result.append((identifier, .polygon(polygon)))
                default:
                    throw GeoError(
                        .malformedInput,
                        "geometry type \(type) is not a fence (use Point with radius, or Polygon)")
                }
            } catch {
                throw GeoError(
                    error.kind,
                    "fences file \(path): feature \(index) ('\(identifier)'): \(error.message)")
            }
        }
        return result
    }

    /// A GeoJSON position [longitude, latitude].
    private static func position(_ value: JSONValue) throws(GeoError) -> Coordinate {
        guard let array = value.arrayValue, array.count >= 2, let lon = array[0].doubleValue,
            let lat = array[1].doubleValue
        else {
            throw GeoError(.malformedInput, "a position must be [longitude, latitude]")
        }
        return try Coordinate(validatingLatitude: lat, longitude: lon)
    }
}

/// A location log: CSV `timestamp,latitude,longitude,accuracy`, or GPX.
struct LocationLog {
    /// The fixes with their line numbers, in file order. Coordinates are not validated here: the
    /// monitor rejects bad fixes with their own error.
    var fixes: [(line: Int, location: Location)] = []
    /// Lines that could not be read, as messages naming the line.
    var problems: [String] = []

    static func read(_ path: String) throws(GeoError) -> LocationLog {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GeoError(.io, "cannot read locations file \(path)")
        }
        if path.lowercased().hasSuffix(".gpx") { return try gpx(data, path: path) }
        return csv(String(decoding: data, as: UTF8.self))
    }

    /// A GPX log through GeoRoute's GPX reader: every track point with a time becomes a fix, in file
    /// order, labeled with the line of its `<trkpt>` element; accuracy is 0 unless the file gives one.
    /// Track points without `<time>` cannot be replayed and are reported as problems.
    static func gpx(_ data: Data, path: String) throws(GeoError) -> LocationLog {
        let document = try GPX.read(data)
        let lines = trackPointLines(in: data)
        var log = LocationLog()
        var ordinal = 0
        for track in document.tracks {
            for segment in track.segments {
                for location in segment {
                    let line = ordinal < lines.count ? lines[ordinal] : 0
                    ordinal += 1
                    if location.timestamp == GPX.missingTime {
                        log.problems.append("line \(line): track point \(ordinal) has no <time>")
                    } else {
                        log.fixes.append((line, location))
                    }
                }
            }
        }
        if ordinal == 0 { log.problems.append("\(path): the GPX file has no track points") }
        return log
    }

    /// The one-based line of every `<trkpt` start tag outside comments and CDATA, in document order
    /// (the order GPX.read returns track points in).
    static func trackPointLines(in data: Data) -> [Int] {
        let bytes = [UInt8](data)
        var result = [Int]()
        var line = 1
        var i = 0
        func starts(with text: String, at index: Int) -> Bool {
            let pattern = Array(text.utf8)
            guard index + pattern.count <= bytes.count else { return false }
            return bytes[index..<(index + pattern.count)].elementsEqual(pattern)
        }
        func skip(to terminator: String) {
            while i < bytes.count && !starts(with: terminator, at: i) {
                if bytes[i] == 0x0A { line += 1 }
                i += 1
            }
            i += terminator.utf8.count
        }
        while i < bytes.count {
            if bytes[i] == 0x0A {
                line += 1
                i += 1
            } else if starts(with: "<!--", at: i) {
                skip(to: "-->")
            } else if starts(with: "<![CDATA[", at: i) {
                skip(to: "]]>")
            } else if starts(with: "<trkpt", at: i), i + 6 < bytes.count,
                [0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F].contains(bytes[i + 6])
            {
                result.append(line)
                i += 6
            } else {
                i += 1
            }
        }
        return result
    }

    static func csv(_ text: String) -> LocationLog {
        var log = LocationLog()
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
        {
            let lineNumber = index + 1
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if log.fixes.isEmpty && log.problems.isEmpty && fields.count >= 3
                && Double(fields[1]) == nil
                && fields[1].lowercased().hasPrefix("lat")
            {
                continue  // header
            }
            guard fields.count == 3 || fields.count == 4 else {
                log.problems.append(
                    "line \(lineNumber): expected timestamp,latitude,longitude,accuracy, got '\(line)'"
                )
                continue
            }
            guard let time = timestamp(fields[0]) else {
                log.problems.append(
                    "line \(lineNumber): timestamp '\(fields[0])' is neither ISO 8601 nor seconds since 1970"
                )
                continue
            }
            guard let latitude = Double(fields[1]), let longitude = Double(fields[2]) else {
                log.problems.append(
                    "line \(lineNumber): latitude '\(fields[1])' or longitude '\(fields[2])' is not a number"
                )
                continue
            }
            var accuracy = 0.0
            if fields.count == 4 && !fields[3].isEmpty {
                guard let value = Double(fields[3]) else {
                    log.problems.append(
                        "line \(lineNumber): accuracy '\(fields[3])' is not a number")
                    continue
                }
                accuracy = value
            }
            let location = Location(
                coordinate: Coordinate(latitude: latitude, longitude: longitude),
                horizontalAccuracy: accuracy,
                timestamp: time)
            log.fixes.append((lineNumber, location))
        }
        return log
    }

    /// ISO 8601 (with or without fractional seconds) or seconds since 1970.
    static func timestamp(_ text: String) -> Date? {
        if let seconds = Double(text), seconds.isFinite {
            return Date(timeIntervalSince1970: seconds)
        }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return try? fractional.parse(text)
    }
}
