/// Least-significant-digit radix sort of 64-bit keys by their upper 32 bits, in two passes of 16
/// bits: O(n), stable, so keys with equal upper halves stay in the order of their lower halves
/// when those were ascending.
///
/// ``GeofenceIndex`` sorts its fences along the Hilbert curve this way: the curve index in the
/// upper half, the fence's position in the lower.
enum RadixSort {
    static func sortByHighHalf(_ keys: inout [UInt64]) {
        let n = keys.count
        guard n > 1 else { return }
        var buffer = [UInt64](repeating: 0, count: n)
        for shift in [UInt64(32), 48] {
            var counts = [Int](repeating: 0, count: 65_537)
            for key in keys { counts[Int((key >> shift) & 0xFFFF) + 1] += 1 }
            for i in 0..<65_536 { counts[i + 1] += counts[i] }
            for key in keys {
                let digit = Int((key >> shift) & 0xFFFF)
                buffer[counts[digit]] = key
                counts[digit] += 1
            }
            swap(&keys, &buffer)
        }
    }
}
