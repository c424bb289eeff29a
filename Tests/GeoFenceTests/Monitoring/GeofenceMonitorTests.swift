import Foundation
import GeoCore
import GeoFence
import GeoTestSupport
import Testing

/// A circle of 100 m round a point on the equator-free mid latitudes, and helpers to put fixes at a
/// chosen geodesic distance from its center.
private struct Site {
    let center = Coordinate(latitude: 45.7722, longitude: 14.3577)
    let radius = 100.0

    var condition: CircularGeographicCondition {
        get throws { try CircularGeographicCondition(center: center, radius: radius) }
    }

    /// A fix `distance` meters from the center towards the east, `seconds` after the reference date.
    func fix(
        at distance: Double, accuracy: Double = 0, time seconds: Double, bearing: Double = 90
    ) -> Location {
        let c = center.coordinate(atDistance: distance, bearing: bearing)
        return Location(
            coordinate: c, horizontalAccuracy: accuracy,
            timestamp: referenceDate.addingTimeInterval(seconds))
    }
}

/// Opens an in-memory monitor with a unique name.
private func makeMonitor(
    _ configuration: GeofenceConfiguration = GeofenceConfiguration(),
    clock: @escaping @Sendable () -> Date = { referenceDate },
    name: String = #function
) throws -> GeofenceMonitor {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    return try GeofenceMonitor(
        name: "\(safe)-\(UUID().uuidString.prefix(8))", storage: .inMemory,
        configuration: configuration, clock: clock)
}

@Suite("GeofenceMonitor: semantics")
struct GeofenceMonitorTests {
    private let site = Site()

    /// Inside is decided by the exact geodesic distance: a fix 1 mm inside the radius enters, 1 mm
    /// outside does not (no hysteresis, exact fixes).
    @Test func geodesicDistanceDecides() async throws {
        let monitor = try makeMonitor(GeofenceConfiguration(hysteresis: 0))
        try await monitor.add(site.condition, identifier: "site")
        var events = try await monitor.process(site.fix(at: 100.001, time: 0))
        #expect(events.map(\.state) == [.unsatisfied])
        events = try await monitor.process(site.fix(at: 99.999, time: 1))
        #expect(events.map(\.state) == [.satisfied])
        guard case .fix(let distance, let accuracy) = events.first?.reason else {
            Issue.record("expected a fix reason")
            return
        }
        #expect(abs(distance + 0.001) < 1e-6 && accuracy == 0)
        // Exactly on the circle counts as inside: the decision is `distance <= radius`.
        let onCircle = try makeMonitor(GeofenceConfiguration(hysteresis: 0))
        let boundary = site.center.coordinate(atDistance: 100, bearing: 33)
        let exact = Geodesic.wgs84.distance(from: site.center, to: boundary)
        try await onCircle.add(
            CircularGeographicCondition(center: site.center, radius: exact), identifier: "site")
        events = try await onCircle.process(
            Location(coordinate: boundary, horizontalAccuracy: 0, timestamp: referenceDate))
        #expect(events.map(\.state) == [.satisfied])
    }

