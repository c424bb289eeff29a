import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("WGS84 kernel")
struct WGS84Tests {
    /// The derived constants have their published values (NIMA TR8350.2, table 3.3).
    @Test func derivedConstants() {
        #expect(abs(WGS84.polarRadius - 6_356_752.314_245_2) < 1e-6)
        #expect(abs(WGS84.eccentricitySquared - 6.694_379_990_141_3e-3) < 1e-16)
        // R₁ = (2a + b) / 3 = 6 371 008.7714 m, which IUGG publishes rounded to 0.1 m.
        #expect(abs((2 * WGS84.equatorialRadius + WGS84.polarRadius) / 3 - 6_371_008.771_4) < 1e-4)
        #expect(Geodesic.wgs84.equatorialRadius == WGS84.equatorialRadius)
        #expect(Geodesic.wgs84.flattening == WGS84.flattening)
    }

    /// M and N at the equator and the poles: a(1 − e²) and a; a²/b at both poles.
    @Test func radiiOfCurvature() {
        let equator = WGS84.radiiOfCurvature(atLatitudeRadians: 0)
        #expect(abs(equator.meridional - 6_335_439.327_292) < 1e-5)
        #expect(equator.primeVertical == WGS84.equatorialRadius)
        let pole = WGS84.radiiOfCurvature(atLatitudeRadians: .pi / 2)
        let c = WGS84.equatorialRadius * WGS84.equatorialRadius / WGS84.polarRadius
        #expect(abs(pole.meridional - c) < 1e-6)
        #expect(abs(pole.primeVertical - c) < 1e-6)
        // M grows and N cos φ shrinks monotonically towards the pole.
        var previous = WGS84.radiiOfCurvature(atLatitudeRadians: 0)
        for degrees in stride(from: 1.0, through: 90, by: 1) {
            let r = WGS84.radiiOfCurvature(atLatitudeRadians: degrees * .pi / 180)
            #expect(r.meridional > previous.meridional && r.primeVertical > previous.primeVertical)
            previous = r
        }
    }

