import GeoCore
import GeoTestSupport
import Testing

@Suite("Exact point location")
struct PointLocationTests {
    /// Pure-Swift location agrees with GEOS's relate on random points, including points exactly on
    /// edges and vertices.
    @Test func agreesWithGEOS() throws {
        let polygon = try Geometry(
            wkt:
                "MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 8, 8 8, 8 2, 2 2)), ((20 0, 30 0, 25 8, 20 0)))"
        )
        let lines = try Geometry(
            wkt: "MULTILINESTRING ((0 0, 5 5, 10 0), (10 0, 10 10), (20 20, 25 25, 20 30, 20 20))")
        var rng = SplitMix64(seed: 12)
        var probes = [Position]()
        for _ in 0..<300 { probes.append(Position(x: rng.uniform(-2, 32), y: rng.uniform(-2, 32))) }
        for _ in 0..<100 {
            probes.append(Position(x: Double(rng.next() % 34) - 2, y: Double(rng.next() % 34) - 2))
        }  // grid: many on edges
        probes += [
            Position(x: 10, y: 0), Position(x: 5, y: 5), Position(x: 20, y: 20),
            Position(x: 25, y: 4), Position(x: 22.5, y: 4),
        ]
        for geometry in [polygon, lines] {
            for p in probes {
                let m = try Geometry.point(p).relate(geometry).matrix
                let expected: PointLocation =
                    m.first != "F" ? .interior : Array(m)[1] != "F" ? .boundary : .exterior
                #expect(geometry.locate(p) == expected, "\(p) in \(geometry.type): matrix \(m)")
            }
        }
        // shared by two line ends (mod-2)
        #expect(lines.locate(Position(x: 10, y: 0)) == .interior)
        #expect(lines.locate(Position(x: 0, y: 0)) == .boundary)
        #expect(lines.locate(Position(x: 20, y: 20)) == .interior)  // closed line has no boundary
        #expect(
            polygon.contains(Position(x: 1, y: 1)) && !polygon.contains(Position(x: 5, y: 5))
                && polygon.covers(Position(x: 2, y: 5)))
        #expect(polygon.contains(Coordinate(latitude: 1, longitude: 1)))
    }
}
