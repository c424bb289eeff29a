import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("RouteProgress")
struct RouteProgressTests {
    private func fix(
        _ c: Coordinate, _ t: Double, accuracy: Double = 5, speed: Double = 5
    ) -> Location {
        Location(
            coordinate: c, horizontalAccuracy: accuracy, speed: speed,
            timestamp: Date(timeIntervalSince1970: t))
    }

    /// Riding the route with up to 8 m of GPS error: the progress follows the distance along the
    /// route, the steps change where they should, the time left is the route's own share of it, and
    /// arrival fires once at the end.
    @Test func followsARideToTheEnd() throws {
        let route = try parisRoute()
        var progress = RouteProgress(route: route)
        #expect(progress.currentStepIndex == 0 && progress.distanceRemaining == route.distance)
        var rng = SplitMix64(seed: 1)
        var stepChanges = [Int]()
        var arrivals = 0
        var t = 0.0
        for d in stride(from: 0.0, through: route.distance, by: 40) {
            let truth = route.polyline.coordinate(atDistance: d)
            let measured = truth.coordinate(
                atDistance: rng.uniform(0, 8), bearing: rng.uniform(0, 360))
            t += 8
            let events = progress.update(with: fix(measured, t))
            #expect(events.contains(.progressed))
            #expect(abs(progress.distanceTraveled - d) < 12, "at \(d)")
            #expect(
                abs(
                    progress.expectedTimeRemaining - 600 * progress.distanceRemaining
                        / route.distance) < 1e-9)
            #expect(
                progress.expectedArrivalDate
                    == Date(timeIntervalSince1970: t + progress.expectedTimeRemaining))
            if events.contains(.stepChanged), let step = progress.currentStepIndex {
                stepChanges.append(step)
            }
            if events.contains(.arrived) { arrivals += 1 }
            #expect(progress.snappedLocation.map { $0.coordinate.distance(to: truth) < 12 } == true)
        }
        if progress.update(with: fix(route.polyline.end, t + 8)).contains(.arrived) {
            arrivals += 1
        }
        #expect(stepChanges == [1, 2])
        #expect(arrivals == 1 && progress.hasArrived)
        #expect(progress.currentStep?.instruction == "Turn left again")
        #expect(!progress.isOffRoute)
    }

    /// Three fixes 200 m off the route in a row make the traveler off the route, not two; the
    /// first fix back on it clears it.
    @Test func offRouteNeedsConsecutiveFixes() throws {
        let route = try parisRoute()
        var progress = RouteProgress(route: route)
        let onRoute = route.polyline.coordinate(atDistance: 500)
        let off = onRoute.coordinate(atDistance: 200, bearing: 0)
        #expect(progress.update(with: fix(onRoute, 0)).contains(.progressed))
        let first = progress.update(with: fix(off, 10)),
            second = progress.update(with: fix(off, 20))
        #expect(
            first.contains(.offRouteFix) && !first.contains(.wentOffRoute)
                && !second.contains(.wentOffRoute))
        #expect(!progress.isOffRoute && progress.consecutiveOffRouteFixes == 2)
        // A fix on the route in between resets the count.
        progress.update(with: fix(onRoute, 25))
        #expect(progress.consecutiveOffRouteFixes == 0)
        for t in [30.0, 40] { progress.update(with: fix(off, t)) }
        let third = progress.update(with: fix(off, 50))
        #expect(third.contains(.wentOffRoute) && progress.isOffRoute)
        #expect(!progress.update(with: fix(off, 60)).contains(.wentOffRoute))  // fires once
        #expect(abs((progress.distanceFromRoute ?? 0) - 200) < 1)
        #expect(abs(progress.distanceTraveled - 500) < 1)  // progress is kept while off the route
        let back = progress.update(with: fix(route.polyline.coordinate(atDistance: 600), 70))
        #expect(back.contains(.returnedToRoute) && !progress.isOffRoute)
    }

    /// The tolerance grows with the fix's accuracy unless told not to.
    @Test func toleranceIncludesAccuracy() throws {
        let route = try parisRoute()
        let p = route.polyline.coordinate(atDistance: 500).coordinate(atDistance: 60, bearing: 0)
        var lenient = RouteProgress(route: route, configuration: .init(offRouteFixCount: 1))
        #expect(lenient.update(with: fix(p, 0, accuracy: 20)).contains(.progressed))
        var strict = RouteProgress(
            route: route,
            configuration: .init(offRouteFixCount: 1, includesHorizontalAccuracy: false))
        #expect(strict.update(with: fix(p, 0, accuracy: 20)).contains(.wentOffRoute))
    }

    /// On an out-and-back route the return leg is followed in order, not snapped to the way out.
    @Test func outAndBackIsFollowedInOrder() throws {
        let a = Coordinate(latitude: 46.0, longitude: 7.0)
        let b = a.coordinate(atDistance: 2_000, bearing: 45)
        let route = try Route(polyline: try Polyline([a, b, a]), expectedTravelTime: 1_200)
        var progress = RouteProgress(route: route)
        var previous = -1.0
        for d in stride(from: 0.0, through: route.distance, by: 100) {
            let p = route.polyline.coordinate(atDistance: d).coordinate(atDistance: 3, bearing: 135)
            progress.update(with: fix(p, d))
            #expect(progress.distanceTraveled > previous, "at \(d)")
            #expect(abs(progress.distanceTraveled - d) < 5)
            previous = progress.distanceTraveled
        }
        progress.update(with: fix(a, 5_000))
        #expect(progress.hasArrived && progress.distanceRemaining < 1)
    }

    /// A loop that ends where it starts is not arrived at the start.
    @Test func loopStartIsNotArrival() throws {
        let a = Coordinate(latitude: 10, longitude: 10)
        let b = a.coordinate(atDistance: 500, bearing: 0),
            c = b.coordinate(atDistance: 500, bearing: 90)
        let route = try Route(polyline: try Polyline([a, b, c, a]), expectedTravelTime: 600)
        var progress = RouteProgress(route: route)
        let events = progress.update(with: fix(a, 0))
        #expect(!events.contains(.arrived) && !progress.hasArrived && progress.distanceTraveled < 1)
    }

    @Test func badFixesAreIgnored() throws {
        let route = try parisRoute()
        var progress = RouteProgress(route: route)
        #expect(progress.update(with: fix(route.polyline.start, 0, accuracy: -1)) == .ignored)
        #expect(progress.update(with: fix(route.polyline.start, 0, accuracy: 500)) == .ignored)
        #expect(progress.update(with: fix(Coordinate(latitude: .nan, longitude: 0), 0)) == .ignored)
        #expect(
            progress.location == nil && progress.snappedLocation == nil
                && progress.expectedArrivalDate == nil)
    }
}
