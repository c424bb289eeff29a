import Foundation
import GeoCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command reads its input and writes its output; tests substitute buffers.
struct Console {
    /// The next line of standard input without its line terminator, or `nil` at the end.
    var readLine: () -> String?
    /// All remaining bytes of standard input.
    var readAll: () -> Data
    /// Writes text to standard output.
    var write: (String) -> Void
    /// Writes text to standard error.
    var writeError: (String) -> Void
    /// Why reading standard input failed (a directory, a device error), or `nil` while it has
    /// not: a failed read ends the input like its end does, and the caller reports it.
    var readFailure: () -> String? = { nil }
    /// Whether ``readLine`` has a whole line to give without waiting for more input; a command
    /// that answers in batches answers what it has before it waits.
    var lineReady: () -> Bool = { true }
    /// What was wrong with the line ``readLine`` gave last, which it gave as empty text: longer
    /// than ``LineReader/maximumLineBytes``, or not UTF-8 (naming the byte); `nil` for a good
    /// line. A batch command answers such a line with an error record.
    var lineProblem: () -> String? = { nil }
    /// Records that the command reported ``readFailure`` itself; from then on ``readFailure``
    /// gives `nil`, so the caller does not report it again.
    var readFailureReported: () -> Void = {}

    /// The process's standard streams. Lines end at LF, CR LF or a lone CR, and a byte-order mark
    /// at the start is dropped, so input from any system reads the same.
    static var standard: Console {
        #if canImport(Glibc) || canImport(Darwin)
        // Standard input closed by the caller (`<&-`): descriptor 0 is free, and the next file
        // anything opens would take it (PROJ's database does), to be read as the input. It is
        // held on /dev/null, and the input reads as failed, as the exit codes document.
        let closed = fcntl(0, F_GETFD) == -1 && errno == EBADF
        if closed { _ = open("/dev/null", O_RDONLY) }
        let reader = LineReader { buffer in
            if closed { return -Int(EBADF) }
            // A read interrupted by a signal is read again; any other failure ends the input
            // and is kept for the command to report.
            while true {
                let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if n >= 0 { return n }
                if errno != EINTR { return -Int(errno) }
            }
        }
        #else
        // FileHandle hands out what is available, which may be more than one buffer holds: the
        // rest waits for the next read.
        var waiting = Data()
        let reader = LineReader { buffer in
            if waiting.isEmpty { waiting = FileHandle.standardInput.availableData }
            let n = min(buffer.count, waiting.count)
            buffer.replaceSubrange(0..<n, with: waiting.prefix(n))
            waiting = Data(waiting.dropFirst(n))
            return n
        }
        #endif
        return Console(
            readLine: { reader.next() },
            readAll: { reader.rest() },
            write: { text in
                do {
                    try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
                } catch {
                    // A full disk or a closed pipe: nothing written after this reaches the
                    // reader, so the command ends here, as the exit codes document.
                    try? FileHandle.standardError.write(
                        contentsOf: Data(
                            "meridian: cannot write standard output: \(Self.reason(error))\n".utf8))
                    exit(1)
                }
            },
            writeError: { text in
                do {
                    try FileHandle.standardError.write(contentsOf: Data(text.utf8))
                } catch {
                    exit(1)
                }
            },
            readFailure: {
                guard !reader.failureReported else { return nil }
                return reader.failure.map { code in
                    #if canImport(Glibc) || canImport(Darwin)
                    return String(cString: strerror(code))
                    #else
                    return "error \(code)"
                    #endif
                }
            },
            lineReady: { reader.hasLine },
            lineProblem: { reader.problem },
            readFailureReported: { reader.failureReported = true })
    }

    /// Why a write failed, in the system's words where it gave an error number.
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        let posix = [error, error.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap { $0 }
            .first { $0.domain == NSPOSIXErrorDomain && $0.code > 0 }
        #if canImport(Glibc) || canImport(Darwin)
        if let posix, let code = Int32(exactly: posix.code) {
            return String(cString: strerror(code))
        }
        #endif
        return error.localizedDescription
    }

