import Foundation
import GeoCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a directory-backed ``GeofenceMonitor``: atomic, checksummed, with a second copy.
///
/// ### Format
/// A one-line header `meridian-geofences 1 <length> <crc32>\n` (format version, the byte length of
/// the state and its ``CRC32`` as eight hexadecimal digits), then the state as JSON. A file whose
/// header is missing or unknown, whose state is shorter or longer than the header says (a truncated
/// file), whose checksum does not match (a corrupt one) or whose JSON does not decode is rejected
/// with `GeoError.Kind.corruptStore`; the error names the file and what is wrong.
///
/// ### Writing
/// Every save writes the bytes to `<file>.tmp`, `fsync`s it, renames it over `<file>` (atomic on
/// POSIX file systems, so a reader sees the old state or the new one, never a mix) and `fsync`s the
/// directory so the rename itself survives a power cut; then it does the same for the second copy,
/// `<file>.backup`. A crash at any point leaves at least one complete, valid copy of the newest or
/// the previous state; leftover temporary files are ignored and removed at the next open.
///
/// ### Reading a damaged store
/// Opening never writes: a damaged `<file>` makes the open fail and stays as it is, and the message
/// says whether the backup is valid. ``GeofenceMonitor/restoreBackup(name:storage:)`` then moves the
/// damaged file aside to `<file>.corrupt-<n>` (nothing is deleted) and installs the backup.
struct GeofenceStore: Sendable {
    let directory: URL
    let name: String

    var currentPath: String { directory.appendingPathComponent(name + ".geofences").path }
    var backupPath: String { currentPath + ".backup" }

    /// What is saved.
    struct Snapshot: Codable, Sendable, Equatable {
        var format: Int = 1
        var name: String
        var records: [Stored]
        var lastFix: Location?

        struct Stored: Codable, Sendable, Equatable {
            var identifier: String
            var record: GeofenceRecord
        }
    }

    static let magic = "meridian-geofences"
    static let version = 1

    // MARK: - Loading

    /// Reads the state, or `nil` for a monitor that was never saved.
    ///
    /// - Throws: `GeoError.Kind.corruptStore` for a damaged file (or a missing one
    ///   whose backup exists), `GeoError.Kind.io` if it cannot be read.
    func load() throws(GeoError) -> Snapshot? {
        let manager = FileManager.default
        guard manager.fileExists(atPath: currentPath) else {
            if manager.fileExists(atPath: backupPath) {
                throw GeoError(
                    .corruptStore,
                    "geofence store \(currentPath) is missing but its backup \(backupPath) exists; \(backupAdvice())"
                )
            }
            return nil
        }
        do throws(GeoError) {
            return try Self.decode(try read(currentPath), path: currentPath)
        } catch  where error.kind == .corruptStore {
            throw GeoError(
                .corruptStore, "\(error.message); the file was left untouched; \(backupAdvice())")
        }
    }

    /// The advice about the backup that ends a corruption message.
    private func backupAdvice() -> String {
        guard FileManager.default.fileExists(atPath: backupPath) else {
            return "there is no backup"
        }
        do throws(GeoError) {
            let snapshot = try Self.decode(try read(backupPath), path: backupPath)
            return
                "the last good state (\(snapshot.records.count) conditions) is in the backup \(backupPath); "
                + "GeofenceMonitor.restoreBackup(name:storage:) installs it"
        } catch {
            return "the backup is damaged too: \(error.message)"
        }
    }

    private func read(_ path: String) throws(GeoError) -> [UInt8] {
        // An empty file is answered here: Foundation's reader leaks a 4 KiB buffer on one.
        var info = stat()
        if stat(path, &info) == 0 && info.st_size == 0 { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GeoError(.io, "cannot read geofence store \(GeoError.quoted(path, limit: .max))")
        }
        return [UInt8](data)
    }

    /// Checks the header, length and checksum, then decodes the JSON.
    static func decode(_ bytes: [UInt8], path: String) throws(GeoError) -> Snapshot {
        func corrupt(_ what: String) -> GeoError {
            GeoError(.corruptStore, "geofence store \(GeoError.quoted(path, limit: .max)) \(what)")
        }
        guard !bytes.isEmpty else { throw corrupt("is empty (truncated to 0 bytes)") }
        guard let newline = bytes.prefix(200).firstIndex(of: UInt8(ascii: "\n")) else {
            throw corrupt("does not start with a '\(magic)' header line")
        }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 4, header[0] == magic else {
            throw corrupt("does not start with a '\(magic)' header line")
        }
        guard let version = Int(header[1]) else {
            throw corrupt("has an unreadable format version \(GeoError.quoted(header[1]))")
        }
        guard version == Self.version else {
            throw corrupt(
                "has format version \(version); this version of Meridian reads version \(Self.version)"
            )
        }
        guard let length = Int(header[2]), length >= 0, let expected = UInt32(header[3], radix: 16)
        else {
            throw corrupt(
                "has an unreadable header \(GeoError.quoted(String(decoding: bytes[..<newline], as: UTF8.self)))"
            )
        }
        let payload = bytes[(newline + 1)...]
        guard payload.count >= length else {
            throw corrupt(
                "is truncated: its header promises \(length) bytes of state but only \(payload.count) follow (offset \(newline + 1))"
            )
        }
        guard payload.count == length else {
            throw corrupt(
                "has \(payload.count - length) unexpected bytes after its state (offset \(newline + 1 + length))"
            )
        }
        let actual = CRC32.checksum(payload)
        guard actual == expected else {
            throw corrupt(
                "is corrupt: the state's checksum is \(hex(actual)) but the header records \(hex(expected))"
            )
        }
        do {
            return try decoder.decode(Snapshot.self, from: Data(payload))
        } catch {
            throw corrupt("holds state that does not decode: \(error)")
        }
    }

