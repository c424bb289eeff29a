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
        standard error with their line and column. Either makes the exit code 2; the other fixes
        are still replayed. An empty or header-only log says so.

        Fences FILE: CSV 'latitude,longitude,radius_m[,identifier]' (a header may name the
        columns: lat, lon, radius, id; identifiers default to fence-<line>), or GeoJSON (.json,
        .geojson): Point features with a 'radius' property in meters become circles, Polygon
        features polygons (holes allowed); the identifier is the feature's id or its 'identifier'
        or 'name' property. An identifier used twice is an error naming both places, and a file
        without fences is refused (exit code 2).

        Locations FILE: CSV 'timestamp,latitude,longitude[,accuracy]', or columns named by a
        header (time, lat, lon, accuracy, altitude, speed, course); timestamps in ISO 8601 or
        seconds since 1970; accuracy in meters, 0 if missing. Or GPX (.gpx: every timed track
        point is a fix, named by the line of its <trkpt>). CRLF, ';' or tab separators, quotes
        and a byte-order mark are fine.

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

        \(ExitCode.table)

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        switch try prepare(&arguments, console: console) {
        case .done(let code):
            return code
        case .replay(let replay, let hadProblems):
            let output = Output(console.print)
            return finish(
                blocking(
                    { await replay.run(output) },
                    otherwise: .failure(GeoError(.io, "the replay did not finish"))),
                hadProblems: hadProblems, console: console)
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
                return finish(
                    await replay.run(Output(console.print)), hadProblems: hadProblems,
                    console: console)
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
            throw UsageError("unexpected argument \(GeoError.quoted(arguments.positional[0]))")
        }
        do {
            _ = try configuration.validated()
        } catch {
            throw UsageError(error.message)
        }

        let fences: [GeofenceIndex.Fence]
        let locations: LocationLog
        do throws(GeoError) {
            let data = try readInput(fencesPath, console: console)
            fences = try FenceFile.read(data, format: .detect(name: fencesPath, data: data))
            // A replay against no fence could only ever print nothing.
            guard !fences.isEmpty else { throw FenceFile.noFences }
        } catch {
            // A read failure's message names what could not be read.
            console.printError(
                error.kind == .io
                    ? "meridian fence: \(error.message)"
                    : "meridian fence: \(printable(fencesPath)): \(Self.located(error))")
            return .done(error.kind == .io ? ExitCode.failure : ExitCode.badInput)
        }
        do {
            locations = try LocationLog.read(locationsPath, console: console)
        } catch {
            console.printError(
                error.kind == .io
                    ? "meridian fence: \(error.message)"
                    : "meridian fence: \(printable(locationsPath)): \(Self.located(error))")
            return .done(error.kind == .io ? ExitCode.failure : ExitCode.badInput)
        }
        for problem in locations.problems {
            console.printError(
                "meridian fence: \(printable(locationsPath)): \(Self.located(problem))")
        }

        let storage: GeofenceStorage =
            storagePath.map { .directory(URL(fileURLWithPath: $0)) } ?? .inMemory
        let name = storagePath == nil ? "meridian-fence-\(UUID().uuidString)" : monitorName
        let replay = Replay(
            fences: fences, fixes: locations.fixes, configuration: configuration, storage: storage,
            name: name)
        return .replay(replay, hadProblems: !locations.problems.isEmpty)
    }

    /// A message with its line and column in front, where the error has them.
    static func located(_ error: GeoError) -> String {
        guard let line = error.line, !error.message.hasPrefix("line ") else { return error.message }
        return "line \(line)\(error.column.map { ", column \($0)" } ?? ""): \(error.message)"
    }

    /// Picks the exit code once the replay has printed its lines.
    private static func finish(
        _ outcome: Result<Bool, GeoError>, hadProblems: Bool, console: Console
    ) -> Int32 {
        switch outcome {
        case .failure(let error):
            console.printError("meridian fence: \(error.message)")
            return ExitCode.failure
        case .success(let rejected):
            return rejected || hadProblems ? ExitCode.badInput : ExitCode.success
        }
    }

    /// Runs async work to completion from the synchronous command on the main thread, which is not
    /// one of the concurrency pool's threads, so waiting here cannot starve the pool.
    /// (The task stores its value before it signals, so `otherwise` is never used; it is there so
    /// that no path re-runs the body, which prints as it goes.)
    private static func blocking<T: Sendable>(
        _ body: @escaping @Sendable () async -> T, otherwise: T
    ) -> T {
        let box = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            box.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return box.withLock { $0 } ?? otherwise
    }
}

// MARK: - Replaying

/// Where a replay prints its lines as it goes, so that its memory does not grow with its output.
/// The console is not `Sendable`; it is used only by the replay, while the command that owns it
/// waits for the replay to end.
private struct Output: @unchecked Sendable {
    let print: (String) -> Void
    init(_ print: @escaping (String) -> Void) { self.print = print }
}

