import Dispatch
import Testing

@testable import GeoCore

@Suite("ScratchMemory")
struct ScratchMemoryTests {
    /// The address of the first value of a borrowed buffer, as an integer.
    private func address<T>(_ buffer: UnsafeMutableBufferPointer<T>) -> Int {
        Int(bitPattern: buffer.baseAddress)
    }

    /// Nested buffers do not overlap, are aligned, and the room is returned when each body ends:
    /// the same request after a nested one gets the same memory again.
    @Test func nestedBuffersAreDisjointAlignedAndReturned() {
        let (first, again) = ScratchMemory.withBuffer(of: (Double, Int32).self, capacity: 200) {
            outer -> (Int, Int) in
            for i in outer.indices { outer[i] = (Double(i), Int32(i)) }
            let inner = ScratchMemory.withBuffer(of: Int.self, capacity: 400) { inner in
                for i in inner.indices { inner[i] = -i }
                let (a, b) = (address(outer), address(inner))
                #expect(b >= a + 200 * MemoryLayout<(Double, Int32)>.stride || b + 400 * 8 <= a)
                #expect(b % 16 == 0)
                return b
            }
            // The inner writes did not touch the outer buffer.
            #expect(outer.indices.allSatisfy { outer[$0] == (Double($0), Int32($0)) })
            let second = ScratchMemory.withBuffer(of: Int.self, capacity: 400) { address($0) }
            return (inner, second)
        }
        #expect(first == again)
    }

    /// A request larger than the block, and one that does not fit beside those already lent,
    /// are served from the heap; a zero or negative capacity still gets one value of room.
    @Test func requestsBeyondTheBlockTakeTheHeap() {
        let huge = ScratchMemory.blockSize / 8 + 1
        let sum = ScratchMemory.withBuffer(of: Int.self, capacity: huge) { buffer in
            #expect(buffer.count == huge)
            for i in buffer.indices { buffer[i] = 1 }
            return buffer.reduce(0, +)
        }
        #expect(sum == huge)
        let half = ScratchMemory.blockSize / 16
        ScratchMemory.withBuffer(of: Int.self, capacity: half) { a in
            ScratchMemory.withBuffer(of: Int.self, capacity: half) { b in
                #expect(a.count == half && b.count == half)
                let (x, y) = (address(a), address(b))
                #expect(y >= x + half * 8 || y + half * 8 <= x)
            }
        }
        #expect(ScratchMemory.withBuffer(of: Int.self, capacity: 0) { $0.count } == 1)
    }

    /// Each thread has its own block: threads writing their buffers at once never see another's
    /// values (run under the thread sanitizer in CI).
    @Test func threadsHaveTheirOwnBlocks() {
        let ok = WorkerSlots<Bool>.collect(parts: 8) { part in
            ScratchMemory.withBuffer(of: Int.self, capacity: 1_000) { buffer in
                var fine = true
                for _ in 0..<200 {
                    for i in buffer.indices { buffer[i] = part &* 1_000 &+ i }
                    fine = fine && buffer.indices.allSatisfy { buffer[$0] == part &* 1_000 &+ $0 }
                }
                return fine
            }
        }
        #expect(ok == Array(repeating: true, count: 8))
    }
}
