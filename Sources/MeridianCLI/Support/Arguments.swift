import GeoCore

/// The one small argument parser all subcommands share.
///
/// Options are `--name value` or `--name=value`, each given at most once; flags are `--name`; a
/// one-letter value option may also be written `-k value`. Anything else is positional, including negative numbers such
/// as `-73.78`. `--` ends option parsing.
struct Arguments {
    private(set) var positional: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []
    private var consumed: Set<String> = []

    /// Splits raw arguments, given which option names take a value.
    ///
    /// - Throws: ``UsageError`` for an option that needs a value and has none.
    init(_ raw: [String], valueOptions: Set<String>) throws(UsageError) {
        var index = 0
        var onlyPositional = false
        while index < raw.count {
            var argument = raw[index]
            index += 1
            if !onlyPositional, argument.count == 2, argument.hasPrefix("-"),
                let letter = argument.last, letter.isLetter, valueOptions.contains(String(letter))
            {
                argument = "--" + String(letter)
            }
            if onlyPositional || !argument.hasPrefix("--") {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if valueOptions.contains(name) {
                if value == nil {
                    guard index < raw.count else {
                        throw UsageError("option --\(printable(name)) needs a value")
                    }
                    value = raw[index]
                    index += 1
                }
                // One value per option: a second would silently replace the first.
                guard options[name] == nil else {
                    throw UsageError(
                        "option --\(printable(name)) is given more than once; each option takes one value"
                    )
                }
                options[name] = value
            } else {
                guard value == nil else {
                    throw UsageError("option --\(printable(name)) takes no value")
                }
                flags.insert(name)
            }
        }
    }

    /// Whether a flag was given.
    mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    /// The value of an option, if given.
    mutating func option(_ name: String) -> String? {
        consumed.insert(name)
        return options[name]
    }

    /// The value of a numeric option.
    ///
    /// - Throws: ``UsageError`` naming the option and the text that is not a finite number.
    mutating func number(_ name: String) throws(UsageError) -> Double? {
        guard let text = option(name) else { return nil }
        guard let value = DelimitedText.number(text) else {
            throw UsageError("option --\(name): \(GeoError.quoted(text)) is not a number")
        }
        guard value.isFinite else {
            throw UsageError("option --\(name): \(GeoError.quoted(text)) is not finite")
        }
        return value
    }

    /// The value of an integer option.
    ///
    /// - Throws: ``UsageError`` naming the option and the text that is not an integer.
    mutating func integer(_ name: String) throws(UsageError) -> Int? {
        guard let text = option(name) else { return nil }
        guard let value = Int(text) else {
            throw UsageError("option --\(name): \(GeoError.quoted(text)) \(notAnInteger(text))")
        }
        return value
    }

    /// Throws for any option or flag the command did not ask about.
    mutating func rejectUnknown() throws(UsageError) {
        let unknown = Set(options.keys).union(flags).subtracting(consumed)
        if let name = unknown.sorted().first {
            throw UsageError("unknown option --\(printable(name))")
        }
    }
}

/// A mistake in how a command was called; printed with the command's usage, exit code 64.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Text from the command line or from data as a message or an answer shows it: control
/// characters escaped (see `GeoError.quoted`), without the quotes, cut at `limit` characters.
func printable(_ text: String, limit: Int = 80) -> String {
    String(GeoError.quoted(text, limit: limit).dropFirst().dropLast())
}
