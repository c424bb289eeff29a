import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoFence

@Suite("GeofenceStore: persistence")
struct GeofenceStoreTests {
    /// A monitor with some history: two fences, one entered (with a last event), a last fix.
    private func populate(
        _ directory: URL, name: String = "notes"
    ) async throws -> [String: GeofenceRecord] {
        let monitor = try GeofenceMonitor(name: name, storage: .directory(directory))
        let center = Coordinate(latitude: 46.0569, longitude: 14.5058)
        try await monitor.add(
            CircularGeographicCondition(center: center, radius: 200), identifier: "lab")
        try await monitor.add(
            PolygonGeographicCondition(exterior: [
                Coordinate(latitude: 46, longitude: 14.4),
                Coordinate(latitude: 46, longitude: 14.6),
                Coordinate(latitude: 46.2, longitude: 14.5),
            ]), identifier: "valley", assuming: .unsatisfied)
        _ = try await monitor.process(
            Location(
                coordinate: center, altitude: .nan, horizontalAccuracy: 5, timestamp: referenceDate)
        )
        var records = [String: GeofenceRecord]()
        for id in await monitor.identifiers { records[id] = await monitor.record(for: id) }
        await monitor.close()
        return records
    }

    private func records(of monitor: GeofenceMonitor) async -> [String: GeofenceRecord] {
        var records = [String: GeofenceRecord]()
        for id in await monitor.identifiers { records[id] = await monitor.record(for: id) }
        return records
    }

