import Foundation
import GeoCluster
import GeoCore
import GeoFence
import GeoTestSupport
import Testing

/// Many tasks share one cluster index, one fence index and one monitor (with the transformer and
/// prepared geometry of GeoCore's own stress suite): every answer equals the one computed alone,
/// and the monitor, fed fixes of many devices from many tasks at once, ends in the state a serial
/// feed gives. CI runs this suite under ThreadSanitizer.
@Suite("Stress: shared indexes and monitors")
struct ConcurrencyStressTests {
    @Test func sharedClusterIndexFenceIndexAndMonitor() async throws {
        var rng = SplitMix64(seed: 4242)
        let points = (0..<5_000).map { _ in
            Coordinate(latitude: rng.uniform(44, 47), longitude: rng.uniform(12, 16))
        }
        let clusters = try ClusterIndex(points, coordinate: { $0 })
        let circles = try (0..<400).map { _ in
            try CircularGeographicCondition(
                center: Coordinate(latitude: rng.uniform(44, 47), longitude: rng.uniform(12, 16)),
                radius: rng.uniform(500, 20_000))
        }
        let fences = try GeofenceIndex(circles: circles)
        let probes = (0..<200).map { _ in
            Coordinate(latitude: rng.uniform(44, 47), longitude: rng.uniform(12, 16))
        }
        // Reference answers, computed alone.
        let expectedClusters = (0...8).map { zoom in
            clusters.clusters(in: BoundingBox.world, zoom: Double(zoom)).map(\.coordinate)
        }
        let expectedFences = probes.map { fences.fences(containing: $0).map(\.identifier) }
        let topIDs = clusters.clusters(in: BoundingBox.world, zoom: 2).compactMap(\.cluster?.id)
        let expectedLeaves = try topIDs.map { try clusters.leaves(of: $0, limit: 50).map(\.index) }

        let monitor = try GeofenceMonitor(name: "stress", storage: .inMemory)
        for (i, circle) in circles.prefix(50).enumerated() {
            try await monitor.add(circle, identifier: "fence-\(i)")
        }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let outcomes = Outcomes()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for round in 0..<4 {
                        let zoom = (task + round) % 9
                        #expect(
                            clusters.clusters(in: BoundingBox.world, zoom: Double(zoom)).map(
                                \.coordinate) == expectedClusters[zoom])
                        for k in stride(from: task, to: probes.count, by: 16) {
                            #expect(
                                fences.fences(containing: probes[k]).map(\.identifier)
                                    == expectedFences[k])
                        }
                        if !topIDs.isEmpty {
                            let j = (task * 3 + round) % topIDs.count
                            let leaves = try clusters.leaves(of: topIDs[j], limit: 50)
                            #expect(leaves.map(\.index) == expectedLeaves[j])
                        }
                        // Fixes from many tasks at once, in time order per call.
                        let time = start.addingTimeInterval(Double(round * 16 + task))
                        let probe = probes[(task * 11 + round) % probes.count]
                        do throws(GeoError) {
                            _ = try await monitor.process(
                                Location(
                                    latitude: probe.latitude, longitude: probe.longitude,
                                    timestamp: time))
                            await outcomes.accept(time)
                        } catch {
                            // Only a fix older than one already taken may be turned away.
                            #expect(error.kind == .staleFix, "\(error)")
                            await outcomes.reject(time)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        // Every fix was either taken or turned away as stale; the first is always taken, and the
        // monitor's last fix is the latest one taken.
        let (accepted, rejected) = await (outcomes.accepted, outcomes.rejected)
        #expect(accepted.count + rejected.count == 64 && !accepted.isEmpty)
        #expect(await monitor.lastProcessedFix?.timestamp == accepted.max())
        for time in rejected {
            #expect(accepted.contains { $0 >= time }, "a fix at \(time) was turned away as stale")
        }
        // Whatever order the fixes arrived in, the monitor's state is consistent: each fence's state
        // is the one its last accepted fix decides.
        let last = try #require(await monitor.lastProcessedFix)
        for (i, circle) in circles.prefix(50).enumerated() {
            let record = try #require(await monitor.record(for: "fence-\(i)"))
            let inside = circle.signedDistance(from: last.coordinate) < 0
            if record.state != .unknown {
                #expect(
                    (record.state == .satisfied) == inside
                        || abs(circle.signedDistance(from: last.coordinate)) < 10,
                    "fence-\(i) is \(record.state) after the last fix")
            }
        }
        await monitor.close()
    }
}

/// Which fixes the monitor took and which it turned away, from many tasks.
private actor Outcomes {
    var accepted = [Date]()
    var rejected = [Date]()

    func accept(_ time: Date) { accepted.append(time) }
    func reject(_ time: Date) { rejected.append(time) }
}
