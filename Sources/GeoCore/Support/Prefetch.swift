internal import CPROJ

/// Software prefetch: asks the processor to bring cache lines in without waiting for them.
///
/// A load that misses the caches holds up everything after it once the processor's window of
/// outstanding work fills; a prefetch retires at once, so the misses of many scattered lines
/// (the cells around a nearest query) overlap with one another and with the work in between.
/// A prefetch never faults, whatever the address, and changes no value: only timing.
///
/// The instruction comes from the C compiler's `__builtin_prefetch` (`prefetcht0` on x86-64,
/// `prfm` on ARM64); a range costs one call (an inlined LLVM intrinsic, declared through
/// `@_silgen_name`, was about 4 % faster but does not compile under ThreadSanitizer, whose
/// cleanups turn the call into an `invoke`, which LLVM refuses for an intrinsic).
package enum Prefetch {
    /// Prefetches every cache line of `count` bytes from `start` for reading, into every cache
    /// level.
    package static func read(_ start: UnsafeRawPointer, bytes count: Int) {
        guard count > 0 else { return }
        var offset = 0
        while offset < count {
            meridian_prefetch_read(start + offset)
            offset &+= 64
        }
        meridian_prefetch_read(start + (count - 1))
    }
}