/// The replay of a log through a monitor; prints the output lines.
private struct Replay: Sendable {
    var fences: [GeofenceIndex.Fence]
    var fixes: [(line: Int, location: Location)]
    var configuration: GeofenceConfiguration
    var storage: GeofenceStorage
    var name: String

    /// Prints one line per event or rejected fix; returns whether a fix was rejected.
    func run(_ output: Output) async -> Result<Bool, GeoError> {
        let monitor: GeofenceMonitor
        do {
            monitor = try GeofenceMonitor(
                name: name, storage: storage, configuration: configuration,
                clock: { Date.distantFuture })
            // With stored state, fences that are already monitored unchanged keep their state;
            // the others are added in one step (one save, not one per fence).
            var changed = [GeofenceIndex.Fence]()
            for fence in fences
            where await monitor.record(for: fence.identifier)?.condition != fence.condition {
                changed.append(fence)
            }
            try await monitor.add(contentsOf: changed)
        } catch {
            return .failure(error)
        }
        var rejected = false
        // A crossing runs from the previous accepted fix (its line; none for a fix stored by an
        // earlier run) to this one: times alone cannot say which line, as fixes may share one.
        var previousLine: Int?
        for (line, location) in fixes {
            do {
                let events = try await monitor.process(location)
                for event in events {
                    output.print(Self.describe(event, line: line, previousLine: previousLine))
                }
                previousLine = line
            } catch {
                rejected = true
                output.print(
                    jsonLine([
                        "type": "rejected", "line": .integer(line),
                        "error": .string(error.kind.name),
                        "message": .string(error.message),
                    ]))
            }
        }
        await monitor.close()
        return .success(rejected)
    }

    static func describe(_ event: GeofenceEvent, line: Int, previousLine: Int?) -> String {
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
        case .crossing(_, _, let deepest):
            fields["reason"] = "crossing"
            fields["fromLine"] = previousLine.map { .integer($0) } ?? .null
            fields["toLine"] = .integer(line)
            fields["distanceToBoundary"] = 0
            fields["deepestDistanceToBoundary"] = .number(deepest)
        case .dwell(let since):
            fields["reason"] = "dwell"
            fields["since"] = .string(iso8601(since))
            fields["seconds"] = .number(event.date.timeIntervalSince(since))
        }
        return jsonLine(fields)
    }

    static func iso8601(_ date: Date) -> String { iso8601Milliseconds(date) }
}

/// A date in ISO 8601 with milliseconds, rounded to the nearest (the format style truncates: a
/// crossing at 35.99999999999993 s printed as 35.999).
func iso8601Milliseconds(_ date: Date) -> String {
    // A quarter of a millisecond on, so that the style's truncation keeps the rounded value
    // (1.234 is 1.23399... in binary).
    let rounded = Date(
        timeIntervalSince1970: ((date.timeIntervalSince1970 * 1000).rounded() + 0.25) / 1000)
    return rounded.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
}

// MARK: - Input files

/// A location log: CSV (``LocationCSV``) or GPX, read through the libraries.
struct LocationLog {
    /// The fixes with their line numbers, in file order. Coordinates are not checked here: the
    /// monitor rejects bad fixes with its own error.
    var fixes: [(line: Int, location: Location)] = []
    /// Records that could not be read, each naming its line.
    var problems: [GeoError] = []

    static func read(_ path: String, console: Console) throws(GeoError) -> LocationLog {
        let data = try readInput(path, console: console)
        var log = LocationLog()
        if path.lowercased().hasSuffix(".gpx")
            || data.first(where: {
                !ByteCursor.isSpace($0) && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
            }) == UInt8(ascii: "<")
        {
            // Every track point with a time is a fix, named by the line of its <trkpt>.
            let (document, lines) = try GPX.readWithLines(data)
            var count = 0
            for (t, track) in document.tracks.enumerated() {
                for (s, segment) in track.segments.enumerated() {
                    for (i, point) in segment.enumerated() {
                        count += 1
                        let line = lines[t][s][i]
                        if let location = point.location {
                            log.fixes.append((line, location))
                        } else {
                            log.problems.append(
                                GeoError(
                                    .malformedInput, "track point \(count) has no <time>",
                                    line: line))
                        }
                    }
                }
            }
            if count == 0 {
                log.problems.append(GeoError(.notFound, "the GPX file has no track points"))
            }
            return log
        }
        let table = try LocationCSV.read(data)
        for record in table.records {
            switch record.value {
            case .success(let location): log.fixes.append((record.line, location))
            case .failure(let error): log.problems.append(error)
            }
        }
        if table.records.isEmpty {
            log.problems.append(
                GeoError(
                    .notFound,
                    table.header == nil
                        ? "the location log is empty" : "the location log has a header but no fixes"
                ))
        }
        return log
    }
}
