import Foundation

/// Where the time of a ``ClusterIndex`` build went: one span per phase and zoom, with the wall time
/// and the CPU time of the thread that ran it. The benchmark prints it; the build records it always
/// (a few dozen clock readings, against seconds of work).
package struct ClusterBuildProfile: Sendable {
    /// A step of the build.
    package enum Phase: String, Sendable, CaseIterable {
        /// Projecting the input to supercluster's float32 unit square.
        case projection
        /// Sorting records into grid cells, and moving them to the next zoom's cells.
        case cellIndex
        /// Listing each record's later neighbors (the grid sweep), dense cells included.
        case neighborSearch
        /// The greedy pass: visiting records in level order, forming clusters and their centers.
        case greedyPass
        /// Laying out a zoom's search tree as kdbush does, and ranking its items.
        case treeLayout
        /// Folding each cluster's aggregate.
        case aggregates
        /// Supercluster's tree queries, for inputs the grid does not take.
        case treeQueries
    }

    /// The thread a span ran on.
    package enum Lane: String, Sendable {
        /// The thread that called the build.
        case build
        /// The worker that lays out trees while the build thread goes on.
        case tree
        /// One part of a step split between threads (whichever thread ran it); the step's own
        /// span is marked ``Span/isSplit``.
        case part
    }

    /// One measured step.
    package struct Span: Sendable {
        package var phase: Phase
        /// The zoom the step worked for (`maxZoom + 1` for the input level), or −1.
        package var zoom: Int
        /// The records the step went through.
        package var items: Int
        package var lane: Lane
        /// Wall time.
        package var nanoseconds: UInt64
        /// CPU time of the thread that ran the span.
        package var cpuNanoseconds: UInt64
        /// Whether the step was split into ``Lane/part`` spans, which hold its CPU time (its own
        /// counts only the calling thread's share).
        package var isSplit: Bool
        /// When the span started, on the monotonic clock (ns).
        package var startNanoseconds: UInt64 = 0
    }

    /// The spans, in the order they ended.
    package var spans: [Span] = []
    /// The wall time of the whole build.
    package var nanoseconds: UInt64 = 0
    /// The largest number of neighbor pairs the sweep listed for one zoom.
    package var largestPairCount = 0
}

/// Collects a build's spans from the threads that run it.
///
/// `@unchecked Sendable`: its one mutable field is only touched under `lock`. The lock is an
/// `NSLock` (a pthread mutex) rather than `Mutex`, whose futex ThreadSanitizer cannot see, so
/// that the parallel parts recording at once are not reported as a race.
final class BuildProfiler: @unchecked Sendable {
    private let lock = NSLock()
    private var spans: [ClusterBuildProfile.Span] = []

    /// The current time of a monotonic clock and the CPU time of the calling thread.
    static func now() -> (wall: UInt64, cpu: UInt64) {
        var wall = timespec(), cpu = timespec()
        clock_gettime(CLOCK_MONOTONIC, &wall)
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu)
        return (
            UInt64(wall.tv_sec) * 1_000_000_000 + UInt64(wall.tv_nsec),
            UInt64(cpu.tv_sec) * 1_000_000_000 + UInt64(cpu.tv_nsec)
        )
    }

    /// Runs `body` and records it as a span. A `split` step records its parts as ``Lane/part``
    /// spans itself.
    @discardableResult @inline(__always)
    func measure<R>(
        _ phase: ClusterBuildProfile.Phase, zoom: Int, items: Int,
        lane: ClusterBuildProfile.Lane = .build, split: Bool = false, _ body: () throws -> R
    ) rethrows -> R {
        let start = BuildProfiler.now()
        let result = try body()
        let end = BuildProfiler.now()
        let span = ClusterBuildProfile.Span(
            phase: phase, zoom: zoom, items: items, lane: lane,
            nanoseconds: end.wall &- start.wall, cpuNanoseconds: end.cpu &- start.cpu,
            isSplit: split, startNanoseconds: start.wall)
        lock.lock()
        spans.append(span)
        lock.unlock()
        return result
    }

    /// The spans so far.
    var recorded: [ClusterBuildProfile.Span] {
        lock.lock()
        defer { lock.unlock() }
        return spans
    }
}