    /// Records as sorted JSON, so that the NaN altitude of the saved fix compares equal to itself.
    private func same(_ a: [String: GeofenceRecord], _ b: [String: GeofenceRecord]) -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return a.count == b.count && (try? encoder.encode(a)) == (try? encoder.encode(b))
            && (try? encoder.encode(a)) != nil
    }

    @Test func stateSurvivesARestart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try await populate(directory)
        #expect(saved.count == 2)
        #expect(saved["lab"]?.state == .satisfied && saved["lab"]?.lastEvent != nil)
        let reopened = try GeofenceMonitor(name: "notes", storage: .directory(directory))
        #expect(same(await records(of: reopened), saved))
        #expect(await reopened.lastProcessedFix?.timestamp == referenceDate)
        #expect(await reopened.lastProcessedFix?.altitude.isNaN == true)
        // The restored last fix still guards the order of fixes.
        await #expect(throws: GeoError.self) {
            try await reopened.process(
                Location(latitude: 46, longitude: 14.5, timestamp: referenceDate - 1))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files == ["notes.geofences", "notes.geofences.backup", "notes.geofences.lock"])
    }

    /// Truncating the state file at every length: every open fails with a clear corruptStore error,
    /// the file is not touched, and restoring the backup brings back everything.
    @Test func truncatedStoreLosesNothing() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try await populate(directory)
        let path = directory.appendingPathComponent("notes.geofences").path
        let good = try #require(FileManager.default.contents(atPath: path))
        for length in 0..<good.count {
            let truncated = good.prefix(length)
            try truncated.write(to: URL(fileURLWithPath: path))
            do {
                _ = try GeofenceMonitor(name: "notes", storage: .directory(directory))
                Issue.record("opened a store truncated to \(length) bytes")
            } catch {
                #expect(error.kind == .corruptStore)
                #expect(error.message.contains(path))
                #expect(error.message.contains("backup"))
                if length > 60 { #expect(error.message.contains("truncated")) }
            }
            #expect(FileManager.default.contents(atPath: path) == truncated)  // not overwritten
        }
        let aside = try GeofenceMonitor.restoreBackup(name: "notes", storage: .directory(directory))
        #expect(
            aside.map { FileManager.default.contents(atPath: $0) } == good.prefix(good.count - 1))
        let restored = try GeofenceMonitor(name: "notes", storage: .directory(directory))
        #expect(same(await records(of: restored), saved))
        #expect(FileManager.default.contents(atPath: path) == good)
    }

    /// Flipping a bit at any offset (every bit of the header) is detected, and nothing is lost. The one
    /// flip that may open is a checksum digit's letter case (`a` ↔ `A`), which names the same
    /// checksum; then the state is the saved one, whole.
    @Test func corruptStoreLosesNothing() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try await populate(directory)
        let path = directory.appendingPathComponent("notes.geofences").path
        let good = try #require(FileManager.default.contents(atPath: path))
        var opened = 0
        let headerLength = (good.firstIndex(of: UInt8(ascii: "\n")) ?? 0) + 1
        for position in 0..<good.count {
            // Every bit of the header; one bit per byte of the state, each bit position in turn.
            for bit in position < headerLength ? 0..<8 : position % 8..<position % 8 + 1 {
                var bad = good
                bad[position] ^= UInt8(1 << bit)
                try bad.write(to: URL(fileURLWithPath: path))
                do {
                    let monitor = try GeofenceMonitor(name: "notes", storage: .directory(directory))
                    opened += 1
                    #expect(
                        same(await records(of: monitor), saved),
                        "opened a store with bit \(bit) of byte \(position) flipped")
                    await monitor.close()
                } catch {
                    #expect(error.kind == .corruptStore, "\(error)")
                }
                #expect(FileManager.default.contents(atPath: path) == bad)
            }
        }
        #expect(opened <= 8)  // only the case of the checksum's hexadecimal letters
        try GeofenceMonitor.restoreBackup(name: "notes", storage: .directory(directory))
        let restored = try GeofenceMonitor(name: "notes", storage: .directory(directory))
        #expect(same(await records(of: restored), saved))
    }

    /// Both copies damaged: the open and the restore fail with clear errors and delete nothing.
    @Test func bothCopiesDamaged() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await populate(directory)
        let path = directory.appendingPathComponent("notes.geofences").path
        let good = try #require(FileManager.default.contents(atPath: path))
        try good.prefix(30).write(to: URL(fileURLWithPath: path))
        try Data("meridian-geofences 2 3 00000000\n{}\n".utf8).write(
            to: URL(fileURLWithPath: path + ".backup"))
        do {
            _ = try GeofenceMonitor(name: "notes", storage: .directory(directory))
            Issue.record("opened a store whose file and backup are both damaged")
        } catch {
            #expect(error.kind == .corruptStore)
            #expect(error.message.contains("damaged too"))
        }
        do {
            try GeofenceMonitor.restoreBackup(name: "notes", storage: .directory(directory))
            Issue.record("restored a damaged backup")
        } catch {
            #expect(error.kind == .corruptStore)
            #expect(error.message.contains("format version 2"))
        }
        #expect(FileManager.default.contents(atPath: path) == good.prefix(30))
    }

    /// A crash in the middle of a save leaves a partial temporary file; the state file is intact, the
    /// next open ignores and removes the leftover.
    @Test func crashDuringSaveLeavesTheLastGoodState() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try await populate(directory)
        let path = directory.appendingPathComponent("notes.geofences").path
        try Data("meridian-geofences 1 9999 0000".utf8).write(
            to: URL(fileURLWithPath: path + ".tmp"))
        let reopened = try GeofenceMonitor(name: "notes", storage: .directory(directory))
        #expect(same(await records(of: reopened), saved))
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    /// A save that fails (here the temporary file's name is taken by a directory) throws an I/O
    /// error and leaves the monitor and the files as they were.
    @Test func failedSaveChangesNothing() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try await populate(directory)
        let monitor = try GeofenceMonitor(name: "notes", storage: .directory(directory))
        let path = directory.appendingPathComponent("notes.geofences").path
        let before = FileManager.default.contents(atPath: path)
        try FileManager.default.createDirectory(
            atPath: path + ".tmp", withIntermediateDirectories: false)
        do {
            try await monitor.process(
                Location(latitude: 47, longitude: 15, timestamp: referenceDate + 60))
            Issue.record("a save into a directory succeeded")
        } catch {
            #expect(error.kind == .io)
        }
        await #expect(throws: GeoError.self) { try await monitor.remove("lab") }
        #expect(same(await records(of: monitor), saved))
        #expect(await monitor.lastProcessedFix?.timestamp == referenceDate)
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    /// A missing state file next to an existing backup is reported, not silently started afresh.
    @Test func missingStateWithBackup() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try await populate(directory)
        try FileManager.default.removeItem(
            atPath: directory.appendingPathComponent("notes.geofences").path)
        #expect(throws: GeoError.self) {
            try GeofenceMonitor(name: "notes", storage: .directory(directory))
        }
        #expect(
            try GeofenceMonitor.restoreBackup(name: "notes", storage: .directory(directory)) == nil)
        let restored = try GeofenceMonitor(name: "notes", storage: .directory(directory))
        #expect(same(await records(of: restored), saved))
    }

    @Test func restoreNeedsAClosedMonitor() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await populate(directory)
        let open = try GeofenceMonitor(name: "notes", storage: .directory(directory))
        #expect(throws: GeoError.self) {
            try GeofenceMonitor.restoreBackup(name: "notes", storage: .directory(directory))
        }
        await open.close()
        #expect(throws: GeoError.self) {
            try GeofenceMonitor.restoreBackup(name: "notes", storage: .inMemory)
        }
    }
}
