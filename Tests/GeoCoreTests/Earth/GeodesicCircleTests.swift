import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("GeodesicCircle and point buffers")
struct GeodesicCircleTests {
    private func at(_ lat: Double, _ lon: Double) -> Coordinate {
        Coordinate(latitude: lat, longitude: lon)
    }

    /// Seeded circles from 1 km to beyond the antipode, centers near the poles and the 180th
    /// meridian: points well inside are inside, points well outside outside, on the globe.
    @Test func circlesContainWhatTheyShould() throws {
        var rng = SplitMix64(seed: 77)
        var checked = 0
        for k in 0..<60 {
            let center =
                k % 4 == 0
                ? at(rng.uniform(85, 90) * (k % 8 == 0 ? 1 : -1), rng.uniform(-180, 180))
                : k % 4 == 1
                    ? at(rng.uniform(-50, 50), 180 - rng.uniform(0, 1))
                    : at(rng.uniform(-80, 80), rng.uniform(-180, 180))
            let radius = exp(rng.uniform(log(1_000), log(19_500_000)))
            let polygon = try GeodesicCircle(center: center, radius: radius).polygon()
            let shape = try GeographicPolygon(polygon)
            let margin = max(50, radius * 0.001)
            for _ in 0..<40 {
                let d = rng.uniform(0, min(2 * radius, 20_000_000))
                let p = center.coordinate(atDistance: d, bearing: rng.uniform(0, 360))
                let exact = Geodesic.wgs84.distance(from: center, to: p)
                guard abs(exact - radius) > margin else { continue }
                #expect(
                    shape.contains(p) == (exact < radius),
                    "circle \(k) \(center) r \(radius): \(p) at \(exact)")
                checked += 1
            }
        }
        #expect(checked > 1_500)
    }

    /// Round both poles, the circle is the world less the points farther than the radius, round
    /// the antipode: not a circle there (the distance falls off unevenly, by up to 34 km from a
    /// circle's). The hole's vertices lie at the radius to a millimeter, and points round the
    /// antipode are inside exactly when they are within the radius.
    @Test func holesRoundTheAntipode() throws {
        var rng = SplitMix64(seed: 4_242)
        var checked = 0, inHoles = 0
        for k in 0..<40 {
            let center =
                k == 0 ? at(0, 0) : at(rng.uniform(-70, 70), rng.uniform(-180, 180))
            let antipode = at(-center.latitude, Angle.normalizedLongitude(center.longitude + 180))
            let farthest = Geodesic.wgs84.distance(from: center, to: antipode)
            let depth = k == 0 ? 1_003_931.46 : exp(rng.uniform(log(5_000), log(4_000_000)))
            let radius = farthest - depth
            let polygon = try GeodesicCircle(center: center, radius: radius).polygon()
            guard case .polygon(let rings) = polygon, rings.count == 2 else {
                Issue.record("circle \(k): not the world with a hole")
                continue
            }
            for v in rings[1] {
                let d = Geodesic.wgs84.distance(from: center, to: v.coordinate)
                #expect(abs(d - radius) < 1e-3, "circle \(k) r \(radius): vertex at \(d)")
            }
            let shape = try GeographicPolygon(polygon)
            let margin = max(200, depth * 0.002)
            for _ in 0..<60 {
                let p = antipode.coordinate(
                    atDistance: rng.uniform(0, 1.6 * depth), bearing: rng.uniform(0, 360))
                let exact = Geodesic.wgs84.distance(from: center, to: p)
                guard abs(exact - radius) > margin else { continue }
                #expect(
                    shape.contains(p) == (exact < radius),
                    "circle \(k) \(center) r \(radius): \(p) at \(exact)")
                checked += 1
                if exact > radius { inHoles += 1 }
            }
        }
        #expect(checked > 1_500 && inHoles > 500)
        // The case a circle of radius 1,003,931 m round the antipode got wrong by 33.6 km.
        let buffer = try GeographicPolygon(
            try Geometry.point(coordinate: at(0, 0)).buffer(meters: 19_000_000))
        let probe = at(0, -170.9)
        #expect(
            buffer.contains(probe)
                == (Geodesic.wgs84.distance(from: at(0, 0), to: probe) <= 19_000_000))
    }

    /// The boundary's vertices lie on the circle, and the area is the cap's.
    @Test func boundaryAndArea() throws {
        let center = at(46.95, 7.45)
        let circle = try GeodesicCircle(center: center, radius: 10_000)
        guard case .polygon(let rings) = circle.polygon() else {
            Issue.record("not a polygon")
            return
        }
        #expect(rings.count == 1 && rings[0].count == 33)
        for p in rings[0] {
            #expect(abs(Geodesic.wgs84.distance(from: center, to: p.coordinate) - 10_000) < 1e-6)
        }
        // A 32-gon inscribed in the circle: its area is below π r² by about (2π²/3)/32² of it.
        let area = try circle.polygon().geodesicArea()
        let disc = Double.pi * 1e8
        #expect(area < disc && area > disc * (1 - 0.0066))
        // A circle round the north pole is a parallel, closed along the pole; its area is the
        // ellipsoidal cap's in closed form (the zone from the equator to φ is
        // πb² (sin φ / (1 − e² sin² φ) + atanh(e sin φ) / e)).
        let cap = try GeodesicCircle(center: at(90, 0), radius: 1_000_000).polygon(
            minimumVertices: 720)
        let capArea = try cap.geodesicArea()
        let phi =
            Geodesic.wgs84.direct(from: at(90, 0), azimuth: 180, distance: 1_000_000)
            .coordinate.latitude * .pi / 180
        let b = WGS84.polarRadius, e = WGS84.eccentricitySquared.squareRoot()
        func zone(_ s: Double) -> Double {
            .pi * b * b * (s / (1 - e * e * s * s) + atanh(e * s) / e)
        }
        let exact = zone(1) - zone(sin(phi))
        #expect(abs(capArea / exact - 1) < 1e-4, "\(capArea) vs \(exact)")
    }

    /// Circles round one pole and round both measure as the circles they are. On a sphere a
    /// circle of angular radius θ covers 2πR²(1 − cos θ); the polygon inscribed in it falls short by
    /// a few parts in 10⁷. Circles round the north pole, round both poles (the world with a hole
    /// larger than a hemisphere round the antipode) and round the south pole, in turn.
    @Test func circlesRoundThePolesMeasureAsCircles() throws {
        let radius = 6_371_000.0
        let sphere = try Geodesic(equatorialRadius: radius, flattening: 0)
        for (latitude, meters) in [
            (60.0, 5_000_000.0), (60, 15_000_000), (0, 12_000_000), (-30, 9_000_000),
            (10, 19_000_000),
        ] {
            let circle = try GeodesicCircle(
                center: at(latitude, 20), radius: meters, geodesic: sphere)
            let area = try circle.polygon(minimumVertices: 720).geodesicArea(on: sphere)
            let exact = 2 * .pi * radius * radius * (1 - cos(meters / radius))
            #expect(abs(area / exact - 1) < 1e-5, "\(latitude) \(meters): \(area) vs \(exact)")
        }
        // On WGS84 a circle round the equator's (0, 0) just past both poles (10,002,000 m; the
        // quarter meridian is 10,001,966 m) still covers less than half the Earth, since it
        // does not reach 90° of longitude along the equator: its area continues that of a
        // circle 100 m smaller, not that of the rest of the Earth.
        let center = at(0, 0)
        let past = try GeodesicCircle(center: center, radius: 10_002_000).polygon().geodesicArea()
        let short = try GeodesicCircle(center: center, radius: 10_001_900).polygon()
            .geodesicArea()
        #expect(past - short > 0 && past - short < 1e10, "\(past) vs \(short)")
        #expect(past < 510_065_621_724_088.44 / 2)
    }

    /// A point's buffer is its circle at any distance; beyond the antipode it is the world. Other
    /// geometries are refused beyond the metric plane's limit, which the message names.
    @Test func pointBuffersAndLimits() throws {
        let point = Geometry.point(coordinate: at(10, 20))
        let far = try GeographicPolygon(try point.buffer(meters: 15_000_000))
        #expect(far.contains(at(10, 20)) && far.contains(at(-60, -100)))
        #expect(!far.contains(at(-10, -160)))  // the antipode
        let world = try GeographicPolygon(try point.buffer(meters: 1e12))
        #expect(world.contains(at(-10, -160)) && world.contains(at(90, 0)))
        #expect(try point.buffer(meters: -5).isEmpty)
        let line = Geometry.lineString([Position(x: 0, y: 0), Position(x: 1, y: 0)])
        do {
            _ = try line.buffer(meters: 2e7)
            Issue.record("a 20 000 km buffer of a line accepted")
        } catch {
            #expect(
                error.kind == .invalidArgument && error.message.contains("2500 km"),
                "\(error.message)")
        }
        #expect(try line.buffer(meters: 1_000_000).geodesicArea() > 1.9e12)
        // Distances beyond the plane's reach are exact.
        let a = Geometry.point(coordinate: at(0, 0)), b = Geometry.point(coordinate: at(0, 179))
        #expect(
            abs(try a.distance(meters: b) - Geodesic.wgs84.distance(from: at(0, 0), to: at(0, 179)))
                < 1e-6)
        // Beyond a quarter of the Earth the middle of a segment is its farthest point: the
        // nearest are its ends (checked against dense sampling of the segment).
        let lineFar = Geometry.lineString([Position(x: 170, y: -10), Position(x: 170, y: 10)])
        let d = try a.distance(meters: lineFar)
        let segment = Geodesic.wgs84.line(from: at(-10, 170), to: at(10, 170))
        let sampled =
            (0...2_000).map { k in
                Geodesic.wgs84.distance(
                    from: at(0, 0),
                    to: segment.position(atDistance: segment.length * Double(k) / 2_000).coordinate)
            }.min() ?? 0
        #expect(abs(d - sampled) < 1, "\(d) vs \(sampled)")
    }
}
