import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("Haversine")
struct HaversineTests {
    /// The haversine error band stated in its documentation, on seeded random pairs.
    @Test func haversineErrorBound() {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<20_000 {
            let a = Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            let b = Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            let exact = a.distance(to: b)
            guard exact > 1 else { continue }
            let relative = (Haversine.distance(from: a, to: b) - exact) / exact
            #expect(relative >= -0.00447 && relative <= 0.00562)
        }
    }

    /// Distances, bearings and destinations against Karney's geodesic on the same sphere
    /// (PROJ's `geod_inverse` and `geod_direct` with flattening 0), an independent
    /// implementation of the great circle, on seeded random pairs.
    @Test func againstTheGeodesicOnTheSameSphere() throws {
        let sphere = try Geodesic(equatorialRadius: Haversine.meanEarthRadius, flattening: 0)
        let halfCircle = Double.pi * Haversine.meanEarthRadius
        var rng = SplitMix64(seed: 0x4A7)
        var worst = (distance: 0.0, bearing: 0.0, destination: 0.0)
        var checked = 0
        for i in 0..<20_000 {
            let a = Coordinate(latitude: rng.uniform(-89, 89), longitude: rng.uniform(-180, 180))
            // Short, regional and global lines.
            let b =
                i % 3 == 0
                ? Coordinate(
                    latitude: (a.latitude + rng.uniform(-0.1, 0.1)).clamped(-90, 90),
                    longitude: a.longitude + rng.uniform(-0.1, 0.1))
                : Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            let exact = sphere.inverse(from: a, to: b)
            let distance = Haversine.distance(from: a, to: b)
            // asin loses digits next to the antipode: 1 mm there, nanometers elsewhere.
            let tolerance = exact.distance < halfCircle - 100_000 ? 1e-6 : 1e-3
            #expect(abs(distance - exact.distance) <= tolerance, "\(a) \(b)")
            worst.distance = max(worst.distance, abs(distance - exact.distance))
            // Bearings are defined away from the ends' coincidence and antipode.
            guard exact.distance > 1, exact.distance < halfCircle - 1_000 else { continue }
            checked += 1
            let initial = Haversine.initialBearing(from: a, to: b)
            let final = Haversine.finalBearing(from: a, to: b)
            #expect((0..<360).contains(initial) && (0..<360).contains(final))
            let bearingError = max(
                abs(Angle.longitudeDifference(from: exact.initialAzimuth, to: initial)),
                abs(Angle.longitudeDifference(from: exact.finalAzimuth, to: final)))
            #expect(bearingError < 1e-8, "\(a) \(b)")
            worst.bearing = max(worst.bearing, bearingError)
            // The destination of that bearing and distance is b.
            let reached = Haversine.destination(
                from: a, bearing: exact.initialAzimuth, distance: exact.distance)
            let direct = sphere.direct(
                from: a, azimuth: exact.initialAzimuth, distance: exact.distance)
            let miss = sphere.inverse(from: reached, to: direct.coordinate).distance
            #expect(miss < 1e-6, "\(a) \(b)")
            #expect((-180...180).contains(reached.longitude))
            worst.destination = max(worst.destination, miss)
        }
        #expect(checked > 19_000)
        // The band the checks above allow, and that they found something to compare.
        #expect(worst.distance > 0 && worst.bearing > 0 && worst.destination > 0)
    }

    /// Bearings along the meridians and the equator, and a destination across the 180th meridian.
    /// Every longitude at a pole is the pole: 0 m apart exactly (it was 3.3e-10 m, from
    /// cos(π/2) = 6e-17), and the distance from a pole is the meridian's, whatever its longitude.
    @Test func polesAreOnePoint() {
        for pole in [90.0, -90] {
            for longitude in [0.0, 50, -180, 179.9] {
                let a = Coordinate(latitude: pole, longitude: 0)
                let b = Coordinate(latitude: pole, longitude: longitude)
                #expect(Haversine.distance(from: a, to: b) == 0)
            }
            let pole = Coordinate(latitude: pole, longitude: 37)
            let equator = Coordinate(latitude: 0, longitude: -120)
            let quarter = Haversine.meanEarthRadius * .pi / 2
            #expect(abs(Haversine.distance(from: pole, to: equator) - quarter) < 1e-6)
        }
    }

    @Test func bearingsAndDestinationsOfKnownLines() {
        let origin = Coordinate(latitude: 0, longitude: 0)
        #expect(Haversine.initialBearing(from: origin, to: .init(latitude: 10, longitude: 0)) == 0)
        #expect(
            Haversine.initialBearing(from: origin, to: .init(latitude: 0, longitude: 10)) == 90)
        #expect(
            Haversine.initialBearing(from: origin, to: .init(latitude: -10, longitude: 0)) == 180)
        #expect(
            Haversine.initialBearing(from: origin, to: .init(latitude: 0, longitude: -10)) == 270)
        // From 45° N along the great circle to 45° N 90° E: leaves north of east, arrives south
        // of east, symmetric about the vertex.
        let start = Coordinate(latitude: 45, longitude: 0)
        let end = Coordinate(latitude: 45, longitude: 90)
        let initial = Haversine.initialBearing(from: start, to: end)
        let final = Haversine.finalBearing(from: start, to: end)
        #expect(abs(initial + final - 180) < 1e-12)
        // tan(initial) = sin Δλ cos φ₂ / (cos φ₁ sin φ₂ − sin φ₁ cos φ₂ cos Δλ) = 1 / sin 45° = √2:
        // 54.7356103172453°.
        #expect(abs(initial - 54.735_610_317_245_3) < 1e-12)
        // A quarter of the equator east of 100° E ends at 170° W.
        let quarter = Haversine.destination(
            from: Coordinate(latitude: 0, longitude: 100), bearing: 90,
            distance: Double.pi / 2 * Haversine.meanEarthRadius)
        #expect(abs(quarter.latitude) < 1e-12 && abs(quarter.longitude + 170) < 1e-9)
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double {
        Swift.min(high, Swift.max(low, self))
    }
}
