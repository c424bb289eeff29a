import Foundation
import GeoCore
import Testing

@Suite("Buffers and distances in meters")
struct MetricOperationsTests {
    static let paris = Position(x: 2.3522, y: 48.8566)

    /// Every vertex of a point's buffer lies at the buffer distance (geodesically) from the point, and
    /// the geodesic area is that of the inscribed 32-gon.
    @Test func pointBuffer() throws {
        for radius in [10.0, 1_000, 50_000] {
            let disc = try Geometry.point(Self.paris).buffer(meters: radius)
            guard case .polygon(let rings) = disc else {
                Issue.record("not a polygon")
                continue
            }
            for p in rings[0] {
                let d = Geodesic.wgs84.distance(from: Self.paris.coordinate, to: p.coordinate)
                #expect(abs(d - radius) < 1e-6 * radius, "vertex at \(d) m")
            }
            let inscribed = 16 * radius * radius * sin(2 * .pi / 32)
            #expect(abs(try disc.geodesicArea() - inscribed) < 1e-4 * inscribed)
        }
    }

    /// A 100 km line buffered by 500 m: every vertex of the result is 500 m from the line's geodesic,
    /// within the documented scale error.
    @Test func lineBufferAgainstGeodesicFootPoints() throws {
        let a = Coordinate(latitude: 45, longitude: 5),
            b = Coordinate(latitude: 45.6, longitude: 6.1)
        let zone = try Geometry.lineString(coordinates: [a, b]).buffer(meters: 500)
        let line = Geodesic.wgs84.line(from: a, to: b)
        #expect(line.length > 100_000)
        for p in zone.positions {
            let foot = line.closestPoint(to: p.coordinate)
            let endDistance = min(
                Geodesic.distance(from: a, to: p.coordinate),
                Geodesic.distance(from: b, to: p.coordinate))
            let d = min(foot.distance, endDistance)
            // (60 km / 6371 km)² / 6 × 500 m ≈ 0.7 cm
            #expect(abs(d - 500) < 0.05, "vertex at \(d) m")
        }
    }

    @Test func distances() throws {
        let lhr = Position(x: -0.4543, y: 51.47), cdg = Position(x: 2.5479, y: 49.0097)
        let exact = Geodesic.wgs84.distance(from: lhr.coordinate, to: cdg.coordinate)
        #expect(abs(try Geometry.point(lhr).distance(meters: .point(cdg)) - exact) < 1e-6)
        // Point to a long geodesic segment: the foot of the perpendicular.
        let a = Coordinate(latitude: 10, longitude: -30),
            b = Coordinate(latitude: 20, longitude: 30)
        let probe = Coordinate(latitude: 30, longitude: 0)
        let oracle = Geodesic.wgs84.line(from: a, to: b).closestPoint(to: probe).distance
        let d = try Geometry.point(coordinate: probe).distance(
            meters: .lineString(coordinates: [a, b]))
        #expect(d >= oracle - 1e-3 && d < oracle * (1 + 1e-5), "\(d) vs \(oracle)")
        let square = Geometry.polygon(exterior: [
            Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1), Position(x: 0, y: 1),
        ])
        #expect(try square.distance(meters: .point(x: 0.5, y: 0.5)) == 0)
        #expect(try square.distance(meters: .point(nil)) == .infinity)
        #expect(throws: GeoError.self) { try square.distance(meters: .point(x: 0, y: 91)) }
    }

    /// A buffer across the 180th meridian stays one continuous polygon (longitudes may pass 180).
    @Test func antimeridian() throws {
        let disc = try Geometry.point(x: 179.99, y: -16.5).buffer(meters: 5_000)
        let bounds = try #require(disc.bounds)
        #expect(bounds.maxX > 180 && bounds.maxX - bounds.minX < 0.2)
        #expect(
            abs(try disc.geodesicArea() - 16 * 5_000 * 5_000 * sin(2 * .pi / 32)) < 1e-3
                * 78_000_000)
        #expect(try disc.isValid())
        let fiji = try Geometry.point(x: 179.99, y: -16.5).distance(
            meters: .point(x: -179.99, y: -16.5))
        #expect(
            abs(
                fiji
                    - Geodesic.distance(
                        from: Coordinate(latitude: -16.5, longitude: 179.99),
                        to: Coordinate(latitude: -16.5, longitude: -179.99))) < 1e-6)
    }

    @Test func badInput() throws {
        #expect(throws: GeoError.self) { try Geometry.point(x: 0, y: 100).buffer(meters: 10) }
        #expect(throws: GeoError.self) { try Geometry.point(x: 0, y: 0).buffer(meters: .nan) }
        #expect(try Geometry.point(nil).buffer(meters: 5).isEmpty)
    }
}
