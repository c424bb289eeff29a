import Foundation
import GeoCore
import Testing

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
}
