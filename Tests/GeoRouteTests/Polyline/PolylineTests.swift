import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

private func dms(_ degrees: Double, _ minutes: Double, _ seconds: Double) -> Double {
    degrees + minutes / 60 + seconds / 3600
}

/// JFK and Singapore Changi as GeographicLib's GeodSolve man page gives them.
let jfk = Coordinate(latitude: dms(40, 38, 23), longitude: -dms(73, 46, 44))
let changi = Coordinate(latitude: dms(1, 21, 33), longitude: dms(103, 59, 22))

@Suite("Polyline: published values (always run)")
struct PolylineKnownValueTests {
    /// GeodSolve man page, EXAMPLES: JFK to Singapore is 15 347 628 m, and the point 4/10 of the way
    /// is 83:43:26.0N 080:37:16.9E with azimuth 156:26:00.4 (`GeodSolve -I … -F`).
    @Test func jfkToSingapore() throws {
        let line = try Polyline([jfk, changi])
        #expect(abs(line.length - 15_347_628) < 0.5)
        let p = line.coordinate(atDistance: line.length * 0.4)
        let expected = Coordinate(latitude: dms(83, 43, 26.0), longitude: dms(80, 37, 16.9))
        #expect(p.isApproximatelyEqual(to: expected, toleranceMeters: 3))
        #expect(abs(line.bearing(atDistance: line.length * 0.4) - dms(156, 26, 0.4)) < 0.0005)
    }

    @Test func lengthIsTheSumOfGeodesics() throws {
        var rng = SplitMix64(seed: 3)
        let vertices = TestLines.randomWalk(
            count: 200, start: Coordinate(latitude: -33.9, longitude: 151.2), minimumStep: 0,
            maximumStep: 5_000, rng: &rng)
        let line = try Polyline(vertices)
        #expect(abs(line.length - (try Geodesic.wgs84.length(of: vertices))) < 1e-6)
        #expect(line.cumulativeDistances.count == vertices.count)
        #expect(line.cumulativeDistances.first == 0 && line.cumulativeDistances.last == line.length)
        for i in 1..<vertices.count {
            let d = line.cumulativeDistances[i] - line.cumulativeDistances[i - 1]
            #expect(abs(d - vertices[i - 1].distance(to: vertices[i])) < 1e-8)
            // Each vertex is where it should be along the line.
            #expect(line.coordinate(atDistance: line.cumulativeDistances[i]) == vertices[i])
        }
    }

    /// Points along the line are on their segment's geodesic: their distances to the segment's ends
    /// add up to the segment's length.
    @Test func positionsLieOnTheSegments() throws {
        var rng = SplitMix64(seed: 4)
        let vertices = TestLines.randomWalk(
            count: 50, start: Coordinate(latitude: 60, longitude: 25), minimumStep: 100,
            maximumStep: 100_000, rng: &rng)
        let line = try Polyline(vertices)
        for _ in 0..<200 {
            let d = rng.uniform(0, line.length)
            let p = line.coordinate(atDistance: d)
            let i = line.segment(containing: d)
            let a = vertices[i], b = vertices[i + 1]
            #expect(abs(a.distance(to: p) - (d - line.cumulativeDistances[i])) < 1e-6)
            #expect(abs(a.distance(to: p) + p.distance(to: b) - a.distance(to: b)) < 1e-6)
        }
    }

    @Test func clampingAndNaN() throws {
        let line = try Polyline([
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
        ])
        #expect(line.coordinate(atDistance: -5) == line.start)
        #expect(line.coordinate(atDistance: 1e12) == line.end)
        #expect(line.coordinate(atDistance: .nan).latitude.isNaN)
        #expect(line.bearing(atDistance: .nan).isNaN)
        #expect(abs(line.bearing(atDistance: 10) - 90) < 1e-9)
        #expect(abs(line.bearing(atDistance: line.length) - 90) < 1e-9)
    }

    @Test func bearingSkipsZeroLengthSegments() throws {
        let a = Coordinate(latitude: 10, longitude: 10),
            b = Coordinate(latitude: 10.1, longitude: 10)
        let line = try Polyline([a, a, b, b])
        #expect(abs(line.bearing(atDistance: 0) - 0) < 1e-9)
        #expect(abs(line.bearing(atDistance: line.length) - 0) < 1e-9)
        let single = try Polyline([a])
        #expect(single.bearing(atDistance: 0).isNaN)
        #expect(single.coordinate(atDistance: 10) == a)
    }

    @Test func invalidInputThrows() {
        #expect(throws: GeoError.self) { try Polyline([]) }
        do {
            _ = try Polyline([
                Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 91, longitude: 0),
            ])
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .invalidCoordinate)
            #expect(error.message.contains("vertex 1"))
        }
    }

    @Test func codableRoundTripValidates() throws {
        let line = try Polyline([
            Coordinate(latitude: 1, longitude: 2), Coordinate(latitude: 3, longitude: 4),
        ])
        let data = try JSONEncoder().encode(line)
        #expect(try JSONDecoder().decode(Polyline.self, from: data) == line)
        let bad = Data(#"[{"latitude": 95, "longitude": 0}]"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Polyline.self, from: bad) }
    }
}

@Suite("Polyline: reference data")
struct PolylineReferenceTests {
    /// Every published geodesic waypoint of GeodSolve's JFK–Singapore example (to 0.1″, about 3 m)
    /// and its azimuth (to 0.1″ plus rounding).
    @Test func jfkSingaporeWaypoints() throws {
        let line = try Polyline([jfk, changi])
        let rows = try ReferenceData.csvRows("geodesic/jfk_sin_waypoints.csv").filter {
            $0["path"] == "geodesic"
        }
        #expect(!rows.isEmpty)
        for row in rows {
            let parts = try #require(
                row["fraction"]?.split(separator: "/").compactMap { Double($0) })
            let fraction = parts[0] / parts[1]
            let expected = Coordinate(
                latitude: try #require(Double(row["lat"] ?? "")),
                longitude: try #require(Double(row["lon"] ?? "")))
            let p = line.coordinate(atDistance: line.length * fraction)
            #expect(
                p.isApproximatelyEqual(to: expected, toleranceMeters: 4), "fraction \(fraction)")
            let azimuth = try #require(Double(row["azi"] ?? ""))
            #expect(abs(line.bearing(atDistance: line.length * fraction) - azimuth) < 0.0001)
        }
    }
}
