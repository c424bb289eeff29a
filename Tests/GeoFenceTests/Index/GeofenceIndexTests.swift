import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoFence

/// Seeded fences: circles (log-uniform radii) and polygons, optionally worldwide with extra fences
/// near the poles and across the 180th meridian.
private func makeFences(
    _ count: Int, seed: UInt64, worldwide: Bool, polygons: Bool = true
) throws -> [GeofenceIndex.Fence] {
    var rng = SplitMix64(seed: seed)
    var fences = [GeofenceIndex.Fence]()
    for i in 0..<count {
        let center: Coordinate
        if worldwide {
            switch i % 4 {
            case 0:
                center = Coordinate(
                    latitude: rng.uniform(-89.99, 89.99), longitude: rng.uniform(-180, 180))
            case 1:
                let m = rng.uniform(84, 90)
                center = Coordinate(
                    latitude: rng.nextUnit() < 0.5 ? m : -m, longitude: rng.uniform(-180, 180))
            default:
                let o = rng.uniform(0, 0.3)
                center = Coordinate(
                    latitude: rng.uniform(-70, 70),
                    longitude: rng.nextUnit() < 0.5 ? 180 - o : -180 + o)
            }
        } else {
            center = Coordinate(latitude: rng.uniform(45, 46), longitude: rng.uniform(7, 8.4))
        }
        let radius = exp(rng.uniform(log(50), log(worldwide ? 200_000 : 5_000)))
        if polygons && i % 5 == 4 && abs(center.latitude) < 80 {
            let n = 3 + Int(rng.next() % 6)
            var ring = [Coordinate]()
            for k in 0..<n {
                ring.append(
                    center.coordinate(
                        atDistance: radius * rng.uniform(0.5, 1.2),
                        bearing: 360 * Double(k) / Double(n)))
            }
            fences.append(
                .init(
                    identifier: "p\(i)",
                    condition: .polygon(try PolygonGeographicCondition(exterior: ring))))
        } else {
            fences.append(
                .init(
                    identifier: "c\(i)",
                    condition: .circle(
                        try CircularGeographicCondition(center: center, radius: radius))))
        }
    }
    return fences
}

/// Points near the fences (so that many are inside or close) and some anywhere.
private func makePoints(
    _ count: Int, near fences: [GeofenceIndex.Fence], seed: UInt64
) -> [Coordinate] {
    var rng = SplitMix64(seed: seed)
    var points = [Coordinate]()
    for i in 0..<count {
        if i % 4 == 3 {
            points.append(
                Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180)))
            continue
        }
        let fence = fences[Int(rng.next() % UInt64(fences.count))]
        let (anchor, scale): (Coordinate, Double)
        switch fence.condition {
        case .circle(let c): (anchor, scale) = (c.center, c.radius)
        case .polygon(let p): (anchor, scale) = (p.exterior[0], 2_000)
        }
        points.append(
            anchor.coordinate(atDistance: scale * rng.uniform(0, 1.5), bearing: rng.uniform(0, 360))
        )
    }
    return points
}

@Suite("GeofenceIndex")
struct GeofenceIndexTests {
    /// Worldwide circles and polygons (poles, the 180th meridian, radii up to 200 km): every point's
    /// fences equal a brute-force scan with the conditions' exact tests, and the bulk count agrees
    /// with 1 and 2 threads.
    @Test func containmentMatchesBruteForceWorldwide() throws {
        let fences = try makeFences(400, seed: 1, worldwide: true)
        let index = try GeofenceIndex(fences)
        let points = makePoints(1_500, near: fences, seed: 2)
        var total = 0
        for (i, p) in points.enumerated() {
            let brute = fences.indices.filter { fences[$0].condition.contains(p) }
            #expect(index.positions(containing: p) == brute, "point \(i) \(p)")
            total += brute.count
        }
        #expect(total > 300)
        let lat = points.map(\.latitude), lon = points.map(\.longitude)
        let one = try index.containmentStatistics(latitudes: lat, longitudes: lon)
        let two = try index.containmentStatistics(latitudes: lat, longitudes: lon, threads: 2)
        #expect(one.pairs == total)
        #expect(two == one)
        // Per point, on one and two threads, and as fences.
        let counts = points.map { p in fences.filter { $0.condition.contains(p) }.count }
        #expect(try index.fenceCounts(containing: points) == counts)
        #expect(try index.fenceCounts(containing: points, threads: 2) == counts)
        for p in points.prefix(200) {
            #expect(index.fences(containing: p) == fences.filter { $0.condition.contains(p) })
        }
    }

