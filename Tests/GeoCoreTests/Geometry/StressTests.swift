import GeoCore
import GeoTestSupport
import Testing

/// Many tasks share one transformer, one prepared geometry and the GEOS context pool; every result
/// must equal the one computed alone. Run under the thread sanitizer with
/// `swift test --sanitize=thread --filter Stress`.
@Suite("Stress: concurrent use of PROJ and GEOS")
struct StressTests {
    @Test func sharedTransformerPreparedGeometryAndGEOSPool() async throws {
        let transformer = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:32633")
        let polygon = PreparedGeometryTests.star(vertices: 300, seed: 5)
        let prepared = try PreparedGeometry(polygon)
        var rng = SplitMix64(seed: 99)
        let points = (0..<300).map { _ in
            Position(x: rng.uniform(-100, 100), y: rng.uniform(-80, 80))
        }
        let lonLat = points.map { Position(x: $0.x / 10 + 15, y: $0.y / 2 + 45) }
        // Reference answers, computed alone.
        var transformed = lonLat
        #expect(try transformer.transform(&transformed).isEmpty)
        let expectedBatch = transformed
        let expectedInside = try prepared.contains(points)
        let square = OverlayTests.rectangle(0, 0, 10, 10)
        let expectedArea = try square.buffer(distance: 2).planarArea
        let expectedIntersection = try square.intersection(polygon).planarArea

        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<24 {
                group.addTask {
                    for round in 0..<6 {
                        let i = (task * 7 + round * 13) % points.count
                        #expect(try transformer.transform(lonLat[i]) == expectedBatch[i])
                        var batch = lonLat
                        #expect(try transformer.transform(&batch).isEmpty)
                        #expect(batch == expectedBatch)
                        #expect(try prepared.contains(points) == expectedInside)
                        #expect(try prepared.contains(points[i]) == expectedInside[i])
                        #expect(try square.buffer(distance: 2).planarArea == expectedArea)
                        #expect(try square.intersection(polygon).planarArea == expectedIntersection)
                        #expect(try Geometry(wkt: square.wkt) == square)
                        if round == 0 {
                            // Contexts are also created concurrently.
                            let own = try CoordinateTransformer(
                                source: "EPSG:4326", target: "EPSG:3857",
                                configuration: .init(parallelism: 1))
                            #expect(abs(try own.transform(Position(x: 0, y: 0)).x) < 1e-9)
                            _ = try PreparedGeometry(square, parallelism: 1).contains(
                                Position(x: 1, y: 1))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
