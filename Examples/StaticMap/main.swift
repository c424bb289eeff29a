// static-map: what a static-maps service does with a route and its fences.
//
//     swift run static-map [--output static-map.svg] [--width 600 --height 400]
//
// Fits a delivery route (an encoded polyline, as a routing service returns it) and the geofences
// along it into a 600 × 400 picture with padding, and draws it on the country outlines: the route
// with arrows, the fences as their true geodesic circles, the stops labeled.

import Foundation
import Meridian

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let i = arguments.firstIndex(of: "--\(name)"), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

do {
    let output = option("output") ?? "static-map.svg"
    let size = MapSize(
        width: Double(option("width") ?? "") ?? 600, height: Double(option("height") ?? "") ?? 400)
    // A route from Lyon to Geneva and Lausanne (precision 5), and a fence at each stop.
    let route = try Polyline([
        Coordinate(latitude: 45.7640, longitude: 4.8357),
        Coordinate(latitude: 45.9000, longitude: 5.3500),
        Coordinate(latitude: 46.0500, longitude: 5.8000),
        Coordinate(latitude: 46.2044, longitude: 6.1432),
        Coordinate(latitude: 46.3800, longitude: 6.2400),
        Coordinate(latitude: 46.5197, longitude: 6.6323),
    ])
    let encoded = try route.encoded()
    let decoded = try Polyline(encoded: encoded)
    let stops = [
        ("Lyon", Coordinate(latitude: 45.7640, longitude: 4.8357)),
        ("Geneva", Coordinate(latitude: 46.2044, longitude: 6.1432)),
        ("Lausanne", Coordinate(latitude: 46.5197, longitude: 6.6323)),
    ]
    let routeFeature = Feature(
        geometry: .lineString(decoded.coordinates.map(Position.init)),
        properties: ["direction": true, "stroke": "#0072b2", "stroke-width": 3])
    let fences = stops.map { name, c in
        Feature(
            geometry: .point(Position(c)),
            properties: ["radius": 8_000, "title": .string("\(name) depot zone")])
    }
    let labels = stops.map { name, c in
        Feature(
            geometry: .point(Position(c)),
            properties: ["label": .string(name), "marker-size": "small"])
    }
    var map = try SVGMap(
        fitting: [routeFeature] + fences, size: size, padding: MapEdgePadding(all: 30))
    try map.addBasemap()
    map.addLayer(fences, name: "Depot zones (8 km)", style: FeatureStyle(color: "#009e73"))
    map.addLayer([routeFeature], name: String(format: "Route, %.0f km", decoded.length / 1000))
    map.addLayer(labels, name: "Stops", style: FeatureStyle(color: "#1b2a36"))
    try map.write(to: URL(fileURLWithPath: output))
    print(
        "route \(encoded) (\(encoded.utf8.count) characters), \(String(format: "%.1f", decoded.length / 1000)) km; wrote \(output)"
    )
} catch {
    FileHandle.standardError.write(Data("static-map: \(error)\n".utf8))
    exit(1)
}
