import Foundation
import GeoCore
import GeoFence
import GeoTestSupport
import Testing

private func ring(_ pairs: [(Double, Double)]) -> [Coordinate] {
    pairs.map { Coordinate(latitude: $0.0, longitude: $0.1) }
}

@Suite("PolygonGeographicCondition")
struct PolygonGeographicConditionTests {
    /// GEOS's point/polygon `relate` cases (interior, boundary at vertices and edges, holes, concave
    /// rings), mapped into longitude/latitude by x/2 − 90, y/4 − 40 (exact for these coordinates and
    /// orientation-preserving, so GEOS's answer carries over).
    @Test func geosPointInPolygonCases() throws {
        // (general_TestRelatePA.xml has no POINT/POLYGON case: its points are all MULTIPOINTs.)
        let cases = try GEOSPointInPolygonCase.load([
            "geos_xml/predicates/validate_TestRelatePA.xml"
        ])
        #expect(cases.count == 9)
        func map(_ p: Position) -> Coordinate {
            Coordinate(latitude: p.y / 4 - 40, longitude: p.x / 2 - 90)
        }
        for c in cases {
            let rings = c.rings.map { $0.map(map) }
            let polygon = try PolygonGeographicCondition(
                exterior: rings[0], holes: Array(rings.dropFirst()))
            #expect(polygon.locate(map(c.point)) == c.expected, "\(c.file): \(c.description)")
            #expect(polygon.contains(map(c.point)) == (c.expected != .exterior), "\(c.description)")
        }
    }

    @Test func holesAndBoundaries() throws {
        let square = ring([(0, 0), (0, 1), (1, 1), (1, 0)])
        let hole = ring([(0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75)])
        let polygon = try PolygonGeographicCondition(exterior: square, holes: [hole])
        #expect(polygon.locate(Coordinate(latitude: 0.1, longitude: 0.1)) == .interior)
        // in the hole
        #expect(polygon.locate(Coordinate(latitude: 0.5, longitude: 0.5)) == .exterior)
        // on the hole
        #expect(polygon.locate(Coordinate(latitude: 0.25, longitude: 0.5)) == .boundary)
        #expect(polygon.locate(Coordinate(latitude: 0, longitude: 0.3)) == .boundary)
        #expect(polygon.locate(Coordinate(latitude: 1, longitude: 1)) == .boundary)
        #expect(polygon.locate(Coordinate(latitude: 1.000_000_001, longitude: 0.5)) == .exterior)
        #expect(polygon.signedDistance(from: Coordinate(latitude: 0, longitude: 0.3)) == 0)
        // A closed ring equals the open one.
        let closed = try PolygonGeographicCondition(exterior: square + [square[0]], holes: [hole])
        #expect(closed == polygon)
        // A point 0.1° of latitude inside the southern edge: its distance is that meridian arc.
        let p = Coordinate(latitude: 0.1, longitude: 0.1)
        let arc = Geodesic.wgs84.distance(from: p, to: Coordinate(latitude: 0, longitude: 0.1))
        #expect(abs(polygon.signedDistance(from: p) + arc) < 1e-3)
    }

    /// A ring across the 180th meridian (Fiji-like) contains points on both sides of it, and a hole
    /// given in the other longitude convention still cuts the polygon.
    @Test func ringsAcrossThe180thMeridian() throws {
        let exterior = ring([(-16, 177), (-16, -178), (-19, -178), (-19, 177)])
        let hole = ring([(-17, 179.5), (-17, -179.5), (-18, -179.5), (-18, 179.5)])
        let polygon = try PolygonGeographicCondition(exterior: exterior, holes: [hole])
        #expect(polygon.contains(Coordinate(latitude: -17.5, longitude: 178)))
        // in the hole
        #expect(polygon.contains(Coordinate(latitude: -17.5, longitude: -179.8)) == false)
        // in the hole
        #expect(polygon.contains(Coordinate(latitude: -17.5, longitude: 179.8)) == false)
        #expect(polygon.contains(Coordinate(latitude: -17.5, longitude: -179)))
        #expect(polygon.contains(Coordinate(latitude: -16.5, longitude: -179)))
        #expect(polygon.contains(Coordinate(latitude: -16.5, longitude: 180)))
        #expect(polygon.contains(Coordinate(latitude: -16.5, longitude: -180)))
        #expect(!polygon.contains(Coordinate(latitude: -17.5, longitude: 170)))
        #expect(!polygon.contains(Coordinate(latitude: -17.5, longitude: -170)))
        #expect(polygon.bounds.crosses180thMeridian)
        #expect(polygon.bounds.west == 177 && polygon.bounds.east == -178)
        // Distance across the meridian: from 179.9°E to the edge at 178°W along the parallel.
        let d = polygon.distanceToBoundary(from: Coordinate(latitude: -17.5, longitude: -178.5))
        #expect(d > 0 && d < 60_000)
    }

