import Foundation
import GeoCore
import GeoTestSupport
import Testing

@Suite("Coordinate, CoordinateRegion, BoundingBox")
struct CoordinateRegionTests {
    @Test func validation() {
        #expect(throws: GeoError.self) { try Coordinate(validatingLatitude: .nan, longitude: 0) }
        #expect(throws: GeoError.self) {
            try Coordinate(validatingLatitude: 0, longitude: 180.0001)
        }
        #expect(throws: GeoError.self) { try Coordinate(validatingLatitude: -90.5, longitude: 0) }
        do {
            _ = try Coordinate(validatingLatitude: 91, longitude: 0)
            Issue.record("latitude 91 was accepted")
        } catch {
            #expect(error.kind == .invalidCoordinate)
            #expect(error.message.contains("91"))
        }
        #expect(Coordinate(latitude: 90, longitude: -180).isValid)
        #expect(!Coordinate(latitude: 0, longitude: .infinity).isValid)
    }

    @Test func exactEqualityAndTolerance() {
        let a = Coordinate(latitude: 51.5, longitude: -0.12)
        let b = a.coordinate(atDistance: 0.004, bearing: 90)
        #expect(a != b)
        #expect(a.isApproximatelyEqual(to: b, toleranceMeters: 0.01))
        #expect(!a.isApproximatelyEqual(to: b, toleranceMeters: 0.001))
        #expect(
            !a.isApproximatelyEqual(
                to: Coordinate(latitude: .nan, longitude: 0), toleranceMeters: 1e9))
    }

    @Test func bearingRange() {
        let a = Coordinate(latitude: 0, longitude: 0)
        #expect(abs(a.bearing(to: Coordinate(latitude: 0, longitude: -1)) - 270) < 1e-9)
        #expect(a.bearing(to: Coordinate(latitude: 1, longitude: 0)) == 0)
        // Coincident points have no direction: 0, on either side of the equator and at a pole
        // (where the inverse problem's convention would give 180).
        for c in [
            Coordinate(latitude: 40.6413, longitude: -73.7781), a,
            Coordinate(latitude: -33, longitude: 151),
        ] {
            #expect(c.bearing(to: c) == 0)
        }
        #expect(
            Coordinate(latitude: 90, longitude: 10).bearing(
                to: Coordinate(latitude: 90, longitude: -120)) == 0)
    }

    /// `contains` takes the edges `boundingBox` reports as inside, rounding and all: seeded
    /// regions and the coordinates of their box's corners and edge midpoints.
    @Test func containsAgreesWithTheBoundingBoxEdges() {
        #expect(
            CoordinateRegion(
                center: Coordinate(latitude: 0.3, longitude: 0.1),
                span: CoordinateSpan(latitudeDelta: 0.2, longitudeDelta: 0.6)
            ).contains(Coordinate(latitude: 0.4, longitude: 0.4)))
        var rng = SplitMix64(seed: 12)
        for _ in 0..<5_000 {
            let region = CoordinateRegion(
                center: Coordinate(
                    latitude: (rng.uniform(-80, 80) * 10).rounded() / 10,
                    longitude: (rng.uniform(-180, 180) * 10).rounded() / 10),
                span: CoordinateSpan(
                    latitudeDelta: (rng.uniform(0, 20) * 10).rounded() / 10,
                    longitudeDelta: (rng.uniform(0, 60) * 10).rounded() / 10))
            let box = region.boundingBox
            let middle = region.center.longitude
            for latitude in [box.south, box.north, region.center.latitude] {
                for longitude in [box.west, box.east, middle] {
                    let c = Coordinate(latitude: latitude, longitude: longitude)
                    #expect(region.contains(c), "\(region) \(c)")
                }
            }
        }
    }

    /// A box's center: halfway in latitude, and halfway along its longitude extent from the west
    /// edge, across the 180th meridian too.
    @Test func boxCenter() {
        let plain = BoundingBox(west: -10, south: 40, east: 30, north: 50).center
        #expect(plain.latitude == 45 && plain.longitude == 10)
        let across = BoundingBox(west: 170, south: 0, east: -160, north: 10).center
        #expect(across.latitude == 5 && across.longitude == -175)
        let onIt = BoundingBox(west: 170, south: 0, east: -170, north: 10).center
        #expect(abs(onIt.longitude) == 180)
    }

    /// Extents beyond a pole stop there, however far they reach (84,000 km north and south of the
    /// equator is more than a whole meridian round), and negative extents count as their
    /// magnitude.
    @Test func regionFromMetersStopsAtThePoles() {
        let equator = Coordinate(latitude: 0, longitude: 0)
        for meters in [40_007_863.0, 42_000_000, 84_000_000, 1e12] {
            let region = CoordinateRegion(
                center: equator, latitudinalMeters: meters, longitudinalMeters: 1_000)
            #expect(region.span.latitudeDelta == 180, "\(meters) m")
        }
        let north = CoordinateRegion(
            center: Coordinate(latitude: 60, longitude: 10), latitudinalMeters: 60_000_000,
            longitudinalMeters: 1_000)
        #expect(north.span.latitudeDelta == 180)
        let negative = CoordinateRegion(
            center: equator, latitudinalMeters: -2_000, longitudinalMeters: -1_000)
        let positive = CoordinateRegion(
            center: equator, latitudinalMeters: 2_000, longitudinalMeters: 1_000)
        #expect(negative == positive)
    }

    /// Regions across the 180th meridian contain points on both sides and nothing on the far side.
    @Test func containsAcrossTheAntimeridian() {
        let region = CoordinateRegion(
            center: Coordinate(latitude: 0, longitude: 179),
            span: CoordinateSpan(latitudeDelta: 2, longitudeDelta: 6))
        #expect(region.contains(Coordinate(latitude: 0.5, longitude: -178)))
        #expect(region.contains(Coordinate(latitude: 0.5, longitude: 176)))
        #expect(!region.contains(Coordinate(latitude: 0.5, longitude: -175)))
        #expect(!region.contains(Coordinate(latitude: 1.5, longitude: 179)))
        let box = region.boundingBox
        #expect(box.crosses180thMeridian && box.west == 176 && box.east == -178)
        #expect(box.contains(Coordinate(latitude: 0, longitude: 180)))
    }

    /// `init(fitting:)` is the smallest region: checked against a brute-force search over every
    /// possible western edge, on seeded random point sets clustered anywhere (often across 180°).
    @Test func fittingPicksTheShortestArc() throws {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<300 {
            let center = rng.uniform(-180, 180)
            let spread = rng.uniform(0, 200)
            let points = (0..<Int(rng.uniform(1, 12))).map { _ -> Coordinate in
                var lon = center + rng.uniform(-spread / 2, spread / 2)
                if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
                return Coordinate(latitude: rng.uniform(-80, 80), longitude: lon)
            }
            let region = try CoordinateRegion(fitting: points)
            // Brute force: the arc must start at one of the points; take the shortest that covers all.
            var best = 360.0
            for start in points {
                let width =
                    points.map { p -> Double in
                        var d = p.longitude - start.longitude
                        while d < 0 { d += 360 }
                        return d
                    }.max() ?? 0
                best = min(best, width)
            }
            #expect(abs(region.span.longitudeDelta - best) < 1e-9)
            for p in points { #expect(region.contains(p)) }
        }
        #expect(throws: GeoError.self) { try CoordinateRegion(fitting: [Coordinate]()) }
        #expect(throws: GeoError.self) {
            try CoordinateRegion(fitting: [Coordinate(latitude: 100, longitude: 0)])
        }
    }

    /// A region of 1 000 m × 1 000 m spans 1 000 m along the meridian and the parallel.
    @Test func regionFromMeters() {
        for latitude in [0.0, 45, 70, -60] {
            let center = Coordinate(latitude: latitude, longitude: 10)
            let region = CoordinateRegion(
                center: center, latitudinalMeters: 1_000, longitudinalMeters: 2_000)
            let north = Coordinate(
                latitude: latitude + region.span.latitudeDelta / 2, longitude: 10)
            let south = Coordinate(
                latitude: latitude - region.span.latitudeDelta / 2, longitude: 10)
            #expect(abs(north.distance(to: south) - 1_000) < 0.01)
            // Along the parallel (not the geodesic): N·cos φ·Δλ.
            let phi = latitude * .pi / 180
            let n = 6_378_137 / (1 - 0.006_694_379_990_14 * sin(phi) * sin(phi)).squareRoot()
            #expect(abs(n * cos(phi) * region.span.longitudeDelta * .pi / 180 - 2_000) < 1e-6)
        }
        let polar = CoordinateRegion(
            center: Coordinate(latitude: 89.99, longitude: 0), latitudinalMeters: 10_000,
            longitudinalMeters: 10_000)
        #expect(polar.span.latitudeDelta <= 180 && polar.span.longitudeDelta <= 360)
    }

    @Test func boundingBoxValidation() {
        #expect(throws: GeoError.self) {
            try BoundingBox(west: 0, south: 10, east: 1, north: 5).validated()
        }
        #expect(throws: GeoError.self) {
            try BoundingBox(west: -181, south: 0, east: 1, north: 5).validated()
        }
        #expect(
            BoundingBox(west: 170, south: 0, east: -170, north: 1).splitAt180thMeridian.count == 2)
        #expect(BoundingBox(west: 170, south: 0, east: -170, north: 1).longitudeSpan == 20)
    }
}