    /// Writes a line to standard output, its control characters escaped (see ``visible(_:)``).
    func print(_ line: String) { write(Self.visible(line) + "\n") }

    /// Writes a line to standard error, its control characters escaped (see ``visible(_:)``).
    func printError(_ line: String) { writeError(Self.visible(line) + "\n") }

    /// A line as a terminal shows it faithfully: control characters other than tab (C0, DEL and
    /// C1: escape sequences, and breaks that would split one answer over two lines) and the line
    /// and paragraph separators U+2028 and U+2029 (which JavaScript's and Python's line
    /// splitters break at) written as `\u001B`, whatever data or argument they came from. That is
    /// also JSON's escape, so a JSON line (whose encoder leaves DEL and C1 raw inside strings)
    /// stays JSON that reads back the same. Lines without any are returned as they are, after one
    /// pass over their bytes.
    static func visible(_ line: String) -> String {
        var utf8 = line.utf8.makeIterator()
        var clean = true
        var (previous, beforePrevious): (UInt8, UInt8) = (0, 0)
        while let byte = utf8.next() {
            // C0 and DEL are single bytes; C1 is 0xC2 followed by 0x80...0x9F; U+2028 and
            // U+2029 are 0xE2 0x80 0xA8 and 0xE2 0x80 0xA9.
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F
                || (previous == 0xC2 && (0x80...0x9F).contains(byte))
                || (beforePrevious == 0xE2 && previous == 0x80 && (byte == 0xA8 || byte == 0xA9))
            {
                clean = false
                break
            }
            (beforePrevious, previous) = (previous, byte)
        }
        if clean { return line }
        var out = String.UnicodeScalarView()
        for scalar in line.unicodeScalars {
            if (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029
            {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}

/// Splits a byte stream into lines at LF, CR LF and lone CR, dropping a leading byte-order mark.
///
/// A line longer than ``maximumLineBytes`` is not held: its bytes are dropped as they arrive and
/// it is given as empty text with a ``problem``, so memory stays bounded whatever the input; a
/// line that is not UTF-8 is given the same way, naming its first bad byte.
final class LineReader {
    /// The longest line given as text, in bytes: 1 MiB, far beyond any job line.
    static let maximumLineBytes = 1 << 20
    /// What was wrong with the line ``next()`` gave last, or `nil`.
    private(set) var problem: String?
    /// How many bytes of the current line were dropped because it is too long.
    private var dropped = 0
    private let fill: (inout [UInt8]) -> Int
    private var buffer = [UInt8]()
    /// What each read fills, reused.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    /// Where the search for the next line's end resumes: the bytes before it (from `start` on)
    /// hold no line break, so a long line is scanned once, not once per read.
    private var scanned = 0
    private var atEnd = false
    private var first = true
    /// The error number of a failed read (the source returned −errno), which ended the input.
    private(set) var failure: Int32?
    /// Whether a command has reported ``failure`` itself (one that reads its input whole and
    /// answered nothing), so that it is not reported twice.
    var failureReported = false

    /// A reader over a source that fills a buffer and returns how many bytes it read: 0 at the
    /// end, −errno when reading failed (which ends the input too; see ``failure``).
    init(fill: @escaping (inout [UInt8]) -> Int) {
        self.fill = fill
    }

    /// A reader over bytes held in memory.
    convenience init(_ data: Data) {
        var remaining = data[...]
        self.init { buffer in
            let n = min(buffer.count, remaining.count)
            buffer.replaceSubrange(0..<n, with: remaining.prefix(n))
            remaining = remaining.dropFirst(n)
            return n
        }
    }

    private func more() -> Bool {
        guard !atEnd else { return false }
        let n = fill(&chunk)
        guard n > 0 else {
            if n < 0 { failure = Int32(clamping: -n) }
            atEnd = true
            return false
        }
        if start > 0 {
            buffer.removeFirst(start)
            scanned = max(0, scanned - start)
            start = 0
        }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Drops a byte-order mark at the very start of the stream, reading until there are three
    /// bytes to look at (or the end), so that no later line loses one.
    private func dropMark() {
        guard first else { return }
        while buffer.count - start < 3 && more() {}
        first = false
        if buffer[start...].starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        // UTF-16 (a Windows redirect) splits into nonsense at every byte 0x0A: the input is
        // refused as a whole, in one error, rather than answered line by garbled line.
        if buffer[start...].starts(with: [0xFF, 0xFE])
            || buffer[start...].starts(with: [0xFE, 0xFF])
        {
            utf16 = true
        }
    }

    /// Whether the input starts with UTF-16's byte-order mark.
    private var utf16 = false

    /// The next line, or `nil` at the end.
    func next() -> String? {
        while true {
            dropMark()
            if utf16 {
                // One line stands for the whole input; then the input has ended.
                guard start < buffer.count || more() else { return nil }
                while more() { start = buffer.count }
                start = buffer.count
                problem =
                    "the input is UTF-16 (it starts with its byte-order mark); convert it to UTF-8, "
                    + "for example with iconv -f UTF-16 -t UTF-8"
                return ""
            }
            let from = max(start, scanned)
            guard let end = buffer[from...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else {
                scanned = buffer.count
                // A line past the limit is not kept: what has come of it so far is dropped.
                if buffer.count - start > Self.maximumLineBytes {
                    dropped += buffer.count - start
                    start = buffer.count
                }
                if !more() {
                    guard start < buffer.count || dropped > 0 else { return nil }
                    let line = text(of: buffer[start...])
                    start = buffer.count
                    return line
                }
                continue
            }
            // A CR at the end of the buffer may be the first half of CR LF.
            if buffer[end] == 0x0D && end + 1 == buffer.count && !atEnd && more() { continue }
            let line = text(of: buffer[start..<end])
            start = end + 1
            if buffer[end] == 0x0D && start < buffer.count && buffer[start] == 0x0A {
                start += 1
            }
            return line
        }
    }

    /// A line's bytes as text, or empty text with a ``problem`` when the line was too long or is
    /// not UTF-8.
    private func text(of bytes: ArraySlice<UInt8>) -> String {
        defer { dropped = 0 }
        if dropped > 0 || bytes.count > Self.maximumLineBytes {
            problem =
                "the line is longer than \(Self.maximumLineBytes) bytes (\(dropped + bytes.count))"
            return ""
        }
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) {
            problem = UTF8Validation.message(
                byte: bytes[bytes.startIndex + bad], place: "at column \(bad + 1)")
            return ""
        }
        problem = nil
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether ``next()`` can answer from what has been read, without reading more: a line
    /// break is buffered (other than a CR that may be the first half of CR LF), or the input
    /// has ended.
    var hasLine: Bool {
        if atEnd { return true }
        guard !first else { return false }
        let from = max(start, scanned)
        guard let end = buffer[from...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else {
            return false
        }
        return buffer[end] == 0x0A || end + 1 < buffer.count
    }

    /// Everything not read yet.
    func rest() -> Data {
        dropMark()
        while more() {}
        defer { start = buffer.count }
        return Data(buffer[start...])
    }
}

/// A console backed by strings, for tests and for running commands in-process.
final class BufferedConsole {
    private let reader: LineReader
    /// Everything written to standard output.
    private(set) var output = ""
    /// Everything written to standard error.
    private(set) var errorOutput = ""

    init(input: String = "") {
        reader = LineReader(Data(input.utf8))
    }

    init(data: Data) {
        reader = LineReader(data)
    }

    var console: Console {
        Console(
            readLine: { [unowned self] in reader.next() },
            readAll: { [unowned self] in reader.rest() },
            write: { [unowned self] in output += $0 },
            writeError: { [unowned self] in errorOutput += $0 },
            lineReady: { [unowned self] in reader.hasLine },
            lineProblem: { [unowned self] in reader.problem })
    }
}
