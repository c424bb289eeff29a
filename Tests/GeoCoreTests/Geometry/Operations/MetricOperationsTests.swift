import Foundation
import GeoCore
import GeoTestSupport
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

    /// A buffer round a pole is closed along that pole, so it is a valid polygon in the
    /// longitude/latitude plane too, and means the same on the globe: the pole inside, its area
    /// the winding ring's, points beyond the buffered edges outside. Both poles, growing and
    /// shrinking.
    /// A box cut at the 180th meridian has no geodesic reading (its edges would run out and back
    /// along one meridian): buffering it or measuring from it is refused with a message saying
    /// so, where it gave a thin strip along the meridian.
    @Test func boxesCutAtTheAntimeridianAreRefused() throws {
        let cap = try Geometry(wkt: "POLYGON ((-180 -60, 180 -60, 180 -90, -180 -90, -180 -60))")
        func refused(_ body: () throws -> Void) {
            do {
                try body()
                Issue.record("a box cut at the antimeridian was measured")
            } catch let error as GeoError {
                #expect(error.kind == .invalidArgument)
                #expect(
                    error.message.contains("steps a full turn of longitude"), "\(error.message)")
            } catch {
                Issue.record("\(error)")
            }
        }
        let origin = Geometry.point(Position(x: 0, y: 0))
        refused { _ = try cap.buffer(meters: 1_000) }
        refused { _ = try cap.distance(meters: origin) }
        refused { _ = try origin.distance(meters: cap) }
        // Simplified in meters, it collapsed to a ring of no area; now refused too (the planar
        // simplification keeps it).
        refused { _ = try cap.simplified(meters: 100) }
        refused {
            _ = try Geometry(wkt: "POLYGON ((-180 10, 180 10, 180 20, -180 20, -180 10))")
                .simplified(meters: 0)
        }
        #expect(try cap.simplified(tolerance: 0.001) == cap)
        // A box that only touches ±180 is not cut there.
        let east = try Geometry(wkt: "POLYGON ((170 -10, 180 -10, 180 10, 170 10, 170 -10))")
        #expect(try east.buffer(meters: 1_000).geodesicArea() > 0)
    }

    /// Simplifying in meters keeps each vertex's own coordinate: a country cut at the 180th
    /// meridian (RFC 7946) has vertices at 180 and at −180 that project to one point, and each
    /// part kept its own (the second overwrote the first, so `180 -10` came back as `-180 -10`,
    /// and a valid input came out self-intersecting).
    @Test func simplifyingKeepsEachVertexsOwnLongitude() throws {
        for wkt in [
            "MULTIPOLYGON (((170 -20, 180 -20, 180 -10, 170 -10, 170 -20)), ((-180 -20, -170 -20, -170 -10, -180 -10, -180 -20)))",
            "MULTILINESTRING ((170 0, 180 0, 180 10), (-180 10, -170 10))",
            "GEOMETRYCOLLECTION (LINESTRING (179 5, 180 5), LINESTRING (-180 5, -179 5))",
        ] {
            let geometry = try Geometry(wkt: wkt)
            for meters in [0.0, 1_000] {
                #expect(try geometry.simplified(meters: meters) == geometry, "\(wkt), \(meters) m")
            }
        }
        // Points keep theirs too, and so do polygons that touch at 180 beside an island
        // Douglas–Peucker drops.
        for wkt in [
            "MULTIPOINT ((180 0), (-180 0))",
            "GEOMETRYCOLLECTION (POINT (180 5), POINT (-180 5))", "POINT (-180 5)",
        ] {
            let geometry = try Geometry(wkt: wkt)
            #expect(try geometry.simplified(meters: 0) == geometry, "\(wkt)")
        }
        let islands = try Geometry(
            wkt:
                "MULTIPOLYGON (((170 -20, 180 -20, 180 -10, 170 -10, 170 -20)), ((175 -15, 175.00001 -15, 175.00001 -14.99999, 175 -15)), ((-180 -10, -170 -10, -170 0, -180 0, -180 -10)))"
        )
        let withoutIsland = try islands.simplified(meters: 1_000, preservingTopology: false)
        #expect(
            withoutIsland
                == (try Geometry(
                    wkt:
                        "MULTIPOLYGON (((170 -20, 180 -20, 180 -10, 170 -10, 170 -20)), ((-180 -10, -170 -10, -170 0, -180 0, -180 -10)))"
                )), "\(withoutIsland.wkt)")
        // Vertices that do go leave the others as they were, 180 and −180 alike.
        let line = try Geometry(
            wkt:
                "MULTILINESTRING ((170 0, 175 0.00001, 180 0, 180 10), (-180 10, -175 10.00001, -170 10))"
        )
        #expect(
            try line.simplified(meters: 5_000)
                == Geometry(wkt: "MULTILINESTRING ((170 0, 180 0, 180 10), (-180 10, -170 10))"))
    }

    /// GEOS 3.11's topology-preserving simplification drops a shell vertex a hole touches and
    /// leaves the hole outside (fixed in GEOS 3.12): a valid input's result is valid whatever
    /// the installed GEOS, planar and in meters.
    @Test func topologyPreservingResultsAreValid() throws {
        let planar = try Geometry(
            wkt:
                "POLYGON ((10 10, 10 80, 50 90, 90 80, 90 10, 10 10), (70 81, 30 81, 50 90, 70 81))"
        )
        for tolerance in [1.0, 10, 20, 40, 100] {
            let result = try planar.simplified(tolerance: tolerance)
            #expect(try result.isValid(), "\(tolerance): \(result.wkt)")
            // The hole is kept, whole.
            if case .polygon(let rings) = result { #expect(rings.count == 2) }
        }
        let small = try Geometry(
            wkt:
                "POLYGON ((0.01 0.01, 0.01 0.08, 0.05 0.09, 0.09 0.08, 0.09 0.01, 0.01 0.01), (0.07 0.081, 0.03 0.081, 0.05 0.09, 0.07 0.081))"
        )
        for meters in [500.0, 2_000, 5_000, 50_000] {
            let result = try small.simplified(meters: meters)
            #expect(try result.isValid(), "\(meters) m: \(result.wkt)")
        }
        // Where GEOS's answer is valid it is kept: the shell's middle vertices go at 2,000 m.
        let plain = try Geometry(
            wkt: "POLYGON ((0 0, 0.01 0.00001, 0.02 0, 0.02 0.02, 0 0.02, 0 0))")
        #expect(
            try plain.simplified(meters: 2_000)
                == Geometry(wkt: "POLYGON ((0 0, 0.02 0, 0.02 0.02, 0 0.02, 0 0))"))
    }

    /// A buffer round a pole runs from longitude −180 to 180 (or back) whatever its center's
    /// longitude, as RFC 7946 readers take longitudes; it ran from −530 to −170 for a point at
    /// 10° E. Turning the center round the pole turns nothing else: the area is the same to a
    /// part in 10⁹ (the crossing of the 180th meridian is placed on the edge's geodesic; placed
    /// on the straight line in degrees, it took 0.55 km² off a 50 km cap).
    @Test func capsRunFromMinus180To180() throws {
        for (latitude, meters) in [(89.99, 50_000.0), (-89.9, 50_000), (88.0, 300_000)] {
            // A point's buffer (the geodesic circle) and a small disc's (through the plane).
            var areas: [[Double]] = [[], []]
            for longitude in [0.0, 10, 120, -179.5, 180, -90] {
                let point = Geometry.point(Position(x: longitude, y: latitude))
                for (k, geometry) in [point, try point.buffer(meters: 1)].enumerated() {
                    let cap = try geometry.buffer(meters: meters)
                    let xs = cap.positions.map(\.x)
                    #expect(
                        xs.min() == -180 && xs.max() == 180,
                        "\(longitude), \(latitude): \(xs.min() ?? .nan) to \(xs.max() ?? .nan)")
                    #expect(try cap.isValid())
                    areas[k].append(try cap.geodesicArea())
                }
            }
            for found in areas {
                let spread = (found.max() ?? 0) - (found.min() ?? 0)
                #expect(spread < 1e-9 * (found.max() ?? 0), "\(latitude): \(found)")
            }
        }
        // A cap with a hole across the 180th meridian, and one whose outline hooks back across
        // it, keep continuous longitudes (cut at the meridian, the hole would stick out of the
        // shell, and the hook would be cut through by the closure along the pole): valid, and
        // the same area wherever they are turned to.
        for (wkt, turned) in [
            (
                "POLYGON ((0 85, 90 85, 180 85, -90 85, 0 85), (179 87, -179 87, -179 88, 179 88, 179 87))",
                "POLYGON ((0 85, 90 85, 180 85, -90 85, 0 85), (-1 87, 1 87, 1 88, -1 88, -1 87))"
            ),
            (
                "POLYGON ((0 85, 90 85, 170 85, -175 85, -175 83, 170 83, 170 81, -160 81, -90 85, 0 85))",
                "POLYGON ((-180 85, -90 85, -10 85, 5 85, 5 83, -10 83, -10 81, 20 81, 90 85, -180 85))"
            ),
            // Both at once, with a hole across the meridian the outline starts at: the outline
            // starts at another vertex, clear of the holes.
            (
                "POLYGON ((0 85, 90 85, 170 85, -175 85, -175 83, 170 83, 170 81, -160 81, -90 85, 0 85), (-1 86, 1 86, 1 87, -1 87, -1 86))",
                "POLYGON ((-180 85, -90 85, -10 85, 5 85, 5 83, -10 83, -10 81, 20 81, 90 85, -180 85), (179 86, -179 86, -179 87, 179 87, 179 86))"
            ),
            (
                "POLYGON ((0 85, 90 85, 180 85, -90 85, 0 85), (179 87, -179 87, -179 88, 179 88, 179 87), (-1 86, 1 86, 1 87, -1 87, -1 86))",
                "POLYGON ((0 85, 90 85, 180 85, -90 85, 0 85), (-1 87, 1 87, 1 88, -1 88, -1 87), (179 86, -179 86, -179 87, 179 87, 179 86))"
            ),
        ] {
            let cap = try Geometry(wkt: wkt).buffer(meters: 1_000)
            let same = try Geometry(wkt: turned).buffer(meters: 1_000)
            #expect(try cap.isValid(), "\(wkt)")
            let (a, b) = (try cap.geodesicArea(), try same.geodesicArea())
            #expect(abs(a - b) < 1e-6 * a, "\(wkt): \(a) against \(b)")
        }
    }

    @Test func buffersRoundAPoleAreValidCaps() throws {
        for pole in [90.0, -90.0] {
            let lat = pole > 0 ? 80.0 : -80.0
            let square = try Geometry(
                wkt: "POLYGON ((0 \(lat), 90 \(lat), 180 \(lat), -90 \(lat), 0 \(lat)))")
            for meters in [1_000.0, 50_000, -50_000] {
                let cap = try square.buffer(meters: meters)
                #expect(try cap.isValid(), "pole \(pole), \(meters) m")
                let globe = try GeographicPolygon(cap)
                #expect(globe.contains(Coordinate(latitude: pole, longitude: 0)))
                #expect(!globe.contains(Coordinate(latitude: lat - 1, longitude: 45)))
                // The square's geodesic edges reach 82.88° at 45°: the buffer follows them.
                let inside = (pole > 0 ? 1.0 : -1.0) * (82.9 + max(0, -meters) / 111_000 + 0.05)
                #expect(globe.contains(Coordinate(latitude: inside, longitude: 45)))
                let grown = try cap.geodesicArea() - square.geodesicArea()
                #expect((grown > 0) == (meters > 0), "pole \(pole), \(meters) m: \(grown)")
                // Steiner's formula for the square (about 4 × 1,570 km round): it gains its
                // perimeter times the distance and a disc at its corners, or loses the band less
                // a square of the distance at each right-angled corner.
                let perimeter = try square.geodesicPerimeter()
                let d = abs(meters)
                let expected =
                    meters > 0 ? perimeter * d + .pi * d * d : -(perimeter * d - 4 * d * d)
                #expect(
                    abs(grown - expected) < 0.01 * perimeter * d,
                    "pole \(pole), \(meters) m: \(grown) against \(expected)")
            }
        }
    }

    /// A cap with a hole: the hole moves with the shell's unrolled longitudes, so the buffer is
    /// valid in the plane and the hole's middle stays outside on the globe, wherever the ring
    /// starts.
    @Test func polarCapsKeepTheirHoles() throws {
        for hole in [-45.0, 45, 135, -135] {
            let (w, e) = (hole - 5, hole + 5)
            let square = try Geometry(
                wkt:
                    "POLYGON ((0 80, 90 80, 180 80, -90 80, 0 80), (\(w) 84, \(e) 84, \(e) 85, \(w) 85, \(w) 84))"
            )
            let cap = try square.buffer(meters: 1_000)
            #expect(try cap.isValid(), "hole at \(hole)°")
            let globe = try GeographicPolygon(cap)
            #expect(!globe.contains(Coordinate(latitude: 84.5, longitude: hole)), "\(hole)")
            #expect(globe.contains(Coordinate(latitude: 89, longitude: hole)), "\(hole)")
        }
    }

    @Test func badInput() throws {
        #expect(throws: GeoError.self) { try Geometry.point(x: 0, y: 100).buffer(meters: 10) }
        #expect(throws: GeoError.self) { try Geometry.point(x: 0, y: 0).buffer(meters: .nan) }
        #expect(try Geometry.point(nil).buffer(meters: 5).isEmpty)
    }

    /// Beyond the metric plane, edges that cross are 0 apart even when no vertex of either is near
    /// the other, and a part inside a polygon is 0 from it.
    @Test func farGeometriesThatMeet() throws {
        let meridian = Geometry.lineString([Position(x: 0, y: -30), Position(x: 0, y: 30)])
        let equator = Geometry.lineString([Position(x: -30, y: 0), Position(x: 30, y: 0)])
        #expect(try meridian.distance(meters: equator) == 0)
        // A shallow crossing, inside the auxiliary sphere's band: found by the search.
        let shallow = Geometry.lineString([Position(x: -40, y: -0.001), Position(x: 40, y: 0.001)])
        #expect(try shallow.distance(meters: equator) < 1e-6)
        // A line that stops 1.1 cm short of the equator.
        let short = Geometry.lineString([Position(x: 5, y: 30), Position(x: 5, y: 1e-7)])
        let gap = Geodesic.wgs84.distance(
            from: Coordinate(latitude: 1e-7, longitude: 5),
            to: Coordinate(latitude: 0, longitude: 5))
        #expect(abs(try short.distance(meters: equator) - gap) < 1e-6)
        let continent = Geometry.polygon(exterior: [
            Position(x: -50, y: -40), Position(x: 50, y: -40), Position(x: 50, y: 40),
            Position(x: -50, y: 40),
        ])
        let inside = Geometry.lineString([Position(x: -20, y: 10), Position(x: 20, y: 10)])
        #expect(try continent.distance(meters: inside) == 0)
        #expect(try inside.distance(meters: .geometryCollection([meridian, continent])) == 0)
    }

    /// Beyond the metric plane, against an oracle that samples every edge of one geometry at 400
    /// points and measures each to the other's edges: never above it, and below it by no more
    /// than the sampling step (seeded polylines thousands of kilometers long, some crossing).
    @Test func farDistancesAgainstSampling() throws {
        var rng = SplitMix64(seed: 31)
        func polyline() -> [Coordinate] {
            var c = Coordinate(latitude: rng.uniform(-60, 60), longitude: rng.uniform(-180, 180))
            var result = [c]
            for _ in 0..<3 {
                c =
                    Geodesic.wgs84.direct(
                        from: c, azimuth: rng.uniform(0, 360),
                        distance: rng.uniform(500_000, 3_000_000)
                    ).coordinate
                result.append(c)
            }
            return result
        }
        var crossings = 0
        for _ in 0..<12 {
            let a = polyline(), b = polyline()
            let ours = try Geometry.lineString(coordinates: a).distance(
                meters: .lineString(coordinates: b))
            var oracle = Double.infinity, step = 0.0
            for (from, to) in [(a, b), (b, a)] {
                let lines = zip(to, to.dropFirst()).map { Geodesic.wgs84.line(from: $0, to: $1) }
                for (s, e) in zip(from, from.dropFirst()) {
                    let edge = Geodesic.wgs84.line(from: s, to: e)
                    step = max(step, edge.length / 400)
                    for k in 0...400 {
                        let p = edge.position(atDistance: edge.length * Double(k) / 400).coordinate
                        for line in lines {
                            oracle = min(oracle, line.closestPoint(to: p).distance)
                        }
                    }
                }
            }
            if ours == 0 { crossings += 1 }
            #expect(ours <= oracle + 1e-6 && ours >= oracle - step, "\(ours) vs \(oracle)")
        }
        #expect(crossings > 0 && crossings < 12)
    }

    /// Two zigzag lines running parallel 8,900 km apart, every vertex about equally near the
    /// other line: the least distance is the meridian arc between the vertices at 40° and −40°.
    @Test func parallelFarLines() throws {
        let north = Geometry.lineString(
            (0..<600).map { Position(x: -90 + Double($0) * 0.15, y: 40 + 0.001 * Double($0 % 7)) })
        let south = Geometry.lineString(
            (0..<600).map { Position(x: -90 + Double($0) * 0.15, y: -40 - 0.001 * Double($0 % 5)) })
        let d = try north.distance(meters: south)
        // The nearest pair has latitudes 40 and −40 on one meridian: a meridian arc.
        let arc = Geodesic.wgs84.distance(
            from: Coordinate(latitude: 40, longitude: -90),
            to: Coordinate(latitude: -40, longitude: -90))
        #expect(abs(d - arc) < 1e-6, "\(d) vs \(arc)")
    }
}
