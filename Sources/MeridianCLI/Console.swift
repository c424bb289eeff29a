import Foundation

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

    /// The process's standard streams.
    static var standard: Console {
        Console(
            readLine: { Swift.readLine(strippingNewline: true) },
            readAll: { FileHandle.standardInput.readDataToEndOfFile() },
            write: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            writeError: { text in FileHandle.standardError.write(Data(text.utf8)) })
    }

    /// Writes a line to standard output.
    func print(_ line: String) { write(line + "\n") }

    /// Writes a line to standard error.
    func printError(_ line: String) { writeError(line + "\n") }
}

/// A console backed by strings, for tests and for running commands in-process.
final class BufferedConsole {
    private var lines: [String]
    private var nextLine = 0
    /// Everything written to standard output.
    private(set) var output = ""
    /// Everything written to standard error.
    private(set) var errorOutput = ""

    init(input: String = "") {
        var split = input.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if split.last == "" { split.removeLast() }
        lines = split
    }

    var console: Console {
        Console(
            readLine: { [unowned self] in
                guard nextLine < lines.count else { return nil }
                defer { nextLine += 1 }
                return lines[nextLine]
            },
            readAll: { [unowned self] in
                let rest = lines[nextLine...].joined(separator: "\n")
                nextLine = lines.count
                return Data(rest.utf8)
            },
            write: { [unowned self] in output += $0 },
            writeError: { [unowned self] in errorOutput += $0 })
    }
}