    /// An accuracy circle across the boundary decides nothing: unknown stays unknown, inside stays
    /// inside, outside stays outside.
    @Test func accuracyCircleStraddlingTheBoundary() async throws {
        let monitor = try makeMonitor(GeofenceConfiguration(hysteresis: 0))
        try await monitor.add(site.condition, identifier: "site")
        #expect(try await monitor.process(site.fix(at: 90, accuracy: 20, time: 0)).isEmpty)
        #expect(await monitor.record(for: "site")?.state == .unknown)
        #expect(try await monitor.process(site.fix(at: 115, accuracy: 20, time: 1)).isEmpty)
        #expect(await monitor.record(for: "site")?.state == .unknown)
        // 79 m from the center with 20 m accuracy: the whole circle is inside.
        #expect(
            try await monitor.process(site.fix(at: 79, accuracy: 20, time: 2)).map(\.state) == [
                .satisfied
            ])
        #expect(try await monitor.process(site.fix(at: 110, accuracy: 20, time: 3)).isEmpty)
        #expect(
            try await monitor.process(site.fix(at: 121, accuracy: 20, time: 4)).map(\.state) == [
                .unsatisfied
            ])
        #expect(try await monitor.process(site.fix(at: 95, accuracy: 20, time: 5)).isEmpty)
        #expect(await monitor.record(for: "site")?.state == .unsatisfied)
    }

    /// Noisy exact fixes jittering ±4 m round the boundary flap on every crossing without
    /// hysteresis, and not at all with the default 5 m margin; they need 5 m beyond to change.
    @Test func hysteresisStopsFlapping() async throws {
        #expect(GeofenceConfiguration().hysteresis == 5)
        #expect(GeofenceConfiguration.defaultHysteresis == 5)
        var rng = SplitMix64(seed: 3)
        let distances = (0..<200).map { _ in 100 + rng.uniform(-4, 4) }
        let plain = try makeMonitor(GeofenceConfiguration(hysteresis: 0))
        let damped = try makeMonitor()
        for monitor in [plain, damped] { try await monitor.add(site.condition, identifier: "site") }
        _ = try await plain.process(site.fix(at: 50, time: 0))
        _ = try await damped.process(site.fix(at: 50, time: 0))
        var flaps = (plain: 0, damped: 0)
        for (i, d) in distances.enumerated() {
            flaps.plain += try await plain.process(site.fix(at: d, time: Double(i + 1))).count
            flaps.damped += try await damped.process(site.fix(at: d, time: Double(i + 1))).count
        }
        #expect(flaps.plain > 50)
        #expect(flaps.damped == 0)
        // 105.001 m exits (5 m beyond the radius); 94.999 m enters again.
        #expect(try await damped.process(site.fix(at: 104.99, time: 300)).isEmpty)
        #expect(
            try await damped.process(site.fix(at: 105.001, time: 301)).map(\.state) == [
                .unsatisfied
            ])
        #expect(try await damped.process(site.fix(at: 95.01, time: 302)).isEmpty)
        #expect(
            try await damped.process(site.fix(at: 94.999, time: 303)).map(\.state) == [.satisfied])
        // The margin adds to the accuracy: 10 m accuracy needs 115 m to exit.
        #expect(try await damped.process(site.fix(at: 114.9, accuracy: 10, time: 304)).isEmpty)
        #expect(
            try await damped.process(site.fix(at: 115.1, accuracy: 10, time: 305)).map(\.state) == [
                .unsatisfied
            ])
    }

    /// One dwell event after staying inside for the dwell time, at the first fix (or time advance)
    /// that shows it; none again until the device leaves and comes back.
    @Test func dwell() async throws {
        let monitor = try makeMonitor(GeofenceConfiguration(dwellTime: 60))
        try await monitor.add(site.condition, identifier: "site")
        #expect(try await monitor.process(site.fix(at: 20, time: 0)).map(\.state) == [.satisfied])
        #expect(try await monitor.process(site.fix(at: 30, time: 59)).isEmpty)
        let dwell = try await monitor.process(site.fix(at: 25, time: 61))
        #expect(dwell.count == 1)
        #expect(dwell.first?.state == .satisfied)
        #expect(dwell.first?.reason == .dwell(since: referenceDate))
        #expect(dwell.first?.date == referenceDate.addingTimeInterval(61))
        #expect(try await monitor.process(site.fix(at: 25, time: 200)).isEmpty)
        // Leave, come back, stay without fixes: advance(to:) produces the dwell.
        #expect(
            try await monitor.process(site.fix(at: 300, time: 300)).map(\.state) == [.unsatisfied])
        #expect(try await monitor.process(site.fix(at: 10, time: 400)).map(\.state) == [.satisfied])
        #expect(try await monitor.advance(to: referenceDate.addingTimeInterval(459)).isEmpty)
        let later = try await monitor.advance(to: referenceDate.addingTimeInterval(460))
        #expect(later.first?.reason == .dwell(since: referenceDate.addingTimeInterval(400)))
        #expect(await monitor.record(for: "site")?.dwellReported == true)
        // Time cannot run backwards.
        await #expect(throws: GeoError.self) { try await monitor.advance(to: referenceDate) }
    }

    /// Two fixes 2 km apart on either side of a 100 m circle: the path through it gives an enter and
    /// an exit, at the times the geodesic crosses the circle, before any event of the second fix.
    @Test func crossingBetweenFixes() async throws {
        let monitor = try makeMonitor()
        try await monitor.add(site.condition, identifier: "site")
        let first = site.fix(at: 1_000, time: 0, bearing: 270)
        let second = site.fix(at: 1_000, time: 200, bearing: 90)
        #expect(try await monitor.process(first).map(\.state) == [.unsatisfied])
        let events = try await monitor.process(second)
        try #require(events.map(\.state) == [.satisfied, .unsatisfied])
        // The path runs along the diameter: in at 900 m of 2 000 m, out at 1 100 m.
        #expect(abs(events[0].date.timeIntervalSince(referenceDate) - 90) < 0.01)
        #expect(abs(events[1].date.timeIntervalSince(referenceDate) - 110) < 0.01)
        for event in events {
            #expect(abs(site.center.distance(to: event.location.coordinate) - 100) < 0.01)
            guard case .crossing(let from, let to, let deepest) = event.reason else {
                Issue.record("expected a crossing reason")
                continue
            }
            #expect(from == first.timestamp && to == second.timestamp)
            #expect(abs(deepest + 100) < 0.01)
        }
        #expect(await monitor.record(for: "site")?.state == .unsatisfied)
        // A path that only grazes the circle (deepest point 3 m inside, less than the 5 m margin) is
        // not a crossing.
        let graze = try makeMonitor()
        try await graze.add(site.condition, identifier: "site")
        let a = site.center.coordinate(atDistance: 97, bearing: 0).coordinate(
            atDistance: 1_000, bearing: 270)
        let b = site.center.coordinate(atDistance: 97, bearing: 0).coordinate(
            atDistance: 1_000, bearing: 90)
        _ = try await graze.process(
            Location(coordinate: a, horizontalAccuracy: 0, timestamp: referenceDate))
        #expect(
            try await graze.process(
                Location(coordinate: b, horizontalAccuracy: 0, timestamp: referenceDate + 100)
            ).isEmpty)
        // Crossings can be switched off.
        let off = try makeMonitor(GeofenceConfiguration(detectsCrossings: false))
        try await off.add(site.condition, identifier: "site")
        _ = try await off.process(first)
        #expect(try await off.process(second).isEmpty)
    }

    @Test func crossingThroughAPolygon() async throws {
        let square = try PolygonGeographicCondition(exterior: [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 0.01),
            Coordinate(latitude: 0.01, longitude: 0.01), Coordinate(latitude: 0.01, longitude: 0),
        ])
        let monitor = try makeMonitor()
        try await monitor.add(square, identifier: "square")
        _ = try await monitor.process(fix(0.005, -0.05, at: 0))
        let events = try await monitor.process(fix(0.005, 0.06, at: 110))
        #expect(events.map(\.state) == [.satisfied, .unsatisfied])
        if events.count == 2 {
            #expect(abs(events[0].location.coordinate.longitude) < 1e-7)
            #expect(abs(events[1].location.coordinate.longitude - 0.01) < 1e-7)
            #expect(abs(events[0].date.timeIntervalSince(referenceDate) - 50) < 0.01)
            #expect(abs(events[1].date.timeIntervalSince(referenceDate) - 60) < 0.01)
        }
    }

    /// Rejected fixes throw a typed error and change nothing: no event, same records, same last fix.
    @Test func invalidFixesAreRejectedWithoutChange() async throws {
        let now = referenceDate.addingTimeInterval(100)
        let monitor = try makeMonitor(
            GeofenceConfiguration(fixFilter: .recommended), clock: { now })
        try await monitor.add(site.condition, identifier: "site")
        let stream = await monitor.events
        _ = try await monitor.process(site.fix(at: 10, accuracy: 5, time: 90))
        let before = await monitor.record(for: "site")
        let lastFix = await monitor.lastProcessedFix
        let bad: [(Location, GeoError.Kind)] = [
            (fix(.nan, 14.3577, at: 95), .invalidCoordinate),
            (fix(91, 14.3577, at: 95), .invalidCoordinate),
            (fix(45.77, 180.5, at: 95), .invalidCoordinate),
            (fix(45.77, .infinity, at: 95), .invalidCoordinate),
            (site.fix(at: 500, accuracy: -1, time: 95), .invalidArgument),
            (site.fix(at: 500, accuracy: .nan, time: 95), .invalidArgument),
            (site.fix(at: 500, time: 89), .staleFix),
            (site.fix(at: 500, accuracy: 150, time: 95), .filteredFix),
            (site.fix(at: 500, time: 60), .staleFix),
            (site.fix(at: 500, accuracy: 0, time: 91).with(seconds: 38), .staleFix),
        ]
        for (location, kind) in bad {
            do {
                try await monitor.process(location)
                Issue.record("accepted \(location)")
            } catch {
                #expect(error.kind == kind, "\(error)")
                #expect(!error.message.isEmpty)
            }
        }
        // A stale fix's message names both times to the digit that tells them apart (it read
        // "fix at ...02.000Z is older than the last processed fix at ...02.000Z").
        let close = try makeMonitor(GeofenceConfiguration(), clock: { now })
        try await close.add(site.condition, identifier: "site")
        _ = try await close.process(fix(45.77, 14.3577, at: 2.001))
        do {
            try await close.process(fix(45.77, 14.3577, at: 2))
            Issue.record("accepted a fix a millisecond older")
        } catch {
            #expect(error.kind == .staleFix)
            #expect(
                error.message.contains(
                    "fix at 2024-06-01T12:00:02Z is older than the last processed fix at 2024-06-01T12:00:02.001Z"
                ), "\(error.message)")
        }
        // Too old for the filter (31 s before the clock's now) but not stale.
        let old = try makeMonitor(
            GeofenceConfiguration(fixFilter: FixFilter(maximumAge: 30)), clock: { now })
        try await old.add(site.condition, identifier: "site")
        await #expect(throws: GeoError.self) { try await old.process(site.fix(at: 500, time: 69)) }
        #expect(try await old.process(site.fix(at: 500, time: 70)).count == 1)

        #expect(await monitor.record(for: "site") == before)
        #expect(await monitor.lastProcessedFix == lastFix)
        // The stream saw the one real event and nothing from the rejected fixes.
        _ = try await monitor.process(site.fix(at: 300, time: 96))
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.state == .satisfied)
        #expect(await iterator.next()?.state == .unsatisfied)
        // An equal timestamp is not stale.
        #expect(try await monitor.process(site.fix(at: 310, time: 96)).isEmpty)
    }

    /// The events sequence delivers every event in order, to every subscriber, and finishes on close.
    @Test func eventsSequence() async throws {
        let monitor = try makeMonitor()
        try await monitor.add(site.condition, identifier: "b-site")
        try await monitor.add(
            CircularGeographicCondition(center: site.center, radius: 1_000), identifier: "a-wide",
            assuming: .unsatisfied)
        let first = await monitor.events
        let second = await monitor.events
        let returned = try await monitor.process(site.fix(at: 10, time: 0))
        // Same date: ordered by identifier.
        #expect(returned.map(\.identifier) == ["a-wide", "b-site"])
        _ = try await monitor.process(site.fix(at: 500, time: 10))
        await monitor.close()
        var seen = [[String]]()
        for stream in [first, second] {
            var ids = [String]()
            for await event in stream { ids.append("\(event.identifier):\(event.state)") }
            seen.append(ids)
        }
        #expect(seen[0] == ["a-wide:satisfied", "b-site:satisfied", "b-site:unsatisfied"])
        #expect(seen[1] == seen[0])
        // Closed: every call fails, and a new stream is already finished.
        await #expect(throws: GeoError.self) {
            try await monitor.process(site.fix(at: 10, time: 20))
        }
        var after = await monitor.events.makeAsyncIterator()
        #expect(await after.next() == nil)
    }

    @Test func conditionsAndRecords() async throws {
        let monitor = try makeMonitor()
        #expect(await monitor.identifiers.isEmpty)
        try await monitor.add(site.condition, identifier: "site", assuming: .satisfied)
        let square = try PolygonGeographicCondition(exterior: [
            Coordinate(latitude: 45, longitude: 14), Coordinate(latitude: 45, longitude: 15),
            Coordinate(latitude: 46, longitude: 15),
        ])
        try await monitor.add(square, identifier: "area")
        #expect(await monitor.identifiers == ["area", "site"])
        #expect(await monitor.record(for: "site")?.state == .satisfied)
        #expect(await monitor.record(for: "site")?.lastEvent == nil)
        #expect(await monitor.record(for: "area")?.condition == .polygon(square))
        // An assumed inside state is confirmed by a fix without an event; the stay starts there.
        #expect(try await monitor.process(site.fix(at: 20, time: 0)).map(\.identifier) == ["area"])
        #expect(await monitor.record(for: "site")?.insideSince == referenceDate)
        #expect(await monitor.record(for: "area")?.lastEvent?.identifier == "area")
        // Replacing resets the state; removing forgets.
        try await monitor.add(site.condition, identifier: "site")
        #expect(await monitor.record(for: "site")?.state == .unknown)
        try await monitor.remove("site")
        try await monitor.remove("never-added")
        #expect(await monitor.identifiers == ["area"])
        #expect(await monitor.record(for: "site") == nil)
    }

    /// Adding many fences at once equals adding them one by one (a later fence of the list
    /// replaces an earlier one of the same identifier), and is saved: a monitor reopened from its
    /// directory has them all. 20,000 fences are added in one step (one by one, each add saves
    /// the whole state: quadratic).
    @Test func addingManyAtOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "monitor-batch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "batch-\(UUID().uuidString.prefix(8))"
        var rng = SplitMix64(seed: 0xFE7C)
        var fences = try (0..<20_000).map { i in
            GeofenceIndex.Fence(
                identifier: "fence-\(i)",
                condition: .circle(
                    try CircularGeographicCondition(
                        center: Coordinate(
                            latitude: rng.uniform(-80, 80), longitude: rng.uniform(-180, 180)),
                        radius: rng.uniform(10, 5_000))))
        }
        fences.append(
            GeofenceIndex.Fence(identifier: "fence-7", condition: try .circle(site.condition)))
        do {
            let monitor = try GeofenceMonitor(name: name, storage: .directory(directory))
            try await monitor.add(site.condition, identifier: "kept", assuming: .satisfied)
            try await monitor.add(contentsOf: fences, assuming: .unsatisfied)
            #expect(await monitor.identifiers.count == 20_001)
            await monitor.close()
        }
        let reopened = try GeofenceMonitor(name: name, storage: .directory(directory))
        #expect(await reopened.identifiers.count == 20_001)
        #expect(await reopened.record(for: "kept")?.state == .satisfied)
        #expect(await reopened.record(for: "fence-7")?.condition == .circle(try site.condition))
        #expect(await reopened.record(for: "fence-19999")?.state == .unsatisfied)
        #expect(
            await reopened.record(for: "fence-3")?.condition == fences[3].condition)
        // Closed, it refuses, as a single add does.
        await reopened.close()
        await #expect(throws: GeoError.self) { try await reopened.add(contentsOf: fences) }
    }

    /// Only one monitor per name and storage; the name is free again after close.
    @Test func oneOpenMonitorPerNameAndStorage() async throws {
        let name = "unique-\(UUID().uuidString)"
        let first = try GeofenceMonitor(name: name, storage: .inMemory)
        do {
            _ = try GeofenceMonitor(name: name, storage: .inMemory)
            Issue.record("a second monitor opened")
        } catch {
            #expect(error.kind == .monitorInUse)
        }
        await first.close()
        let second = try GeofenceMonitor(name: name, storage: .inMemory)
        await second.close()
        // Directory storage: the lock is a file lock, so another path to the same directory conflicts.
        let directory = try temporaryDirectory()
        let a = try GeofenceMonitor(name: "notes", storage: .directory(directory))
        let link = directory.deletingLastPathComponent().appendingPathComponent(
            "link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory)
        defer { try? FileManager.default.removeItem(at: link) }
        do {
            _ = try GeofenceMonitor(name: "notes", storage: .directory(link))
            Issue.record("a second monitor opened through a symbolic link")
        } catch {
            #expect(error.kind == .monitorInUse)
        }
        let other = try GeofenceMonitor(name: "other", storage: .directory(directory))
        await a.close()
        await other.close()
        _ = try GeofenceMonitor(name: "notes", storage: .directory(directory))
        #expect(throws: GeoError.self) {
            try GeofenceMonitor(name: "../escape", storage: .inMemory)
        }
        #expect(throws: GeoError.self) { try GeofenceMonitor(name: "", storage: .inMemory) }
        #expect(throws: GeoError.self) {
            try GeofenceMonitor(
                name: "x", storage: .inMemory, configuration: GeofenceConfiguration(hysteresis: -1))
        }
        #expect(throws: GeoError.self) {
            try GeofenceMonitor(
                name: "y", storage: .inMemory, configuration: GeofenceConfiguration(dwellTime: 0))
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

extension Location {
    /// The same fix at another time, `seconds` after the reference date.
    fileprivate func with(seconds: Double) -> Location {
        var copy = self
        copy.timestamp = referenceDate.addingTimeInterval(seconds)
        return copy
    }
}
