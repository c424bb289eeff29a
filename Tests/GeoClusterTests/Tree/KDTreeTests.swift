import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoCluster

/// The tree is laid out exactly as kdbush lays it out: checked against a direct transcription of
/// kdbush's scalar select on random data with many ties, and its queries against brute force.
@Suite("KDTree")
struct KDTreeTests {
    /// kdbush's `select` transcribed as plainly as possible.
    static func referenceSort(_ items: inout [KDItem], nodeSize: Int) {
        func key(_ i: Int, _ axis: Int) -> Float { axis == 0 ? items[i].x : items[i].y }
        func select(_ k: Int, _ left: Int, _ right: Int, _ axis: Int) {
            var left = left, right = right
            while right > left {
                if right - left > 600 {
                    let n = Double(right - left + 1), m = Double(k - left + 1), z = log(n)
                    let s = 0.5 * exp(2 * z / 3)
                    let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                    select(
                        k, max(left, Int((Double(k) - m * s / n + sd).rounded(.down))),
                        min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down))), axis)
                }
                let t = key(k, axis)
                var i = left, j = right
                items.swapAt(left, k)
                if key(right, axis) > t { items.swapAt(left, right) }
                while i < j {
                    items.swapAt(i, j)
                    i += 1
                    j -= 1
                    while key(i, axis) < t { i += 1 }
                    while key(j, axis) > t { j -= 1 }
                }
                if key(left, axis) == t {
                    items.swapAt(left, j)
                } else {
                    j += 1; items.swapAt(j, right)
                }
                if j <= k { left = j + 1 }
                if k <= j { right = j - 1 }
            }
        }
        func sort(_ lo: Int, _ hi: Int, _ axis: Int) {
            if hi - lo <= nodeSize { return }
            let m = (lo + hi) >> 1
            select(m, lo, hi, axis)
            sort(lo, m - 1, 1 - axis)
            sort(m + 1, hi, 1 - axis)
        }
        sort(0, items.count - 1, 0)
    }

    static func randomItems(_ n: Int, seed: UInt64, levels: UInt64) -> [KDItem] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { i in
            // Coarse values give many ties, which exercise the partition's equal-to-pivot paths.
            KDItem(
                x: Float(rng.next() % levels) / Float(levels),
                y: Float(rng.next() % levels) / Float(levels), ref: UInt32(i))
        }
    }

    @Test(arguments: [(3000, 7), (20000, 1 << 20), (20000, 50), (5000, 2), (700, 1000)])
    func layoutMatchesKdbush(n: Int, levels: Int) {
        for nodeSize in [2, 16, 64] {
            let items = Self.randomItems(n, seed: UInt64(n &* 31 &+ levels), levels: UInt64(levels))
            var expected = items
            Self.referenceSort(&expected, nodeSize: nodeSize)
            #expect(
                KDTree(items: items, nodeSize: nodeSize).items == expected,
                "n \(n) levels \(levels) nodeSize \(nodeSize)")
        }
    }

    @Test func queriesAgreeWithBruteForce() {
        let items = Self.randomItems(4000, seed: 3, levels: 1 << 16)
        let tree = KDTree(items: items, nodeSize: 16)
        let ranks = tree.visitRanks()
        var rankOf = [UInt32: UInt32]()
        for (position, item) in tree.items.enumerated() { rankOf[item.ref] = ranks[position] }
        var rng = SplitMix64(seed: 4)
        for _ in 0..<50 {
            let qx = rng.nextUnit(), qy = rng.nextUnit(), r = rng.uniform(0, 0.1)
            var found = [UInt32]()
            tree.within(x: qx, y: qy, radius: r) { found.append($0.ref) }
            let expected = items.filter { item in
                let dx = Double(item.x) - qx, dy = Double(item.y) - qy
                return dx * dx + dy * dy <= r * r
            }.map(\.ref)
            #expect(Set(found) == Set(expected))
            // Results come in visit-rank order.
            let foundRanks = found.compactMap { rankOf[$0] }
            #expect(foundRanks == foundRanks.sorted())
            var boxed = [UInt32]()
            tree.range(minX: qx - r, minY: qy - r, maxX: qx + r, maxY: qy + r) {
                boxed.append($0.ref)
            }
            let inBox = items.filter { item in
                Double(item.x) >= qx - r && Double(item.x) <= qx + r && Double(item.y) >= qy - r
                    && Double(item.y) <= qy + r
            }.map(\.ref)
            #expect(Set(boxed) == Set(inBox))
            let boxRanks = boxed.compactMap { rankOf[$0] }
            #expect(boxRanks == boxRanks.sorted())
        }
    }

    /// Built on several threads (subtrees below the top levels sorted concurrently), the layout is
    /// the single-threaded one, which is kdbush's.
    @Test func layoutIsTheSameOnSeveralThreads() {
        for (n, levels) in [(KDTree.parallelThreshold, 1 << 20), (100_000, 300), (70_001, 1 << 12)]
        {
            let items = Self.randomItems(n, seed: UInt64(n), levels: UInt64(levels))
            let single = KDTree(items: items, nodeSize: 64).items
            for threads in [2, 3, 8] {
                #expect(
                    KDTree(items: items, nodeSize: 64, threads: threads).items == single,
                    "n \(n) threads \(threads)")
            }
        }
    }

    /// The packed tree's queries return what the full tree's return, in the same order: for boxes
    /// that hold everything (emitted without looking positions up), nothing, or part, and for
    /// circles.
    @Test func packedTreeQueriesMatchTheFullTree() {
        let items = Self.randomItems(30_000, seed: 9, levels: 1 << 14)
        let tree = KDTree(items: items, nodeSize: 16)
        let packed = PackedTree(tree)
        var position = [UInt32: (x: Float, y: Float)]()
        for item in items { position[item.ref] = (item.x, item.y) }
        let lookup: (UInt32) -> (x: Float, y: Float) = { position[$0] ?? (.nan, .nan) }
        var rng = SplitMix64(seed: 10)
        var boxes: [(Double, Double, Double, Double)] = [
            (0, 0, 1, 1), (-1, -1, 2, 2), (2, 2, 3, 3), (0.5, 0, 0.5, 1),
        ]
        for _ in 0..<60 {
            let x = rng.nextUnit(), y = rng.nextUnit(), w = rng.uniform(0, 0.6),
                h = rng.uniform(0, 0.6)
            boxes.append((x - w, y - h, x + w, y + h))
        }
        for (minX, minY, maxX, maxY) in boxes {
            var full = [UInt32](), compact = [UInt32]()
            tree.range(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { full.append($0.ref) }
            packed.range(minX: minX, minY: minY, maxX: maxX, maxY: maxY, position: lookup) {
                compact.append($0)
            }
            #expect(compact == full, "box \(minX) \(minY) \(maxX) \(maxY)")
        }
        for _ in 0..<40 {
            let x = rng.nextUnit(), y = rng.nextUnit(), r = rng.uniform(0, 0.2)
            var full = [UInt32](), compact = [UInt32]()
            tree.within(x: x, y: y, radius: r) { full.append($0.ref) }
            packed.within(x: x, y: y, radius: r, position: lookup) { compact.append($0) }
            #expect(compact == full)
        }
        #expect(packed.refs.count == items.count)
    }
}
