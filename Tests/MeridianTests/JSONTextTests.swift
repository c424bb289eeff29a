import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import MeridianCLI

/// The command line's JSON writer makes the text Foundation's `JSONEncoder` makes (sorted keys,
/// slashes unescaped) for the same value: compared on seeded random values, with numbers from
/// random bit patterns, strings of control characters, ASCII, other planes and combining marks,
/// and nesting.
@Suite("JSON text")
struct JSONTextTests {
    static func reference(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func randomString(_ rng: inout SplitMix64) -> String {
        let pools: [ClosedRange<UInt32>] = [
            0...0x1F, 0x20...0x7E, 0x7F...0x2FF, 0x300...0x36F, 0x4E00...0x4E40, 0x1F600...0x1F640,
            0x2028...0x2029, 0xFEFF...0xFEFF,
        ]
        var s = ""
        for _ in 0..<Int(rng.next() % 8) {
            let pool = pools[Int(rng.next() % UInt64(pools.count))]
            let value = pool.lowerBound + UInt32(rng.next() % UInt64(pool.count))
            if let scalar = Unicode.Scalar(value) { s.unicodeScalars.append(scalar) }
        }
        return s
    }

    static func randomValue(_ rng: inout SplitMix64, depth: Int) -> JSONValue {
        switch rng.next() % (depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(rng.next() % 2 == 0)
        case 2: return .integer(Int(bitPattern: UInt(rng.next())) >> Int(rng.next() % 64))
        case 3:
            let d = Double(bitPattern: rng.next())
            return .number(d.isFinite ? d : rng.uniform(-1e6, 1e6).rounded())
        case 4: return .string(randomString(&rng))
        case 5:
            return .array(
                (0..<Int(rng.next() % 5)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            var members = [String: JSONValue]()
            for _ in 0..<Int(rng.next() % 6) {
                members[randomString(&rng)] = randomValue(&rng, depth: depth + 1)
            }
            return .object(members)
        }
    }

    @Test func sameTextAsJSONEncoder() throws {
        var rng = SplitMix64(seed: 0x150)
        for _ in 0..<20_000 {
            let value = Self.randomValue(&rng, depth: 0)
            #expect(jsonText(value) == (try Self.reference(value)), "\(value)")
        }
        for d in [1.0, -0.0, 0.1, 1e15, 1e16, 1e21, 1e-7, 0x1p-1074, 0x1p53, 123.5, -2.5e-5] {
            #expect(jsonText(.number(d)) == (try Self.reference(.number(d))), "\(d)")
        }
        // What JSON cannot write is null, where the encoder would throw.
        #expect(
            jsonText(["a": .number(.nan), "b": [.number(-.infinity), 1]])
                == #"{"a":null,"b":[null,1]}"#)
    }
}
