import Foundation
import GeoCore

/// The fences the grid does not hold (boxes reaching a pole, or covering more than 4 096 cells),
/// listed by latitude bands of 0.05° (5.5 km) so that a point looks only at those whose box spans
/// its latitude, each with the cheapest proven test that works for it.
struct LargeFences: Sendable {
    /// How a large fence is tested.
    enum Test: Sendable {
        /// A circle near a pole: the azimuthal chart test.
        case polar(PolarCircleTest)
        /// Any other circle: the latitude bound, the flat-earth test, then `geod_inverse`.
        case circle(CircleContainmentTest)
        /// A polygon: its exact predicate.
        case polygon(PolygonGeographicCondition)
    }

    /// The tests, by slot − `firstSlot`.
    let tests: [Test]
    let firstSlot: Int
    /// Slots of band b (latitudes [b/20 − 90, (b + 1)/20 − 90)): `entries[bandStart[b] ..< bandStart[b + 1]]`.
    let bandStart: [Int32]
    let entries: [Int32]

    /// Bands per degree of latitude.
    static let bandsPerDegree = 20.0
    static let bandCount = 3_600

    static let empty = LargeFences(
        tests: [], firstSlot: 0, bandStart: [Int32](repeating: 0, count: bandCount + 1), entries: []
    )

    private init(tests: [Test], firstSlot: Int, bandStart: [Int32], entries: [Int32]) {
        self.tests = tests
        self.firstSlot = firstSlot
        self.bandStart = bandStart
        self.entries = entries
    }

    /// Lists large fences (slots `firstSlot...`) with their conditions and latitude extents.
    init(firstSlot: Int, conditions: [GeographicCondition], south: [Double], north: [Double]) {
        self.firstSlot = firstSlot
        tests = conditions.map { condition in
            switch condition {
            case .circle(let circle):
                if let polar = PolarCircleTest(circle) { return .polar(polar) }
                return .circle(CircleContainmentTest(circle))
            case .polygon(let polygon): return .polygon(polygon)
            }
        }
        var lists = [[Int32]](repeating: [], count: Self.bandCount)
        for i in conditions.indices {
            for b in Self.band(south[i])...Self.band(north[i]) {
                lists[b].append(Int32(truncatingIfNeeded: firstSlot + i))
            }
        }
        var start = [Int32](repeating: 0, count: Self.bandCount + 1)
        for b in 0..<Self.bandCount {
            start[b + 1] = start[b] &+ Int32(truncatingIfNeeded: lists[b].count)
        }
        bandStart = start
        entries = lists.flatMap { $0 }
    }

    /// The band of a latitude, in 0..<bandCount.
    @inline(__always)
    static func band(_ latitude: Double) -> Int {
        let b = ((latitude + 90) * bandsPerDegree).rounded(.down)
        guard b >= 0 else { return 0 }
        return b >= Double(bandCount - 1) ? bandCount - 1 : Int(b)
    }

    /// Calls `body` with the slot of every large fence whose box spans a latitude.
    @inline(__always)
    func forEach(atLatitude latitude: Double, _ body: (Int) -> Void) {
        guard !entries.isEmpty else { return }
        let b = Self.band(latitude)
        for k in Int(bandStart[b])..<Int(bandStart[b + 1]) { body(Int(entries[k])) }
    }

    /// Calls `body` with every large fence whose box may meet latitudes [south, north] (a fence
    /// spanning several bands may come more than once).
    func forEach(from south: Double, to north: Double, _ body: (Int) -> Void) {
        guard !entries.isEmpty else { return }
        for b in Self.band(south)...Self.band(max(south, north)) {
            for k in Int(bandStart[b])..<Int(bandStart[b + 1]) { body(Int(entries[k])) }
        }
    }

    /// A point's chart coordinates for the two poles, computed once per point when needed.
    struct Charts {
        let point: Coordinate
        private var north: (u: Double, v: Double)?
        private var south: (u: Double, v: Double)?

        init(_ point: Coordinate) { self.point = point }

        mutating func chart(_ pole: Double) -> (u: Double, v: Double) {
            if pole > 0 {
                if let north { return north }
                let c = PolarCircleTest.chart(
                    latitude: point.latitude, longitude: point.longitude, pole: 1)
                north = c
                return c
            }
            if let south { return south }
            let c = PolarCircleTest.chart(
                latitude: point.latitude, longitude: point.longitude, pole: -1)
            south = c
            return c
        }
    }

    /// Whether the large fence in a slot contains a valid point; counts geodesic solutions.
    func contains(_ slot: Int, _ charts: inout Charts, exactCount: inout Int) -> Bool {
        let point = charts.point
        switch tests[slot - firstSlot] {
        case .polar(let test):
            let (u, v) = charts.chart(test.pole)
            switch test.verdict(u: u, v: v) {
            case .inside: return true
            case .outside: return false
            case .undecided:
                exactCount += 1
                return Geodesic.wgs84.distance(from: test.center, to: point) <= test.radius
            }
        case .circle(let test):
            // Farther in latitude than r / M₀: outside (|dφ| ≤ ds / M₀ along any path).
            let dLat =
                abs(point.latitude - test.center.latitude)
                * EllipsoidMetric.minimumMetersPerDegreeLatitude
            if dLat > test.radius * (1 + 1e-12) + CircleContainmentTest.absoluteSlack {
                return false
            }
            switch test.verdict(for: point) {
            case .inside: return true
            case .outside: return false
            case .undecided:
                exactCount += 1
                return Geodesic.wgs84.distance(from: test.center, to: point) <= test.radius
            }
        case .polygon(let polygon):
            return polygon.contains(point)
        }
    }
}
