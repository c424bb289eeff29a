import Foundation

/// How much work the long randomized suites do: all of it normally, a quarter under the sanitizers.
///
/// CI runs the whole suite once at full size and again under AddressSanitizer and ThreadSanitizer,
/// which slow pure-Swift loops by 5–20×. There `MERIDIAN_TEST_SCALE` (a number in (0, 1]) shrinks
/// the step counts of the seeded random sequences, so the sanitizers still see every code path
/// while the full-size run keeps the coverage.
public enum TestScale {
    /// The factor from `MERIDIAN_TEST_SCALE`, or 1 when it is unset or not a number in (0, 1].
    public static let factor: Double = {
        guard let text = ProcessInfo.processInfo.environment["MERIDIAN_TEST_SCALE"],
            let value = Double(text), value > 0, value <= 1
        else { return 1 }
        return value
    }()

    /// `count` scaled by ``factor``, at least `minimum` (and never more than `count`).
    public static func steps(_ count: Int, minimum: Int = 1) -> Int {
        min(count, max(minimum, Int((Double(count) * factor).rounded())))
    }
}
