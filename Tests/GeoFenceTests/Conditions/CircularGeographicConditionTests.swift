import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoFence

@Suite("CircularGeographicCondition")
struct CircularGeographicConditionTests {
    /// GeographicLib's GeodSolve documentation (EXAMPLES): JFK to Singapore Changi is 15 347 628 m
    /// (`GeodSolve -i 40:38:23N 073:46:44W 01:21:33N 103:59:22E`). A circle round JFK holds Changi
    /// with a radius 1 m above that and misses it 1 m below.
    @Test func publishedDistanceDecidesContainment() throws {
        let jfk = Coordinate(
            latitude: 40 + 38 / 60.0 + 23 / 3600.0, longitude: -(73 + 46 / 60.0 + 44 / 3600.0))
        let changi = Coordinate(
            latitude: 1 + 21 / 60.0 + 33 / 3600.0, longitude: 103 + 59 / 60.0 + 22 / 3600.0)
        #expect(try CircularGeographicCondition(center: jfk, radius: 15_347_629).contains(changi))
        #expect(try !CircularGeographicCondition(center: jfk, radius: 15_347_627).contains(changi))
        let circle = try CircularGeographicCondition(center: jfk, radius: 15_000_000)
        #expect(abs(circle.signedDistance(from: changi) - 347_628) < 0.5)
    }

    /// Karney's GeodTest: a circle of radius s12 ± 1 µm round point 1 contains point 2 exactly when
    /// the radius is the larger one, for every category (short lines, near the poles, nearly
    /// antipodal); the cheap test of the index agrees.
    @Test func geodTestDistancesDecideContainment() throws {
        let rows = try ReferenceData.csvRows("geodesic/geodtest_short.csv")
        #expect(rows.count > 1_000)
        var checked = 0
        for row in rows {
            guard let lat1 = Double(row["lat1"] ?? ""), let lon1 = Double(row["lon1"] ?? ""),
                let lat2 = Double(row["lat2"] ?? ""), let lon2 = Double(row["lon2"] ?? ""),
                let s12 = Double(row["s12"] ?? "")
            else {
                Issue.record("unreadable row \(row["row"] ?? "?")")
                continue
            }
            let center = Coordinate(latitude: lat1, longitude: lon1)
            let point = Coordinate(latitude: lat2, longitude: lon2)
            let outer = try CircularGeographicCondition(center: center, radius: s12 + 1e-6)
            let inner = try CircularGeographicCondition(center: center, radius: max(0, s12 - 1e-6))
            #expect(outer.contains(point), "row \(row["row"] ?? "?")")
            #expect(!inner.contains(point) || s12 < 1e-6, "row \(row["row"] ?? "?")")
            #expect(CircleContainmentTest(outer).contains(point), "row \(row["row"] ?? "?")")
            #expect(
                !CircleContainmentTest(inner).contains(point) || s12 < 1e-6,
                "row \(row["row"] ?? "?")")
            checked += 1
        }
        #expect(checked == rows.count)
    }

    @Test func badInputIsRejected() {
        let c = Coordinate(latitude: 10, longitude: 10)
        #expect(throws: GeoError.self) { try CircularGeographicCondition(center: c, radius: -1) }
        #expect(throws: GeoError.self) { try CircularGeographicCondition(center: c, radius: .nan) }
        #expect(throws: GeoError.self) {
            try CircularGeographicCondition(center: c, radius: .infinity)
        }
        do {
            _ = try CircularGeographicCondition(
                center: Coordinate(latitude: 91, longitude: 0), radius: 1)
            Issue.record("a latitude of 91 was accepted")
        } catch {
            #expect(error.kind == .invalidCoordinate)
            #expect(error.message.contains("91"))
        }
        // A point circle holds only its center; invalid points are never inside.
        let point = try? CircularGeographicCondition(center: c, radius: 0)
        #expect(point?.contains(c) == true)
        #expect(point?.contains(Coordinate(latitude: .nan, longitude: 0)) == false)
    }

    @Test func codableRoundTripValidates() throws {
        let circle = try CircularGeographicCondition(
            center: Coordinate(latitude: -33.86, longitude: 151.21), radius: 250)
        let data = try JSONEncoder().encode(circle)
        #expect(try JSONDecoder().decode(CircularGeographicCondition.self, from: data) == circle)
        let condition = GeographicCondition.circle(circle)
        let tagged = try JSONEncoder().encode(condition)
        #expect(String(decoding: tagged, as: UTF8.self).contains("\"type\":\"circle\""))
        #expect(try JSONDecoder().decode(GeographicCondition.self, from: tagged) == condition)
        let bad = Data(#"{"center":{"latitude":0,"longitude":0},"radius":-5}"#.utf8)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CircularGeographicCondition.self, from: bad)
        }
        let unknown = Data(#"{"type":"hexagon"}"#.utf8)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(GeographicCondition.self, from: unknown)
        }
    }
}