    // MARK: - Saving

    /// Writes the state atomically to the file and then to its backup.
    ///
    /// - Throws: `GeoError.Kind.io` naming the file and the system's reason.
    func save(_ snapshot: Snapshot) throws(GeoError) {
        let bytes = try Self.encode(snapshot)
        try Self.writeAtomically(bytes, to: currentPath)
        try Self.writeAtomically(bytes, to: backupPath)
    }

    static func encode(_ snapshot: Snapshot) throws(GeoError) -> [UInt8] {
        let json: Data
        do {
            json = try encoder.encode(snapshot)
        } catch {
            throw GeoError(.io, "cannot encode the geofence state: \(error)")
        }
        let header = "\(magic) \(version) \(json.count) \(hex(CRC32.checksum(json)))\n"
        return Array(header.utf8) + Array(json)
    }

    /// Writes to `<path>.tmp`, `fsync`s, renames over `path`, `fsync`s the directory.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(GeoError) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw GeoError(.io, "cannot create \(temporary): \(systemError())") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(fd, base + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = systemError()
                close(fd)
                unlink(temporary)
                throw GeoError(.io, "cannot write \(temporary): \(reason)")
            }
            offset += written
        }
        guard fsync(fd) == 0 else {
            let reason = systemError()
            close(fd)
            unlink(temporary)
            throw GeoError(.io, "cannot flush \(temporary) to disk: \(reason)")
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let reason = systemError()
            unlink(temporary)
            throw GeoError(
                .io,
                "cannot rename \(GeoError.quoted(temporary, limit: .max)) to \(GeoError.quoted(path, limit: .max)): \(reason)"
            )
        }
        let directory = (path as NSString).deletingLastPathComponent
        let dfd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        if dfd >= 0 {
            // some file systems refuse fsync on directories; the rename is done either way
            _ = fsync(dfd)
            close(dfd)
        }
    }

    /// Removes temporary files a crash may have left behind.
    func removeLeftovers() {
        for path in [currentPath + ".tmp", backupPath + ".tmp"]
        where FileManager.default.fileExists(atPath: path) {
            unlink(path)
        }
    }

    // MARK: - Restoring

    /// Moves a damaged state file aside and installs the backup in its place.
    ///
    /// - Returns: Where the damaged file went, if there was one.
    /// - Throws: `GeoError.Kind.corruptStore` if the backup is missing or damaged
    ///   (then nothing is changed), `GeoError.Kind.io` for file-system failures.
    @discardableResult
    func restoreBackup() throws(GeoError) -> String? {
        guard FileManager.default.fileExists(atPath: backupPath) else {
            throw GeoError(
                .corruptStore,
                "geofence store \(currentPath) has no backup \(backupPath) to restore")
        }
        guard let data = FileManager.default.contents(atPath: backupPath) else {
            throw GeoError(.io, "cannot read geofence store backup \(backupPath)")
        }
        let bytes = [UInt8](data)
        _ = try Self.decode(bytes, path: backupPath)
        var movedTo: String?
        if FileManager.default.fileExists(atPath: currentPath) {
            var n = 1
            while FileManager.default.fileExists(atPath: currentPath + ".corrupt-\(n)") { n += 1 }
            let aside = currentPath + ".corrupt-\(n)"
            guard rename(currentPath, aside) == 0 else {
                throw GeoError(
                    .io, "cannot move \(currentPath) aside to \(aside): \(systemError())")
            }
            movedTo = aside
        }
        try Self.writeAtomically(bytes, to: currentPath)
        return movedTo
    }

    // MARK: - Coding

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

/// The geofence store's file format, for the fuzzer and the crash-safety harness: decode and
/// encode without a monitor.
package enum GeofenceStoreFormat {
    /// A store file's contents, opaque outside the module.
    package struct Contents: Equatable, Sendable {
        fileprivate var snapshot: GeofenceStore.Snapshot
    }

    /// The contents of a store file's bytes.
    ///
    /// - Throws: `GeoError.Kind.corruptStore` naming what is wrong.
    package static func decode(_ bytes: [UInt8]) throws(GeoError) -> Contents {
        Contents(snapshot: try GeofenceStore.decode(bytes, path: "input"))
    }

    /// The bytes of a store file holding the contents.
    package static func encode(_ contents: Contents) throws(GeoError) -> [UInt8] {
        try GeofenceStore.encode(contents.snapshot)
    }
}