    @Test func invalidRingsAreRejected() {
        func kind(_ body: () throws -> Void) -> GeoError.Kind? { thrownGeoError(body)?.kind }
        #expect(
            kind { _ = try PolygonGeographicCondition(exterior: ring([(0, 0), (1, 1)])) }
                == .invalidArgument)
        #expect(
            kind {
                _ = try PolygonGeographicCondition(
                    exterior: ring([(0, 0), (1, 1), (0, 0), (1, 1)]))
            } == .invalidArgument)
        #expect(
            kind {
                _ = try PolygonGeographicCondition(exterior: ring([(0, 0), (1, .nan), (1, 1)]))
            } == .invalidCoordinate)
        #expect(
            kind { _ = try PolygonGeographicCondition(exterior: ring([(0, 0), (0, 180), (1, 1)])) }
                == .invalidArgument)
        // Around the north pole: longitudes turn through 360°.
        let cap = ring([(80, 0), (80, 90), (80, 180 - 1e-9), (80, -90)])
        #expect(kind { _ = try PolygonGeographicCondition(exterior: cap) } == .invalidArgument)
        do {
            _ = try PolygonGeographicCondition(exterior: ring([(0, 0), (0, 1), (95, 1)]))
            Issue.record("a vertex at latitude 95 was accepted")
        } catch {
            #expect(error.message.contains("vertex 2"))
        }
    }

    /// The distance to the boundary agrees with a brute-force minimum over points every ~2 m along
    /// each geodesic edge (refined near the best), on seeded random polygons and points.
    @Test func boundaryDistanceMatchesDenseSampling() throws {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<12 {
            let center = Coordinate(
                latitude: rng.uniform(-75, 75), longitude: rng.uniform(-180, 180))
            let count = 3 + Int(rng.next() % 5)
            var vertices = [Coordinate]()
            for i in 0..<count {
                let bearing = 360 * Double(i) / Double(count) + rng.uniform(0, 20)
                vertices.append(
                    center.coordinate(atDistance: rng.uniform(300, 2_000), bearing: bearing))
            }
            let polygon = try PolygonGeographicCondition(exterior: vertices)
            let p = center.coordinate(
                atDistance: rng.uniform(0, 3_000), bearing: rng.uniform(0, 360))
            var best = Double.infinity
            for i in 0..<count {
                let line = Geodesic.wgs84.line(from: vertices[i], to: vertices[(i + 1) % count])
                let steps = Int(line.length / 2) + 1
                var bestS = 0.0, bestHere = Double.infinity
                for k in 0...steps {
                    let s = line.length * Double(k) / Double(steps)
                    let d = line.position(atDistance: s).coordinate.distance(to: p)
                    if d < bestHere { (bestS, bestHere) = (s, d) }
                }
                var s = max(0, bestS - 2)
                while s <= min(line.length, bestS + 2) {
                    bestHere = min(
                        bestHere, line.position(atDistance: s).coordinate.distance(to: p))
                    s += 0.002
                }
                best = min(best, bestHere)
            }
            let fast = polygon.distanceToBoundary(from: p)
            #expect(fast <= best + 1e-3 && fast >= best - 5e-3, "fast \(fast) brute \(best)")
            let signed = polygon.signedDistance(from: p)
            #expect(abs(signed) == fast || signed == 0)
            #expect((signed < 0) == (polygon.locate(p) == .interior))
        }
    }

    @Test func codableRoundTrip() throws {
        let polygon = try PolygonGeographicCondition(
            exterior: ring([(0, 0), (0, 2), (2, 2), (2, 0)]),
            holes: [ring([(0.5, 0.5), (0.5, 1), (1, 1)])])
        let data = try JSONEncoder().encode(GeographicCondition.polygon(polygon))
        let decoded = try JSONDecoder().decode(GeographicCondition.self, from: data)
        #expect(decoded == .polygon(polygon))
        #expect(decoded.contains(Coordinate(latitude: 1.5, longitude: 1.5)))
        let bad = Data(
            #"{"type":"polygon","exterior":[{"latitude":0,"longitude":0},{"latitude":1,"longitude":1}]}"#
                .utf8)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(GeographicCondition.self, from: bad)
        }
    }
}