    /// Identifiers name fences, so two fences with one identifier are refused, naming both.
    @Test func duplicateIdentifiersAreRefused() throws {
        let circle = try CircularGeographicCondition(
            center: Coordinate(latitude: 1, longitude: 2), radius: 10)
        let fences = ["a", "b", "a"].map {
            GeofenceIndex.Fence(identifier: $0, condition: .circle(circle))
        }
        do {
            _ = try GeofenceIndex(fences)
            Issue.record("duplicate identifiers accepted")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(error.message.contains("\"a\"") && error.message.contains("0 and 2"))
            #expect(error.offset == 2)
        }
        let index = try GeofenceIndex(Array(fences.prefix(2)))
        #expect(index.fence(withIdentifier: "b")?.identifier == "b")
        #expect(index.fence(withIdentifier: "c") == nil)
    }

    /// A regional workload shaped like the benchmark's: the counts agree with brute force (with a
    /// proven latitude prefilter), some pairs come from interior cells, and few geodesic solutions
    /// are needed.
    @Test func regionalCountsMatchBruteForce() throws {
        let fences = try makeFences(1_500, seed: 3, worldwide: false, polygons: false)
        let index = try GeofenceIndex(fences)
        var rng = SplitMix64(seed: 4)
        let points = (0..<8_000).map { _ in
            Coordinate(latitude: rng.uniform(45, 46), longitude: rng.uniform(7, 8.4))
        }
        var brute = 0
        for fence in fences {
            guard case .circle(let c) = fence.condition else { continue }
            let dLat = c.radius / EllipsoidMetric.minimumMeridionalRadius * 180 / .pi
            for p in points where abs(p.latitude - c.center.latitude) <= dLat && c.contains(p) {
                brute += 1
            }
        }
        let stats = try index.containmentStatistics(
            latitudes: points.map(\.latitude), longitudes: points.map(\.longitude))
        #expect(stats.pairs == brute)
        #expect(stats.interiorPairs > 0)
        #expect(stats.exactEvaluations * 50 < stats.candidates)
        #expect(stats.points == points.count)
    }

