/// Least-significant-digit radix sort of 64-bit keys: O(n · passes), stable, with an optional
/// payload that moves with its key.
///
/// Digits are 11 bits, so each pass's 2 048 counters stay in the first-level cache; only the passes
/// covering `bits` run, and a pass whose digit is the same for every key is skipped. The fence index
/// sorts its fences along the Hilbert curve with it (curve index in the upper half, position in the
/// lower); the cluster build sorts records into grid cells.
package enum RadixSort {
    /// The bits of a digit.
    static let digitBits = 11

    /// Sorts `keys` ascending by the bits in `bits` (stable: keys equal in those bits keep their
    /// order).
    package static func sort(_ keys: inout [UInt64], bits: Range<Int> = 0..<64) {
        var none = [UInt32]()
        sort(&keys, payload: &none, carriesPayload: false, bits: bits)
    }

    /// Sorts `keys` ascending by the bits in `bits` (stable) and sets `order[i]` to the original
    /// position of the i-th key.
    package static func sort(
        _ keys: inout [UInt64], order: inout [UInt32], bits: Range<Int> = 0..<64
    ) {
        order = (0..<keys.count).map { UInt32(truncatingIfNeeded: $0) }
        sort(&keys, payload: &order, carriesPayload: true, bits: bits)
    }

    private static func sort(
        _ keys: inout [UInt64], payload: inout [UInt32], carriesPayload: Bool, bits: Range<Int>
    ) {
        let n = keys.count
        let low = max(0, bits.lowerBound), high = min(64, bits.upperBound)
        guard n > 1, high > low else { return }
        let radix = 1 << digitBits
        // Each pass's shift and mask; the last may be narrower than a digit.
        let digits = stride(from: low, to: high, by: digitBits).map { shift in
            (shift: UInt64(shift), mask: (UInt64(1) << UInt64(min(digitBits, high - shift))) - 1)
        }
        var counts = [Int](repeating: 0, count: radix * digits.count)
        counts.withUnsafeMutableBufferPointer { counts in
            for key in keys {
                for (pass, digit) in digits.enumerated() {
                    counts[pass &* radix &+ Int((key >> digit.shift) & digit.mask)] &+= 1
                }
            }
        }
        var scratchKeys = [UInt64](repeating: 0, count: n)
        var scratchPayload = [UInt32](repeating: 0, count: carriesPayload ? n : 0)
        var next = [Int](repeating: 0, count: radix)
        for (pass, digit) in digits.enumerated() {
            let base = pass * radix
            // A pass whose digit is the same for every key changes nothing.
            if counts[base..<(base + radix)].contains(n) { continue }
            var sum = 0
            for d in 0..<radix {
                next[d] = sum
                sum += counts[base + d]
            }
            keys.withUnsafeBufferPointer { keys in
                payload.withUnsafeBufferPointer { payload in
                    scratchKeys.withUnsafeMutableBufferPointer { outKeys in
                        scratchPayload.withUnsafeMutableBufferPointer { outPayload in
                            next.withUnsafeMutableBufferPointer { next in
                                for i in 0..<n {
                                    let key = keys[i]
                                    let d = Int((key >> digit.shift) & digit.mask)
                                    let to = next[d]
                                    next[d] = to &+ 1
                                    outKeys[to] = key
                                    if carriesPayload { outPayload[to] = payload[i] }
                                }
                            }
                        }
                    }
                }
            }
            swap(&keys, &scratchKeys)
            if carriesPayload { swap(&payload, &scratchPayload) }
        }
    }
}
