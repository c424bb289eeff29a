import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("Planar buffer")
struct BufferTests {
    /// A point's buffer is a regular polygon of 4 × quadrant segments sides inscribed in the circle:
    /// area n/2 · r² · sin(2π/n).
    @Test func pointBufferIsARegularPolygon() throws {
        for (segments, radius) in [(8, 10.0), (2, 1.0), (32, 250.0)] {
            let disc = try Geometry.point(x: 5, y: -3).buffer(
                distance: radius, style: BufferStyle(quadrantSegments: segments))
            let n = Double(4 * segments)
            let expected = n / 2 * radius * radius * sin(2 * .pi / n)
            #expect(abs(disc.planarArea - expected) < 1e-9 * expected)
            for p in disc.positions {
                #expect(
                    abs(((p.x - 5) * (p.x - 5) + (p.y + 3) * (p.y + 3)).squareRoot() - radius)
                        < 1e-9 * radius)
            }
        }
    }

    @Test func capsAndJoins() throws {
        let line = Geometry.lineString([Position(x: 0, y: 0), Position(x: 10, y: 0)])
        #expect(
            abs(try line.buffer(distance: 1, style: BufferStyle(endCap: .flat)).planarArea - 20)
                < 1e-9)
        #expect(
            abs(try line.buffer(distance: 1, style: BufferStyle(endCap: .square)).planarArea - 24)
                < 1e-9)
        let square = Geometry.polygon(exterior: [
            Position(x: 0, y: 0), Position(x: 10, y: 0), Position(x: 10, y: 10),
            Position(x: 0, y: 10),
        ])
        #expect(
            abs(try square.buffer(distance: 1, style: BufferStyle(join: .mitre)).planarArea - 144)
                < 1e-9)
        #expect(abs(try square.buffer(distance: -1).planarArea - 64) < 1e-9)
        #expect(try square.buffer(distance: -6).isEmpty)
        let left = try line.buffer(
            distance: 2, style: BufferStyle(endCap: .flat, singleSided: true))
        #expect(abs(left.planarArea - 20) < 1e-9 && (left.bounds?.minY ?? -1) >= 0)
    }

    @Test func argumentsAreChecked() {
        let p = Geometry.point(x: 0, y: 0)
        #expect(throws: GeoError.self) { try p.buffer(distance: .infinity) }
        #expect(throws: GeoError.self) {
            try p.buffer(distance: 1, style: BufferStyle(quadrantSegments: 0))
        }
        #expect(throws: GeoError.self) {
            try p.buffer(distance: 1, style: BufferStyle(mitreLimit: -1))
        }
        #expect(throws: GeoError.self) { try Geometry.point(x: .nan, y: 0).buffer(distance: 1) }
        #expect(throws: GeoError.self) {
            try Geometry.lineString([Position(x: 0, y: 0)]).buffer(distance: 1)
        }
    }

    /// A multi-part geometry's buffer, the union of its parts' buffers, is the region GEOS gives
    /// for the whole at once (seeded disjoint parts whose buffers overlap or not, both signs).
    @Test func multiPartBufferIsTheUnionOfItsParts() throws {
        var rng = SplitMix64(seed: 12)
        for k in 0..<20 {
            var polygons = [[[Position]]]()
            for i in 0..<(2 + k % 5) {
                let x = Double(i) * 3 + rng.uniform(0, 0.5), y = rng.uniform(0, 2)
                let w = rng.uniform(0.5, 2), h = rng.uniform(0.5, 2)
                polygons.append([
                    [
                        Position(x: x, y: y), Position(x: x + w, y: y),
                        Position(x: x + w, y: y + h), Position(x: x, y: y + h),
                        Position(x: x, y: y),
                    ]
                ])
            }
            let whole = Geometry.multiPolygon(polygons)
            for distance in [0.3, 1.2, -0.1] {
                let ours = try whole.buffer(distance: distance)
                // GEOS's buffer of the whole, noding every part's curves together.
                let reference = try whole.wholeBuffer(distance: distance, style: BufferStyle())
                #expect(reference.planarArea > 0)
                #expect(
                    abs(ours.planarArea - reference.planarArea) < 1e-9 * reference.planarArea,
                    "set \(k) d \(distance)")
                #expect(try ours.symmetricDifference(reference).planarArea < 1e-9)
            }
        }
    }

    /// A valid polygon with many holes is buffered hole by hole (GEOS alone is quadratic in the
    /// number of holes): on seeded polygons with holes of random shapes and sizes (some eroded
    /// away, some split in two by the erosion, a shell whose buffer closes a bay into a hole of
    /// its own), every join style, the region equals GEOS's buffer of the whole, and is valid.
    @Test func manyHolesBufferLikeTheWhole() throws {
        var rng = SplitMix64(seed: 31)
        for k in 0..<12 {
            // A "C" shell whose arms come within 0.4 of each other, so a buffer beyond 0.2
            // closes the bay between them.
            var rings: [[Position]] = [
                [
                    (0.0, 0.0), (20, 0), (20, 20), (0, 20), (0, 10.2), (12, 10.2), (12, 9.8),
                    (0, 9.8),
                    (0, 0),
                ].map { Position(x: $0.0, y: $0.1) }
            ]
            for row in 0..<6 {
                for column in 0..<6 {
                    let cx = 1.5 + Double(column) * 3, cy = 1.2 + Double(row) * 1.4
                    guard cy < 9 || cy > 11 else { continue }
                    if k % 2 == 0 {
                        // A dumbbell: two squares joined by a narrow neck that an erosion cuts.
                        let w = rng.uniform(0.3, 0.5), neck = rng.uniform(0.05, 0.15)
                        rings.append(
                            [
                                (cx - 1.2, cy - w), (cx - 0.4, cy - w), (cx - 0.4, cy - neck),
                                (cx + 0.4, cy - neck), (cx + 0.4, cy - w), (cx + 1.2, cy - w),
                                (cx + 1.2, cy + w), (cx + 0.4, cy + w), (cx + 0.4, cy + neck),
                                (cx - 0.4, cy + neck), (cx - 0.4, cy + w), (cx - 1.2, cy + w),
                                (cx - 1.2, cy - w),
                            ].map { Position(x: $0.0, y: $0.1) })
                    } else {
                        let n = 5 + Int(rng.next() % 9)
                        var ring = (0..<n).map { i in
                            let a = 2 * Double.pi * Double(i) / Double(n)
                            let r = rng.uniform(0.2, 0.6)
                            return Position(x: cx + r * cos(a), y: cy + r * sin(a))
                        }
                        ring.append(ring[0])
                        rings.append(ring)
                    }
                }
            }
            let polygon = Geometry.polygon(rings)
            #expect(try polygon.isValid(), "set \(k)")
            #expect(rings.count - 1 > Geometry.holesBufferedApart)
            for join in [BufferStyle.Join.round, .mitre, .bevel] {
                let style = BufferStyle(join: join)
                for distance in [0.05, 0.12, 0.3] {
                    let ours = try polygon.buffer(distance: distance, style: style)
                    let reference = try polygon.wholeBuffer(distance: distance, style: style)
                    #expect(try ours.isValid(), "set \(k) \(join) d \(distance)")
                    #expect(
                        try ours.symmetricDifference(reference).planarArea
                            < 1e-9 * reference.planarArea, "set \(k) \(join) d \(distance)")
                }
            }
        }
    }

    /// Piles of equal or overlapping parts (points, lines, polygons) buffer in linear time and
    /// memory: GEOS alone, noding every part's curve against every other, took 20 GB for 2,000
    /// equal points.
    @Test func pilesBufferInLinearTime() throws {
        let point = Position(x: 1, y: 2)
        let pile = try Geometry.multiPoint(Array(repeating: point, count: 20_000)).buffer(
            distance: 1)
        #expect(pile == (try Geometry.point(point).buffer(distance: 1)))
        var rng = SplitMix64(seed: 13)
        let jittered = Geometry.multiPoint(
            (0..<5_000).map { _ in
                Position(x: 1 + rng.uniform(0, 1e-6), y: 2 + rng.uniform(0, 1e-6))
            })
        let disc = try jittered.buffer(distance: 1)
        // About the disc of one point: 32 sides inscribed in the unit circle.
        #expect(abs(disc.planarArea - 16 * sin(2 * Double.pi / 32)) < 1e-4)
        let triangle: [[Position]] = [
            [
                Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1),
                Position(x: 0, y: 0),
            ]
        ]
        let triangles = Geometry.multiPolygon(Array(repeating: triangle, count: 5_000))
        #expect(
            try triangles.buffer(distance: 0.1)
                == (try Geometry.polygon(triangle).buffer(distance: 0.1)))
        #expect(try triangles.makeValid() == .polygon(triangle))
    }
}
