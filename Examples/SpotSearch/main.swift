// spot-search: what a "places near me" screen does, offline.
//
//     swift run spot-search [--query san] [--svg spots.svg]
//
// Loads the GeoNames places shipped with Meridian (22,000 towns with more than ~15,000 people),
// then, for a map showing the Iberian peninsula:
//   1. the 5 towns nearest to the user, with geodesic distances;
//   2. a text search as the user types ("s", "sa", "san"), the towns in view first;
//   3. every town in view (300+), clustered for the view so the map stays readable;
//   4. where the user is (reverse geocoding and the country);
// and draws the clusters and the search results when --svg is given.

import Foundation
import Meridian

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let i = arguments.firstIndex(of: "--\(name)"), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

/// Text padded with spaces to a width (in characters, so accented names line up).
func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

do {
    let query = option("query") ?? "san"
    let places = try ReverseGeocoder.bundled().places
    let index = try PlaceIndex(places, coordinate: \.coordinate, name: \.name)
    let user = Coordinate(latitude: 40.4168, longitude: -3.7038)  // Madrid, Puerta del Sol
    let view = CoordinateRegion(
        center: Coordinate(latitude: 40.0, longitude: -4.0),
        span: CoordinateSpan(latitudeDelta: 8, longitudeDelta: 12))
    print("\(places.count) places; the user is at \(user.latitude), \(user.longitude)")

    print("\n1. Nearest to the user:")
    for match in index.nearest(5, to: user) {
        print(
            "   \(padded(match.element.name, 28)) \(String(format: "%8.1f", match.distance / 1000)) km"
        )
    }

    print("\n2. Searching as the user types, in view first:")
    for end in 1...query.count {
        let typed = String(query.prefix(end))
        let completions = index.completions(for: typed, near: user, in: view, limit: 5)
        let titles = completions.map { c in c.count > 1 ? "\(c.title) (\(c.count))" : c.title }
        print("   \"\(typed)\": \(titles.joined(separator: ", "))")
    }
    let results = index.search(query, near: user, in: view, limit: 12)
    for result in results {
        print(
            "   \(padded(result.element.name, 28)) \(padded("\(result.match)", 7))"
                + "\(result.isInRegion ? "in view  " : "elsewhere") "
                + "\(String(format: "%8.1f", result.distance / 1000)) km")
    }

    let inView = index.places(in: view, sortedByDistanceFrom: user)
    let clusters = try ClusterIndex(inView.map(\.element), coordinate: { $0.coordinate })
    let zoom = 5.0
    let features = clusters.clusters(in: view.boundingBox, zoom: zoom)
    let bubbles = features.filter {
        if case .cluster = $0 { return true } else { return false }
    }.count
    print(
        "\n3. \(inView.count) towns in view (nearest \(inView.first?.element.name ?? "-")), "
            + "\(features.count) markers at zoom \(Int(zoom)) (\(bubbles) clusters)")

    let placemark = ReverseGeocoder.default.placemark(for: user)
    let country = try CountryLookup.naturalEarth().country(containing: user)
    print(
        "\n4. The user is \(String(format: "%.1f", (placemark?.distance ?? 0) / 1000)) km from "
            + "\(placemark?.name ?? "-") (\(placemark?.isoCountryCode ?? "-")), in \(country?.name ?? "the sea")"
            + "\n   \(placemark?.source ?? "")")

    if let path = option("svg") {
        let markers = features.map { feature in
            switch feature {
            case .cluster(let c):
                Feature(
                    geometry: .point(Position(c.coordinate)),
                    properties: .object(c.geoJSONProperties))
            case .point(let p):
                Feature(
                    geometry: .point(Position(p.coordinate)),
                    properties: ["marker-size": "small", "title": .string(p.element.name)])
            }
        }
        let found = results.filter(\.isInRegion).map { r in
            Feature(
                geometry: .point(Position(r.element.coordinate)),
                properties: ["label": .string(r.element.name), "marker-color": "#d55e00"])
        }
        let camera = try MapCamera(
            fitting: MapRect(view), viewSize: MapSize(width: 800, height: 600))
        var map = SVGMap(size: MapSize(width: 800, height: 600), camera: camera)
        map.title = "Towns in view, clustered; \"\(query)\" in orange"
        try map.addBasemap()
        map.addLayer(markers, name: "Towns (GeoNames)")
        map.addLayer(found, name: "Search \"\(query)\"", style: FeatureStyle(color: "#d55e00"))
        try map.write(to: URL(fileURLWithPath: path))
        print("\nwrote \(path)")
    }
} catch {
    FileHandle.standardError.write(Data("spot-search: \(error)\n".utf8))
    exit(1)
}
