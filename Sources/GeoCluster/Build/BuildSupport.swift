import Foundation
import Synchronization

/// The result of work started on another thread.
final class Pending<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let group = DispatchGroup()

    /// Runs `work` on a global queue (or right away when `async` is false).
    init(async: Bool, _ work: @escaping @Sendable () -> Value) {
        guard async else {
            let value = work()
            result.withLock { $0 = value }
            return
        }
        group.enter()
        DispatchQueue.global().async { [self] in
            let value = work()
            self.result.withLock { $0 = value }
            self.group.leave()
        }
    }

    /// Waits for the work and takes its value (there once the work has run; `nil` when taken
    /// before).
    func value() -> Value? {
        group.wait()
        return result.withLock { $0.take() }
    }
}

/// A value moved from one thread to another: the receiver takes it, so that no closure keeps a
/// reference to it once the work is done.
final class Handoff<Value: Sendable>: Sendable {
    private let slot: Mutex<Value?>

    init(_ value: consuming Value) {
        slot = Mutex(value)
    }

    /// The value, the first time; `nil` afterwards.
    func take() -> Value? {
        slot.withLock { $0.take() }
    }
}

/// Hands the pages of freed memory back to the system when a build lets buffers go.
///
/// glibc's allocator serves blocks of up to 32 MB from its heap once a block that size has been
/// freed, and keeps freed heap pages resident; a build lets its working buffers (tens of MB) go as
/// the levels shrink and when it ends, so without this the resident size stays at the build's peak
/// rather than at what the index holds. `malloc_trim` is looked up at run time (it is not in the
/// Glibc module); elsewhere this does nothing, and so it does under a sanitizer, whose allocator
/// replaces glibc's (glibc's `malloc_trim` then walks arenas that were never set up and crashes).
enum HeapTrim {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        #if canImport(Glibc)
        let process = UnsafeMutableRawPointer(bitPattern: 0)
        for sanitizer in ["__tsan_init", "__asan_init", "__msan_init"]
        where dlsym(process, sanitizer) != nil {
            return nil
        }
        guard let symbol = dlsym(process, "malloc_trim") else {
            return nil
        }
        return unsafeBitCast(symbol, to: Trim.self)
        #else
        return nil
        #endif
    }()

    static func releaseFreePages() {
        _ = trim?(0)
    }
}
