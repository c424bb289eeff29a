import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("GeographicPolygon: containment on the globe")
struct GeographicPolygonTests {
    private func polygon(_ wkt: String) throws -> GeographicPolygon {
        try GeographicPolygon(Geometry(wkt: wkt))
    }

    private func at(_ lat: Double, _ lon: Double) -> Coordinate {
        Coordinate(latitude: lat, longitude: lon)
    }

    /// A box across the 180th meridian is the 20° box, not the 340° one the plane sees.
    @Test func boxAcrossThe180thMeridian() throws {
        let box = try polygon("POLYGON ((170 -10, -170 -10, -170 10, 170 10, 170 -10))")
        #expect(box.locate(at(0, 179)) == .interior)
        #expect(box.locate(at(0, -175)) == .interior)
        #expect(box.locate(at(0, 180)) == .interior && box.locate(at(5, -180)) == .interior)
        #expect(box.locate(at(0, 0)) == .exterior)
        #expect(box.locate(at(0, -170)) == .boundary && box.locate(at(10, 175)) == .boundary)
        #expect(box.locate(at(0, 185)) == .interior)  // longitudes modulo 360
        // The plane disagrees, as documented.
        let planar = try Geometry(wkt: "POLYGON ((170 -10, -170 -10, -170 10, 170 10, 170 -10))")
        #expect(planar.locate(Position(x: 0, y: 0)) == .interior)
    }

