import GeoCore
import GeoTestSupport

/// Seeded random geometries of every type for round-trip properties.
struct GeometryGenerator {
    var rng: SplitMix64
    /// Whether positions get heights (consistently within one geometry).
    var withZ = false

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func number() -> Double {
        switch rng.next() % 6 {
        case 0: return Double(Int(rng.next() % 2001) - 1000)  // integers
        case 1: return rng.uniform(-180, 180)  // full-precision degrees
        case 2: return rng.uniform(-1e-9, 1e-9)  // tiny
        case 3: return rng.uniform(-1e12, 1e12)  // large
        case 4: return (rng.uniform(-1000, 1000) * 1e6).rounded() / 1e6  // six decimals
        default:
            return Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)
                * (rng.next() % 2 == 0 ? 1 : -1)  // any finite
        }
    }

    mutating func position() -> Position {
        Position(x: number(), y: number(), z: withZ ? number() : nil)
    }

    mutating func line(minimum: Int = 2) -> [Position] {
        (0..<(minimum + Int(rng.next() % 5))).map { _ in position() }
    }

    mutating func ring() -> [Position] {
        var ps = line(minimum: 3)
        ps.append(ps[0])
        return ps
    }

    mutating func polygon() -> [[Position]] {
        (0..<(1 + Int(rng.next() % 3))).map { _ in ring() }
    }

    mutating func geometry(depth: Int = 0) -> Geometry {
        let kind = rng.next() % (depth < 2 ? 9 : 8)
        let count = Int(rng.next() % 4)
        switch kind {
        case 0: return .point(position())
        case 1: return .lineString(line())
        case 2: return .polygon(polygon())
        case 3: return .multiPoint((0..<count).map { _ in position() })
        case 4: return .multiLineString((0..<count).map { _ in line() })
        case 5: return .multiPolygon((0..<count).map { _ in polygon() })
        case 6:
            return [
                Geometry.point(nil), .lineString([]), .polygon([]), .multiPolygon([]),
                .geometryCollection([]),
            ][count]
        case 7: return .lineString(line())
        default: return .geometryCollection((0..<count).map { _ in geometry(depth: depth + 1) })
        }
    }

    /// A geometry with consistent dimensions: all positions with heights, or none.
    mutating func next() -> Geometry {
        withZ = rng.next() % 3 == 0
        return geometry()
    }
}
