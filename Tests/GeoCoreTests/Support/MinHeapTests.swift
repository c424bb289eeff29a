import GeoCore
import GeoTestSupport
import Testing

@Suite("The shared min-heap")
struct MinHeapTests {
    @Test("pops in ascending order what was pushed, with pops interleaved, against a sorted array")
    func againstSorting() {
        var rng = SplitMix64(seed: 0x4EA9)
        var heap = MinHeap<Int>()
        var model = [Int]()
        #expect(heap.pop() == nil)
        for step in 0..<20_000 {
            if model.isEmpty || rng.next() % 3 != 0 {
                // Few distinct values, so that ties are common.
                let value = Int(rng.next() % 500) - 250
                heap.push(value)
                model.append(value)
            } else {
                model.sort()
                let expected = model.removeFirst()
                let popped = heap.pop()
                #expect(popped == expected, "step \(step)")
                if popped != expected { return }
            }
            #expect(heap.isEmpty == model.isEmpty)
        }
        model.sort()
        var rest = [Int]()
        while let value = heap.pop() { rest.append(value) }
        #expect(rest == model)
        #expect(heap.isEmpty)
    }
}
