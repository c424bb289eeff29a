import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

@Suite("PointFeature")
struct PointFeatureTests {
    @Test func csvWithHeaderAndCategories() throws {
        let points = try PointFeature.read(
            Data("lon,lat,kind\n10.5,-3.25,bike\r\n\n-179.9,85,\n".utf8))
        #expect(points.count == 2)
        #expect(points[0].coordinate == Coordinate(latitude: -3.25, longitude: 10.5))
        #expect(points[0].category == "bike")
        #expect(points[1].category == nil)
    }

    /// A bad record fails in its place, with its line and column; the others are read.
    @Test func csvErrorsNameTheLine() throws {
        for (text, line, column) in [
            ("1,2\n3\n", 2, 2), ("1,2\n1,nan\n", 2, 2), ("x,y\n1,2\na,b\n", 3, 1),
            ("1,2\n200,1\n", 2, 1),
        ] {
            let records = try PointFeature.readCSV(Data(text.utf8))
            let error = try #require(records.firstError(), "\(text)")
            #expect(error.line == line && error.column == column, "\(text): \(error)")
            #expect(records.values().count == records.count - 1)
            #expect(throws: GeoError.self) { try PointFeature.read(Data(text.utf8)) }
        }
    }

    @Test func geoJSONPointsKeepPropertiesAndIDs() throws {
        let text = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","id":7,"properties":{"name":"a"},"geometry":{"type":"Point","coordinates":[1.5,2.5,100]}},
              {"type":"Feature","properties":null,"geometry":null}]}
            """
        let points = try PointFeature.read(Data(text.utf8))
        #expect(points.count == 2)
        #expect(points[0].coordinate == Coordinate(latitude: 2.5, longitude: 1.5))
        #expect(points[0].id == 7)
        #expect(points[0].properties["name"] == "a")
        #expect(points[1].coordinate == nil)
        #expect(points[0].feature?["id"] == 7)
        // A bare Point geometry has no Feature to return: its answer is built from its fields.
        let bare = try PointFeature.read(
            Data(#"[{"type":"Point","coordinates":[10,20]}]"#.utf8))
        #expect(bare.count == 1 && bare[0].feature == nil)
        #expect(bare[0].coordinate == Coordinate(latitude: 20, longitude: 10))
        #expect(throws: GeoError.self) {
            try PointFeature.read(
                Data(
                    #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#
                        .utf8))
        }
        #expect(throws: GeoError.self) { try PointFeature.read(Data("{not json".utf8)) }
        // Out-of-range coordinates are refused as the CSV reader refuses them, naming the feature.
        for (position, words) in [
            ("[10, 95]", "latitude 95.0 is outside"), ("[190, 10]", "longitude 190.0 is outside"),
        ] {
            let bad =
                #"[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}},"#
                + #"{"type":"Feature","geometry":{"type":"Point","coordinates":"# + position + "}}]"
            do {
                _ = try PointFeature.read(Data(bad.utf8))
                Issue.record("\(position) accepted")
            } catch {
                #expect(error.kind == .invalidCoordinate && error.message.contains("feature 1"))
                #expect(error.message.contains(words), "\(error.message)")
            }
            #expect(throws: GeoError.self) {
                try PointFeature.read(Data(position.dropFirst().dropLast().utf8))
            }
        }
    }

    /// supercluster's fixture reads as 163 features, one without geometry.
    @Test func placesFixture() throws {
        let points = try PointFeature.read(ReferenceData.data("points/supercluster/places.json"))
        #expect(points.count == 163)
        #expect(points.filter { $0.coordinate == nil }.count == 1)
        #expect(points[81].id == 737)
    }
}
