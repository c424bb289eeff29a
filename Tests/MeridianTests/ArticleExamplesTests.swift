import Foundation
import Meridian
import Testing

/// The code of the documentation's articles, compiled and run: `Scripts/check-articles.py` checks
/// that every Swift block of every article appears here line for line, so an article's code is
/// code that works. Each block below is marked with its article.
@Suite("Documentation articles")
struct ArticleExamplesTests {
    // MARK: GeoCore: MeasuringDistances

    @Test func measuringDistances() throws {
        // article: MeasuringDistances 1
        let jfk = Coordinate(latitude: 40.6413, longitude: -73.7781)
        let lhr = Coordinate(latitude: 51.4700, longitude: -0.4543)

        // The WGS84 ellipsoid, Karney's algorithm: within 15 nanometers.
        let line = Geodesic.wgs84.inverse(from: jfk, to: lhr)
        // 5554908.79 m, 51.38°, 107.98°
        print(line.distance, line.initialAzimuth, line.finalAzimuth)

        // A sphere of the IUGG mean radius: between 0.45 % short and 0.57 % long.
        let sphere = Haversine.distance(from: jfk, to: lhr)

        // A line of constant compass bearing (a rhumb line): longer, but steered with one heading.
        let rhumb = Rhumb.wgs84.inverse(from: jfk, to: lhr)
        // end
        #expect(abs(line.distance - 5_554_908.79) < 0.01)
        #expect(abs(sphere / line.distance - 1) < 0.006 && rhumb.distance > line.distance)

        // article: MeasuringDistances 2
        // Short distances in a hot loop: a local plane at the first point's latitude, within
        // 3 mm at 10 km below 60°.
        let here = Coordinate(latitude: 46.948, longitude: 7.447)
        let there = here.coordinate(atDistance: 8_000, bearing: 30)
        let flat = LocalPlane.distance(from: here, to: there)
        // end
        #expect(abs(flat - 8_000) < 0.003)

        // article: MeasuringDistances 3
        // Areas and perimeters on the ellipsoid, holes subtracted.
        let field = try Geometry(
            wkt: "POLYGON ((7.44 46.94, 7.46 46.94, 7.46 46.96, 7.44 46.96, 7.44 46.94))")
        let area = try field.geodesicArea()  // square meters on WGS84
        let perimeter = try field.geodesicPerimeter()  // meters
        // end
        #expect(area > 3_000_000 && area < 3_500_000 && perimeter > 7_000)
    }

    // MARK: GeoCore: RegionsMapRectsAndTiles

    @Test func regionsMapRectsAndTiles() throws {
        // article: RegionsMapRectsAndTiles 1
        // Fiji and Samoa: the region takes the short way across the 180th meridian.
        let islands = [
            Coordinate(latitude: -17.71, longitude: 178.07),
            Coordinate(latitude: -13.76, longitude: -172.1),
        ]
        let region = try CoordinateRegion(fitting: islands)
        print(region.span.longitudeDelta)  // 9.83, not 350.17
        let rect = MapRect(region)
        print(rect.spans180thMeridian)  // true: the rectangle reaches past the world's east edge
        // end
        #expect(region.span.longitudeDelta < 10 && rect.spans180thMeridian)

        // article: RegionsMapRectsAndTiles 2
        let heathrow = Coordinate(latitude: 51.47, longitude: -0.4543)
        let tile = try TileID(containing: heathrow, zoom: 12)
        print(tile, tile.quadkey, tile.tmsY)  // 12/2042/1362 031313131030 2733
        let box = tile.bounds  // west, south, east, north in degrees
        // end
        #expect(tile.description == "12/2042/1362" && box.contains(heathrow))

        // article: RegionsMapRectsAndTiles 3
        // A camera that shows the islands in a 600 × 400 view with 20 points of padding.
        let size = MapSize(width: 600, height: 400)
        let camera = try MapCamera(
            fitting: islands, viewSize: size, edgePadding: MapEdgePadding(all: 20))
        let viewport = camera.viewport(size: size)
        let suva = viewport.point(for: MapPoint(islands[0]))  // view points, origin at the top left
        print(camera.zoom(viewHeight: size.height), suva ?? (0, 0))
        // end
        #expect(suva != nil)
    }

    // MARK: GeoCore: TransformingCoordinates

