import Foundation

/// SplitMix64 (G. Steele, D. Lea, C. Flood, *Fast splittable pseudorandom number generators*,
/// OOPSLA 2014): a tiny, seedable random number generator.
///
/// Meridian's benchmark workloads and test data generators draw from it so that a seed names the
/// same points on every machine and in every language that implements the same 64-bit recurrence.
/// Not for cryptography.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The internal state; the next output is a function of it alone.
    public private(set) var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniform in [0, 1) from the top 53 bits of the next output.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A double uniform in [low, high).
    public mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * nextUnit()
    }

    /// A standard normal deviate (Box–Muller, from two uniforms).
    public mutating func normal() -> Double {
        let u = max(nextUnit(), 0x1p-53), v = nextUnit()
        return (-2 * Foundation.log(u)).squareRoot() * Foundation.cos(2 * Double.pi * v)
    }
}
