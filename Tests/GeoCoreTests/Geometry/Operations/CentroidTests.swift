import GeoCore
import Testing

@Suite("Centroid and point on surface")
struct CentroidTests {
    @Test func knownCentroids() throws {
        let rectangle = Geometry.polygon(exterior: [
            Position(x: 0, y: 0), Position(x: 4, y: 0), Position(x: 4, y: 2), Position(x: 0, y: 2),
        ])
        #expect(try rectangle.centroid() == Position(x: 2, y: 1))
        // An L of two unit-area squares' worth: the centroid of areas weighted by area.
        let l = try Geometry(wkt: "POLYGON ((0 0, 2 0, 2 1, 1 1, 1 2, 0 2, 0 0))")
        let c = try #require(try l.centroid())
        #expect(abs(c.x - 5.0 / 6) < 1e-12 && abs(c.y - 5.0 / 6) < 1e-12)
        #expect(try Geometry.polygon([]).centroid() == nil)
    }

    /// The point on surface lies in the interior even where the centroid does not.
    @Test func pointOnSurfaceIsInside() throws {
        let crescent = try Geometry(
            wkt: "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 9, 9 9, 9 1, 0 1, 0 0))")
        let centroid = try #require(try crescent.centroid())
        #expect(!crescent.contains(centroid))
        let inside = try #require(try crescent.pointOnSurface())
        #expect(crescent.contains(inside))
    }
}
