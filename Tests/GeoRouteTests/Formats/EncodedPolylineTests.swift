import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

/// One vector of `tracks/polyline_vectors.json`.
struct PolylineVector: CustomTestStringConvertible, Sendable {
    var id: String
    var direction: String
    var precision: Int
    var points: [Coordinate]?
    var encoded: String?
    var value: Double?
    var expectedCount: Int?
    var expectedFirst: Coordinate?
    var expectedLast: Coordinate?
    var simplify: [Double: Int]

    var testDescription: String { "\(id) (\(direction))" }

    static func all() throws -> [PolylineVector] {
        let json = try ReferenceData.json("tracks/polyline_vectors.json")
        return (json["vectors"]?.arrayValue ?? []).map { v in
            func coordinate(_ value: JSONValue?) -> Coordinate? {
                guard let pair = value?.arrayValue, pair.count >= 2,
                    let lat = pair[0].doubleValue, let lon = pair[1].doubleValue
                else { return nil }
                return Coordinate(latitude: lat, longitude: lon)
            }
            var simplify = [Double: Int]()
            for (tolerance, count) in v["simplify"]?["tolerance_m_to_count"]?.objectValue ?? [:] {
                if let t = Double(tolerance), let c = count.intValue { simplify[t] = c }
            }
            return PolylineVector(
                id: v["id"]?.stringValue ?? "?",
                direction: v["direction"]?.stringValue ?? "?",
                precision: v["precision"]?.intValue ?? 5,
                points: v["points"]?.arrayValue?.compactMap { coordinate($0) },
                encoded: v["encoded"]?.stringValue,
                value: v["value"]?.doubleValue,
                expectedCount: v["expected_count"]?.intValue,
                expectedFirst: coordinate(v["expected_first"]),
                expectedLast: coordinate(v["expected_last"]),
                simplify: simplify)
        }
    }
}

@Suite("EncodedPolyline: published values (always run)")
struct EncodedPolylineKnownValueTests {
    /// Google Maps Platform, "Encoded Polyline Algorithm Format": the example line and the single
    /// value −179.9832104 → `` `~oia@ ``.
    @Test func googleExamples() throws {
        let points = [
            Coordinate(latitude: 38.5, longitude: -120.2),
            Coordinate(latitude: 40.7, longitude: -120.95),
            Coordinate(latitude: 43.252, longitude: -126.453),
        ]
        #expect(try EncodedPolyline.encode(points) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(try EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@") == points)
        #expect(try EncodedPolyline.encode(value: -179.9832104) == "`~oia@")
    }

