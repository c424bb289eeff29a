import Foundation
import GeoCore
import GeoFence

/// The writer of the store crash harness (`meridian-fuzz store-writer DIRECTORY STEPS`): opens the
/// monitor `crash` in a directory and processes one fix per step, printing `ack N` after the save
/// of fix N has returned, until it is killed or the steps run out.
///
/// The harness kills it at a random instant and checks that the store then opens with the state
/// after fix N or N + 1 (the one being saved when it died) and nothing else; ``StoreWriter/replay()``
/// follows the same fixes in memory to say what that state is.
enum StoreWriter {
    static let name = "crash"

    /// The fences: three circles a walk along a meridian enters and leaves again and again.
    static func fences() throws(GeoError) -> [(String, CircularGeographicCondition)] {
        try [
            ("north", CircularGeographicCondition(center: at(0.0010), radius: 60)),
            ("middle", CircularGeographicCondition(center: at(0.0005), radius: 40)),
            ("south", CircularGeographicCondition(center: at(0), radius: 80)),
        ]
    }

    /// Fix `step`: every 17 s a position on a zig-zag walk across the three fences.
    static func fix(_ step: Int) -> Location {
        let phase = Double(step % 40) / 20
        let offset = (phase <= 1 ? phase : 2 - phase) * 0.0014 - 0.0002
        return Location(
            coordinate: at(offset), altitude: 300, horizontalAccuracy: 3,
            timestamp: Date(timeIntervalSince1970: start + 17 * Double(step)))
    }

    /// The time of fix 0, in seconds since 1970.
    static let start = 1_800_000_000.0

    /// The step of a fix this writer made.
    static func step(of fix: Location) -> Int {
        Int(((fix.timestamp.timeIntervalSince1970 - start) / 17).rounded())
    }

    private static func at(_ northOffset: Double) -> Coordinate {
        Coordinate(latitude: 45.5 + northOffset, longitude: 13.7)
    }

    /// Runs the writer until killed or done.
    static func run(directory: URL, steps: Int) async throws {
        let monitor = try GeofenceMonitor(name: name, storage: .directory(directory))
        var step = 0
        if let last = await monitor.lastProcessedFix {
            step = Self.step(of: last) + 1
        } else {
            for (identifier, fence) in try fences() {
                try await monitor.add(fence, identifier: identifier)
            }
        }
        FileHandle.standardOutput.write(Data("ready \(step)\n".utf8))
        while step < steps {
            _ = try await monitor.process(fix(step))
            FileHandle.standardOutput.write(Data("ack \(step)\n".utf8))  // one write(2)
            step += 1
        }
        await monitor.close()
    }

    /// An in-memory monitor with the writer's fences and no fix yet: process ``fix(_:)`` 0, 1, …
    /// to follow the writer.
    static func replay() async throws -> GeofenceMonitor {
        let monitor = try GeofenceMonitor(name: name, storage: .inMemory)
        for (identifier, fence) in try fences() {
            try await monitor.add(fence, identifier: identifier)
        }
        return monitor
    }
}
