import Foundation
import GeoCore

/// Progress along a ``Route`` from a stream of position fixes: where on the route the traveler is,
/// how far they have come and have to go, how long that should take, which step they are on,
/// whether they have arrived, and whether they have left the route.
///
/// Feed it every fix with ``update(with:)``; it is a value type, so keep it in a `var` (or inside
/// an actor that owns the trip being navigated).
///
/// ```swift
/// var progress = RouteProgress(route: route)
/// for await fix in fixes {
///     let events = progress.update(with: fix)
///     if events.contains(.stepChanged) { announce(progress.currentStep) }
///     if events.contains(.wentOffRoute) { reroute(from: fix) }
///     if events.contains(.arrived) { break }
///     show(progress.snappedLocation, eta: progress.expectedArrivalDate)
/// }
/// ```
///
/// ### Snapping
/// A fix is snapped to the nearest point of the route in the stretch from the last snapped position
/// to ``Configuration-swift.struct/lookahead`` meters ahead of it (where that stretch passes the
/// fix's place twice, the earlier pass wins when the two are within ``tieTolerance`` of each
/// other); if that is not close enough, in
/// the ``Configuration-swift.struct/backtrack`` meters behind it; if that is not close enough
/// either, anywhere on the route. So a route that passes the same place twice (an out-and-back, a
/// figure of eight, a loop that starts where it ends) is followed in order, GPS noise does not move
/// the traveler backwards, and a traveler who skipped ahead or turned back is picked up where
/// they are.
///
/// ### Leaving the route
/// A fix is off the route when it is farther from every point of the route than
/// ``Configuration-swift.struct/offRouteTolerance`` plus its own horizontal accuracy (if
/// ``Configuration-swift.struct/includesHorizontalAccuracy``). One stray fix is common in cities;
/// the traveler counts as off the route only after
/// ``Configuration-swift.struct/offRouteFixCount`` consecutive such fixes, and is back on it with the
/// first fix within the tolerance. Fixes whose position is invalid, or whose horizontal accuracy is
/// worse than ``Configuration-swift.struct/maximumHorizontalAccuracy``, are ignored.
public struct RouteProgress: Sendable {
    /// The thresholds that govern snapping, leaving the route and arriving.
    public struct Configuration: Hashable, Sendable, Codable {
        /// Meters a fix may be from the route (beyond its horizontal accuracy) and still be on it.
        public var offRouteTolerance: Double
        /// How many consecutive fixes must be off the route before ``Event/wentOffRoute`` fires; at
        /// least 1.
        public var offRouteFixCount: Int
        /// Whether a fix's horizontal accuracy is added to ``offRouteTolerance``.
        public var includesHorizontalAccuracy: Bool
        /// Meters from the end, along the route, within which the traveler has arrived.
        public var arrivalTolerance: Double
        /// Fixes whose horizontal accuracy is worse than this many meters are ignored.
        public var maximumHorizontalAccuracy: Double
        /// Meters behind the last snapped position searched first.
        public var backtrack: Double
        /// Meters ahead of the last snapped position searched first (grown by the distance the
        /// traveler could have covered since the last fix at twice their speed).
        public var lookahead: Double

        /// Creates a configuration; the defaults suit road navigation.
        public init(
            offRouteTolerance: Double = 50, offRouteFixCount: Int = 3,
            includesHorizontalAccuracy: Bool = true,
            arrivalTolerance: Double = 25, maximumHorizontalAccuracy: Double = 200,
            backtrack: Double = 100,
            lookahead: Double = 1_000
        ) {
            self.offRouteTolerance = offRouteTolerance
            self.offRouteFixCount = offRouteFixCount
            self.includesHorizontalAccuracy = includesHorizontalAccuracy
            self.arrivalTolerance = arrivalTolerance
            self.maximumHorizontalAccuracy = maximumHorizontalAccuracy
            self.backtrack = backtrack
            self.lookahead = lookahead
        }
    }

    /// What an update changed.
    public struct Event: OptionSet, Hashable, Sendable {
        /// The events as bits.
        public let rawValue: UInt8
        /// Creates a set of events from its bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The fix was snapped to the route and the progress figures were updated.
        public static let progressed = Event(rawValue: 1 << 0)
        /// The current step changed.
        public static let stepChanged = Event(rawValue: 1 << 1)
        /// The traveler has just been found off the route (fires once per departure).
        public static let wentOffRoute = Event(rawValue: 1 << 2)
        /// The traveler is back on the route after having been off it.
        public static let returnedToRoute = Event(rawValue: 1 << 3)
        /// The traveler has just arrived (fires once).
        public static let arrived = Event(rawValue: 1 << 4)
        /// The fix was ignored: its position is invalid or its accuracy too poor.
        public static let ignored = Event(rawValue: 1 << 5)
        /// The fix was off the route (whether or not enough such fixes have come in a row).
        public static let offRouteFix = Event(rawValue: 1 << 6)
    }

    /// The route being followed.
    public let route: Route

    /// How much farther, in meters, a point earlier on the stretch ahead may be than the nearest one
    /// and still be preferred to it: 1 cm, so that places the route passes twice are taken in order
    /// however rounding orders their distances.
    public static let tieTolerance = 0.01
    /// The thresholds in use; may be changed between updates.
    public var configuration: Configuration

