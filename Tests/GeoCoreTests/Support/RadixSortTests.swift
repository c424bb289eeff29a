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
}
