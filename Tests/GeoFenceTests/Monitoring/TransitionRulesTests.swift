import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoFence

/// The state table of one fence for one device, fix by fix: entering and leaving need the accuracy
/// circle clear of the boundary plus the hysteresis margin, an unknown state needs only the
/// accuracy, crossings between distant fixes come dated, dwell comes once.
@Suite("TransitionRules")
struct TransitionRulesTests {
    static let center = Coordinate(latitude: 46.2, longitude: 6.15)
    let fence: CircularGeographicCondition

    init() throws {
        fence = try CircularGeographicCondition(center: Self.center, radius: 1_000)
    }

    /// A fix whose signed distance to the fence's boundary is `signed` meters, at second `t`.
    static func fix(_ signed: Double, accuracy: Double, at t: Double) -> Location {
        let point = Geodesic.wgs84.direct(from: center, azimuth: 37, distance: 1_000 + signed)
            .coordinate
        return Location(
            coordinate: point, horizontalAccuracy: accuracy,
            timestamp: Date(timeIntervalSince1970: t))
    }

    /// Runs fixes through the rules and returns the state after each and every event.
    func run(
        _ fixes: [Location], rules: TransitionRules, bounds: Bool = false
    ) -> (states: [GeofenceState], changes: [TransitionRules.Change]) {
        var tracking = FenceTracking(state: .unknown)
        var changes = [TransitionRules.Change]()
        var states = [GeofenceState]()
        var previous: Location?
        for fix in fixes {
            var path = PathCrossing.LazyPath(from: previous, to: fix)
            let exact = fence.signedDistance(from: fix.coordinate)
            rules.apply(
                fix: fix, path: &path, condition: { .circle(fence) },
                bounds: bounds ? (exact - 0.5, exact + 0.5) : nil, tracking: &tracking,
                changes: &changes)
            states.append(tracking.state)
            previous = fix
        }
        return (states, changes)
    }

    @Test func theStateTable() {
        let rules = TransitionRules(GeofenceConfiguration(hysteresis: 5))
        // Straddling the boundary decides nothing; clear of it by the accuracy decides.
        #expect(run([Self.fix(-10, accuracy: 20, at: 0)], rules: rules).states == [.unknown])
        #expect(run([Self.fix(-30, accuracy: 20, at: 0)], rules: rules).states == [.satisfied])
        #expect(run([Self.fix(30, accuracy: 20, at: 0)], rules: rules).states == [.unsatisfied])
        // Once outside, entering needs accuracy + hysteresis inside: 22 m in is not enough.
        let entering = run(
            [
                Self.fix(100, accuracy: 20, at: 0), Self.fix(-22, accuracy: 20, at: 10),
                Self.fix(-26, accuracy: 20, at: 20),
            ], rules: rules)
        #expect(entering.states == [.unsatisfied, .unsatisfied, .satisfied])
        // Once inside, leaving needs accuracy + hysteresis outside.
        let leaving = run(
            [
                Self.fix(-100, accuracy: 10, at: 0), Self.fix(14, accuracy: 10, at: 10),
                Self.fix(16, accuracy: 10, at: 20),
            ], rules: rules)
        #expect(leaving.states == [.satisfied, .satisfied, .unsatisfied])
        #expect(leaving.changes.map(\.state) == [.satisfied, .unsatisfied])
        #expect(leaving.changes.last?.date == Date(timeIntervalSince1970: 20))
    }

    /// Bounds that bracket the exact distance give the same states and events as the exact
    /// distance alone.
    @Test func boundsNeverChangeTheOutcome() {
        var rng = SplitMix64(seed: 3)
        let rules = TransitionRules(GeofenceConfiguration(hysteresis: 5, dwellTime: 30))
        for _ in 0..<50 {
            let fixes = (0..<40).map { i in
                Self.fix(rng.uniform(-60, 60), accuracy: rng.uniform(0, 25), at: Double(i) * 7)
            }
            let exact = run(fixes, rules: rules)
            let bounded = run(fixes, rules: rules, bounds: true)
            #expect(exact.states == bounded.states)
            #expect(exact.changes.map(\.state) == bounded.changes.map(\.state))
            #expect(exact.changes.map(\.date) == bounded.changes.map(\.date))
        }
    }

    @Test func dwellComesOnceAfterTheDwellTime() {
        let rules = TransitionRules(GeofenceConfiguration(dwellTime: 60))
        let fixes = stride(from: 0.0, through: 200, by: 20).map {
            Self.fix(-200, accuracy: 5, at: $0)
        }
        let changes = run(fixes, rules: rules).changes
        let dwells = changes.filter {
            if case .dwell = $0.reason { true } else { false }
        }
        #expect(dwells.count == 1)
        #expect(dwells.first?.date == Date(timeIntervalSince1970: 60))
    }

    /// Two fixes outside on either side of the fence: an enter and an exit in between, dated by
    /// where the path crosses the boundary; none when crossings are off.
    @Test func crossingsBetweenFixes() throws {
        let west = Geodesic.wgs84.direct(from: Self.center, azimuth: 270, distance: 3_000)
        let east = Geodesic.wgs84.direct(from: Self.center, azimuth: 90, distance: 3_000)
        let fixes = [
            Location(coordinate: west.coordinate, timestamp: Date(timeIntervalSince1970: 0)),
            Location(coordinate: east.coordinate, timestamp: Date(timeIntervalSince1970: 600)),
        ]
        let on = run(fixes, rules: TransitionRules(GeofenceConfiguration()))
        #expect(on.changes.map(\.state) == [.unsatisfied, .satisfied, .unsatisfied])
        let entry = try #require(on.changes.dropFirst().first)
        // The path enters 2 km after the western fix, a third of the way: at 200 s.
        #expect(abs(entry.date.timeIntervalSince1970 - 200) < 0.5)
        let off = run(fixes, rules: TransitionRules(GeofenceConfiguration(detectsCrossings: false)))
        #expect(off.changes.map(\.state) == [.unsatisfied])
    }
}
