#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Scratch memory for query hot paths that must not allocate: a block of 64 KiB per thread,
/// handed out last in, first out, and freed when the thread ends.
///
/// `withUnsafeTemporaryAllocation` puts at most 1,024 bytes on the stack on Linux and takes the
/// heap beyond, so a query needing a few kilobytes of candidates would call `malloc` and `free`
/// each time. It borrows them here instead: after a thread's first query, none of its queries
/// allocates. Nested borrowing (a query run from inside another's filter) takes the next part of
/// the block; a request the block cannot hold (a huge `k`) falls back to the heap, so nothing
/// ever fails for want of scratch.
///
/// The memory is uninitialized and only for types without references (`BitwiseCopyable`). It is
/// per thread and only lent to synchronous code, so it is never shared or seen by another task.
package enum ScratchMemory {
    /// The size of each thread's block, in bytes.
    @usableFromInline static let blockSize = 64 * 1024

    /// Bytes at the start of a block that hold how many of its bytes are lent out.
    @usableFromInline static let headerSize = 64

    /// The key of the calling thread's block; `nil` if the system had no key to give (then every
    /// request takes the heap).
    @usableFromInline static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, { block in free(block) }) == 0 ? key : nil
    }()

    /// Calls `body` with uninitialized room for `capacity` values of `T` (at least one), from
    /// the calling thread's block when it has room, from the heap otherwise; the room is
    /// returned when `body` does.
    /// - Complexity: O(1) besides `body`; no allocation once the thread has its block, unless
    ///   the request is larger than the block's free part.
    @inlinable @inline(__always)
    package static func withBuffer<T: BitwiseCopyable, R, E: Error>(
        of type: T.Type, capacity: Int,
        _ body: (UnsafeMutableBufferPointer<T>) throws(E) -> R
    ) throws(E) -> R {
        let count = Swift.max(1, capacity)
        let alignment = Swift.max(MemoryLayout<T>.alignment, 16)
        let (bytes, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<T>.stride)
        if !overflow, bytes <= blockSize - headerSize, let block = threadBlock() {
            let used = block.load(as: Int.self)
            let start = (used + alignment - 1) / alignment * alignment
            if start + bytes <= blockSize {
                block.storeBytes(of: start + bytes, as: Int.self)
                defer { block.storeBytes(of: used, as: Int.self) }
                let typed = (block + start).bindMemory(to: T.self, capacity: count)
                return try body(UnsafeMutableBufferPointer(start: typed, count: count))
            }
        }
        let heap = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
        defer { heap.deallocate() }
        return try body(heap)
    }

    /// The calling thread's block, made on first use; `nil` when there is no key or no memory.
    @usableFromInline
    static func threadBlock() -> UnsafeMutableRawPointer? {
        guard let key else { return nil }
        if let block = pthread_getspecific(key) { return block }
        guard let block = malloc(blockSize) else { return nil }
        block.storeBytes(of: headerSize, as: Int.self)
        guard pthread_setspecific(key, block) == 0 else {
            free(block)
            return nil
        }
        return block
    }
}
