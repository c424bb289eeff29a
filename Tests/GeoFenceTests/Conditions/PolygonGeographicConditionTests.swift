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

    /// The least geodesic distance from `p` to the straight longitude/latitude edge from `a` to
    /// `b` (taken the short way round): every ~2 m along it at first (at most 20,000 samples),
    /// then a ternary search around the best sample.
    static func straightEdgeDistance(_ p: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double {
        var dx = b.longitude - a.longitude
        if dx > 180 { dx -= 360 } else if dx < -180 { dx += 360 }
        let dy = b.latitude - a.latitude
        func at(_ t: Double) -> Double {
            p.distance(
                to: Coordinate(
                    latitude: a.latitude + dy * t,
                    longitude: Angle.normalizedLongitude(a.longitude + dx * t)))
        }
        let steps = min(20_000, Int(a.distance(to: b) / 2) + 1)
        var bestT = 0.0, best = Double.infinity
        for k in 0...steps {
            let t = Double(k) / Double(steps)
            let d = at(t)
            if d < best { (bestT, best) = (t, d) }
        }
        var low = max(0, bestT - 1 / Double(steps)), high = min(1, bestT + 1 / Double(steps))
        for _ in 0..<100 {
            let m1 = low + (high - low) / 3, m2 = high - (high - low) / 3
            if at(m1) < at(m2) { high = m2 } else { low = m1 }
        }
        return min(best, at((low + high) / 2))
    }

    /// The distance to the boundary is the distance to the straight edges that containment uses,
    /// within the pieces' tolerance (5 cm, and the bound of the type's discussion for edges too
    /// long to follow that closely), against a brute-force minimum along each edge, on seeded
    /// random polygons and points; and its sign is containment's.
    @Test(arguments: [
        (radius: 300.0...2_000.0, points: 3_000.0, tolerance: 0.06),
        (radius: 20_000.0...200_000.0, points: 300_000.0, tolerance: 0.06),
    ])
    func boundaryDistanceFollowsTheStraightEdges(
        radius: ClosedRange<Double>, points: Double, tolerance: Double
    ) throws {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<12 {
            let center = Coordinate(
                latitude: rng.uniform(-75, 75), longitude: rng.uniform(-180, 180))
            let count = 3 + Int(rng.next() % 5)
            var vertices = [Coordinate]()
            for i in 0..<count {
                let bearing = 360 * Double(i) / Double(count) + rng.uniform(0, 20)
                vertices.append(
                    center.coordinate(
                        atDistance: rng.uniform(radius.lowerBound, radius.upperBound),
                        bearing: bearing))
            }
            let polygon = try PolygonGeographicCondition(exterior: vertices)
            let p = center.coordinate(
                atDistance: rng.uniform(0, points), bearing: rng.uniform(0, 360))
            let best =
                (0..<count).map {
                    Self.straightEdgeDistance(p, vertices[$0], vertices[($0 + 1) % count])
                }.min() ?? .infinity
            let fast = polygon.distanceToBoundary(from: p)
            #expect(abs(fast - best) <= tolerance, "fast \(fast) brute \(best)")
            let signed = polygon.signedDistance(from: p)
            #expect(abs(signed) == fast || signed == 0)
            #expect((signed < 0) == (polygon.locate(p) == .interior))
        }
    }

    /// A box of 60° by 10°: its straight edges along the 50th and 60th parallels part from their
    /// geodesics by hundreds of kilometers. A point a meter inside the northern edge is a meter
    /// from the boundary (it was 383 km, measured to the geodesic, which bulges north), and the
    /// distances follow the parallels within the bound for 256 pieces.
    @Test func longEdgesAreFollowed() throws {
        let box = try PolygonGeographicCondition(
            exterior: ring([(50, 0), (50, 60), (60, 60), (60, 0)]))
        let near = Coordinate(latitude: 59.99999, longitude: 30)
        #expect(box.locate(near) == .interior)
        #expect(abs(box.signedDistance(from: near) + 1.1) < 9, "\(box.signedDistance(from: near))")
        for (latitude, inside) in [(53.9, true), (61.0, false), (55.0, true), (49.0, false)] {
            let p = Coordinate(latitude: latitude, longitude: 30)
            let parallel = min(
                p.distance(to: Coordinate(latitude: 50, longitude: 30)),
                p.distance(to: Coordinate(latitude: 60, longitude: 30)))
            let signed = box.signedDistance(from: p)
            #expect((signed < 0) == inside)
            #expect(abs(abs(signed) - parallel) < 9, "\(latitude): \(signed) vs \(parallel)")
        }
    }

    /// An edge across the equator at a slant meets its geodesic at its middle (by symmetry), yet
    /// strays 4.5 km from it at a quarter: the pieces look at three places. And when many long
    /// edges share the budget of halvings, the ones that stray most are halved first, so the
    /// last edge is refined too (it was left one geodesic, 195 km off).
    @Test func piecesFollowEveryEdge() throws {
        let triangle = try PolygonGeographicCondition(
            exterior: ring([(-10, -10), (10, 10), (10, -10)]))
        let p = Coordinate(latitude: 5.0578, longitude: 5)
        let straight = Self.straightEdgeDistance(
            p, Coordinate(latitude: -10, longitude: -10), Coordinate(latitude: 10, longitude: 10))
        #expect(straight > 4_000)
        #expect(triangle.locate(p) == .interior)
        #expect(
            abs(triangle.signedDistance(from: p) + straight) < 0.1,
            "\(triangle.signedDistance(from: p)) vs \(-straight)")
        let long = ring([
            (50, 0), (50, 50), (50, 100), (50, 150), (70, 150), (70, 100), (70, 50), (70, 0),
        ])
        let band = try PolygonGeographicCondition(exterior: long)
        for q in [
            Coordinate(latitude: 71.74, longitude: 25), Coordinate(latitude: 65, longitude: 75),
            Coordinate(latitude: 51, longitude: 125), Coordinate(latitude: 69.5, longitude: 140),
        ] {
            let best =
                long.indices.map {
                    Self.straightEdgeDistance(q, long[$0], long[($0 + 1) % long.count])
                }.min() ?? .infinity
            let fast = band.distanceToBoundary(from: q)
            // Six edges of 1,700–3,600 km share 1,080 halvings: the pieces left farther than
            // 5 cm from the parallels are measured along the parallels themselves.
            #expect(abs(fast - best) < 0.06, "\(q): \(fast) vs \(best)")
        }
        // 170° edges along the 40th and 80th parallels: a fix 11.1 m inside the southern one is
        // 11.1 m from it (1.6 m when pieces 12 m from the parallel stood for it), and the same
        // outside.
        let wide = try PolygonGeographicCondition(
            exterior: ring([(40, 0), (40, 170), (80, 170), (80, 0)]))
        let arc = Coordinate(latitude: 40, longitude: 51).distance(
            to: Coordinate(latitude: 40.0001, longitude: 51))
        for (latitude, sign) in [(40.0001, -1.0), (39.9999, 1.0)] {
            let d = wide.signedDistance(from: Coordinate(latitude: latitude, longitude: 51))
            #expect(abs(d - sign * arc) < 1e-3, "\(latitude): \(d) vs \(sign * arc)")
        }
    }

    /// A box cut at the 180th meridian unrolls onto one meridian: refused with a message saying
    /// what it is (it was accepted and never contained anything).
    @Test func boxesCutAtTheAntimeridianAreRefused() {
        do {
            _ = try PolygonGeographicCondition(
                exterior: ring([(-60, -180), (-60, 180), (-90, 180), (-90, -180)]))
            Issue.record("a box cut at the antimeridian was accepted")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(error.message.contains("steps a full turn of longitude"), "\(error.message)")
        }
        // With a vertex on its cut or along the pole too, and a ring on one line.
        for exterior in [
            [(30.0, -180.0), (30, 180), (60, 180), (90, 180), (90, -180)],
            [(30.0, -180.0), (30, 180), (90, 180), (90, 0), (90, -180)],
            [(0.0, 0.0), (1, 1), (2, 2), (3, 3)],
        ] {
            #expect(throws: GeoError.self) {
                try PolygonGeographicCondition(exterior: ring(exterior))
            }
        }
    }

    /// A figure eight's signed area nets to 0, but it has an inside: both lobes, by the even–odd
    /// rule (it was refused as if its vertices lay on one line).
    @Test func figureEightsHaveAnInside() throws {
        for exterior in [
            [(30.0, 0.0), (32, 2), (30, 2), (32, 0)],
            [(30.0, 0.0), (32, 3), (30, 3), (32, 0)],
        ] {
            let eight = try PolygonGeographicCondition(exterior: ring(exterior))
            let right = exterior[1].1 - 0.5
            #expect(eight.contains(Coordinate(latitude: 31, longitude: 0.5)))
            #expect(eight.contains(Coordinate(latitude: 31, longitude: right)))
            #expect(!eight.contains(Coordinate(latitude: 30.2, longitude: exterior[1].1 / 2)))
            #expect(!eight.contains(Coordinate(latitude: 31, longitude: -0.5)))
        }
        // Rings of area 0 that go out and back along their own edges have no inside: a box cut
        // at ±180 with a spike along the pole (it passes the turn checks), and a plain spike.
        let refused: [([(Double, Double)], String)] = [
            ([(30, -180), (30, 180), (90, 180), (90, 90), (90, -180)], "steps a full turn"),
            (
                [(30, -180), (30, 180), (90, 180), (90, 100), (90, 10), (90, -180)],
                "steps a full turn"
            ),
            ([(0, 0), (0, 1), (1, 1), (0, 1)], "goes out and back"),
            ([(0, 0), (1, 1), (2, 2), (3, 3)], "lie on one line"),
        ]
        for (exterior, text) in refused {
            do {
                _ = try PolygonGeographicCondition(exterior: ring(exterior))
                Issue.record("accepted \(exterior)")
            } catch {
                #expect(error.kind == .invalidArgument)
                #expect(error.message.contains(text), "\(error.message)")
            }
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