    /// The last fix that was not ignored.
    public private(set) var location: Location?
    /// The last fix snapped onto the route: the nearest point of the route, with the fix's
    /// accuracy, speed and time and the route's direction there as its course; `nil` before the
    /// first fix on the route.
    public private(set) var snappedLocation: Location?
    /// Meters along the route to the last snapped position.
    public private(set) var distanceTraveled: Double = 0
    /// Meters from the last fix to the nearest point of the route (of the searched stretch when on
    /// the route); `nil` before the first fix.
    public private(set) var distanceFromRoute: Double?
    /// The index in ``Route/steps`` of the step being traveled, if the route has steps.
    public private(set) var currentStepIndex: Int?
    /// Whether the traveler has arrived; stays `true` once set.
    public private(set) var hasArrived = false
    /// Whether the traveler is off the route (after enough consecutive off-route fixes).
    public private(set) var isOffRoute = false
    /// How many fixes in a row have been off the route.
    public private(set) var consecutiveOffRouteFixes = 0

    /// Starts following a route from its beginning.
    public init(route: Route, configuration: Configuration = Configuration()) {
        self.route = route
        self.configuration = configuration
        currentStepIndex = route.stepIndex(atDistance: 0)
    }

    /// Meters along the route still to travel.
    public var distanceRemaining: Double { max(0, route.distance - distanceTraveled) }

    /// The fraction of the route traveled, in [0, 1] (1 for a route of length 0).
    public var fractionTraveled: Double {
        route.distance > 0 ? min(1, distanceTraveled / route.distance) : 1
    }

    /// Seconds still to travel at the route's own average speed: the remaining fraction of
    /// ``Route/expectedTravelTime``.
    public var expectedTimeRemaining: TimeInterval {
        route.expectedTravelTime(fromDistance: distanceTraveled)
    }

    /// When the traveler should arrive: the last fix's time plus ``expectedTimeRemaining``; `nil`
    /// before the first fix.
    public var expectedArrivalDate: Date? {
        location.map { $0.timestamp.addingTimeInterval(expectedTimeRemaining) }
    }

    /// The step being traveled, if the route has steps.
    public var currentStep: RouteStep? {
        currentStepIndex.map { route.steps[$0] }
    }

    /// Meters along the route to the end of the current step; `nil` without steps.
    public var distanceRemainingInStep: Double? {
        currentStep.map { max(0, $0.range.upperBound - distanceTraveled) }
    }

    /// Takes in a new fix and updates the progress.
    ///
    /// - Parameter fix: A position fix; ignored (``Event/ignored``) when its position is invalid or
    ///   its horizontal accuracy is worse than the configured maximum.
    /// - Returns: What changed.
    /// - Complexity: One or two nearest-point queries on the route's polyline (sublinear).
    @discardableResult
    public mutating func update(with fix: Location) -> Event {
        guard fix.hasValidPosition,
            fix.horizontalAccuracy <= configuration.maximumHorizontalAccuracy
        else {
            return .ignored
        }
        let previous = location
        location = fix
        var events: Event = []
        let polyline = route.polyline
        var tolerance = max(0, configuration.offRouteTolerance)
        if configuration.includesHorizontalAccuracy { tolerance += fix.horizontalAccuracy }

        // Search near the last position first, then the whole route.
        var ahead = max(0, configuration.lookahead)
        if let previous, fix.hasValidSpeed {
            let elapsed = fix.timestamp.timeIntervalSince(previous.timestamp)
            if elapsed > 0 && elapsed.isFinite { ahead = max(ahead, 2 * fix.speed * elapsed) }
        }
        // Ahead first, so that a place the route passes twice is taken in order and GPS noise does
        // not move the traveler backwards; then just behind; then anywhere.
        var projection = polyline.closestPoint(
            to: fix.coordinate, alongDistances: distanceTraveled...(distanceTraveled + ahead))
        // Where the window passes the same place twice, the two candidates are equally near (to
        // rounding): the earlier one ahead is the one being traveled.
        for _ in 0..<8 where projection.distanceAlong - 1 > distanceTraveled {
            let earlier = polyline.closestPoint(
                to: fix.coordinate,
                alongDistances: distanceTraveled...(projection.distanceAlong - 1))
            guard earlier.distance <= projection.distance + RouteProgress.tieTolerance else {
                break
            }
            projection = earlier
        }
        if !(projection.distance <= tolerance) {
            let low = max(0, distanceTraveled - max(0, configuration.backtrack))
            let behind = polyline.closestPoint(
                to: fix.coordinate, alongDistances: low...distanceTraveled)
            if behind.distance < projection.distance { projection = behind }
        }
        if !(projection.distance <= tolerance) {
            let anywhere = polyline.closestPoint(to: fix.coordinate)
            if anywhere.distance < projection.distance { projection = anywhere }
        }
        distanceFromRoute = projection.distance

        guard projection.distance <= tolerance else {
            consecutiveOffRouteFixes += 1
            events.insert(.offRouteFix)
            if !isOffRoute && consecutiveOffRouteFixes >= max(1, configuration.offRouteFixCount) {
                isOffRoute = true
                events.insert(.wentOffRoute)
            }
            return events
        }

        consecutiveOffRouteFixes = 0
        if isOffRoute {
            isOffRoute = false
            events.insert(.returnedToRoute)
        }
        distanceTraveled = projection.distanceAlong
        events.insert(.progressed)
        let course = polyline.bearing(atDistance: projection.distanceAlong)
        snappedLocation = Location(
            coordinate: projection.coordinate, altitude: fix.altitude,
            horizontalAccuracy: fix.horizontalAccuracy,
            verticalAccuracy: fix.verticalAccuracy, course: course.isNaN ? -1 : course,
            courseAccuracy: course.isNaN ? -1 : 0, speed: fix.speed,
            speedAccuracy: fix.speedAccuracy,
            timestamp: fix.timestamp)
        let step = route.stepIndex(atDistance: distanceTraveled)
        if step != currentStepIndex {
            currentStepIndex = step
            events.insert(.stepChanged)
        }
        if !hasArrived && distanceRemaining <= max(0, configuration.arrivalTolerance) {
            hasArrived = true
            events.insert(.arrived)
        }
        return events
    }
}
