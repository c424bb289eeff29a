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
                // Every page of a set of several is at least a quarter full.
                #expect(set.pages.count == 1 || set.pages.allSatisfy { $0.count >= 64 })
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
    @Test(
        "a set made from sorted elements", arguments: [0, 1, 15, 16, 17, 239, 240, 241, 481, 4000])
    func fromSorted(count: Int) {
        let elements = (0..<count).map { 3 * $0 }
        let set = PagedSet(sorted: elements)
        #expect(set.count == count)
        // Pages of nearly one size, at most fifteen sixteenths full.
        #expect(set.pages.count <= 1 || set.pages.allSatisfy { $0.count >= 120 && $0.count <= 240 })
        for key in -1...(3 * count + 1) {
            let expected = elements.first { $0 >= key }
            #expect(set.first(from: key) == expected, "key \(key) of \(count)")
        }
    }

    /// A set of one page keeps a buffer about as large as what it holds (a small partition's
    /// grid), however it got there; once it has more pages, they all have the full capacity.
    @Test("a set of one page stays small")
    func onePageStaysSmall() {
        var set = PagedSet<Int>()
        for key in 0..<10 { set.insert(key) }
        #expect(set.pages.count == 1 && set.pages[0].capacity < 32)
        let loaded = PagedSet(sorted: Array(0..<10))
        #expect(loaded.pages.count == 1 && loaded.pages[0].capacity < 32)
        for key in 10..<300 { set.insert(key) }
        #expect(set.pages.count == 2)
        #expect(set.pages.allSatisfy { $0.capacity >= PagedSet<Int>.pageCapacity })
    }

    /// Every page keeps a buffer of exactly the page capacity (allowing the allocator's rounding
    /// up), through inserts, removes, splits, merges and writes to pages a copy shares: an
    /// array's own growth would double a full page's buffer, and a copy made by a removal would
    /// be cut to its count. A copy taken along the way keeps its elements.
    @Test("page buffers stay at the page capacity; copies keep their elements")
    func pageBuffersKeepTheirSize() {
        let capacity = PagedSet<Int>.pageCapacity
        var rng = SplitMix64(seed: 0xB0F)
        var set = PagedSet(sorted: Array(stride(from: 0, to: 40_000, by: 2)))
        var oracle = Set(stride(from: 0, to: 40_000, by: 2))
        var copy = set
        var copyOracle = oracle
        func elements(_ set: PagedSet<Int>) -> [Int] {
            var all = [Int]()
            set.forEach(from: Int.min) {
                all.append($0)
                return true
            }
            return all
        }
        for step in 0..<TestScale.steps(30_000, minimum: 10_000) {
            if step % 5_000 == 0 {
                #expect(elements(copy) == copyOracle.sorted(), "step \(step)")
                copy = set
                copyOracle = oracle
            }
            // Inserts crowd into a narrow range (pages fill and split), removes spread out.
            let key =
                step % 2 == 0
                ? 10_000 + Int(rng.next() % 2_000) : Int(rng.next() % 40_000)
            if step % 2 == 0 {
                #expect(set.insert(key) == oracle.insert(key).inserted)
            } else {
                #expect(set.remove(key) == (oracle.remove(key) != nil))
            }
        }
        #expect(elements(set) == oracle.sorted())
        #expect(elements(copy) == copyOracle.sorted())
        // The crowded range took about a thousand new elements: its pages split.
        #expect(set.pages.filter { $0[0] >= 10_000 && $0[0] < 12_000 }.count >= 8)
        // Then nine in ten of the elements in 20,000–30,000 go, a copy taken half way: its pages
        // fall below a quarter full and merge, shared ones included.
        func pagesInRange(_ set: PagedSet<Int>) -> Int {
            set.pages.filter { $0[0] >= 20_000 && $0[0] < 30_000 }.count
        }
        let before = pagesInRange(set)
        let doomed = oracle.filter { $0 >= 20_000 && $0 < 30_000 }.sorted()
        for (i, key) in doomed.enumerated() where i % 10 != 0 {
            if i == doomed.count / 2 {
                copy = set
                copyOracle = oracle
            }
            let removed = set.remove(key)
            #expect(removed)
            oracle.remove(key)
        }
        #expect(elements(set) == oracle.sorted())
        #expect(elements(copy) == copyOracle.sorted())
        #expect(before >= 16 && pagesInRange(set) < before, "\(before) → \(pagesInRange(set))")
        #expect(set.pages.allSatisfy { $0.count >= capacity / 4 })
        for (i, page) in (set.pages + copy.pages).enumerated() {
            #expect(page.count <= capacity, "page \(i)")
            #expect(page.capacity >= capacity, "page \(i): capacity \(page.capacity)")
            #expect(page.capacity < capacity + capacity / 8, "page \(i): capacity \(page.capacity)")
        }
    }
}

@Suite("Live grid entries")
struct LiveGridEntryTests {
    /// Entries keep their cell, flag and serial (up to the largest serial an index hands out,
    /// 2³¹ − 3, and beyond), and order as (cell, origin before member, serial) does.
    @Test("fields round-trip; the order is (cell, member flag, serial)")
    func fieldsAndOrder() {
        var rng = SplitMix64(seed: 0x6E1D)
        var entries = [LiveGridEntry]()
        var tuples = [(UInt64, Bool, Int32)]()
        let columns: [UInt32] = [0, 1, 2, 1 << 22, (1 << 23) - 1]
        let serials: [Int32] = [0, 1, 2, Int32.max - 2, Int32.max - 1]
        for i in 0..<4_000 {
            let column = i < 25 ? columns[i % 5] : UInt32(rng.next() % (1 << 23))
            let row = i < 25 ? columns[i / 5] : UInt32(rng.next() % 8)
            let serial = i < 5 ? serials[i] : Int32(rng.next() % UInt64(Int32.max))
            let member = rng.next() % 2 == 0
            let cell = UInt64(column) << 32 | UInt64(row)
            let entry = LiveGridEntry(cell: cell, member: member, serial: serial)
            #expect(entry.cell == cell && entry.isMember == member && entry.serial == serial)
            entries.append(entry)
            tuples.append((cell, member, serial))
        }
        #expect(MemoryLayout<LiveGridEntry>.stride == 12)
        let sorted = entries.sorted()
        let expected = tuples.sorted {
            ($0.0, $0.1 ? 1 : 0, $0.2) < ($1.0, $1.1 ? 1 : 0, $1.2)
        }
        #expect(
            sorted.map { ($0.cell, $0.isMember, $0.serial) }.elementsEqual(expected) { $0 == $1 })
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            #expect(a <= b && !(b < a))
        }
    }
}
