import GeoCore
import GeoTestSupport
import Testing

@testable import GeoFence

@Suite("RadixSort")
struct RadixSortTests {
    /// Sorting by the upper halves equals a stable sort by them, on seeded keys with many ties.
    @Test func matchesAStableSort() {
        var rng = SplitMix64(seed: 4)
        var keys = (0..<20_000).map { i in (rng.next() % 5_000) << 32 | UInt64(i) }
        let expected = keys.enumerated().sorted { a, b in
            (a.element >> 32, a.offset) < (b.element >> 32, b.offset)
        }.map(\.element)
        RadixSort.sortByHighHalf(&keys)
        #expect(keys == expected)
        var one: [UInt64] = [7]
        RadixSort.sortByHighHalf(&one)
        #expect(one == [7])
    }
}
