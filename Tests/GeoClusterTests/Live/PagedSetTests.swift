import GeoTestSupport
import Testing

@testable import GeoCluster

@Suite("Paged sorted sets against a sorted array")
struct PagedSetTests {
    /// Seeded inserts and removes over a small key range (so that keys repeat and pages fill,
    /// split and merge at every size), each checked against a sorted array: the answers of
    /// insert and remove, the count, every element in order, and the first element at or after
    /// random keys (the page search at every page size from 1 to full).
    @Test("inserts, removes and searches match the oracle", arguments: [64, 600, 5000])
    func matchesOracle(keyRange: Int) {
        var rng = SplitMix64(seed: 0x5E7 + UInt64(keyRange))
        var set = PagedSet<Int>()
        var oracle = [Int]()
        func lowerBound(_ key: Int) -> Int {
            var lo = 0, hi = oracle.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if oracle[mid] < key { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        let steps = TestScale.steps(20_000, minimum: 5_000)
        for step in 0..<steps {
            let key = Int(rng.next() % UInt64(keyRange))
            let at = lowerBound(key)
            let present = at < oracle.count && oracle[at] == key
            // Grow for the first half, then mostly shrink, so that pages also merge.
            let inserting = rng.nextUnit() < (2 * step < steps ? 0.7 : 0.3)
            if inserting {
                #expect(set.insert(key) == !present)
                if !present { oracle.insert(key, at: at) }
            } else {
                #expect(set.remove(key) == present)
                if present { oracle.remove(at: at) }
            }
            #expect(set.count == oracle.count)
            let probe = Int(rng.next() % UInt64(keyRange + 2)) - 1
            let expected = lowerBound(probe)
            #expect(set.first(from: probe) == (expected < oracle.count ? oracle[expected] : nil))
            if step % 997 == 0 {
                var all = [Int]()
                set.forEach(from: Int.min) {
                    all.append($0)
                    return true
                }
                #expect(all == oracle, "step \(step)")
                if all != oracle { return }
            }
        }
    }

    /// A set made from sorted elements answers every search as the array does.
    @Test("a set made from sorted elements", arguments: [0, 1, 15, 16, 17, 191, 192, 193, 4000])
    func fromSorted(count: Int) {
        let elements = (0..<count).map { 3 * $0 }
        let set = PagedSet(sorted: elements)
        #expect(set.count == count)
        for key in -1...(3 * count + 1) {
            let expected = elements.first { $0 >= key }
            #expect(set.first(from: key) == expected, "key \(key) of \(count)")
        }
    }
}