    /// A ring along the 80th parallel bounds the polar cap, in either orientation; so does the
    /// southern one; holes make an annulus.
    @Test func ringsAroundThePoles() throws {
        for wkt in [
            "POLYGON ((0 80, 90 80, 180 80, -90 80, 0 80))",
            "POLYGON ((0 80, -90 80, 180 80, 90 80, 0 80))",
        ] {
            let cap = try polygon(wkt)
            #expect(cap.locate(at(90, 0)) == .interior && cap.locate(at(90, 123)) == .interior)
            #expect(
                cap.locate(at(85, 33)) == .interior && cap.locate(at(80.000001, -170)) == .interior)
            #expect(cap.locate(at(79.9, 0)) == .exterior && cap.locate(at(-90, 0)) == .exterior)
            #expect(cap.locate(at(80, 45)) == .boundary)
        }
        let south = try polygon("POLYGON ((0 -70, 120 -70, -120 -70, 0 -70))")
        #expect(south.locate(at(-90, 10)) == .interior && south.locate(at(-75, 170)) == .interior)
        #expect(south.locate(at(-60, 0)) == .exterior)
        let annulus = try polygon(
            "POLYGON ((0 70, 90 70, 180 70, -90 70, 0 70), (0 85, 90 85, 180 85, -90 85, 0 85))")
        #expect(annulus.locate(at(80, 10)) == .interior)
        #expect(annulus.locate(at(88, 10)) == .exterior && annulus.locate(at(90, 0)) == .exterior)
        #expect(annulus.locate(at(85, 0)) == .boundary)
        // A ring whose cap would be the larger one bounds the smaller: the south of 80°N is larger.
        #expect(try cap80.locate(at(0, 0)) == .exterior)
    }

    private var cap80: GeographicPolygon {
        get throws { try polygon("POLYGON ((0 80, 90 80, 180 80, -90 80, 0 80))") }
    }

    /// Rings that reach a pole: along it (the pole is interior) or at one vertex (boundary).
    @Test func ringsThatReachAPole() throws {
        let strip = try polygon("POLYGON ((-180 -90, 180 -90, 180 -60, -180 -60, -180 -90))")
        #expect(strip.locate(at(-90, 42)) == .interior && strip.locate(at(-70, 0)) == .interior)
        let wedge = try polygon("POLYGON ((0 80, 10 90, 20 80, 0 80))")
        #expect(wedge.locate(at(90, 0)) == .boundary && wedge.locate(at(85, 10)) == .interior)
        #expect(wedge.locate(at(85, 30)) == .exterior)
    }

    /// Parts that meet at the 180th meridian are one region; a point on the cut between them is
    /// interior, one on a cut edge with nothing on the other side is boundary.
    @Test func cutParts() throws {
        let cut = try polygon(
            "MULTIPOLYGON (((170 -10, 180 -10, 180 10, 170 10, 170 -10)), ((-180 -10, -170 -10, -170 10, -180 10, -180 -10)))"
        )
        #expect(cut.locate(at(0, 180)) == .interior && cut.locate(at(0, -180)) == .interior)
        #expect(cut.locate(at(0, 175)) == .interior && cut.locate(at(0, 0)) == .exterior)
        let half = try polygon("POLYGON ((170 -10, 180 -10, 180 10, 170 10, 170 -10))")
        #expect(half.locate(at(0, 180)) == .boundary)
    }

    /// What the model refuses, with the ring and vertex named.
    @Test func refusals() throws {
        #expect(throws: GeoError.self) { try polygon("POLYGON ((0 0, 180 0, 180 10, 0 10, 0 0))") }
        #expect(throws: GeoError.self) {
            try GeographicPolygon(.lineString([Position(x: 0, y: 0), Position(x: 1, y: 1)]))
        }
        do {
            _ = try GeographicPolygon(
                .polygon([[Position(x: 0, y: 0), Position(x: 1, y: 95), Position(x: 1, y: 0)]]))
            Issue.record("a latitude of 95 accepted")
        } catch {
            #expect(error.kind == .invalidCoordinate && error.message.contains("vertex 1"))
        }
        #expect(throws: GeoError.self) { try polygon("POLYGON ((0 0, 1 1, 0 0, 1 1))") }
        // A point or line alone has no inside; in a collection beside polygons it adds nothing,
        // and every empty geometry contains nothing.
        #expect(throws: GeoError.self) { try polygon("POINT (0 0)") }
        #expect(throws: GeoError.self) { try polygon("GEOMETRYCOLLECTION (POINT (5 5))") }
        let middle = Coordinate(latitude: 0.5, longitude: 0.5)
        let mixed = try polygon(
            "GEOMETRYCOLLECTION (POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0)), POINT (5 5))")
        #expect(mixed.contains(middle))
        #expect(!mixed.contains(Coordinate(latitude: 5, longitude: 5)))
        for empty in ["POLYGON EMPTY", "MULTIPOLYGON EMPTY", "GEOMETRYCOLLECTION EMPTY"] {
            #expect(try !polygon(empty).contains(middle), "\(empty)")
        }
    }

    /// Seeded circles worldwide (a third round the poles, a third across the 180th meridian),
    /// drawn as rings of 180 geodesic points: every test point farther than a margin from the
    /// circle is inside exactly when its geodesic distance to the center is below the radius. The
    /// margin covers the rings' chords and the part of straight longitude/latitude edges from
    /// geodesics.
    @Test func circlesAgreeWithTheirRadius() throws {
        var rng = SplitMix64(seed: 2112)
        var checked = 0
        for k in 0..<120 {
            let center: Coordinate
            switch k % 3 {
            case 0:
                center = at(
                    rng.uniform(-90, 90) > 0 ? rng.uniform(86, 90) : -rng.uniform(86, 90),
                    rng.uniform(-180, 180))
            case 1: center = at(rng.uniform(-60, 60), 180 - rng.uniform(-2, 2))
            default: center = at(rng.uniform(-80, 80), rng.uniform(-180, 180))
            }
            let radius = exp(rng.uniform(log(10_000), log(1_500_000)))
            let ring = stride(from: 0.0, to: 360, by: 2).map { bearing -> Position in
                let c = center.normalized.coordinate(atDistance: radius, bearing: bearing)
                return Position(x: c.longitude, y: c.latitude)
            }
            let shape = try GeographicPolygon(.polygon([ring + [ring[0]]]))
            let margin = radius * 0.003 + 2_000
            for _ in 0..<60 {
                let d = radius * rng.uniform(0, 2)
                guard abs(d - radius) > margin else { continue }
                let p = center.normalized.coordinate(atDistance: d, bearing: rng.uniform(0, 360))
                #expect(
                    shape.contains(p) == (d < radius),
                    "circle \(k) center \(center) r \(radius) point \(p) d \(d)")
                checked += 1
            }
        }
        #expect(checked > 5_000)
    }

    /// Natural Earth's countries: the south pole is in Antarctica, the cut at ±180° is inside
    /// Fiji and Russia, and known places are in their countries and in no other.
    @Test func naturalEarthCountries() throws {
        let document = try GeoJSON(
            data: try ReferenceData.data("basemap/ne_110m_countries.geojson"))
        guard case .featureCollection(let collection) = document else {
            Issue.record("not a feature collection")
            return
        }
        var countries = [String: GeographicPolygon]()
        for feature in collection.features {
            guard let name = feature.properties["name"]?.stringValue, let g = feature.geometry
            else { continue }
            countries[name] = try GeographicPolygon(g)
        }
        #expect(countries.count == 177)
        let places: [(String, Double, Double)] = [
            ("Antarctica", -90, 0), ("Antarctica", -90, 137), ("Antarctica", -85, 180),
            ("Fiji", -16.3, 180), ("Fiji", -16.3, -180), ("Fiji", -17.8, 178),
            ("Russia", 67, 180), ("Russia", 65.5, -175), ("Russia", 55.75, 37.6),
            ("Russia", 62, 130), ("France", 48.86, 2.35), ("Switzerland", 46.95, 7.45),
            ("Canada", 49.9, -97.1), ("United States of America", 39.7, -105),
            ("Brazil", -15.8, -47.9), ("Australia", -25, 135), ("Kazakhstan", 51.2, 71.4),
        ]
        for (name, lat, lon) in places {
            let inside = countries.filter { $0.value.contains(at(lat, lon)) }.map(\.key)
            #expect(inside == [name], "\(lat), \(lon) is in \(inside), expected \(name)")
        }
        // Open sea is in no country.
        for (lat, lon) in [(0.0, -140.0), (-40, 180), (30, -40), (88, 0)] {
            #expect(!countries.values.contains { $0.contains(at(lat, lon)) }, "\(lat), \(lon)")
        }
    }

    /// A point given exactly as one of the ring's vertices is on the boundary, whether the ring
    /// crosses the 180th meridian or not: unrolling keeps each vertex's own longitude (plus whole
    /// turns), never a sum of steps that drifts by ulps.
    @Test func verticesAreOnTheBoundary() throws {
        let triangle = try polygon(
            "POLYGON ((21.622027 -2.966272521489, 5.224814 -2.450869, 9.390104 17.64, 21.622027 -2.966272521489))"
        )
        #expect(triangle.locate(at(17.64, 9.390104)) == .boundary)
        // A box round the world whose east edge is its west edge plus 360° (rounded): one
        // meridian, so the whole world, not a sliver between two values an ulp apart.
        let world = try polygon(
            "POLYGON ((-99.20981916848527 -90, 260.7901808315147 -90, 260.7901808315147 90, -99.20981916848527 90, -99.20981916848527 -90))"
        )
        #expect(world.locate(at(0, 0)) == .interior && world.locate(at(10, 100)) == .interior)
        var rng = SplitMix64(seed: 77)
        for ring in 0..<200 {
            let crosses = ring % 2 == 1
            let count = 3 + Int(rng.next() % 8)
            let center = crosses ? 180.0 : rng.uniform(-150, 150)
            var vertices = [(lat: Double, lon: Double)]()
            for k in 0..<count {
                let angle = (Double(k) + rng.uniform(0, 0.9)) * 2 * .pi / Double(count)
                let r = rng.uniform(1, 25)
                var lon = center + r * cos(angle)
                if lon > 180 { lon -= 360 }
                // Seven-decimal values, as files give them.
                lon = (lon * 1e7).rounded() / 1e7
                let lat = ((r * sin(angle)) * 1e7).rounded() / 1e7
                vertices.append((lat, lon))
            }
            var wkt = vertices.map { "\($0.lon) \($0.lat)" }
            wkt.append(wkt[0])
            let shape = try polygon("POLYGON ((\(wkt.joined(separator: ", "))))")
            for (k, vertex) in vertices.enumerated() {
                #expect(
                    shape.locate(at(vertex.lat, vertex.lon)) == .boundary,
                    "ring \(ring) vertex \(k): \(vertex.lat), \(vertex.lon)")
            }
        }
    }

    /// The unit vector of a latitude and longitude in degrees.
    private static func vector(_ lat: Double, _ lon: Double) -> SIMD3<Double> {
        let phi = lat * .pi / 180, lambda = lon * .pi / 180
        return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    /// Seeded star-shaped rings up to 30° across, around the globe, near the 180th meridian and
    /// around the poles, against a brute-force test on the sphere: the winding number, at the
    /// point, of the ring traced densely along its straight longitude/latitude edges (each the
    /// short way round). Points within 0.05° of the traced ring are left out.
    @Test func agreesWithTheWindingNumberOnTheSphere() throws {
        var rng = SplitMix64(seed: 2024)
        var checked = 0, inside = 0
        for ring in 0..<24 {
            // Centers: anywhere, on the 180th meridian, or near a pole (rings then contain it).
            let center: (lat: Double, lon: Double) =
                switch ring % 4 {
                case 0: (rng.uniform(-60, 60), rng.uniform(-180, 180))
                case 1: (rng.uniform(-50, 50), 180 + rng.uniform(-5, 5))
                case 2: (rng.uniform(78, 86), rng.uniform(-180, 180))
                default: (rng.uniform(-86, -78), rng.uniform(-180, 180))
                }
            let radius = rng.uniform(3, 15)
            let count = 5 + Int(rng.next() % 10)
            var vertices = [(lat: Double, lon: Double)]()
            for k in 0..<count {
                let azimuth = (Double(k) + rng.uniform(0, 0.8)) * 360 / Double(count)
                let end = Geodesic.wgs84.direct(
                    from: Coordinate(latitude: center.lat, longitude: center.lon),
                    azimuth: azimuth, distance: radius * rng.uniform(0.4, 1) * 111_000
                ).coordinate
                var lon = end.longitude
                if lon > 180 { lon -= 360 }
                vertices.append((end.latitude, lon))
            }
            var wkt = vertices.map { vertex in "\(vertex.lon) \(vertex.lat)" }
            wkt.append(wkt[0])
            let polygon = try polygon("POLYGON ((\(wkt.joined(separator: ", "))))")
            // The ring traced densely along its edges, as unit vectors.
            var trace = [SIMD3<Double>]()
            for k in 0..<count {
                let a = vertices[k], b = vertices[(k + 1) % count]
                var dlon = (b.lon - a.lon).truncatingRemainder(dividingBy: 360)
                if dlon > 180 { dlon -= 360 } else if dlon < -180 { dlon += 360 }
                let steps = max(50, Int((abs(dlon) + abs(b.lat - a.lat)) * 20))
                for s in 0..<steps {
                    let t = Double(s) / Double(steps)
                    trace.append(Self.vector(a.lat + t * (b.lat - a.lat), a.lon + t * dlon))
                }
            }
            let c = Self.vector(center.lat, center.lon)
            let nearEdge = cos(0.05 * Double.pi / 180)
            for _ in 0..<120 {
                // Points within 40° of the center, so that the antipode is never enclosed.
                let p = Geodesic.wgs84.direct(
                    from: Coordinate(latitude: center.lat, longitude: center.lon),
                    azimuth: rng.uniform(0, 360), distance: rng.uniform(0, radius * 2.5) * 111_000
                ).coordinate
                let v = Self.vector(p.latitude, p.longitude)
                guard (v * c).sum() > cos(40 * Double.pi / 180),
                    trace.allSatisfy({ ($0 * v).sum() < nearEdge })
                else { continue }
                var winding = 0.0
                for k in trace.indices {
                    let a = trace[k], b = trace[(k + 1) % trace.count]
                    let cross = SIMD3(
                        a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
                    winding += atan2(
                        (v * cross).sum(), (a * b).sum() - (a * v).sum() * (b * v).sum())
                }
                let expected = abs(winding) > .pi
                #expect(
                    polygon.contains(p) == expected,
                    "ring \(ring): \(p.latitude), \(p.longitude) winding \(winding)")
                checked += 1
                if expected { inside += 1 }
            }
        }
        #expect(checked > 2000 && inside > 300)
    }
}
