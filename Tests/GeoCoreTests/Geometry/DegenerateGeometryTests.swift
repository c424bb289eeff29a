import Foundation
import Testing

@testable import GeoCore

/// A million identical points, prepared: the prepared predicates answer as for one point.
@Suite("Degenerate geometries")
struct DegenerateGeometryTests {
    @Test func aMillionIdenticalPointsPrepared() throws {
        let spot = Coordinate(latitude: 48.858_37, longitude: 2.294_48)
        let points = Geometry.multiPoint(
            coordinates: [Coordinate](repeating: spot, count: 1_000_000))
        let prepared = try PreparedGeometry(points)
        #expect(try prepared.intersects(Geometry.point(coordinate: spot)))
        #expect(try !prepared.intersects(Geometry.point(x: 2.3, y: 48.86)))
        let box = Geometry.polygon(exterior: [
            Position(x: 2.29, y: 48.85), Position(x: 2.30, y: 48.85), Position(x: 2.30, y: 48.86),
            Position(x: 2.29, y: 48.86), Position(x: 2.29, y: 48.85),
        ])
        #expect(try prepared.isWithin(box))
        #expect(try PreparedGeometry(box).contains(points))
        #expect(try points.envelope().planarArea == 0)
    }
}