    /// Fences and points crowded round the north pole (uniform in latitude and longitude above
    /// 84.5°): grid circles tested in the polar chart, polar caps in the large list; every count
    /// agrees with brute force, and few pairs need a geodesic solution.
    @Test func polarRegionMatchesBruteForce() throws {
        var rng = SplitMix64(seed: 12)
        let circles = try (0..<300).map { _ in
            try CircularGeographicCondition(
                center: Coordinate(
                    latitude: rng.uniform(84.5, 90), longitude: rng.uniform(-180, 180)),
                radius: exp(rng.uniform(log(50), log(20_000))))
        }
        let index = try GeofenceIndex(circles: circles)
        #expect(index.gridCircleCount > index.flatCircleCount)
        let points = (0..<1_500).map { _ in
            Coordinate(latitude: rng.uniform(84.5, 90), longitude: rng.uniform(-180, 180))
        }
        var brute = 0
        for (j, p) in points.enumerated() {
            let inside = circles.indices.filter { circles[$0].contains(p) }
            brute += inside.count
            if j % 10 == 0 { #expect(index.positions(containing: p) == inside) }
        }
        let stats = try index.containmentStatistics(
            latitudes: points.map(\.latitude), longitudes: points.map(\.longitude))
        #expect(stats.pairs == brute)
        #expect(brute > 50)
        #expect(stats.exactEvaluations * 10 < stats.candidates)
    }

    @Test func badBulkInputIsReported() throws {
        let index = try GeofenceIndex(try makeFences(10, seed: 5, worldwide: false))
        do {
            _ = try index.containmentStatistics(latitudes: [45, 45, .nan], longitudes: [7, 7, 7])
            Issue.record("NaN accepted")
        } catch {
            #expect(error.kind == .invalidCoordinate)
            #expect(error.offset == 2)
        }
        #expect(throws: GeoError.self) {
            try index.containmentStatistics(latitudes: [1], longitudes: [])
        }
        #expect(index.fences(containing: Coordinate(latitude: 95, longitude: 0)).isEmpty)
        #expect(throws: GeoError.self) {
            try index.fenceCounts(containing: [Coordinate(latitude: 0, longitude: 200)])
        }
        let empty = try GeofenceIndex([GeofenceIndex.Fence]())
        #expect(try empty.containmentStatistics(latitudes: [1, 2], longitudes: [3, 4]).pairs == 0)
        #expect(try empty.nearest(3, to: Coordinate(latitude: 0, longitude: 0)).isEmpty)
    }

    /// `nearest` equals sorting all fences by signed distance, for points inside the grid, far
    /// outside it, at the poles and across the 180th meridian.
    @Test func nearestMatchesBruteForce() throws {
        for (seed, worldwide) in [(UInt64(6), true), (7, false)] {
            let fences = try makeFences(250, seed: seed, worldwide: worldwide)
            let index = try GeofenceIndex(fences)
            var points = makePoints(40, near: fences, seed: seed + 100)
            points += [
                Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 0),
                Coordinate(latitude: 0, longitude: 180),
                Coordinate(latitude: -10, longitude: -179.99),
                Coordinate(latitude: 45.5, longitude: -172),
            ]
            let distances = fences.map { f in points.map { f.condition.signedDistance(from: $0) } }
            for (j, p) in points.enumerated() {
                let order = fences.indices.sorted { a, b in
                    distances[a][j] != distances[b][j] ? distances[a][j] < distances[b][j] : a < b
                }
                for count in [1, 5, 20] {
                    let found = try index.nearest(count, to: p)
                    #expect(
                        found.map(\.fence) == Array(order.prefix(count)),
                        "point \(p), count \(count)")
                    #expect(found.first?.identifier == fences[order[0]].identifier)
                }
            }
            #expect(throws: GeoError.self) {
                try index.nearest(2, to: Coordinate(latitude: .nan, longitude: 0))
            }
            #expect(throws: GeoError.self) {
                try index.nearest(-1, to: Coordinate(latitude: 0, longitude: 0))
            }
        }
    }

    /// The index's per-device evaluation produces exactly the monitor's events (without the first
    /// "outside" decisions, which the index does not report), on random tracks that wander through
    /// overlapping fences with noisy fixes, jumps (crossings) and dwells.
    @Test func evaluationMatchesTheMonitor() async throws {
        var fenceRng = SplitMix64(seed: 8)
        var fences = [GeofenceIndex.Fence]()
        for i in 0..<60 {
            let center = Coordinate(
                latitude: fenceRng.uniform(45.45, 45.55), longitude: fenceRng.uniform(7.43, 7.57))
            let radius = exp(fenceRng.uniform(log(50), log(3_000)))
            if i % 5 == 4 {
                let ring = (0..<5).map { k in
                    center.coordinate(atDistance: radius, bearing: 72 * Double(k) + 10)
                }
                fences.append(
                    .init(
                        identifier: "p\(i)",
                        condition: .polygon(try PolygonGeographicCondition(exterior: ring))))
            } else {
                fences.append(
                    .init(
                        identifier: "c\(i)",
                        condition: .circle(
                            try CircularGeographicCondition(center: center, radius: radius))))
            }
        }
        let configuration = GeofenceConfiguration(hysteresis: 5, dwellTime: 120)
        var index = try GeofenceEvaluator(
            index: try GeofenceIndex(fences), configuration: configuration)
        var rng = SplitMix64(seed: 9)
        var updates = [GeofenceUpdate]()
        var tracks = [String: [Location]]()
        for device in ["alpha", "bravo", "charlie"] {
            var position = Coordinate(
                latitude: rng.uniform(45.47, 45.53), longitude: rng.uniform(7.45, 7.55))
            var time = 0.0
            for _ in 0..<120 {
                let jump = rng.nextUnit() < 0.1
                let home = Coordinate(latitude: 45.5, longitude: 7.5)
                let bearing =
                    position.distance(to: home) > 6_000
                    ? position.bearing(to: home) : rng.uniform(0, 360)
                position = position.coordinate(
                    atDistance: jump ? rng.uniform(1_000, 8_000) : rng.uniform(0, 300),
                    bearing: bearing)
                time += rng.uniform(5, 60)
                let fix = Location(
                    coordinate: position, horizontalAccuracy: rng.uniform(0, 30),
                    timestamp: referenceDate + time)
                tracks[device, default: []].append(fix)
            }
        }
        // Interleave the devices' fixes in one batch.
        for i in 0..<120 {
            for device in ["alpha", "bravo", "charlie"] {
                updates.append(GeofenceUpdate(device: device, location: tracks[device]![i]))
            }
        }
        let result = index.evaluate(updates, now: referenceDate)
        #expect(result.rejections.isEmpty)
        #expect(result.transitions.count > 50)
        #expect(
            result.transitions.contains {
                if case .crossing = $0.event.reason { true } else { false }
            })
        #expect(
            result.transitions.contains { if case .dwell = $0.event.reason { true } else { false } }
        )
        for device in ["alpha", "bravo", "charlie"] {
            let monitor = try GeofenceMonitor(
                name: "eq-\(device)-\(UUID().uuidString.prefix(6))", storage: .inMemory,
                configuration: configuration)
            for (i, fence) in fences.enumerated() {
                try await monitor.add(fence.condition, identifier: String(format: "%04d", i))
            }
            var expected = [String]()
            var states = [String: GeofenceState]()
            for fix in tracks[device]! {
                for event in try await monitor.process(fix) {
                    // The index does not report a fence's first decision "outside".
                    let before = states[event.identifier] ?? .unknown
                    states[event.identifier] = event.state
                    if before == .unknown && event.state == .unsatisfied { continue }
                    expected.append(
                        "\(Int(event.identifier) ?? -1) \(event.state) \(event.date.timeIntervalSince(referenceDate)) \(event.reason)"
                    )
                }
            }
            let actual = result.transitions.filter { $0.device == device }.map {
                "\($0.fence) \($0.event.state) \($0.event.date.timeIntervalSince(referenceDate)) \($0.event.reason)"
            }
            #expect(actual == expected, "device \(device)")
            var inside = [Int]()
            for i in fences.indices
            where await monitor.record(for: String(format: "%04d", i))?.state == .satisfied {
                inside.append(i)
            }
            #expect(index.positions(containingDevice: device) == inside)
        }
        // A stale fix and an invalid one are rejected and change nothing.
        let before = index.positions(containingDevice: "alpha")
        let bad = index.evaluate(
            [
                GeofenceUpdate(
                    device: "alpha",
                    location: Location(latitude: 45.5, longitude: 7.5, timestamp: referenceDate)),
                GeofenceUpdate(
                    device: "alpha",
                    location: Location(
                        latitude: .nan, longitude: 7.5, timestamp: referenceDate + 1e6)),
            ], now: referenceDate)
        #expect(bad.transitions.isEmpty)
        #expect(bad.rejections.map(\.error.kind) == [.staleFix, .invalidCoordinate])
        #expect(bad.rejections.map(\.update) == [0, 1])
        #expect(index.positions(containingDevice: "alpha") == before)
    }

    /// Dwell without fixes, and unknown states before a first fix.
    @Test func advanceAndStates() throws {
        let circle = try CircularGeographicCondition(
            center: Coordinate(latitude: 10, longitude: 10), radius: 100)
        var index = try GeofenceEvaluator(
            index: try GeofenceIndex(circles: [circle]),
            configuration: GeofenceConfiguration(dwellTime: 60))
        #expect(index.state(of: "d", fence: "0") == .unknown)
        #expect(
            index.index.count == 1 && index.index.fence(withIdentifier: "0")?.identifier == "0"
                && index.index.fence(withIdentifier: "0")?.condition == .circle(circle))
        #expect(index.index.fences.map(\.identifier) == ["0"])
        for missing in ["1", "-1", "00", " 0", ""] {
            #expect(index.index.fence(withIdentifier: missing) == nil)
        }
        let result = index.evaluate([
            GeofenceUpdate(
                device: "d",
                location: Location(latitude: 10, longitude: 10, timestamp: referenceDate))
        ])
        #expect(result.transitions.map(\.event.state) == [.satisfied])
        #expect(result.transitions.first?.event.identifier == "0")
        #expect(index.state(of: "d", fence: "0") == .satisfied)
        #expect(index.advance(to: referenceDate + 59).isEmpty)
        let dwell = index.advance(to: referenceDate + 60)
        #expect(dwell.map(\.event.reason) == [.dwell(since: referenceDate)])
        #expect(dwell.first?.update == nil)
        let away = index.evaluate([
            GeofenceUpdate(
                device: "d",
                location: Location(latitude: 11, longitude: 10, timestamp: referenceDate + 70))
        ])
        #expect(away.transitions.map(\.event.state) == [.unsatisfied])
        #expect(index.state(of: "d", fence: "0") == .unsatisfied)
        index.removeDevice("d")
        #expect(index.deviceIdentifiers.isEmpty)
    }

}