    /// frederickjansen/polyline's tests (`tests/test_polyline.py`): the Google example at precision
    /// 6, and a line whose rounding differs between Python 3's `round` and half-away-from-zero.
    @Test func pythonPackageCases() throws {
        let google = [
            Coordinate(latitude: 38.5, longitude: -120.2),
            Coordinate(latitude: 40.7, longitude: -120.95),
            Coordinate(latitude: 43.252, longitude: -126.453),
        ]
        #expect(
            try EncodedPolyline.encode(google, precision: 6) == "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI")
        #expect(
            try EncodedPolyline.decode("_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI", precision: 6) == google)
        let rounding = [
            Coordinate(latitude: 36.05322, longitude: -112.084004),
            Coordinate(latitude: 36.053573, longitude: -112.083914),
            Coordinate(latitude: 36.053845, longitude: -112.083965),
        ]
        #expect(try EncodedPolyline.encode(rounding) == "ss`{E~kbkTeAQw@J")
    }

    /// raphaelmor/Polyline's rounding cases: half a unit rounds away from zero.
    @Test func roundingHalfAwayFromZero() throws {
        #expect(
            try EncodedPolyline.encode([Coordinate(latitude: 0.000015, longitude: 0.000015)])
                == "CC")
        #expect(
            try EncodedPolyline.encode([Coordinate(latitude: -0.000015, longitude: -0.000015)])
                == "BB")
        #expect(
            try EncodedPolyline.encode([Coordinate(latitude: 0.00016, longitude: -0.00032)])
                == "_@~@")
    }

    @Test func malformedInputIsATypedErrorWithTheOffset() {
        let cases: [(String, Int)] = [
            // the last longitude is cut off: offset of its value
            ("_p~iF~ps|U_ulLnnqC_mqNvxq", 22),
            ("_p~iF~ps|U_ulLnnqC_mqN", 18),  // a latitude without a longitude
            ("_p~iF ~ps|U", 5),  // a space is outside the alphabet
            ("_p~iF~ps|U\u{e9}A", 10),  // so is any non-ASCII character
            ("??" + String(repeating: "~", count: 13) + "?", 2),  // 14 chunks: more than 64 bits
            ("invalidPolylineString", 16),
        ]
        for (text, offset) in cases {
            do {
                _ = try EncodedPolyline.decode(text)
                Issue.record("'\(text)' decoded")
            } catch {
                #expect(error.kind == .malformedInput)
                #expect(error.offset == offset, "\(text): \(error.message)")
            }
        }
    }

    @Test func overflowingSumsAndValuesThrowInsteadOfTrapping() throws {
        // The largest 64-bit zig-zag value, twice: the running sum overflows.
        let big = try #require(
            String(bytes: [UInt8](repeating: 63 + 0x3F, count: 12) + [63 + 0x0F], encoding: .ascii))
        #expect(throws: GeoError.self) { try EncodedPolyline.decode(big + "?" + big + "?") }
        #expect(throws: GeoError.self) {
            try EncodedPolyline.encode([Coordinate(latitude: .nan, longitude: 0)])
        }
        #expect(throws: GeoError.self) {
            try EncodedPolyline.encode([Coordinate(latitude: 1e300, longitude: 0)])
        }
        #expect(throws: GeoError.self) {
            try EncodedPolyline.encode([Coordinate(latitude: 90, longitude: 0)], precision: 18)
        }
        #expect(throws: GeoError.self) { try EncodedPolyline.encode(value: .infinity) }
        #expect(throws: GeoError.self) { try EncodedPolyline.decode("??", precision: -1) }
        #expect(throws: GeoError.self) { try EncodedPolyline.decode("??", precision: 23) }
    }

    /// Seeded random lines survive encode → decode to half a unit of the precision, and decode →
    /// encode exactly, at several precisions.
    @Test(arguments: [0, 1, 5, 6, 7, 10])
    func roundTrips(precision: Int) throws {
        var rng = SplitMix64(seed: UInt64(precision) + 100)
        let unit = pow(10, -Double(precision))
        for _ in 0..<50 {
            let points = (0..<Int(rng.uniform(0, 40))).map { _ in
                Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            }
            let text = try EncodedPolyline.encode(points, precision: precision)
            let decoded = try EncodedPolyline.decode(text, precision: precision)
            #expect(decoded.count == points.count)
            for (p, q) in zip(points, decoded) {
                #expect(abs(p.latitude - q.latitude) <= unit / 2 * (1 + 1e-9))
                #expect(abs(p.longitude - q.longitude) <= unit / 2 * (1 + 1e-9))
            }
            #expect(try EncodedPolyline.encode(decoded, precision: precision) == text)
            #expect(text.utf8.allSatisfy { $0 >= 63 && $0 <= 126 })
        }
    }

    /// Random bytes never trap: they decode or throw a malformed-input error inside the text.
    @Test func randomTextNeverTraps() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2_000 {
            let bytes = (0..<Int(rng.uniform(0, 30))).map { _ in
                UInt8(rng.uniform(0, 1) < 0.9 ? rng.uniform(63, 127) : rng.uniform(0, 256))
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                _ = try EncodedPolyline.decode(text)
            } catch {
                #expect(error.kind == .malformedInput)
                #expect((error.offset ?? -1) >= 0 && (error.offset ?? -1) <= text.utf8.count)
            }
        }
    }

    @Test func polylineConvenience() throws {
        let line = try Polyline(encoded: "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(line.coordinates.count == 3)
        #expect(try line.encoded() == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(throws: GeoError.self) { try Polyline(encoded: "") }
    }

    /// A track file of encoded polylines refuses a line that decodes outside the Earth's range
    /// (the encoding holds any integers), naming its line and point, as CSV and GPX refuse it.
    @Test func trackFilesRefuseLinesOffTheEarth() throws {
        let outside = try EncodedPolyline.encode([
            Coordinate(latitude: 10, longitude: 20), Coordinate(latitude: 91, longitude: 540),
        ])
        let data = Data(("_p~iF~ps|U_ulLnnqC_mqNvxq`@\n\n" + outside + "\n").utf8)
        do {
            _ = try TrackFile.read(data, format: .encoded)
            Issue.record("a polyline decoding to latitude 91 was read")
        } catch {
            #expect(error.kind == .invalidCoordinate)
            #expect(error.line == 3)
            #expect(error.message.contains("point 2") && error.message.contains("91"))
        }
        let fine = try TrackFile.read(Data("_p~iF~ps|U_ulLnnqC_mqNvxq`@\n".utf8), format: .encoded)
        #expect(fine.first?.segments.first?.count == 3)
    }
}

