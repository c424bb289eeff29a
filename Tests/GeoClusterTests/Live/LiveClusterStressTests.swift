import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

/// The latest snapshot, handed from the writer to the readers.
private final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: LiveClusterSnapshot<Int>
    private var finished = false

    init(_ first: LiveClusterSnapshot<Int>) { latest = first }

    func publish(_ snapshot: LiveClusterSnapshot<Int>) {
        lock.lock()
        latest = snapshot
        lock.unlock()
    }

    func finish() {
        lock.lock()
        finished = true
        lock.unlock()
    }

    func read() -> (LiveClusterSnapshot<Int>, Bool) {
        lock.lock()
        defer { lock.unlock() }
        return (latest, finished)
    }
}

/// Readers on their own threads query snapshots while one writer changes the index: no reader
/// ever sees a half-applied batch (run under ThreadSanitizer in CI).
@Suite("Live clustering under concurrency")
struct LiveClusterStressTests {
    @Test("readers query snapshots while a writer applies batches")
    func readersAndWriter() throws {
        var rng = SplitMix64(seed: 99)
        let n = 3000
        var coordinates = (0..<n).map { _ in Scatter.city.coordinate(&rng) }
        var index = try LiveClusterIndex<Int>(
            Array(0..<n), key: { $0 }, coordinate: { coordinates[$0] })
        let mailbox = Mailbox(index.snapshot)
        let readers = 4
        let done = DispatchSemaphore(value: 0)
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var problems = [String]()
            var reads = 0
        }
        let counter = Counter()
        for r in 0..<readers {
            let thread = Thread {
                var previous: LiveClusterSnapshot<Int>?
                while true {
                    let (snapshot, finished) = mailbox.read()
                    let zoom = Double((r * 5 + (previous?.version ?? 0)) % 17)
                    let features = snapshot.clusters(in: BoundingBox.world, zoom: zoom)
                    let total = features.reduce(0) { $0 + $1.pointCount }
                    var problem: String?
                    if total != snapshot.count {
                        problem =
                            "zoom \(zoom): \(total) points in features, \(snapshot.count) elements"
                    }
                    if let cluster = features.compactMap(\.cluster).first,
                        let children = try? snapshot.children(of: cluster.id),
                        children.reduce(0, { $0 + $1.pointCount }) != cluster.pointCount
                    {
                        problem = "children of \(cluster.id) do not add up"
                    }
                    if let previous {
                        _ = LiveClusterSnapshot.diff(
                            from: previous, to: snapshot,
                            in: BoundingBox(west: 8.4, south: 47.3, east: 8.7, north: 47.5),
                            zoom: 12)
                    }
                    counter.lock.lock()
                    counter.reads += 1
                    if let problem { counter.problems.append(problem) }
                    counter.lock.unlock()
                    previous = snapshot
                    if finished { break }
                }
                done.signal()
            }
            thread.stackSize = 1 << 22
            thread.start()
        }
        for batch in 0..<TestScale.steps(60, minimum: 15) {
            var changes = [LiveClusterChange<Int>]()
            for _ in 0..<50 {
                let k = Int(rng.next() % UInt64(n))
                coordinates[k] = Scatter.city.coordinate(&rng)
                changes.append(.move(k, coordinates[k]))
            }
            if batch % 10 == 0 { changes.append(.insert(n + batch, Scatter.city.coordinate(&rng))) }
            try index.apply(changes)
            mailbox.publish(index.snapshot)
        }
        mailbox.finish()
        for _ in 0..<readers { done.wait() }
        counter.lock.lock()
        defer { counter.lock.unlock() }
        #expect(counter.problems.isEmpty, "\(counter.problems.prefix(3))")
        #expect(counter.reads >= readers)
        #expect(index.consistencyProblems.isEmpty)
    }
}
