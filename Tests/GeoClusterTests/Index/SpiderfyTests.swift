import Foundation
import GeoCluster
import GeoCore
import Testing

@Suite("Spiderfy")
struct SpiderfyTests {
    @Test func spiderfyLayoutSpacing() {
        let layout = SpiderfyLayout()
        let circle = layout.offsets(count: 6)
        for (a, b) in zip(circle, circle.dropFirst() + [circle[0]]) {
            #expect(
                abs(
                    hypot(a.x - b.x, a.y - b.y)
                        - hypot(circle[0].x - circle[1].x, circle[0].y - circle[1].y)) < 1e-9)
        }
        let spiral = layout.offsets(count: 50)
        for (a, b) in zip(spiral, spiral.dropFirst()) {
            #expect(hypot(b.x - a.x, b.y - a.y) > layout.spiralSpacing * 0.8)
        }
        #expect(Set(spiral.map { "\($0.x),\($0.y)" }).count == 50)
    }

    /// Legs keep leaves order, start from the cluster's center and sit at the layout's offsets in
    /// screen points at the given zoom.
    @Test func legsSitAtTheLayoutOffsets() throws {
        let spot = Coordinate(latitude: -33.8688, longitude: 151.2093)
        let index = try ClusterIndex(Array(repeating: spot, count: 12))
        let cluster = try #require(index.clusters(in: BoundingBox.world, zoom: 3).first?.cluster)
        let layout = SpiderfyLayout()
        let zoom = 18.0
        let legs = try index.spiderfy(cluster.id, zoom: zoom, layout: layout)
        #expect(
            legs.map(\.point.index) == (try index.leaves(of: cluster.id, limit: .max)).map(\.index))
        let scale = 256 * exp2(zoom)
        func pixels(_ c: Coordinate) -> (Double, Double) {
            let s = sin(c.latitude * .pi / 180)
            return (
                (c.longitude / 360 + 0.5) * scale,
                (0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi) * scale
            )
        }
        let center = pixels(cluster.coordinate)
        for (leg, offset) in zip(legs, layout.offsets(count: 12)) {
            let p = pixels(leg.coordinate)
            #expect(abs(p.0 - center.0 - offset.x) < 1e-6)
            #expect(abs(p.1 - center.1 - offset.y) < 1e-6)
        }
        #expect(throws: GeoError.self) { try index.spiderfy(cluster.id, zoom: .nan) }
    }
}
