import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("MapCamera, MapViewport, fitting")
struct MapCameraTests {
    let size = MapSize(width: 600, height: 400)

    /// Zoom 0 over the equator in a 256-point view shows the world: 156 543.03 m per point
    /// (2π · 6 378 137 m / 256), seen through a 30° lens from 256 · 156 543.03 / (2 tan 15°) m.
    @Test func zoomAndDistance() {
        let d = MapCamera.distance(forZoom: 0, atLatitude: 0, viewHeight: 256)
        let expected = 256 * 2 * Double.pi * 6_378_137 / 256 / (2 * tan(15 * Double.pi / 180))
        #expect(abs(d - expected) < 1e-6)
        for zoom in [0.0, 3.5, 12, 19.25] {
            for latitude in [0.0, 45, -70] {
                let camera = MapCamera(
                    centerCoordinate: Coordinate(latitude: latitude, longitude: 10),
                    distance: MapCamera.distance(
                        forZoom: zoom, atLatitude: latitude, viewHeight: 400))
                #expect(abs(camera.zoom(viewHeight: 400) - zoom) < 1e-12)
            }
        }
        // One zoom level in is half the distance.
        #expect(
            abs(
                MapCamera.distance(forZoom: 11, atLatitude: 30, viewHeight: 400) * 2
                    - MapCamera.distance(forZoom: 10, atLatitude: 30, viewHeight: 400)) < 1e-6)
    }

    /// Top-down, the view is the map rectangle of its zoom, centered; view and map points convert
    /// both ways.
    @Test func topDownViewport() throws {
        let center = Coordinate(latitude: 48.8566, longitude: 2.3522)
        let camera = MapCamera(
            centerCoordinate: center,
            distance: MapCamera.distance(forZoom: 12, atLatitude: center.latitude, viewHeight: 400))
        let viewport = camera.viewport(size: size)
        let c = try #require(viewport.point(for: MapPoint(center)))
        #expect(abs(c.x - 300) < 1e-9 && abs(c.y - 200) < 1e-9)
        // At zoom 12 a point is 2^(20-12) = 256 map points.
        #expect(abs(viewport.mapPointsPerPoint - 256) < 1e-9)
        let east = try #require(
            viewport.point(for: MapPoint(x: MapPoint(center).x + 2_560, y: MapPoint(center).y)))
        #expect(abs(east.x - 310) < 1e-9 && abs(east.y - 200) < 1e-9)
        let rect = viewport.visibleMapRect
        #expect(abs(rect.width - 600 * 256) < 1e-6 && abs(rect.height - 400 * 256) < 1e-6)
        // Round trips at random view points.
        var rng = SplitMix64(seed: 1)
        for _ in 0..<100 {
            let x = rng.uniform(0, 600), y = rng.uniform(0, 400)
            let m = try #require(viewport.mapPoint(atViewPoint: x, y))
            let back = try #require(viewport.point(for: m))
            #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6)
        }
    }

    /// A camera over the 180th meridian has its center on the world's first copy, x in [0, 2²⁸),
    /// and still sees both sides.
    @Test func centerOnTheAntimeridian() throws {
        for longitude in [180.0, 540, -180] {
            let camera = MapCamera(
                centerCoordinate: Coordinate(latitude: 10, longitude: longitude),
                distance: MapCamera.distance(forZoom: 6, atLatitude: 10, viewHeight: 400))
            let viewport = camera.viewport(size: size)
            #expect(viewport.center.x >= 0 && viewport.center.x < MapSize.world.width)
            let west = try #require(
                viewport.point(for: MapPoint(Coordinate(latitude: 10, longitude: 179.5))))
            let east = try #require(
                viewport.point(for: MapPoint(Coordinate(latitude: 10, longitude: -179.5))))
            #expect(west.x < 300 && east.x > 300 && abs(west.x + east.x - 600) < 1e-6)
        }
    }

    /// A heading turns the view: heading 90 puts east at the top. A pitch makes the footprint a
    /// trapezoid, wider at the top (far) edge; view points still round-trip.
    @Test func headingAndPitch() throws {
        let center = Coordinate(latitude: 10, longitude: 20)
        let base = MapCamera(centerCoordinate: center, distance: 10_000)
        var turned = base
        turned.heading = 90
        let viewport = turned.viewport(size: size)
        let east = try #require(
            viewport.point(for: MapPoint(x: MapPoint(center).x + 1_000, y: MapPoint(center).y)))
        #expect(abs(east.x - 300) < 1e-6 && east.y < 200)
        var pitched = base
        pitched.pitch = 45
        let tilted = pitched.viewport(size: size)
        let corners = tilted.footprint
        try #require(corners.count == 4)
        let topWidth = corners[1].x - corners[0].x, bottomWidth = corners[2].x - corners[3].x
        #expect(topWidth > bottomWidth * 1.2)
        // Far (top) edge farther from the center than the near (bottom) edge.
        let c = MapPoint(center)
        #expect(c.y - corners[0].y > corners[3].y - c.y)
        var rng = SplitMix64(seed: 2)
        for _ in 0..<100 {
            let x = rng.uniform(0, 600), y = rng.uniform(0, 400)
            let m = try #require(tilted.mapPoint(atViewPoint: x, y))
            let back = try #require(tilted.point(for: m))
            #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6)
        }
        // Pitch is clamped, so the top of the view still sees the map.
        pitched.pitch = 89
        #expect(pitched.viewport(size: size).footprint.count == 4)
    }

    /// Fitted content lies inside the padded view and touches at least one padded edge; Fiji and
    /// Samoa fit a narrow view across the 180th meridian.
    @Test(arguments: [0.0, 30, 90])
    func fittingCoordinates(heading: Double) throws {
        let padding = MapEdgePadding(top: 10, left: 30, bottom: 50, right: 20)
        let sets: [[Coordinate]] = [
            [
                Coordinate(latitude: -17.7, longitude: 177.4),
                Coordinate(latitude: -13.8, longitude: -171.8),
                Coordinate(latitude: -18.1, longitude: 178.4),
            ],
            [
                Coordinate(latitude: 48.85, longitude: 2.35),
                Coordinate(latitude: 51.5, longitude: -0.12),
            ],
            [Coordinate(latitude: 84, longitude: 10), Coordinate(latitude: 80, longitude: 60)],
            [Coordinate(latitude: 40, longitude: -100)],
        ]
        for coordinates in sets {
            let camera = try MapCamera(
                fitting: coordinates, viewSize: size, edgePadding: padding, heading: heading)
            let viewport = camera.viewport(size: size)
            var touches = false
            for c in coordinates {
                let p = try #require(viewport.point(for: MapPoint(c)))
                #expect(p.x >= 30 - 1e-6 && p.x <= 580 + 1e-6, "\(c) at \(p)")
                #expect(p.y >= 10 - 1e-6 && p.y <= 350 + 1e-6, "\(c) at \(p)")
                if abs(p.x - 30) < 1e-6 || abs(p.x - 580) < 1e-6 || abs(p.y - 10) < 1e-6
                    || abs(p.y - 350) < 1e-6
                {
                    touches = true
                }
            }
            #expect(touches || coordinates.count == 1)
            if heading == 0 && coordinates.count == 3 {
                #expect(viewport.visibleRegion.span.longitudeDelta < 30)
            }
        }
        #expect(throws: GeoError.self) {
            try MapCamera(fitting: [Coordinate](), viewSize: size)
        }
        #expect(throws: GeoError.self) {
            try MapCamera(
                fitting: MapRect.world, viewSize: size, edgePadding: MapEdgePadding(all: 300))
        }
    }

    /// Camera → visible region → camera gives the camera back.
    @Test func roundTripThroughTheRegion() throws {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<50 {
            let camera = MapCamera(
                centerCoordinate: Coordinate(
                    latitude: rng.uniform(-60, 60), longitude: rng.uniform(-180, 180)),
                distance: exp(rng.uniform(log(500), log(1_000_000))))
            let region = camera.viewport(size: size).visibleRegion
            let again = try MapCamera(fitting: region, viewSize: size)
            let a = MapPoint(camera.centerCoordinate), b = MapPoint(again.centerCoordinate)
            var dx = abs(a.x - b.x)
            dx = min(dx, MapSize.world.width - dx)
            #expect(dx < 1e-3 && abs(a.y - b.y) < 1e-3)
            #expect(abs(again.distance / camera.distance - 1) < 1e-9)
        }
    }

    /// `mapRectThatFits`: the view's aspect ratio, holding the rectangle inside the padding.
    @Test func rectThatFits() {
        let rect = MapRect(x: 1_000, y: 2_000, width: 500, height: 100)
        let fitted = rect.fitted(to: size, edgePadding: MapEdgePadding(all: 20))
        #expect(abs(fitted.width / fitted.height - 1.5) < 1e-12)
        let scale = fitted.width / 600
        #expect(
            fitted.minX <= rect.minX - 20 * scale + 1e-9
                && fitted.maxX >= rect.maxX + 20 * scale - 1e-9)
        #expect(fitted.minY <= rect.minY && fitted.maxY >= rect.maxY)
        #expect(abs(fitted.midX - rect.midX) < 1e-9)
        #expect(MapRect.null.fitted(to: size).isNull)
        let auto = MapCameraPosition.automatic
        let world = try? auto.camera(viewSize: size)
        #expect(world != nil)
    }
}
