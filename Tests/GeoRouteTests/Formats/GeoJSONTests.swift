import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRoute

@Suite("GeoJSON export")
struct GeoJSONTests {
    private func roundTrip(_ value: JSONValue) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    @Test func polylinePositionsAreLongitudeFirst() throws {
        let line = try Polyline([
            Coordinate(latitude: 48.85, longitude: 2.35),
            Coordinate(latitude: 51.5, longitude: -0.12),
        ])
        let json = try roundTrip(line.geoJSON())
        #expect(json["type"] == "LineString")
        #expect(json["coordinates"] == [[2.35, 48.85], [-0.12, 51.5]])
    }

    /// RFC 7946 §3.1.9: a line across the 180th meridian becomes a MultiLineString cut there.
    @Test func crossingThe180thMeridianIsCut() throws {
        let line = try Polyline([
            Coordinate(latitude: -17.7, longitude: 177.4),
            Coordinate(latitude: -13.8, longitude: -171.8),
        ])
        let json = try roundTrip(line.geoJSON())
        #expect(json["type"] == "MultiLineString")
        #expect(json["coordinates"]?.arrayValue?.count == 2)
        #expect(json["coordinates"]?[0]?[1]?[0] == 180)
        #expect(json["coordinates"]?[1]?[0]?[0] == -180)
    }

    @Test func trackFeatureCarriesTimesAndAltitudes() throws {
        let t0 = Date(timeIntervalSince1970: 1_600_000_000)
        let fixes = [
            Location(
                coordinate: Coordinate(latitude: 1, longitude: 2), altitude: 100,
                verticalAccuracy: 3, timestamp: t0),
            Location(
                coordinate: Coordinate(latitude: 1.1, longitude: 2.1), altitude: 110,
                verticalAccuracy: 3, timestamp: t0 + 60),
        ]
        let json = try roundTrip(Track(name: "Walk", locations: fixes).geoJSON())
        #expect(json["type"] == "Feature" && json["geometry"]?["type"] == "LineString")
        #expect(json["geometry"]?["coordinates"] == [[2, 1, 100], [2.1, 1.1, 110]])
        #expect(json["properties"]?["name"] == "Walk")
        #expect(
            json["properties"]?["coordTimes"] == ["2020-09-13T12:26:40Z", "2020-09-13T12:27:40Z"])
        let points = fixes.map(TrackPoint.init)
        let two = try roundTrip(Track(segments: [points, [], points]).geoJSON())
        #expect(two["geometry"]?["type"] == "MultiLineString")
        #expect(two["geometry"]?["coordinates"]?.arrayValue?.count == 2)
    }

    @Test func routeFeature() throws {
        let route = try parisRoute()
        let json = try roundTrip(route.geoJSON())
        #expect(json["properties"]?["transportType"] == "cycling")
        #expect(json["properties"]?["expectedTravelTime"]?.doubleValue == 600)
        #expect(json["properties"]?["steps"]?.arrayValue?.count == 3)
    }

    @Test func gpxDocumentAsFeatureCollection() throws {
        let document = try GPX.read(
            contentsOf: ReferenceData.url("tracks/gpx/gpxpy/cerknicko-jezero.gpx"))
        let json = try roundTrip(document.geoJSON())
        #expect(json["type"] == "FeatureCollection")
        let features = try #require(json["features"]?.arrayValue)
        #expect(
            features.count == document.waypoints.count + document.routes.count
                + document.tracks.count)
        #expect(features[0]["geometry"]?["type"] == "Point")
        #expect(features[0]["properties"]?["name"] == "001")
    }
}
