/// Software prefetch: asks the processor to bring a cache line in without waiting for it.
///
/// A load that misses the caches holds up everything after it once the processor's window of
/// outstanding work fills; a prefetch retires at once, so the misses of many scattered lines
/// (the cells around a nearest query) overlap with one another and with the work in between.
/// A prefetch never faults, whatever the address, and changes no value: only timing.
@usableFromInline
package enum Prefetch {
    /// Prefetches the cache line holding `address` for reading, into every cache level.
    @inlinable @inline(__always)
    package static func read(_ address: UnsafeRawPointer) {
        _prefetch(address, 0, 3, 1)
    }

    /// Prefetches every cache line of `count` bytes from `start` for reading.
    @inlinable @inline(__always)
    package static func read(_ start: UnsafeRawPointer, bytes count: Int) {
        guard count > 0 else { return }
        var offset = 0
        while offset < count {
            _prefetch(start + offset, 0, 3, 1)
            offset &+= 64
        }
        _prefetch(start + (count - 1), 0, 3, 1)
    }
}

/// LLVM's prefetch intrinsic (address, 0 = read, locality 3 = keep in all levels, 1 = data
/// cache): the compiler emits the target's prefetch instruction (`prefetcht0` on x86-64, `prfm`
/// on ARM64) in place of a call.
@usableFromInline
@_silgen_name("llvm.prefetch.p0")
func _prefetch(_ address: UnsafeRawPointer, _ write: Int32, _ locality: Int32, _ cache: Int32)
