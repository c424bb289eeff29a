import GeoCore
import Testing

@Suite("Geometry values")
struct GeometryTests {
    @Test func inspection() throws {
        let g = try Geometry(
            wkt:
                "GEOMETRYCOLLECTION (POINT Z (1 2 3), POLYGON ((0 0, 4 0, 4 3, 0 0)), LINESTRING EMPTY)"
        )
        #expect(g.type == .geometryCollection && g.type.geoJSONName == "GeometryCollection")
        #expect(g.positionCount == 5)
        #expect(!g.hasZ && !g.isEmpty)
        #expect(g.bounds == ProjectedBounds(minX: 0, minY: 0, maxX: 4, maxY: 3))
        #expect(g.parts.count == 3)
        #expect(g.planarArea == 6 && g.planarLength == 12)
        #expect(g.droppingZ.positions.allSatisfy { $0.z == nil })
        #expect(g.mapPositions { Position(x: $0.x + 1, y: $0.y) }.bounds?.minX == 1)
        #expect(
            Geometry.point(nil).isEmpty && Geometry.polygon([[]]).isEmpty
                && Geometry.point(nil).bounds == nil)
        #expect(
            Geometry.polygon(exterior: [
                Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1),
            ])
                == .polygon([
                    [
                        Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1),
                        Position(x: 0, y: 0),
                    ]
                ]))
        #expect(
            Geometry.point(coordinate: Coordinate(latitude: 10, longitude: 20))
                == .point(x: 20, y: 10))
        #expect(
            Geometry.multiPoint(coordinates: [Coordinate(latitude: 1, longitude: 2)])
                == .multiPoint([Position(x: 2, y: 1)]))
        #expect("\(Geometry.point(x: 1, y: 2))" == "POINT (1 2)")
    }

    /// Operations reject geometries built in code that cannot exist in GEOS, naming the part.
    /// Repairs and hulls read structure leniently: a ring of three positions (which validate
    /// reports as "Too few points") collapses to its line, as GEOS and shapely make it; an unclosed
    /// ring has a hull.
    @Test func repairsReadLeniently() throws {
        let sliver = try Geometry(wkt: "POLYGON ((0 0, 1 1, 0 0))")
        #expect(try sliver.validity().reason?.hasPrefix("Too few points") == true)
        #expect(try sliver.makeValid(keepCollapsed: true).wkt == "LINESTRING (0 0, 1 1)")
        // The linework repair keeps what collapsed (as GEOS and shapely do); leaving it out keeps
        // the input's own dimension, collections flattened, and an empty one of its kind.
        #expect(try sliver.makeValid().keepingParts(ofDimensionOf: sliver).wkt == "POLYGON EMPTY")
        let flat = try Geometry(wkt: "POLYGON ((0 0, 10 0, 5 0, 0 0))")
        #expect(try flat.makeValid().wkt == "MULTILINESTRING ((0 0, 5 0), (5 0, 10 0))")
        #expect(try flat.makeValid().keepingParts(ofDimensionOf: flat).wkt == "POLYGON EMPTY")
        let pinHole = try Geometry(
            wkt: "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 1 1, 1 1, 1 1))")
        #expect(try pinHole.makeValid().type == .geometryCollection)
        #expect(
            try pinHole.makeValid().keepingParts(ofDimensionOf: pinHole).wkt
                == "POLYGON ((0 10, 10 10, 10 0, 0 0, 0 10))")
        let bowtie = try Geometry(wkt: "POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")
        #expect(try bowtie.makeValid().keepingParts(ofDimensionOf: bowtie) == bowtie.makeValid())
        let dot = try Geometry(wkt: "LINESTRING (1 1, 1 1)")
        #expect(try dot.makeValid().keepingParts(ofDimensionOf: dot).wkt == "LINESTRING EMPTY")
        let mixed = try Geometry(wkt: "GEOMETRYCOLLECTION (LINESTRING (0 0, 1 1), POINT (5 5))")
        #expect(mixed.keepingParts(ofDimensionOf: mixed).wkt == "LINESTRING (0 0, 1 1)")
        #expect(try sliver.convexHull().wkt == "LINESTRING (0 0, 1 1)")
        let open = Geometry.polygon([
            [
                Position(x: 0, y: 0), Position(x: 2, y: 0), Position(x: 2, y: 2),
                Position(x: 0, y: 2),
            ]
        ])
        #expect(try open.convexHull().planarArea == 4)
        #expect(try open.concaveHull(ratio: 1).planarArea == 4)
        #expect(try Geometry.polygon([[Position(x: 3, y: 4)]]).convexHull().wkt == "POINT (3 4)")
    }

    @Test func malformedGeometriesAreRejectedWithTheirPlace() {
        do {
            _ = try Geometry.multiPolygon([
                [
                    [
                        Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1),
                        Position(x: 0, y: 0),
                    ]
                ],
                [
                    [
                        Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1),
                        Position(x: 0, y: 1),
                    ]
                ],
            ]).buffer(distance: 1)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(
                error.message.contains("polygon 1") && error.message.contains("not closed"),
                "\(error.message)")
        }
        do {
            _ = try Geometry.lineString([Position(x: 0, y: 0), Position(x: .nan, y: 1)])
                .convexHull()
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .invalidCoordinate)
            #expect(error.message.contains("position 1"), "\(error.message)")
        }
    }
}
