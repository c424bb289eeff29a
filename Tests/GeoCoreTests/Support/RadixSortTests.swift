import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("RadixSort")
struct RadixSortTests {
    /// Sorting by the upper halves equals a stable sort by them, on seeded keys with many ties.
    @Test func sortsByABitRangeStably() {
        var rng = SplitMix64(seed: 4)
        var keys = (0..<20_000).map { i in (rng.next() % 5_000) << 32 | UInt64(i) }
        let expected = keys.enumerated().sorted { a, b in
            (a.element >> 32, a.offset) < (b.element >> 32, b.offset)
        }.map(\.element)
        RadixSort.sort(&keys, bits: 32..<64)
        #expect(keys == expected)
        var one: [UInt64] = [7]
        RadixSort.sort(&one)
        #expect(one == [7])
    }

    /// Bits outside the range do not take part: sorting the low 20 bits of keys whose upper bits are
    /// random keeps equal low parts in input order.
    @Test func ignoresBitsOutsideTheRange() {
        var rng = SplitMix64(seed: 11)
        var keys = (0..<10_000).map { _ in rng.next() & ~UInt64(0xF_FFFF) | (rng.next() % 300) }
        let expected = keys.enumerated().sorted { a, b in
            (a.element & 0xF_FFFF, a.offset) < (b.element & 0xF_FFFF, b.offset)
        }.map(\.element)
        RadixSort.sort(&keys, bits: 0..<20)
        #expect(keys == expected)
    }

    /// The order returned is the permutation applied: full 64-bit keys, with duplicates.
    @Test func returnsTheOrder() {
        var rng = SplitMix64(seed: 12)
        let original = (0..<5_000).map { _ in rng.next() % 7 == 0 ? 42 : rng.next() }
        var keys = original
        var order = [UInt32]()
        RadixSort.sort(&keys, order: &order)
        #expect(keys == original.sorted())
        #expect(order.map { original[Int($0)] } == keys)
        for i in 1..<keys.count where keys[i] == keys[i - 1] { #expect(order[i] > order[i - 1]) }
    }

    /// Keys of 1, 11, 12 and 40 significant bits and full 64-bit keys, sorted over their bits.
    @Test(arguments: [1, 11, 12, 40, 64])
    func sortsKeysOfAnyWidth(_ bits: Int) {
        var rng = SplitMix64(seed: 5)
        var keys = (0..<1000).map { _ in
            bits == 64 ? rng.next() : rng.next() & ((1 << UInt64(bits)) - 1)
        }
        let original = keys
        var order = [UInt32]()
        RadixSort.sort(&keys, order: &order, bits: 0..<bits)
        let expected = original.indices.sorted { (original[$0], $0) < (original[$1], $1) }
        #expect(order.map(Int.init) == expected)
        #expect(keys == expected.map { original[$0] })
    }

    /// On several threads the order is the one-thread sort's, stable: many ties, a bit range
    /// that skips the low bits, a digit every key shares (its pass skipped), and part counts that
    /// do not divide the keys evenly.
    @Test(arguments: [2, 3, 7])
    func sortsOnSeveralThreadsAsOnOne(_ parts: Int) {
        var rng = SplitMix64(seed: 13)
        let original = (0..<200_003).map { i in
            (rng.next() % 40_000) << 40 | 0x55 << 29 | UInt64(i)
        }
        var expected = original
        RadixSort.sort(&expected, bits: 29..<64)
        #expect(
            expected
                == original.sorted { ($0 >> 29, $0 & 0x1FFF_FFFF) < ($1 >> 29, $1 & 0x1FFF_FFFF) })
        var keys = original
        RadixSort.sort(&keys, bits: 29..<64, parts: parts)
        #expect(keys == expected)
        var full = original.map { $0 &* 0x9E37_79B9_7F4A_7C15 }
        let fullExpected = full.sorted()
        RadixSort.sort(&full, parts: parts)
        #expect(full == fullExpected)
        // Below 65,536 keys, one thread sorts.
        var small = Array(original.prefix(1000).reversed())
        RadixSort.sort(&small, bits: 0..<64, parts: parts)
        #expect(small == original.prefix(1000).sorted())
    }
}
