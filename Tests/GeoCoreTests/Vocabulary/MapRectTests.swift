import Foundation
import GeoCore
import GeoTestSupport
import Testing

@Suite("MapPoint and MapRect")
struct MapRectTests {
    let world = MapSize.world.width

    /// MapKit's documented frame: 2²⁸ map points square, coordinate (0, 0) at the center.
    @Test func worldFrame() {
        #expect(world == 268_435_456)
        let origin = MapPoint(Coordinate(latitude: 0, longitude: 0))
        #expect(origin.x == 134_217_728 && origin.y == 134_217_728)
        let northWest = MapPoint(Coordinate(latitude: WebMercator.maximumLatitude, longitude: -180))
        #expect(abs(northWest.x) < 1e-6 && abs(northWest.y) < 1e-3)
        // Poles clamp to the map's edges rather than running to infinity.
        #expect(
            MapPoint(Coordinate(latitude: 90, longitude: 0)).y
                == MapPoint(Coordinate(latitude: WebMercator.maximumLatitude, longitude: 0)).y)
        #expect(MapRect.world.contains(MapPoint(Coordinate(latitude: 0, longitude: 0))))
        // The clamped latitudes land on the edges, never a rounding step past them.
        #expect(MapPoint(Coordinate(latitude: 90, longitude: 0)).y == 0)
        #expect(MapPoint(Coordinate(latitude: -90, longitude: 0)).y == world)
        #expect(MapRect.world.contains(MapPoint(Coordinate(latitude: 90, longitude: 0))))
        let everything = MapRect(
            CoordinateRegion(
                center: Coordinate(latitude: 0, longitude: 10),
                span: CoordinateSpan(latitudeDelta: 180, longitudeDelta: 360)))
        #expect(everything.minY == 0 && everything.maxY == world)
    }

    /// Points on both sides of the 180th meridian at ±180° exactly fit a rectangle whose west
    /// edge is on the world's first copy.
    @Test func fittingPointsOnTheAntimeridian() throws {
        let rect = try MapRect(fitting: [
            Coordinate(latitude: 10, longitude: 180), Coordinate(latitude: 11, longitude: -180),
        ])
        #expect(rect.minX >= 0 && rect.minX < world)
        #expect(rect.width == 0)
    }

    /// MKMetersPerMapPointAtLatitude(0) is the equatorial circumference over 2²⁸: 0.149291070869 m.
    @Test func metersPerMapPoint() {
        #expect(abs(MapPoint.metersPerMapPoint(atLatitude: 0) - 0.149_291_070_869_485) < 1e-12)
        #expect(abs(MapPoint.metersPerMapPoint(atLatitude: 60) - 0.149_291_070_869_485 / 2) < 1e-12)
        #expect(
            abs(
                MapPoint.mapPointsPerMeter(atLatitude: 0)
                    * MapPoint.metersPerMapPoint(atLatitude: 0) - 1) < 1e-15)
    }

    /// coordinate → map point → coordinate within 1e-9° on seeded random coordinates.
    @Test func roundTrip() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<10_000 {
            let c = Coordinate(latitude: rng.uniform(-85, 85), longitude: rng.uniform(-180, 180))
            let back = MapPoint(c).coordinate
            #expect(
                abs(back.latitude - c.latitude) < 1e-9 && abs(back.longitude - c.longitude) < 1e-9)
        }
    }

    @Test func distanceBetweenMapPoints() {
        let a = Coordinate(latitude: 40.6413, longitude: -73.7781),
            b = Coordinate(latitude: 51.47, longitude: -0.4543)
        #expect(abs(MapPoint(a).distance(to: MapPoint(b)) - a.distance(to: b)) < 1e-3)
    }

    /// Union contains both; intersection is inside both; on seeded random rectangles.
    @Test func unionAndIntersectionProperties() {
        var rng = SplitMix64(seed: 2)
        func randomRect() -> MapRect {
            MapRect(
                x: rng.uniform(0, world), y: rng.uniform(0, world),
                width: rng.uniform(0, world / 4), height: rng.uniform(0, world / 4))
        }
        for _ in 0..<2_000 {
            let a = randomRect(), b = randomRect()
            let union = a.union(b)
            #expect(union.contains(a) && union.contains(b))
            let overlap = a.intersection(b)
            if overlap.isNull {
                #expect(!a.intersects(b))
            } else {
                #expect(a.contains(overlap) && b.contains(overlap))
                #expect(a.intersects(b))
            }
            #expect(a.union(.null) == a && MapRect.null.union(a) == a)
            #expect(a.intersection(.null).isNull)
        }
    }

    @Test func containsIsHalfOpen() {
        let r = MapRect(x: 10, y: 10, width: 10, height: 10)
        #expect(r.contains(MapPoint(x: 10, y: 10)))
        #expect(!r.contains(MapPoint(x: 20, y: 15)))
        #expect(!r.contains(MapPoint(x: 15, y: 20)))
        #expect(!MapRect.null.contains(MapPoint(x: 0, y: 0)))
        // Touching rectangles intersect in a degenerate rectangle.
        let right = MapRect(x: 20, y: 10, width: 5, height: 5)
        #expect(r.intersects(right) && r.intersection(right).width == 0)
    }

    @Test func insetOffsetDivide() {
        let r = MapRect(x: 100, y: 200, width: 50, height: 40)
        #expect(r.insetBy(dx: 5, dy: 10) == MapRect(x: 105, y: 210, width: 40, height: 20))
        #expect(r.insetBy(dx: 30, dy: 0).isNull)
        #expect(r.insetBy(dx: -5, dy: -5) == MapRect(x: 95, y: 195, width: 60, height: 50))
        #expect(r.offsetBy(dx: -100, dy: 1) == MapRect(x: 0, y: 201, width: 50, height: 40))
        let (slice, rest) = r.divided(atDistance: 20, from: .minX)
        #expect(slice == MapRect(x: 100, y: 200, width: 20, height: 40))
        #expect(rest == MapRect(x: 120, y: 200, width: 30, height: 40))
        let (bottom, top) = r.divided(atDistance: 15, from: .maxY)
        #expect(bottom == MapRect(x: 100, y: 225, width: 50, height: 15))
        #expect(top == MapRect(x: 100, y: 200, width: 50, height: 25))
        let (all, none) = r.divided(atDistance: 1_000, from: .maxX)
        #expect(all == r && none.width == 0)
    }

    /// A region across the 180th meridian gives a rectangle past the world's east edge, whose
    /// remainder wraps to the west side.
    @Test func antimeridian() throws {
        let fiji = Coordinate(latitude: -17.7, longitude: 177.4),
            samoa = Coordinate(latitude: -13.8, longitude: -171.8)
        let region = try CoordinateRegion(fitting: [fiji, samoa])
        #expect(abs(region.span.longitudeDelta - 10.8) < 1e-9)
        #expect(
            abs(region.center.longitude - (-177.2)) < 1e-9
                || abs(region.center.longitude - 182.8) < 1e-9)
        let rect = MapRect(region)
        #expect(rect.spans180thMeridian)
        #expect(rect.maxX > world && rect.minX < world)
        let remainder = rect.remainder
        #expect(!remainder.isNull && remainder.minX == 0)
        #expect(abs(remainder.width - (rect.maxX - world)) < 1e-6)
        #expect(MapRect(x: 10, y: 10, width: 10, height: 10).remainder.isNull)
        #expect(!MapRect.world.spans180thMeridian)
        // West of the 180th meridian lies in the rectangle, east of it in the wrapped remainder.
        let westOfLine = Coordinate(latitude: -15, longitude: 178),
            eastOfLine = Coordinate(latitude: -15, longitude: -175)
        #expect(rect.contains(MapPoint(westOfLine)) && !rect.contains(MapPoint(eastOfLine)))
        #expect(
            remainder.contains(MapPoint(eastOfLine)) && !remainder.contains(MapPoint(westOfLine)))
    }

    /// Region → map rect → region gives the same region.
    @Test func regionRoundTrip() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<1_000 {
            let center = Coordinate(
                latitude: rng.uniform(-70, 70), longitude: rng.uniform(-180, 180))
            let region = CoordinateRegion(
                center: center,
                span: CoordinateSpan(
                    latitudeDelta: rng.uniform(0.001, 20), longitudeDelta: rng.uniform(0.001, 60)))
            let back = CoordinateRegion(MapRect(region))
            #expect(abs(back.span.longitudeDelta - region.span.longitudeDelta) < 1e-9)
            #expect(abs(back.span.latitudeDelta - region.span.latitudeDelta) < 1e-9)
            #expect(
                abs(wrappedAngle(back.center.longitude) - wrappedAngle(center.longitude)) < 1e-9)
            #expect(abs(back.center.latitude - center.latitude) < 1e-9)
        }
    }

    private func wrappedAngle(_ degrees: Double) -> Double {
        (degrees + 540).truncatingRemainder(dividingBy: 360) - 180
    }
}