    @Test func transformingCoordinates() throws {
        // article: TransformingCoordinates 1
        let utm = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:32633")
        let point = try utm.transform(Position(x: 15, y: 52))  // easting, northing in meters
        var batch = [Position(x: 15, y: 52), Position(x: 15, y: 95)]
        // In place; the bad point is NaN, with PROJ's reason.
        let failures = try utm.transform(&batch)
        // end
        #expect(abs(point.x - 500_000) < 1e-6 && failures.count == 1)

        // article: TransformingCoordinates 2
        // Unknown names are refused instead of matched loosely.
        #expect(throws: GeoError.self) {
            _ = try CoordinateTransformer(source: "EPSG:4326", target: "wgs")
        }
        // end

        // article: TransformingCoordinates 3
        // Meters on longitude/latitude geometry, and containment on the globe.
        let field = try Geometry(wkt: "POLYGON ((170 -10, -170 -10, -170 10, 170 10, 170 -10))")
        let globe = try GeographicPolygon(field)
        print(globe.contains(Coordinate(latitude: 0, longitude: 179)))  // true
        print(field.locate(Position(x: 179, y: 0)))  // exterior: in the plane, 179° is outside
        let circle = try Geometry.point(x: 2.35, y: 48.86).buffer(meters: 500)  // a geodesic circle
        // end
        #expect(globe.contains(Coordinate(latitude: 0, longitude: 179)))
        #expect(abs(try circle.geodesicArea() - Double.pi * 250_000) / (Double.pi * 250_000) < 0.01)
    }

    // MARK: GeoFence: MonitoringGeofences

    @Test func monitoringGeofences() async throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let fixes = (0..<20).map { i in
            Location(
                coordinate: Coordinate(latitude: 46.948, longitude: 7.43 + Double(i) * 0.002),
                horizontalAccuracy: 10, timestamp: start + Double(i) * 60)
        }
        // article: MonitoringGeofences 1
        let monitor = try GeofenceMonitor(
            name: "field-notes", storage: .inMemory,
            configuration: GeofenceConfiguration(hysteresis: 5, dwellTime: 300))
        let lake = try CircularGeographicCondition(
            center: Coordinate(latitude: 46.948, longitude: 7.447), radius: 150)
        try await monitor.add(lake, identifier: "lake")
        for fix in fixes {
            for event in try await monitor.process(fix) {
                print(event.identifier, event.state, event.reason)  // lake satisfied fix(...)
            }
        }
        await monitor.close()
        // end
    }

    // MARK: GeoFence: FencesAtServerScale

    @Test func fencesAtServerScale() throws {
        // article: FencesAtServerScale 1
        let fences = try (0..<1_000).map { i throws(GeoError) in
            GeofenceIndex.Fence(
                identifier: "zone-\(i)",
                condition: .circle(
                    try CircularGeographicCondition(
                        center: Coordinate(
                            latitude: 46 + Double(i % 40) * 0.01,
                            longitude: 7 + Double(i / 40) * 0.01),
                        radius: 400)))
        }
        let index = try GeofenceIndex(fences)  // immutable: share it between threads
        let phone = Coordinate(latitude: 46.101, longitude: 7.052)
        let inside = index.fences(containing: phone).map(\.identifier)
        let watch = try index.nearest(20, to: phone)  // the 20 fences to hand to a phone's OS
        // end
        #expect(!inside.isEmpty && watch.count == 20)

        // article: FencesAtServerScale 2
        var evaluator = try GeofenceEvaluator(index: index)
        let updates = [
            GeofenceUpdate(
                device: "van-7", location: Location(coordinate: phone, timestamp: Date()))
        ]
        let evaluation = evaluator.evaluate(updates)
        for transition in evaluation.transitions {
            print(transition.device, transition.event.identifier)
        }
        // end
        #expect(evaluation.rejections.isEmpty)

        // article: FencesAtServerScale 3
        // Sharding by tile: each shard holds the fences whose bounding box touches its tiles, and
        // each update goes to the shard of the tile its fix falls in.
        let zoom = 6
        func shard(of coordinate: Coordinate) throws(GeoError) -> TileID {
            try TileID(containing: coordinate, zoom: zoom)
        }
        var shards = [TileID: [GeofenceIndex.Fence]]()
        for fence in fences {
            guard case .circle(let circle) = fence.condition else { continue }
            let reach = CoordinateRegion(
                center: circle.center, latitudinalMeters: 2 * circle.radius,
                longitudinalMeters: 2 * circle.radius)
            let box = reach.boundingBox
            let corners = [
                Coordinate(latitude: box.south, longitude: box.west),
                Coordinate(latitude: box.north, longitude: box.east),
            ]
            for tile in Set(try corners.map(shard(of:))) { shards[tile, default: []].append(fence) }
        }
        let route = try shard(of: phone)  // send the update to this shard
        // end
        #expect(shards[route] != nil)
    }

    // MARK: GeoRoute: FollowingRoutes

    @Test func followingRoutes() throws {
        // article: FollowingRoutes 1
        let line = try Polyline(encoded: "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        let route = try Route(polyline: line, expectedTravelTime: 8 * 3600)
        var progress = RouteProgress(route: route)
        let fix = Location(
            coordinate: line.coordinate(atDistance: 100_000), horizontalAccuracy: 10,
            timestamp: Date())
        let events = progress.update(with: fix)
        print(events, progress.distanceRemaining, progress.expectedArrivalDate ?? Date())
        // end
        #expect(events.contains(.progressed) && abs(progress.distanceTraveled - 100_000) < 1)

        // article: FollowingRoutes 2
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let ride = Track(
            locations: (0..<100).map { i in
                Location(
                    coordinate: Coordinate(latitude: 46.9, longitude: 7.4 + Double(i) * 0.0005),
                    horizontalAccuracy: 5, timestamp: start + Double(i) * 5)
            })
        let stats = ride.statistics()
        print(stats.length, stats.movingTime, stats.robustMaximumSpeed ?? 0)
        let simpler = try Polyline(ride.points.map(\.coordinate)).simplified(tolerance: 5)
        // end
        #expect(stats.length > 3_000 && simpler.coordinates.count == 2)
    }

    // MARK: GeoCluster: ClusteringMarkers

    @Test func clusteringMarkers() throws {
        struct Station { var coordinate: Coordinate; var bikes: Int }
        let stations = (0..<2_000).map { i in
            Station(
                coordinate: Coordinate(
                    latitude: 48.85 + Double(i % 50) * 0.001,
                    longitude: 2.33 + Double(i / 50) * 0.001),
                bikes: i % 13)
        }
        // article: ClusteringMarkers 1
        let index = try ClusterIndex(
            stations, coordinate: { $0.coordinate },
            aggregation: .sum { Double($0.bikes) })
        let view = BoundingBox(west: 2.2, south: 48.8, east: 2.5, north: 48.9)
        for feature in index.clusters(in: view, zoom: 12) {
            switch feature {
            case .cluster(let cluster):
                print(cluster.abbreviatedPointCount, cluster.aggregate ?? .null)  // "1.2k", bikes
            case .point(let point):
                print(point.element.bikes)
            }
        }
        // end

        // article: ClusteringMarkers 2
        // A tapped cluster: where to zoom to, and what it holds.
        if let first = index.clusters(in: view, zoom: 12).compactMap(\.cluster).first {
            let zoom = try index.expansionZoom(of: first.id)
            let some = try index.leaves(of: first.id, limit: 10)
            print(zoom, some.count)
        }
        // Serving tiles: stream the features instead of collecting them.
        var count = 0
        index.forEachFeature(in: BoundingBox.world, zoom: 8) { _ in count += 1 }
        // end
        #expect(count > 0)
    }

    // MARK: GeoCluster: KeepClustersLive

    @Test func keepClustersLive() throws {
        // article: KeepClustersLive 1
        var fleet = try LiveClusterIndex<String>()
        try fleet.insert("bus-12", at: Coordinate(latitude: 47.3769, longitude: 8.5417))
        try fleet.insert("bus-7", at: Coordinate(latitude: 47.3770, longitude: 8.5418))
        try fleet.apply([
            .move("bus-12", Coordinate(latitude: 47.3771, longitude: 8.5419)),
            .insert(
                "tram-3", Coordinate(latitude: 47.39, longitude: 8.51), clusteringIdentifier: "tram"
            ),
        ])
        let view = BoundingBox(west: 8.45, south: 47.33, east: 8.62, north: 47.42)
        let before = fleet.snapshot
        try fleet.move("bus-7", to: Coordinate(latitude: 47.40, longitude: 8.60))
        let diff = LiveClusterSnapshot.diff(from: before, to: fleet.snapshot, in: view, zoom: 15)
        for appeared in diff.appeared {
            // A point that split off the cluster it was in: animate it out of `source`.
            print(appeared.feature.coordinate, appeared.source?.cluster?.id ?? 0)
        }
        // end
        #expect(fleet.count == 3)
        #expect(diff.disappeared.count == 1 && diff.disappeared[0].feature.cluster?.pointCount == 2)
        #expect(diff.appeared.count == 2 && diff.appeared.allSatisfy { $0.source?.cluster != nil })
    }

    // MARK: GeoRender: DrawingMaps

    @Test func drawingMaps() throws {
        // article: DrawingMaps 1
        let sites = [
            Feature(
                geometry: .point(Position(x: 178.44, y: -18.14)),
                properties: ["title": "Suva", "label": "Suva", "marker-color": "#d55e00"]),
            Feature(
                geometry: .point(Position(x: -171.76, y: -13.83)),
                properties: ["title": "Apia", "radius": 50_000]),  // its 50 km geodesic circle
        ]
        var map = try SVGMap(
            fitting: sites, size: MapSize(width: 800, height: 500), padding: MapEdgePadding(all: 40)
        )
        map.title = "Across the 180th meridian"
        try map.addBasemap()
        map.addGraticule()
        map.addLayer(sites, name: "Sites")
        let svg = try map.render()  // or map.write(to: url)
        // end
        #expect(svg.contains("<svg") && svg.contains("Suva"))
    }

    // MARK: GeoSearch: SearchPlacesNearTheUser

    @Test func searchPlacesNearTheUser() throws {
        // article: SearchPlacesNearTheUser 1
        struct Store: Sendable {
            var name: String
            var kind: String
            var coordinate: Coordinate
        }
        let stores = [
            Store(
                name: "Café Zürich", kind: "cafe",
                coordinate: Coordinate(latitude: 47.3717, longitude: 8.5423)),
            Store(
                name: "Zurich Books", kind: "books",
                coordinate: Coordinate(latitude: 47.3745, longitude: 8.5410)),
            Store(
                name: "Café Bern", kind: "cafe",
                coordinate: Coordinate(latitude: 46.9480, longitude: 7.4474)),
        ]
        let index = try PlaceIndex(stores, coordinate: \.coordinate, name: \.name, category: \.kind)
        // end
        // article: SearchPlacesNearTheUser 2
        let rider = Coordinate(latitude: 47.3769, longitude: 8.5417)
        let nearest = index.nearest(2, to: rider)
        let cafes = index.nearest(5, to: rider, within: 2_000, where: { $0.kind == "cafe" })
        let close = index.places(within: 1_000, of: rider)
        let inView = index.places(
            in: CoordinateRegion(
                center: rider, latitudinalMeters: 5_000, longitudinalMeters: 5_000),
            sortedByDistanceFrom: rider)
        // end
        #expect(nearest.map(\.element.name) == ["Zurich Books", "Café Zürich"])
        #expect(cafes.map(\.element.name) == ["Café Zürich"])
        #expect(close.count == 2 && inView.count == 2)
        #expect(
            abs(nearest[0].distance - Geodesic.distance(from: rider, to: stores[1].coordinate))
                < 1e-6)
        // article: SearchPlacesNearTheUser 3
        let visible = CoordinateRegion(
            center: rider, latitudinalMeters: 3_000, longitudinalMeters: 3_000)
        let results = index.search("caf", in: visible, category: "cafe", limit: 10)
        let completions = index.completions(for: "zu", in: visible)
        // end
        #expect(results.map(\.element.name) == ["Café Zürich", "Café Bern"])
        #expect(results.map(\.isInRegion) == [true, false])
        #expect(completions.map(\.title) == ["Zurich Books", "Café Zürich"])
        // article: SearchPlacesNearTheUser 4
        let placemark = ReverseGeocoder.default.placemark(for: rider)
        let country = try CountryLookup.naturalEarth().country(
            containing: rider, fallbackWithin: 20_000)
        // end
        #expect(placemark?.name == "Zürich" && placemark?.isoCountryCode == "CH")
        #expect(country?.name == "Switzerland")
        let geocoder = ReverseGeocoder.default
        let photos = [
            rider, Coordinate(latitude: 46.948, longitude: 7.4474),
            Coordinate(latitude: 95, longitude: 0),
        ]
        // article: SearchPlacesNearTheUser 5
        let towns = geocoder.nearestPlaceIndices(for: photos).map {
            $0.map { geocoder.places[$0].name }
        }
        // end
        #expect(towns == ["Zürich", "Bern", nil])
    }
}
