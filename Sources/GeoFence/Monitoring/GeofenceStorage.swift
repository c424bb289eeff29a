import Foundation
import GeoCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a ``GeofenceMonitor`` keeps its conditions, states and last events.
public struct GeofenceStorage: Hashable, Sendable {
    enum Place: Hashable, Sendable {
        case directory(URL)
        case memory
    }

    let place: Place

    /// Files in a directory (created if missing): `<name>.geofences` holds the state,
    /// `<name>.geofences.backup` a second copy of it, `<name>.geofences.lock` the lock that keeps a
    /// second monitor of the same name out, in this process or another.
    public static func directory(_ url: URL) -> GeofenceStorage {
        GeofenceStorage(place: .directory(url.standardizedFileURL))
    }

    /// Nothing is written; the state lives as long as the monitor. One monitor per name may be open
    /// in the process.
    public static let inMemory = GeofenceStorage(place: .memory)

    /// Checks that a monitor name can be used as part of a file name.
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` naming the name.
    static func check(name: String) throws(GeoError) {
        let allowed = name.unicodeScalars.allSatisfy { c in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "."
                || c == "_" || c == "-"
        }
        guard !name.isEmpty, name.count <= 128, allowed, !name.hasPrefix(".") else {
            throw GeoError(
                .invalidArgument,
                "monitor name \(GeoError.quoted(name)) must be 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'"
            )
        }
    }
}

// MARK: - The one-open-monitor lock

/// Holds the right to be the one open monitor of a name and storage; released when it is freed.
///
/// For a directory this is an exclusive `flock` on `<name>.geofences.lock`, which conflicts with a
/// second open of the same file in this process or any other. For memory storage it is an entry in
/// a process-wide set of names.
final class MonitorLock: Sendable {
    private let descriptor: Int32
    private let memoryName: String?

    /// The names of the monitors open in memory, only touched under ``memoryNamesLock``: an
    /// `NSLock` (a pthread mutex) rather than `Mutex`, whose futex ThreadSanitizer cannot see, so
    /// that monitors opened on several threads at once are not reported as a race.
    nonisolated(unsafe) private static var memoryNames = Set<String>()
    private static let memoryNamesLock = NSLock()

    private init(descriptor: Int32, memoryName: String?) {
        self.descriptor = descriptor
        self.memoryName = memoryName
    }

    /// Takes the lock of a monitor.
    ///
    /// - Throws: `GeoError.Kind.monitorInUse` if another monitor holds it,
    ///   `GeoError.Kind.io` if the lock file cannot be opened.
    static func acquire(name: String, storage: GeofenceStorage) throws(GeoError) -> MonitorLock {
        switch storage.place {
        case .memory:
            let inserted = memoryNamesLock.withLock { memoryNames.insert(name).inserted }
            guard inserted else {
                throw GeoError(
                    .monitorInUse,
                    "a geofence monitor named \(GeoError.quoted(name)) is already open in memory")
            }
            return MonitorLock(descriptor: -1, memoryName: name)
        case .directory(let url):
            let path = url.appendingPathComponent(name + ".geofences.lock").path
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw GeoError(
                    .io,
                    "cannot open lock file \(GeoError.quoted(path, limit: .max)): \(systemError())")
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let reason = errno == EWOULDBLOCK ? nil : systemError()
                close(fd)
                if let reason {
                    throw GeoError(
                        .io, "cannot lock \(GeoError.quoted(path, limit: .max)): \(reason)")
                }
                throw GeoError(
                    .monitorInUse,
                    "a geofence monitor named \(GeoError.quoted(name)) is already open on \(GeoError.quoted(url.path, limit: .max)) (lock \(GeoError.quoted(path, limit: .max)) is held)"
                )
            }
            return MonitorLock(descriptor: fd, memoryName: nil)
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }  // closing the descriptor releases the flock
        if let memoryName {
            _ = Self.memoryNamesLock.withLock { Self.memoryNames.remove(memoryName) }
        }
    }
}

/// The text of the current `errno`.
func systemError() -> String {
    let code = errno
    return String(cString: strerror(code)) + " (errno \(code))"
}
