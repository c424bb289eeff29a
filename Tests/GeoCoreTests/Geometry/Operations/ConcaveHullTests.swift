import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("Concave hull")
struct ConcaveHullTests {
    /// Points filling a "C": its concave hull must be much smaller than its convex hull and still
    /// cover every point.
    @Test func followsTheShapeAndCoversEveryPoint() throws {
        var rng = SplitMix64(seed: 3)
        var points = [Position]()
        while points.count < 600 {
            let p = Position(x: rng.uniform(0, 100), y: rng.uniform(0, 100))
            let inGap = p.x > 30 && p.y > 30 && p.y < 70
            if !inGap { points.append(p) }
        }
        let cloud = Geometry.multiPoint(points)
        let convex = try cloud.convexHull()
        let concave = try cloud.concaveHull(ratio: 0.1)
        #expect(concave.type == .polygon)
        #expect(try concave.isValid())
        #expect(concave.planarArea < 0.85 * convex.planarArea)
        #expect(try PreparedGeometry(concave).covers(points).allSatisfy { $0 })
        // Ratio 1 is the convex hull.
        #expect(try cloud.concaveHull(ratio: 1) == convex)
        // Smaller ratios never grow the hull.
        #expect(try cloud.concaveHull(ratio: 0.05).planarArea <= concave.planarArea + 1e-9)
    }

    /// Ratio 1 is the convex hull on seeded point sets, where GEOS 3.11.1's own hull at ratio 1
    /// cuts into it for a few; every smaller ratio stays inside it and covers the points.
    @Test func ratioOneIsTheConvexHull() throws {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<200 {
            let points = (0..<(3 + Int(rng.next() % 38))).map { _ in
                Position(x: rng.uniform(0, 10), y: rng.uniform(0, 10))
            }
            let cloud = Geometry.multiPoint(points)
            let convex = try cloud.convexHull()
            #expect(try cloud.concaveHull(ratio: 1) == convex)
            let near = try cloud.concaveHull(ratio: 0.999)
            #expect(near.planarArea <= convex.planarArea * (1 + 1e-12))
            #expect(try PreparedGeometry(near).covers(points).allSatisfy { $0 })
        }
    }

    /// GEOS 3.11.1 erodes a triangle whose loss leaves a point outside for some sets (four
    /// points near 61° N at ratio 0 lose the one at 90.7° E); the hull then falls back to the
    /// convex hull. Every ratio, on seeded sets of few points spread wide, covers every point.
    @Test func coversEveryPointWhereGEOSLeavesOneOut() throws {
        let four = try Geometry(
            wkt:
                "MULTIPOINT ((-179.761531820937 61.33644577548329), (-89.16447879148025 60.87276511210066), (0.32781798133746154 61.169441444014566), (90.72600170766633 61.33929704902048))"
        )
        for ratio in [0, 0.3] {
            let hull = try four.concaveHull(ratio: ratio)
            #expect(try PreparedGeometry(hull).covers(four.positions).allSatisfy { $0 })
            #expect(hull == (try four.convexHull()), "ratio \(ratio)")
        }
        var rng = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let points = (0..<(4 + Int(rng.next() % 6))).map { _ in
                Position(x: rng.uniform(-180, 180), y: rng.uniform(-80, 80))
            }
            let cloud = Geometry.multiPoint(points)
            for ratio in [0, 0.1, 0.5] {
                let hull = try cloud.concaveHull(ratio: ratio)
                #expect(try PreparedGeometry(hull).covers(points).allSatisfy { $0 })
            }
        }
    }

    /// Positions on one line, or all round a circle, have their convex hull as concave hull
    /// (no border triangle can go without cutting off a corner), at every ratio, with holes or
    /// not; they are answered without GEOS's triangulation, which is quadratic on them (64,000
    /// points round a circle took 13 s). One point inside the circle is no longer degenerate:
    /// its hull still covers every point.
    @Test func degenerateInputIsTheConvexHull() throws {
        let n = 64_000
        let line = Geometry.multiPoint(
            (0..<n).map { Position(x: Double($0) * 0.5, y: 3 + Double($0) * 0.25) })
        let circle = Geometry.multiPoint(
            (0..<n).map { i in
                let a = 2 * Double.pi * Double(i) / Double(n)
                return Position(x: 100 * cos(a), y: 100 * sin(a))
            })
        for cloud in [line, circle] {
            let convex = try cloud.convexHull()
            for ratio in [0, 0.3] {
                for holes in [false, true] {
                    #expect(try cloud.concaveHull(ratio: ratio, allowHoles: holes) == convex)
                }
            }
        }
        #expect(try line.concaveHull().type == .lineString)
        // What the shortcut answers is what GEOS itself answers, where it is quick enough to ask:
        // points round a circle, on an ellipse and on a line, every ratio, holes or not.
        for count in [5, 12, 64, 300] {
            let round = Geometry.multiPoint(
                (0..<count).map { i in
                    let a = 2 * Double.pi * Double(i) / Double(count)
                    return Position(x: 3 * cos(a), y: 2 * sin(a))
                })
            let straight = Geometry.multiPoint(
                (0..<count).map { Position(x: Double($0), y: 2 * Double($0)) })
            for cloud in [round, straight] {
                for ratio in [0, 0.2, 0.6] {
                    for holes in [false, true] {
                        let ours = try cloud.concaveHull(ratio: ratio, allowHoles: holes)
                        let geos = try cloud.geosConcaveHull(ratio: ratio, allowHoles: holes)
                        #expect(
                            ours.type == geos.type
                                && abs(ours.planarArea - geos.planarArea) <= 1e-12
                                    * max(1, geos.planarArea)
                                && (ours.type != .lineString
                                    || ours.planarLength == geos.planarLength),
                            "\(count) \(ratio) \(holes): \(geos.wkt)")
                    }
                }
            }
        }
        guard case .multiPoint(var points) = circle else { return }
        points = Array(points.prefix(400)) + [Position(x: 10, y: 10)]
        let withCenter = Geometry.multiPoint(points)
        let hull = try withCenter.concaveHull(ratio: 0)
        #expect(try PreparedGeometry(hull).covers(points).allSatisfy { $0 })
    }

    @Test func holesOnlyWhenAllowed() throws {
        var points = [Position]()
        for i in 0..<40 {
            for j in 0..<40 where !(10..<30).contains(i) || !(10..<30).contains(j) {
                points.append(Position(x: Double(i), y: Double(j)))
            }
        }
        let cloud = Geometry.multiPoint(points)
        if case .polygon(let rings) = try cloud.concaveHull(ratio: 0.1, allowHoles: true) {
            #expect(rings.count == 2)
        } else {
            Issue.record("not a polygon")
        }
        if case .polygon(let rings) = try cloud.concaveHull(ratio: 0.1, allowHoles: false) {
            #expect(rings.count == 1)
        } else {
            Issue.record("not a polygon")
        }
    }

    @Test func ratioIsChecked() {
        #expect(throws: GeoError.self) {
            try Geometry.multiPoint([Position(x: 0, y: 0)]).concaveHull(ratio: 1.5)
        }
        #expect(throws: GeoError.self) {
            try Geometry.multiPoint([Position(x: 0, y: 0)]).concaveHull(ratio: -0.1)
        }
    }
}
