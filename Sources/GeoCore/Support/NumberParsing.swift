/// Numbers written as text, read only when the whole text is the number.
package enum NumberParsing {
    /// The `Double` a text spells, as `Double(_:)` reads it (decimal and hexadecimal forms, `nan`,
    /// `inf`), or `nil`.
    ///
    /// `Double(_:)` hands the text to C, where a NUL byte ends it, so `"47.3\0junk"` would read as
    /// 47.3; here a text with a NUL is not a number.
    /// - Complexity: O(n) in the text's length.
    @inlinable
    package static func double(_ text: some StringProtocol) -> Double? {
        guard !text.utf8.contains(0) else { return nil }
        return Double(text)
    }
}
