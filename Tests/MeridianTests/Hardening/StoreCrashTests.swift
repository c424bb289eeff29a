import Foundation
import GeoCore
import GeoFence
import GeoTestSupport
import Testing

@testable import MeridianFuzz

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The geofence store under real crashes: a writer process (`meridian-fuzz store-writer`) is
/// killed with SIGKILL at random instants while it saves state after every fix, again and again on
/// the same directory. After each kill the monitor must open (a kill never corrupts the store),
/// with the state after the last acknowledged fix or the one after it (the save in flight), equal
/// to an in-memory replay of the same fixes: never an older state, never a mix.
@Suite("Geofence store: crashes", .serialized)
struct StoreCrashTests {
    /// The writer, built beside the test bundle.
    static var writer: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("meridian-fuzz")
    }

    static func freshDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("meridian-store-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Records as sorted JSON, so that NaN compares equal to itself.
    static func json(_ records: [String: GeofenceRecord]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(records)
    }

    /// What one killed run of the writer acknowledged: the last fix whose save returned, if any.
    ///
    /// The run blocks (on the writer's output and its exit), so it runs on a thread of its own, not
    /// on one of the few threads that run the other suites' tasks.
    static func runAndKill(
        in directory: URL, after delay: UInt64
    ) async throws -> (lastAck: Int?, killed: Bool, errors: String) {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Result { try blockingRunAndKill(in: directory, after: delay) })
            }
            thread.start()
        }
    }

    private static func blockingRunAndKill(
        in directory: URL, after delay: UInt64
    ) throws -> (lastAck: Int?, killed: Bool, errors: String) {
        let process = Process()
        process.executableURL = writer
        process.arguments = ["store-writer", directory.path, "1000000"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The delay counts from the writer's "ready" line, so that a slow start (a sanitizer
        // build) does not turn every kill into one before the first save.
        var received = Data()
        let reader = output.fileHandleForReading
        while !received.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }  // the writer ended
            received.append(chunk)
        }
        usleep(useconds_t(delay / 1_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        received.append(reader.readDataToEndOfFile())
        let text = String(decoding: received, as: UTF8.self)
        let message = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // Only whole lines count: a line is written with one write(2) after the save returned.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let lastAck = lines.last { $0.hasPrefix("ack ") }.flatMap { Int($0.dropFirst(4)) }
        return (lastAck, process.terminationReason == .uncaughtSignal, message)
    }

    @Test func sigkillDuringSavesNeverLosesOrMixesState() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.writer.path),
            "the crash harness needs meridian-fuzz, built beside the tests at \(Self.writer.path)")
        let directory = try Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var rng = SplitMix64(seed: 2026_12_01)
        var durable = -1  // the last fix a writer acknowledged, over all runs
        var kills = 0
        var saves = 0
        let fenceOrder = try StoreWriter.fences().map(\.0)
        let replay = try await StoreWriter.replay()
        var replayed = -1
        // A first run that makes some saves; then kills at random instants after the start.
        var delay: UInt64 = 50_000_000
        while kills < 1_000 && (saves < 2_000 || kills < 40) {
            let run = try await Self.runAndKill(in: directory, after: delay)
            delay = rng.next() % 80_000_000
            guard run.killed else {
                Issue.record("the writer stopped by itself: \(run.errors)")
                return
            }
            kills += 1
            let monitor: GeofenceMonitor
            do {
                monitor = try GeofenceMonitor(
                    name: StoreWriter.name, storage: .directory(directory))
            } catch {
                Issue.record("after kill \(kills) the store does not open: \(error)")
                return
            }
            var records: [String: GeofenceRecord] = [:]
            for identifier in await monitor.identifiers {
                records[identifier] = await monitor.record(for: identifier)
            }
            let last = await monitor.lastProcessedFix.map(StoreWriter.step(of:))
            await monitor.close()
            if let ack = run.lastAck {
                saves += ack - durable
                durable = ack
            }
            guard let step = last else {
                // Killed while adding the fences: some of them, in order, and no fix yet.
                #expect(durable == -1, "fix \(durable) was acknowledged but the store has no fix")
                #expect(fenceOrder.prefix(records.count).sorted() == records.keys.sorted())
                continue
            }
            #expect(
                step == durable || step == durable + 1,
                "after kill \(kills) the store holds fix \(step); fix \(durable) was acknowledged")
            guard step >= replayed else {
                Issue.record(
                    "after kill \(kills) the store went back from fix \(replayed) to \(step)")
                return
            }
            while replayed < step {
                replayed += 1
                _ = try await replay.process(StoreWriter.fix(replayed))
            }
            var expected: [String: GeofenceRecord] = [:]
            for identifier in await replay.identifiers {
                expected[identifier] = await replay.record(for: identifier)
            }
            #expect(
                try Self.json(records) == Self.json(expected),
                "after kill \(kills) the state is not the one after fix \(step)")
            durable = max(durable, step)
        }
        #expect(kills >= 40 && saves >= 2_000, "\(kills) kills over \(saves) saves")
    }
}
