import Foundation
import GeoCore
import GeoTestSupport
import Testing

@Suite("WKB and EWKB reading and writing")
struct WKBTests {
    /// `POINT (1 2)` as GEOS and PostGIS write it (`ST_AsBinary(ST_Point(1, 2))`).
    @Test func knownEncodings() throws {
        let point = Geometry.point(x: 1, y: 2)
        #expect(point.wkbHex() == "0101000000000000000000F03F0000000000000040")
        #expect(point.wkbHex(byteOrder: .bigEndian) == "00000000013FF00000000000004000000000000000")
        #expect(try Geometry(wkbHex: "0101000000000000000000F03F0000000000000040") == point)
        // PostGIS: ST_AsEWKB('SRID=4326;POINT(1 2)') = 0101000020E6100000000000000000F03F0000000000000040
        let ewkb = point.ewkb(srid: 4326)
        #expect(Self.hex(ewkb) == "0101000020E6100000000000000000F03F0000000000000040")
        let parsed = try Geometry.parsingEWKB(ewkb)
        #expect(parsed.geometry == point && parsed.srid == 4326)
        // ISO Z (type 1001) and EWKB Z (flag 0x80000000) read the same.
        let z = Geometry.point(Position(x: 1, y: 2, z: 3))
        #expect(try Geometry(wkb: z.wkb()) == z)
        #expect(try Geometry(wkb: z.ewkb(srid: nil)) == z)
        #expect(Array(z.wkb()[1...4]) == [0xE9, 0x03, 0, 0])  // 1001
        // POINT EMPTY is NaN NaN.
        #expect(try Geometry(wkb: Geometry.point(nil).wkb()) == .point(nil))
    }

    /// ISO WKB with M (type 2001) and ZM (3001): measures are dropped.
    @Test func measuresAreDropped() throws {
        var bytes: [UInt8] = [1, 0xD1, 0x07, 0, 0]  // 2001 little-endian
        for v in [1.0, 2.0, 9.0] {
            bytes += withUnsafeBytes(of: v.bitPattern.littleEndian, Array.init)
        }
        #expect(try Geometry(wkb: bytes) == .point(x: 1, y: 2))
        var zm: [UInt8] = [1, 0xB9, 0x0B, 0, 0]  // 3001
        for v in [1.0, 2.0, 3.0, 9.0] {
            zm += withUnsafeBytes(of: v.bitPattern.littleEndian, Array.init)
        }
        #expect(try Geometry(wkb: zm) == .point(Position(x: 1, y: 2, z: 3)))
    }

    @Test func roundTripProperty() throws {
        var generator = GeometryGenerator(seed: 77)
        for i in 0..<1_500 {
            let geometry = generator.next()
            let order: WKBByteOrder = i % 2 == 0 ? .littleEndian : .bigEndian
            #expect(
                try Geometry(wkb: geometry.wkb(byteOrder: order)) == geometry, "\(geometry.wkt)")
            let ewkb = try Geometry.parsingEWKB(geometry.ewkb(srid: Int32(i), byteOrder: order))
            #expect(ewkb.geometry == geometry && ewkb.srid == Int32(i))
            #expect(try Geometry(wkbHex: geometry.wkbHex(byteOrder: order)) == geometry)
        }
    }

    @Test func malformedInputNamesTheByteOffset() throws {
        let line = Geometry.lineString([Position(x: 0, y: 0), Position(x: 1, y: 1)]).wkb()
        // Truncated anywhere: an error naming an offset inside the buffer, never a trap.
        for cut in 0..<line.count {
            do {
                _ = try Geometry(wkb: Array(line.prefix(cut)))
                Issue.record("prefix of \(cut) bytes parsed")
            } catch {
                #expect(error.kind == .malformedInput)
                #expect((error.offset ?? -1) <= cut, "\(error)")
            }
        }
        func expectError(_ bytes: [UInt8], offset: Int, _ fragment: String) {
            do {
                _ = try Geometry(wkb: bytes)
                Issue.record("parsed")
            } catch {
                #expect(error.offset == offset, "\(error)")
                #expect(error.message.contains(fragment), "\(error)")
            }
        }
        expectError([7, 1, 0, 0, 0], offset: 0, "byte-order flag 7")
        expectError([1, 99, 0, 0, 0], offset: 1, "unknown geometry type 99")
        // A line string claiming 4 billion positions in a 13-byte buffer: rejected before allocating.
        expectError(
            [1, 2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0], offset: 5,
            "count of 4294967295 positions")
        // A collection claiming 2³² − 1 members.
        expectError([1, 7, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF], offset: 5, "members")
        expectError(line + [0], offset: line.count, "unexpected bytes")
        // A multi-point whose member is a line string.
        expectError([1, 4, 0, 0, 0, 1, 0, 0, 0] + line, offset: 9, "not a POINT")
        // Infinite coordinate.
        var inf: [UInt8] = [1, 1, 0, 0, 0]
        for v in [Double.infinity, 2.0] {
            inf += withUnsafeBytes(of: v.bitPattern.littleEndian, Array.init)
        }
        expectError(inf, offset: 5, "not finite")
        // Unclosed ring.
        let ring = Geometry.lineString([
            Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1), Position(x: 0, y: 1),
        ]).wkb()
        expectError([1, 3, 0, 0, 0, 1, 0, 0, 0] + ring.dropFirst(5), offset: 9, "not closed")
        #expect(throws: GeoError.self) { try Geometry(wkbHex: "01010") }
        #expect(throws: GeoError.self) { try Geometry(wkbHex: "0G") }
    }

    /// Random bytes, and random mutations of valid WKB, never trap.
    @Test func fuzzedInputNeverTraps() {
        var rng = SplitMix64(seed: 9)
        var generator = GeometryGenerator(seed: 10)
        for _ in 0..<3_000 {
            var bytes = generator.next().wkb(
                byteOrder: rng.next() % 2 == 0 ? .littleEndian : .bigEndian)
            let edits = 1 + Int(rng.next() % 4)
            for _ in 0..<edits where !bytes.isEmpty {
                let i = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[i] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.removeSubrange(i...)
                default: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: i)
                }
            }
            _ = try? Geometry(wkb: bytes)
        }
        for _ in 0..<3_000 {
            let bytes = (0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next())
            }
            _ = try? Geometry(wkb: bytes)
        }
    }

    @Test func deepNestingIsRejected() {
        var bytes = [UInt8]()
        for _ in 0..<100_000 { bytes += [1, 7, 0, 0, 0, 1, 0, 0, 0] }
        #expect(throws: GeoError.self) { try Geometry(wkb: bytes) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02X", $0) }.joined()
    }
}