    /// Geographic ↔ geocentric conversion against IOGP's GIGS test 5201, both ways, to the file's
    /// tolerances (1 cm Cartesian, 0.0003″ geographic; its values are printed to 1 mm and 1e-7°).
    /// The round trip below checks the kernel far more tightly.
    @Test func gigsGeographicGeocentric() throws {
        let text = try ReferenceData.text(
            "projections/gigs/GIGS_tfm_5201_GeogGeocen_output.txt")
        var rows = 0
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 7, let x = Double(f[1]), let y = Double(f[2]), let z = Double(f[3]),
                let lat = Double(f[4]), let lon = Double(f[5]), let h = Double(f[6])
            else {
                Issue.record("unreadable row: \(line)")
                continue
            }
            rows += 1
            let p = WGS84.earthCentered(latitude: lat, longitude: lon, height: h)
            let cartesian = 0.01, geographic = 0.0003 / 3600
            #expect(
                abs(p.x - x) < cartesian && abs(p.y - y) < cartesian && abs(p.z - z) < cartesian,
                "\(f[0]) \(p)")
            let g = WGS84.geodetic(earthCentered: SIMD3(x, y, z))
            #expect(
                abs(g.latitude - lat) < geographic && abs(g.longitude - lon) < geographic,
                "\(f[0]) \(g)")
            #expect(abs(g.height - h) < cartesian, "\(f[0])")
        }
        #expect(rows >= 15)
    }

    /// geodetic(earthCentered(φ, λ, h)) gives φ, λ, h back to a nanometer, from the surface to
    /// geostationary height, poles and the 180th meridian included.
    @Test func earthCenteredRoundTrip() {
        var rng = SplitMix64(seed: 5201)
        var cases = [
            (90.0, 0.0, 0.0), (-90, 0, 100), (0, 180, 0), (0, -180, -5000), (45, 0, 3.6e7),
        ]
        for _ in 0..<20_000 {
            cases.append((rng.uniform(-90, 90), rng.uniform(-180, 180), rng.uniform(-1e4, 1e5)))
        }
        for (lat, lon, h) in cases {
            let g = WGS84.geodetic(
                earthCentered: WGS84.earthCentered(latitude: lat, longitude: lon, height: h))
            // 1e-13° is about 10 nm on the ground.
            #expect(abs(g.latitude - lat) < 1e-12, "\(lat) \(lon) \(h)")
            if abs(lat) < 90 - 1e-9 {
                #expect(abs(Angle.longitudeDifference(from: lon, to: g.longitude)) < 1e-12)
            }
            #expect(abs(g.height - h) < 1e-8 * max(1, abs(h) / 1e6), "\(lat) \(lon) \(h)")
        }
    }

    /// Sines and cosines of degrees are exact at multiples of 90° (so −180° and 180° are one
    /// meridian and a pole is one point) and within an ulp or two of the radian functions elsewhere.
    @Test func sinCosOfDegrees() {
        for k in -8...8 {
            let (s, c) = Angle.sinCos(degrees: Double(k) * 90)
            let expected: [(Double, Double)] = [(0, 1), (1, 0), (0, -1), (-1, 0)]
            let (es, ec) = expected[((k % 4) + 4) % 4]
            #expect(s == es && c == ec, "\(k * 90)°: \(s) \(c)")
        }
        #expect(
            WGS84.earthCentered(latitude: 12, longitude: 180)
                == WGS84.earthCentered(latitude: 12, longitude: -180))
        #expect(
            WGS84.earthCentered(latitude: -90, longitude: 37)
                == WGS84.earthCentered(latitude: -90, longitude: -150))
        var rng = SplitMix64(seed: 0x51C0)
        for _ in 0..<10_000 {
            let x = rng.uniform(-720, 720)
            let (s, c) = Angle.sinCos(degrees: x)
            // The reference reduced to [-180°, 180°] exactly first, so that its radians are good.
            let y = x.remainder(dividingBy: 360) * .pi / 180
            #expect(abs(s - sin(y)) <= 1e-15 && abs(c - cos(y)) <= 1e-15, "\(x)")
        }
        let (ns, nc) = Angle.sinCos(degrees: .nan)
        let (infs, _) = Angle.sinCos(degrees: -.infinity)
        #expect(ns.isNaN && nc.isNaN && infs.isNaN)
        #expect(Angle.sinCos(degrees: 1e300).sin.isFinite)
    }

    /// The unit square's corners and center, and the inverse.
    @Test func unitSquareMercator() {
        let center = WGS84.unitSquareMercator(latitude: 0, longitude: 0)
        #expect(center.x == 0.5 && center.y == 0.5)
        let corner = WGS84.unitSquareMercator(
            latitude: WebMercator.maximumLatitude, longitude: -180)
        #expect(corner.x == 0 && abs(corner.y) < 1e-15)
        #expect(WGS84.unitSquareMercator(latitude: 90, longitude: 0).y == -.infinity)
        var rng = SplitMix64(seed: 3857)
        for _ in 0..<10_000 {
            let lat = rng.uniform(-85, 85), lon = rng.uniform(-180, 180)
            let p = WGS84.unitSquareMercator(latitude: lat, longitude: lon)
            let back = WGS84.unitSquareMercatorInverse(x: p.x, y: p.y)
            #expect(abs(back.latitude - lat) < 1e-12 && abs(back.longitude - lon) < 1e-12)
            // The same point as EPSG:3857 meters, scaled to the unit square.
            let m = WebMercator.project(Coordinate(latitude: lat, longitude: lon))
            let half = WebMercator.halfWorldWidth
            #expect(abs((m.x + half) / (2 * half) - p.x) < 1e-14)
            #expect(abs((half - m.y) / (2 * half) - p.y) < 1e-14)
        }
    }
}
