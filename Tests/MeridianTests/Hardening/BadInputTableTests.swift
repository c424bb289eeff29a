import Foundation
import GeoCluster
import GeoCore
import GeoFence
import GeoRoute
import GeoTestSupport
import Testing

/// The table "What bad input gets" in README.md, row by row: for each entry point, what NaN,
/// infinity, out-of-range latitude and longitude, huge coordinates, empty input, a single point,
/// duplicates and huge inputs produce. A change of behaviour fails here and must change the table.
@Suite("What bad input gets")
struct BadInputTableTests {
    static let ok = Coordinate(latitude: 1, longitude: 1)
    static let nan = Coordinate(latitude: .nan, longitude: 0)
    static let infinite = Coordinate(latitude: 0, longitude: .infinity)
    static let lat91 = Coordinate(latitude: 91, longitude: 0)
    static let lon181 = Coordinate(latitude: 0, longitude: 181)
    static let huge = Coordinate(latitude: 0, longitude: 1e300)

    private func expectFailure(
        _ kind: GeoError.Kind, _ text: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        let got = thrownGeoError(body)
        #expect(got?.kind == kind, "\(String(describing: got))", sourceLocation: sourceLocation)
        #expect(
            got?.message.contains(text) == true, "\(got?.message ?? "no error")",
            sourceLocation: sourceLocation)
    }

    @Test func validatingCoordinate() {
        expectFailure(.invalidCoordinate, "latitude nan is not a finite number") {
            _ = try Coordinate(validatingLatitude: .nan, longitude: 0)
        }
        expectFailure(.invalidCoordinate, "longitude inf is not a finite number") {
            _ = try Coordinate(validatingLatitude: 0, longitude: .infinity)
        }
        expectFailure(.invalidCoordinate, "latitude 91.0 is outside [-90, 90]") {
            _ = try Coordinate(validatingLatitude: 91, longitude: 0)
        }
        expectFailure(.invalidCoordinate, "longitude 181.0 is outside [-180, 180]") {
            _ = try Coordinate(validatingLatitude: 0, longitude: 181)
        }
    }

    @Test func distances() {
        let ok = Self.ok
        for distance in [Geodesic.distance(from:to:), { Haversine.distance(from: $0, to: $1) }] {
            #expect(distance(ok, Self.nan).isNaN)
            #expect(distance(ok, Self.infinite).isNaN)
            #expect(distance(ok, Self.lat91).isNaN)
            // Longitudes are reduced: 181° is 179° W.
            let wrapped = Coordinate(latitude: 0, longitude: -179)
            #expect(abs(distance(ok, Self.lon181) - distance(ok, wrapped)) < 1e-6)
            #expect(distance(ok, ok) == 0)
        }
    }

    @Test func transformer() throws {
        let transformer = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:3857")
        expectFailure(.proj, "(0.0, nan) could not be transformed") {
            _ = try transformer.transform(Self.nan)
        }
        expectFailure(.proj, "(inf, 0.0) could not be transformed") {
            _ = try transformer.transform(Self.infinite)
        }
        expectFailure(.proj, "Invalid latitude") { _ = try transformer.transform(Self.lat91) }
        expectFailure(.proj, "Invalid longitude") { _ = try transformer.transform(Self.huge) }
        // 181° is projected as given (PROJ does not reduce it for Web Mercator).
        #expect(try transformer.transform(Self.lon181).x < -19_000_000)
        var none: [Position] = []
        #expect(try transformer.transform(&none).isEmpty)
    }

    @Test func geometryReaders() throws {
        // WKT keeps NaN and infinity (as GEOS does) so that isValid() can report them.
        #expect(try Geometry(wkt: "POINT (0 nan)").positions.first?.y.isNaN == true)
        #expect(try Geometry(wkt: "POINT (inf 0)").positions.first?.x == .infinity)
        #expect(try Geometry(wkt: "POINT (1e300 91)").positions.first?.x == 1e300)
        // JSON has no NaN or infinity.
        expectFailure(.malformedInput, "expected a JSON value") {
            _ = try GeoJSON(parsing: #"{"type":"Point","coordinates":[inf,0]}"#)
        }
        expectFailure(.malformedInput, "found the end of the text") { _ = try Geometry(wkt: "") }
        expectFailure(.malformedInput, "found the end of the text") { _ = try GeoJSON(parsing: "") }
        #expect(try Geometry(wkt: "LINESTRING (1 1, 1 1)").positions.count == 2)
        expectFailure(.limitExceeded, "InputLimits.maximumPositions") {
            _ = try Geometry(
                wkt: "MULTIPOINT (" + Array(repeating: "1 1", count: 11).joined(separator: ",")
                    + ")",
                limits: InputLimits(maximumPositions: 10))
        }
    }

    @Test func geographicOperations() throws {
        expectFailure(.invalidCoordinate, "(0.0, nan) is not finite") {
            _ = try Geometry.point(coordinate: Self.nan).buffer(meters: 10)
        }
        expectFailure(
            .invalidCoordinate, "latitude 91.0 of position (0.0, 91.0) is outside [-90, 90]"
        ) {
            _ = try Geometry.point(coordinate: Self.lat91).buffer(meters: 10)
        }
        expectFailure(.invalidCoordinate, "longitude 181.0 is outside [-180, 180]") {
            _ = try Geometry.point(coordinate: Self.lon181).buffer(meters: 10)
        }
        let ring = { (c: Coordinate) in
            Geometry.polygon([
                [Position(Self.ok), Position(c), Position(x: 0, y: 2), Position(Self.ok)]
            ])
        }
        expectFailure(.invalidCoordinate, "is not finite") {
            _ = try ring(Self.infinite).geodesicArea()
        }
        expectFailure(.invalidCoordinate, "outside [-90, 90]") {
            _ = try ring(Self.lat91).geodesicArea()
        }
        // The area reduces longitudes, so a ring written across 180° with 181 is measured.
        let across = try ring(Self.lon181).geodesicArea()
        let reduced = try ring(Coordinate(latitude: 0, longitude: -179)).geodesicArea()
        #expect(abs(across - reduced) < 1e-3)
        #expect(try Geometry(wkt: "POLYGON ((1 1, 1 1, 1 1, 1 1))").geodesicArea() == 0)
        // A single point buffers to a true circle; a degenerate line to a disc around it.
        #expect(try Geometry.point(coordinate: Self.ok).buffer(meters: 10).type == .polygon)
        #expect(try Geometry(wkt: "LINESTRING (1 1, 1 1)").buffer(meters: 5).type == .polygon)
        // A planar predicate on bad positions.
        let prepared = try PreparedGeometry(Geometry(wkt: "POLYGON ((0 0, 2 0, 2 2, 0 0))"))
        expectFailure(.invalidCoordinate, "is not finite") {
            _ = try prepared.contains(Position(Self.nan))
        }
        #expect(try prepared.contains(Position(Self.lat91)) == false)
        // A buffer far beyond the metric plane is refused with its reach in kilometers, however
        // large (the kilometers once went through an integer, which 1e22 m overflows).
        expectFailure(.invalidArgument, "reaches 1e+19 km") {
            _ = try Geometry(wkt: "POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))").buffer(meters: 1e22)
        }
        // A longitude no double can reduce to a fraction of a degree is refused by name.
        expectFailure(.invalidCoordinate, "longitude 1e+308 of position (1e+308, 0.0) is too large")
        {
            _ = try Geometry(wkt: "POLYGON ((1e308 0, -1e308 0, 0 1, 1e308 0))").simplified(
                meters: 1)
        }
        // Rings with longitudes no double can reduce (whose differences overflow, or whose
        // turns are lost) are refused by name, not trapped on.
        for wkt in [
            "POLYGON ((9e307 0, -9e307 1, 0 1, 9e307 0))",
            "POLYGON ((1e308 0, -1.7e308 0, 0 1, 1e308 0))",
            "POLYGON ((1e40 0, 1.7e40 0, 0 1, 1e40 0))",
        ] {
            let globe = thrownGeoError {
                _ = try GeographicPolygon(Geometry(wkt: wkt)).contains(Self.ok)
            }
            #expect(
                globe?.kind == .invalidCoordinate && globe?.message.contains("too large") == true,
                "\(wkt): \(String(describing: globe))")
        }
    }

    @Test func polylines() throws {
        expectFailure(.invalidCoordinate, "coordinate 1 (nan, 0.0) cannot be encoded") {
            _ = try EncodedPolyline.encode([Self.ok, Self.nan])
        }
        expectFailure(.invalidCoordinate, "cannot be encoded at precision 5") {
            _ = try EncodedPolyline.encode([Self.ok, Self.huge])
        }
        // Not range-checked: the format carries any numbers.
        #expect(try EncodedPolyline.decode(EncodedPolyline.encode([Self.lat91])) == [Self.lat91])
        #expect(try EncodedPolyline.encode([]) == "" && EncodedPolyline.decode("").isEmpty)
        expectFailure(.invalidCoordinate, "vertex 1: latitude nan is not a finite number") {
            _ = try Polyline([Self.ok, Self.nan])
        }
        expectFailure(.invalidCoordinate, "vertex 1: latitude 91.0 is outside [-90, 90]") {
            _ = try Polyline([Self.ok, Self.lat91])
        }
        expectFailure(.notFound, "at least one coordinate") { _ = try Polyline([]) }
        #expect(try Polyline([Self.ok]).length == 0)
        #expect(try Polyline(Array(repeating: Self.ok, count: 100_000)).length == 0)
    }

    @Test func clusterIndex() throws {
        // Non-finite coordinates are left out like a missing one; the element keeps its index.
        let index = try ClusterIndex(
            [Self.ok, Self.nan, Self.infinite], coordinate: { $0 })
        #expect(
            index.clusters(in: BoundingBox.world, zoom: 20).compactMap { $0.point?.index } == [0])
        // Latitudes beyond the Mercator range are clamped to its edge, as supercluster does.
        let polar = try ClusterIndex([Self.lat91], coordinate: { $0 })
        #expect(polar.clusters(in: BoundingBox.world, zoom: 0).count == 1)
        #expect(
            try ClusterIndex([Coordinate](), coordinate: { $0 }).clusters(
                in: BoundingBox.world, zoom: 0
            ).isEmpty)
        let pile = try ClusterIndex(Array(repeating: Self.ok, count: 10_000), coordinate: { $0 })
        #expect(pile.clusters(in: BoundingBox.world, zoom: 0).map(\.pointCount) == [10_000])
    }

    @Test func fences() async throws {
        expectFailure(.invalidCoordinate, "center: latitude nan is not a finite number") {
            _ = try CircularGeographicCondition(center: Self.nan, radius: 10)
        }
        expectFailure(.invalidCoordinate, "center: longitude 181.0 is outside [-180, 180]") {
            _ = try CircularGeographicCondition(center: Self.lon181, radius: 10)
        }
        expectFailure(.invalidArgument, "radius nan m must be finite and not negative") {
            _ = try CircularGeographicCondition(center: Self.ok, radius: .nan)
        }
        // A radius beyond half the Earth's circumference holds every point.
        let everything = try CircularGeographicCondition(center: Self.ok, radius: 1e300)
        #expect(everything.signedDistance(from: Coordinate(latitude: -1, longitude: -179)) < 0)
        #expect(try GeofenceIndex(circles: []).fences(containing: Self.ok).isEmpty)
        let monitor = try GeofenceMonitor(name: "bad-input", storage: .inMemory)
        try await monitor.add(
            CircularGeographicCondition(center: Self.ok, radius: 10), identifier: "a")
        for bad in [Self.nan, Self.infinite, Self.lat91, Self.lon181] {
            do {
                _ = try await monitor.process(
                    Location(latitude: bad.latitude, longitude: bad.longitude))
                Issue.record("processed \(bad)")
            } catch {
                #expect(error.kind == .invalidCoordinate)
            }
        }
        #expect(await monitor.lastProcessedFix == nil)  // nothing changed
        await monitor.close()
    }

    @Test func mapVocabulary() {
        expectFailure(.invalidCoordinate, "latitude nan is not a finite number") {
            _ = try TileID(containing: Self.nan, zoom: 3)
        }
        expectFailure(.invalidCoordinate, "longitude 181.0 is outside [-180, 180]") {
            _ = try TileID(containing: Self.lon181, zoom: 3)
        }
        #expect(MapPoint(Self.nan).y.isNaN)
        #expect(MapPoint(Self.infinite).x == .infinity)
        #expect(abs(MapPoint(Self.lat91).y) < 1e-3)  // clamped to the top edge
        expectFailure(.invalidCoordinate, "coordinate 1: latitude nan is not a finite number") {
            _ = try CoordinateRegion(fitting: [Self.ok, Self.nan])
        }
        expectFailure(.notFound, "no coordinates") {
            _ = try CoordinateRegion(fitting: [Coordinate]())
        }
        #expect((try? CoordinateRegion(fitting: [Self.ok, Self.ok]))?.center == Self.ok)
    }

    @Test func fileReaders() throws {
        expectFailure(.malformedInput, "the document is empty") { _ = try GPX.read(Data()) }
        #expect(try CoordinateCSV.read(Data()).records.isEmpty)
        let table = try CoordinateCSV.read(Data("1,2\nnan,2\n91,0\n".utf8))
        #expect(table.records.count == 3)
        #expect(table.records.map(\.line) == [1, 2, 3])
        #expect(
            (try? table.records[1].value.get()) == nil && (try? table.records[2].value.get()) == nil
        )
        expectFailure(.limitExceeded, "InputLimits.maximumBytes") {
            _ = try CoordinateCSV.read(Data("1,2\n".utf8), limits: InputLimits(maximumBytes: 2))
        }
    }
}
