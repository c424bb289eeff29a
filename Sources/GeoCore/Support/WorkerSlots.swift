import Dispatch

/// A buffer that concurrent workers fill, each worker writing only its own slots: the one way
/// Meridian's parallel code hands results from worker threads back to the caller.
///
/// It is `@unchecked Sendable` because it is a bare pointer, and sharing it is safe under the rules
/// every use keeps: it is made inside `withUnsafeMutableBufferPointer` over a buffer that outlives
/// the workers, no two workers write the same element, nobody reads an element while a worker may
/// write it, and `DispatchQueue.concurrentPerform` returns only when every worker has finished,
/// which orders all their writes before the caller's reads.
package struct WorkerSlots<Element>: @unchecked Sendable {
    /// The first slot.
    package let base: UnsafeMutablePointer<Element>

    /// Slots over a buffer's memory.
    package init(_ base: UnsafeMutablePointer<Element>) {
        self.base = base
    }

    /// The slot `i` (the caller guarantees that only one worker touches it).
    @inlinable
    package subscript(_ i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }

    /// Runs `body` for parts `0 ..< parts` on up to that many threads and returns each part's result
    /// in part order (one part runs on the calling thread alone).
    package static func collect(
        parts: Int, _ body: @Sendable (Int) -> Element
    ) -> [Element] where Element: Sendable {
        guard parts > 1 else { return parts == 1 ? [body(0)] : [] }
        return [Element](unsafeUninitializedCapacity: parts) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            let slots = WorkerSlots(base)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                (slots.base + part).initialize(to: body(part))
            }
            count = parts
        }
    }
}

/// A read-only view of a buffer shared by concurrent workers while nobody writes it.
///
/// `@unchecked Sendable` for the same reasons as ``WorkerSlots``: it is made over a buffer that
/// outlives the workers and that no one mutates until `DispatchQueue.concurrentPerform` returns.
package struct SharedView<Element>: @unchecked Sendable {
    /// The buffer.
    package let buffer: UnsafeBufferPointer<Element>

    /// A view of a buffer.
    package init(_ buffer: UnsafeBufferPointer<Element>) {
        self.buffer = buffer
    }

    /// The element at `i`.
    @inlinable
    package subscript(_ i: Int) -> Element { buffer[i] }

    /// The number of elements.
    @inlinable
    package var count: Int { buffer.count }
}
