/// Numbers written as text, read only when the whole text is the number.
package enum NumberParsing {
    /// The `Double` a decimal text spells, or `nil`: an optional sign, digits with an optional
    /// point, an optional exponent (`1e5`), or `nan`, `inf` and `infinity` in any case and with
    /// either sign (and C's `nan(123)`), correctly rounded as `Double(_:)` reads it.
    ///
    /// No data format this package reads writes hexadecimal numbers, which `Double(_:)` also reads
    /// (`0x1p3` is 8), so a text with an `x` is not a number here. And `Double(_:)` hands the text
    /// to C, where a NUL byte ends it (`"47.3\0junk"` would read as 47.3), so a text with a NUL is
    /// not a number either.
    /// - Complexity: O(n) in the text's length.
    @inlinable
    package static func decimal(_ text: some StringProtocol) -> Double? {
        guard !text.utf8.contains(where: { $0 == 0 || $0 | 0x20 == UInt8(ascii: "x") }) else {
            return nil
        }
        return Double(text)
    }
}
