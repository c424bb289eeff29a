#if canImport(Glibc)
import Glibc
#endif

/// Large buffers backed by transparent huge pages where Linux offers them.
///
/// A cluster world query returns up to a million features, tens of MB of fresh memory, a cluster
/// build fills buffers of several MB per zoom, and a place index of a million places fills some
/// 90 MB; faulting them in 4 KB at a time costs more than filling them.
/// Linux backs a region with 2 MB pages on request (`madvise(MADV_HUGEPAGE)`), even where huge
/// pages are only given to regions that ask; elsewhere this does nothing.
@usableFromInline
package enum HugePages {
    /// Asks for huge pages for the unused capacity of an array's buffer (`count ..< capacity`),
    /// for the whole 2 MB pages inside it.
    @inlinable
    package static func advise<T>(_ base: UnsafeMutablePointer<T>?, count: Int, capacity: Int) {
        #if canImport(Glibc)
        guard let base, capacity > count else { return }
        let huge = 1 << 21
        let from = Int(bitPattern: base + count), to = Int(bitPattern: base + capacity)
        let start = (from + huge - 1) & ~(huge - 1), end = to & ~(huge - 1)
        guard end - start >= huge, let region = UnsafeMutableRawPointer(bitPattern: start) else {
            return
        }
        _ = madvise(region, end - start, MADV_HUGEPAGE)
        #endif
    }
}

extension Array {
    /// Makes room for `n` elements; a new buffer is backed by huge pages where offered (see
    /// ``HugePages``): the build's buffers and large query results are several MB each.
    @inlinable
    package mutating func reserveHugeCapacity(_ n: Int) {
        guard capacity < n else { return }
        reserveCapacity(n)
        let capacity = self.capacity
        withUnsafeMutableBufferPointer {
            HugePages.advise($0.baseAddress, count: $0.count, capacity: capacity)
        }
    }
}
