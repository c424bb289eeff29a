import Dispatch

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

    /// Sorts `keys` ascending by the bits in `bits` (stable), on up to `parts` threads from
    /// 65,536 keys: each pass, every part counts its own run of the keys, and then moves it to
    /// the places the counts of the runs before it leave, so the order is the one-thread sort's.
    /// - Complexity: O(n · passes) work, divided among the parts; n more keys of scratch memory.
    package static func sort(_ keys: inout [UInt64], bits: Range<Int> = 0..<64, parts: Int) {
        let n = keys.count
        let parts = n >= 65_536 ? max(1, min(parts, 16)) : 1
        guard parts > 1 else { return sort(&keys, bits: bits) }
        let low = max(0, bits.lowerBound), high = min(64, bits.upperBound)
        guard high > low else { return }
        let radix = 1 << digitBits
        var scratch = [UInt64](repeating: 0, count: n)
        // Each part's counters of the pass's digits, then where its first key of each digit goes.
        var counts = [Int](repeating: 0, count: parts * radix)
        for shift in stride(from: low, to: high, by: digitBits) {
            let shift = UInt64(shift)
            let mask = (UInt64(1) << UInt64(min(digitBits, high - Int(shift)))) - 1
            var skipped = false
            keys.withUnsafeBufferPointer { keyBuffer in
                scratch.withUnsafeMutableBufferPointer { scratchBuffer in
                    counts.withUnsafeMutableBufferPointer { countBuffer in
                        guard let out = scratchBuffer.baseAddress,
                            let countBase = countBuffer.baseAddress
                        else { return }
                        let source = SharedView(keyBuffer)
                        let slots = WorkerSlots(out), counters = WorkerSlots(countBase)
                        DispatchQueue.concurrentPerform(iterations: parts) { part in
                            let keys = source.buffer, count = counters.base + part * radix
                            count.update(repeating: 0, count: radix)
                            for i in (n * part / parts)..<(n * (part + 1) / parts) {
                                count[Int((keys[i] >> shift) & mask)] &+= 1
                            }
                        }
                        // A pass whose digit is the same for every key changes nothing.
                        var sum = 0
                        for d in 0..<radix {
                            let first = sum
                            for part in 0..<parts {
                                let c = countBase[part * radix + d]
                                countBase[part * radix + d] = sum
                                sum &+= c
                            }
                            if sum - first == n {
                                skipped = true
                                return
                            }
                        }
                        DispatchQueue.concurrentPerform(iterations: parts) { part in
                            let keys = source.buffer, next = counters.base + part * radix
                            for i in (n * part / parts)..<(n * (part + 1) / parts) {
                                let key = keys[i]
                                let d = Int((key >> shift) & mask)
                                let to = next[d]
                                next[d] = to &+ 1
                                slots.base[to] = key
                            }
                        }
                    }
                }
            }
            if !skipped { swap(&keys, &scratch) }
        }
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
