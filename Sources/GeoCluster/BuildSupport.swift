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

    /// Waits for the work and returns its value (always there once the work has run).
    func value() -> Value? {
        group.wait()
        return result.withLock { $0 }
    }
}

/// Hands the pages of freed memory back to the system between zoom levels.
///
/// glibc's allocator serves blocks of up to 32 MB from its heap once a block that size has been
/// freed, and keeps freed heap pages resident; a build frees a level's buffers (tens of MB) at every
/// zoom, so without this the resident size grows by what the allocator keeps rather than by what
/// the index holds. `malloc_trim` is looked up at run time (it is not in the Glibc module); elsewhere
/// this does nothing.
enum HeapTrim {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
        #else
        return nil
        #endif
    }()

    static func releaseFreePages() {
        _ = trim?(0)
    }
}