@Suite("EncodedPolyline: reference vectors")
struct EncodedPolylineReferenceTests {
    static let vectors = (try? PolylineVector.all()) ?? []

    @Test func everyDirectionKindIsPresent() {
        let directions = Set(Self.vectors.map(\.direction))
        #expect(Self.vectors.count > 10)
        for kind in [
            "both", "encode", "decode", "roundtrip", "decode_check", "decode_error", "encode_value",
        ] {
            #expect(directions.contains(kind), "no '\(kind)' vector")
        }
    }

    @Test(arguments: vectors)
    func vector(_ v: PolylineVector) throws {
        switch v.direction {
        case "both", "encode", "decode", "roundtrip", "reencode", "decode_check", "decode_error",
            "encode_value":
            break
        default:
            Issue.record("unknown direction \(v.direction)")
        }
        if ["both", "encode"].contains(v.direction) {
            let points = try #require(v.points)
            #expect(try EncodedPolyline.encode(points, precision: v.precision) == v.encoded)
        }
        if ["both", "decode"].contains(v.direction) {
            let text = try #require(v.encoded)
            #expect(try EncodedPolyline.decode(text, precision: v.precision) == v.points)
        }
        if v.direction == "roundtrip" {
            let points = try #require(v.points)
            let text = try EncodedPolyline.encode(points, precision: v.precision)
            #expect(try EncodedPolyline.decode(text, precision: v.precision) == points)
        }
        if ["reencode", "decode_check"].contains(v.direction) {
            let text = try #require(v.encoded)
            let decoded = try EncodedPolyline.decode(text, precision: v.precision)
            #expect(try EncodedPolyline.encode(decoded, precision: v.precision) == text)
            if let count = v.expectedCount { #expect(decoded.count == count) }
            if let first = v.expectedFirst { #expect(decoded.first == first) }
            if let last = v.expectedLast { #expect(decoded.last == last) }
            // Douglas–Peucker counts from android-maps-utils' PolyUtil.simplify (tolerance in meters).
            for (tolerance, count) in v.simplify {
                let line = try Polyline(decoded)
                #expect(
                    try line.simplifiedIndices(tolerance: tolerance).count == count,
                    "tolerance \(tolerance) m")
            }
        }
        if v.direction == "decode_error" {
            let text = try #require(v.encoded)
            do {
                let decoded = try EncodedPolyline.decode(text, precision: v.precision)
                Issue.record("decoded to \(decoded.count) points")
            } catch {
                #expect(error.kind == .malformedInput)
                let offset = try #require(error.offset)
                #expect(offset >= 0 && offset <= text.utf8.count)
            }
        }
        if v.direction == "encode_value" {
            let value = try #require(v.value)
            #expect(try EncodedPolyline.encode(value: value, precision: v.precision) == v.encoded)
        }
    }
}
