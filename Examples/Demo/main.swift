// meridian-demo: one short tour of what Meridian does, on built-in data.
//
//     swift run meridian-demo
//
// Each section prints what it computed and which Earth model the numbers come from.

import Foundation
import GeoTestSupport
import Meridian

func section(_ title: String) { print("\n== \(title)") }
func fmt(_ value: Double, _ decimals: Int = 3) -> String { String(format: "%.\(decimals)f", value) }

do {
    try NativeLibraries.checkVersions()
    print(
        "Meridian demo (PROJ \(NativeLibraries.projVersion), GEOS \(NativeLibraries.geosVersion))")

    // MARK: Geodesy
    section("Geodesy: New York JFK to London Heathrow")
    let jfk = Coordinate(latitude: 40.6413, longitude: -73.7781)
    let lhr = Coordinate(latitude: 51.4700, longitude: -0.4543)
    let line = Geodesic.wgs84.inverse(from: jfk, to: lhr)
    print(
        "WGS84 geodesic (Karney): \(fmt(line.distance)) m, leaving at \(fmt(line.initialAzimuth, 4))°, arriving at \(fmt(line.finalAzimuth, 4))°"
    )
    let sphere = Haversine.distance(from: jfk, to: lhr)
    print(
        "Haversine sphere:        \(fmt(sphere)) m (\(fmt((sphere - line.distance) / line.distance * 100, 3)) % off)"
    )
    let rhumb = Rhumb.wgs84.inverse(from: jfk, to: lhr)
    print("Rhumb line at \(fmt(rhumb.azimuth, 2))°:    \(fmt(rhumb.distance)) m")
    let midpoint = try Geodesic.wgs84.points(from: jfk, to: lhr, count: 3)[1]
    print("Halfway along the geodesic: \(fmt(midpoint.latitude, 5)), \(fmt(midpoint.longitude, 5))")

    // MARK: Map rects and tiles
    section("Map rects and tiles")
    let pacific = try CoordinateRegion(fitting: [
        Coordinate(latitude: -17.7134, longitude: 178.0650),  // Fiji
        Coordinate(latitude: -13.7590, longitude: -172.1046),  // Samoa
        Coordinate(latitude: -21.1789, longitude: -175.1982),  // Tonga
    ])
    print(
        "Fiji, Samoa and Tonga fit a region \(fmt(pacific.span.longitudeDelta, 2))° wide centered on \(fmt(pacific.center.longitude, 2))°"
    )
    print("Its map rect spans the 180th meridian: \(MapRect(pacific).spans180thMeridian)")
    let tile = try TileID(containing: lhr, zoom: 14)
    print(
        "Heathrow is on tile \(tile) (quadkey \(tile.quadkey)), \(fmt(MapPoint.metersPerMapPoint(atLatitude: lhr.latitude), 4)) m per map point there"
    )

    // MARK: CRS transformations
    section("Coordinate reference systems (PROJ)")
    let eiffel = Coordinate(latitude: 48.858370, longitude: 2.294481)
    let utm = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:32631")
    let projected = try utm.transform(eiffel)
    print("Eiffel Tower in UTM zone 31N: E \(fmt(projected.x)) m, N \(fmt(projected.y)) m")
    let back = try utm.transform(projected, direction: .inverse)
    print(
        "and back: \(fmt(back.y, 9)), \(fmt(back.x, 9)) (moved \(fmt(eiffel.distance(to: back.coordinate) * 1e9, 1)) nm)"
    )

    // MARK: Geometry
    section("Geometry (GEOS) in meters")
    let zone = try Geometry.point(coordinate: eiffel).buffer(
        meters: 500, style: BufferStyle(quadrantSegments: 64))
    let area = try zone.geodesicArea()
    print(
        "A 500 m buffer around the tower (a 256-gon) covers \(fmt(area / 10_000, 3)) ha; a true circle, π·500², is \(fmt(Double.pi * 250_000 / 10_000, 3)) ha"
    )
    let trocadero = Coordinate(latitude: 48.862, longitude: 2.2875)
    let prepared = try PreparedGeometry(zone)
    print(
        "Trocadéro (\(fmt(eiffel.distance(to: trocadero), 0)) m away) is inside: \(try prepared.contains(Position(trocadero)))"
    )

    // MARK: Routes
    section("Routes: Google's encoded polyline example")
    let polyline = try Polyline(encoded: "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    print(
        "\(polyline.coordinates.count) vertices, \(fmt(polyline.length / 1000, 1)) km along WGS84 geodesics"
    )
    let route = try Route(
        polyline: polyline, transportType: .automobile, expectedTravelTime: 8 * 3600)
    var progress = RouteProgress(route: route)
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    for (i, fraction) in [0.1, 0.35, 0.6].enumerated() {
        let onRoute = polyline.coordinate(atDistance: polyline.length * fraction)
        let fix = Location(
            coordinate: onRoute.coordinate(atDistance: 15, bearing: 90), horizontalAccuracy: 10,
            timestamp: start.addingTimeInterval(Double(i + 1) * 3600))
        _ = progress.update(with: fix)
        print(
            "fix \(i + 1): \(fmt(progress.distanceTraveled / 1000, 1)) km done, \(fmt(progress.distanceRemaining / 1000, 1)) km and \(fmt(progress.expectedTimeRemaining / 3600, 2)) h to go, \(fmt(progress.distanceFromRoute ?? .nan, 1)) m off the line"
        )
    }

    // MARK: Geofences
    section("Geofences: a monitor with Core Location's semantics")
    let monitor = try GeofenceMonitor(name: "demo", storage: .inMemory)
    let depot = polyline.coordinate(atDistance: polyline.length * 0.5)
    try await monitor.add(
        try CircularGeographicCondition(center: depot, radius: 20_000), identifier: "depot")
    for step in 0...10 {
        let along = polyline.length * (0.4 + Double(step) * 0.02)
        let fix = Location(
            coordinate: polyline.coordinate(atDistance: along), horizontalAccuracy: 25,
            timestamp: start.addingTimeInterval(Double(step) * 600))
        for event in try await monitor.process(fix) {
            print(
                "\(event.identifier) \(event.state.rawValue) at km \(fmt(along / 1000, 1)) (exact geodesic distance to the center \(fmt(depot.distance(to: fix.coordinate) / 1000, 2)) km)"
            )
        }
    }
    await monitor.close()

    var fenceRNG = SplitMix64(seed: 7)
    let circles = try (0..<20_000).map { _ in
        try CircularGeographicCondition(
            center: Coordinate(
                latitude: fenceRNG.uniform(44, 48), longitude: fenceRNG.uniform(5, 11)),
            radius: fenceRNG.uniform(100, 5_000))
    }
    let fences = try GeofenceIndex(circles: circles)
    let bern = Coordinate(latitude: 46.948, longitude: 7.4474)
    print(
        "Of \(circles.count) fences, \(fences.fences(containing: bern).count) contain Bern; the 3 nearest are \(try fences.nearest(3, to: bern).map { fmt($0.distance, 0) + " m" }.joined(separator: ", ")) from their edges"
    )

    // MARK: Clustering
    section("Clustering (supercluster-compatible)")
    let points = SyntheticPoints.coordinates(.clustered(), count: 20_000, seed: 42)
    let buildStart = Date()
    let index = try ClusterIndex(points)
    print(
        "Indexed \(points.count) points for zooms 0-16 in \(fmt(Date().timeIntervalSince(buildStart) * 1000, 0)) ms"
    )
    for zoom in [0.0, 3, 6] {
        let features = index.clusters(in: BoundingBox.world, zoom: zoom)
        let clusters = features.compactMap(\.cluster)
        print("zoom \(Int(zoom)): \(features.count) markers, \(clusters.count) of them clusters")
    }
    if let biggest = index.clusters(in: BoundingBox.world, zoom: 3).compactMap(\.cluster).max(by: {
        $0.pointCount < $1.pointCount
    }) {
        let outline = try index.footprint(of: biggest.id)
        print(
            "Largest cluster at zoom 3: \(biggest.abbreviatedPointCount) points around \(fmt(biggest.coordinate.latitude, 2)), \(fmt(biggest.coordinate.longitude, 2)); its outline covers \(fmt(try outline.geodesicArea() / 1e6, 0)) km²"
        )
    }

    // MARK: The picture
    section("The picture")
    let arguments = CommandLine.arguments
    let output =
        arguments.firstIndex(of: "--output").flatMap {
            arguments.index(after: $0) < arguments.endIndex ? arguments[$0 + 1] : nil
        } ?? "meridian-demo.svg"
    for line in try await StoryMap.draw(
        to: output,
        progress: { FileHandle.standardError.write(Data("meridian-demo: \($0)\n".utf8)) })
    {
        print(line)
    }
} catch {
    FileHandle.standardError.write(Data("meridian-demo: \(error)\n".utf8))
    exit(1)
}
