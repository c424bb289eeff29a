import Foundation
import GeoTestSupport
import Meridian

/// The demo's picture: a field naturalist's year on one map. Study sites around the world (one on
/// the 180th meridian, in Fiji), a notebook geofence around each, a research voyage across the
/// Pacific replayed through a `GeofenceMonitor` with its enter, dwell and exit events marked, the
/// voyage simplified and encoded, and 20,000 located notes clustered for the view, on Natural
/// Earth's country outlines.
enum StoryMap {
    struct Site {
        var name: String
        var coordinate: Coordinate
    }

    static let sites = [
        Site(name: "Taveuni, Fiji", coordinate: Coordinate(latitude: -16.85, longitude: -179.97)),
        Site(name: "Apia, Samoa", coordinate: Coordinate(latitude: -13.83, longitude: -171.76)),
        Site(name: "Tongatapu", coordinate: Coordinate(latitude: -21.18, longitude: -175.2)),
        Site(name: "Raoul Island", coordinate: Coordinate(latitude: -29.27, longitude: -177.92)),
        Site(name: "Rarotonga", coordinate: Coordinate(latitude: -21.23, longitude: -159.78)),
        Site(name: "Auckland", coordinate: Coordinate(latitude: -36.85, longitude: 174.76)),
        Site(name: "Nouméa", coordinate: Coordinate(latitude: -22.27, longitude: 166.45)),
        Site(name: "Funafuti", coordinate: Coordinate(latitude: -8.52, longitude: 179.2)),
        Site(
            name: "Great Barrier Reef", coordinate: Coordinate(latitude: -18.29, longitude: 147.7)),
        Site(name: "Hawaiʻi", coordinate: Coordinate(latitude: 19.9, longitude: -155.6)),
    ]

    /// The voyage's ports of call, in order: Auckland, Nouméa, Funafuti, Taveuni (across the
    /// 180th meridian), Apia, Rarotonga, Tongatapu, Raoul Island, Auckland.
    static let voyage = [5, 6, 7, 0, 1, 4, 2, 3, 5]

    /// The radius of each site's notebook geofence.
    static let fenceRadius = 150_000.0

    /// Builds the map, writes it to `path` and returns what to print.
    static func draw(to path: String, progress: (String) -> Void) async throws -> [String] {
        var report = [String]()
        let start = Date(timeIntervalSince1970: 1_798_761_600)  // 1 January 2027

        // The voyage: geodesic legs between ports, a fix every ~15 km at 25 km/h, GPS noise of a
        // few tens of meters, and a week's stay in each port.
        progress("sailing the voyage")
        var rng = SplitMix64(seed: 2027)
        var fixes = [Location]()
        var time = start
        for (a, b) in zip(voyage, voyage.dropFirst()) {
            let from = sites[a].coordinate, to = sites[b].coordinate
            let length = Geodesic.wgs84.distance(from: from, to: to)
            let legs = max(2, Int(length / 15_000))
            for point in try Geodesic.wgs84.points(from: from, to: to, count: legs) {
                fixes.append(
                    Location(
                        coordinate: point.coordinate(
                            atDistance: rng.uniform(0, 40), bearing: rng.uniform(0, 360)),
                        horizontalAccuracy: 20, timestamp: time))
                time += 15_000 / (25_000 / 3600.0)
            }
            // At anchor for a week, a fix every six hours.
            for _ in 0..<28 {
                fixes.append(
                    Location(
                        coordinate: to.coordinate(
                            atDistance: rng.uniform(0, 300), bearing: rng.uniform(0, 360)),
                        horizontalAccuracy: 15, timestamp: time))
                time += 6 * 3600
            }
        }

        // The notebook's geofences, replayed with the voyage: enter, dwell (two days), exit.
        progress("replaying \(fixes.count) fixes through the monitor")
        let monitor = try GeofenceMonitor(
            name: "story", storage: .inMemory,
            configuration: GeofenceConfiguration(dwellTime: 2 * 86_400))
        for site in sites {
            try await monitor.add(
                try CircularGeographicCondition(center: site.coordinate, radius: fenceRadius),
                identifier: site.name)
        }
        var events = [GeofenceEvent]()
        for fix in fixes { events += try await monitor.process(fix) }
        await monitor.close()
        var entered = Set<String>(), counts = (entries: 0, dwells: 0, exits: 0)
        for event in events {
            switch (event.state, event.reason) {
            case (.satisfied, .dwell): counts.dwells += 1
            case (.satisfied, _):
                counts.entries += 1
                entered.insert(event.identifier)
            case (.unsatisfied, _) where entered.contains(event.identifier): counts.exits += 1
            default: break
            }
        }
        report.append(
            "The voyage: \(fixes.count) fixes through \(sites.count) notebook geofences: \(counts.entries) entries, \(counts.dwells) dwells, \(counts.exits) exits"
        )

        // The track simplified within 2 km and encoded.
        let track = try Polyline(fixes.map(\.coordinate))
        let kept = try track.simplified(tolerance: 2_000)
        let encoded = try kept.encoded()
        report.append(
            "Simplified within 2 km: \(kept.coordinates.count) of \(track.coordinates.count) vertices, \(String(format: "%.0f", kept.length / 1000)) km, encoded in \(encoded.utf8.count) characters"
        )

        // 20,000 notes around the sites, clustered for the view's zoom.
        progress("clustering 20,000 notes")
        var notes = [Coordinate]()
        for _ in 0..<20_000 {
            let site = sites[Int(rng.next() % UInt64(sites.count))].coordinate
            notes.append(
                site.coordinate(
                    atDistance: abs(rng.normal()) * 350_000, bearing: rng.uniform(0, 360)))
        }
        let size = MapSize(width: 1_200, height: 760)
        let siteFeatures = sites.map { site in
            Feature(
                geometry: .point(Position(site.coordinate)),
                properties: [
                    "title": .string(site.name), "label": .string(site.name),
                    "marker-size": "small",
                ])
        }
        let fenceFeatures = sites.map { site in
            Feature(
                geometry: .point(Position(site.coordinate)),
                properties: [
                    "radius": .number(fenceRadius),
                    "title": .string("\(site.name): \(Int(fenceRadius / 1000)) km"),
                ])
        }
        var map = try SVGMap(
            fitting: siteFeatures + fenceFeatures, size: size,
            padding: MapEdgePadding(top: 60, left: 40, bottom: 40, right: 40))
        let zoom = map.camera.zoom(viewHeight: size.height, tileSize: 512)
        let index = try ClusterIndex(notes)
        let region = map.camera.viewport(size: size).visibleRegion
        let clusters = index.clusters(in: region, zoom: zoom.rounded(.down) + 1).map { feature in
            switch feature {
            case .cluster(let c):
                Feature(
                    geometry: .point(Position(c.coordinate)),
                    properties: .object(
                        c.geoJSONProperties.merging(["title": .string("\(c.pointCount) notes")]) {
                            $1
                        }))
            case .point(let p):
                Feature(
                    geometry: .point(Position(p.coordinate)), properties: ["marker-size": "small"])
            }
        }
        report.append(
            "20,000 notes clustered at zoom \(Int(zoom) + 1): \(clusters.count) markers in the view"
        )

        // Events along the voyage, one layer each.
        func markers(_ keep: (GeofenceEvent) -> Bool) -> [Feature] {
            events.filter(keep).map { event in
                Feature(
                    geometry: .point(Position(event.location.coordinate)),
                    properties: ["title": .string(event.identifier)])
            }
        }
        let dwells = markers { if case .dwell = $0.reason { true } else { false } }
        let entries = markers {
            if case .dwell = $0.reason { return false }
            return $0.state == .satisfied
        }
        var inside = Set<String>()
        let exits = markers { event in
            if event.state == .satisfied { inside.insert(event.identifier) }
            return event.state == .unsatisfied && inside.contains(event.identifier)
        }

        progress("drawing")
        map.title = "A year of field notes in the South Pacific"
        try map.addBasemap()
        map.addGraticule()
        map.addLayer(clusters, name: "Notes (clustered)", style: FeatureStyle(color: "#56b4e9"))
        map.addLayer(
            fenceFeatures, name: "Notebook geofences (\(Int(fenceRadius / 1000)) km)",
            style: FeatureStyle(color: "#009e73"))
        map.addLayer(
            [
                Feature(
                    geometry: .lineString(kept.coordinates.map(Position.init)),
                    properties: ["direction": true, "title": "The voyage, simplified within 2 km"])
            ], name: "Voyage (simplified)",
            style: FeatureStyle(
                markerColor: "#cc79a7", markerRadius: 4, stroke: "#cc79a7", strokeWidth: 2.5,
                strokeOpacity: 0.9, fill: "none", fillOpacity: 0))
        var small = FeatureStyle(color: "#009e73")
        small.markerRadius = 4
        map.addLayer(entries, name: "Entered a fence", style: small)
        var dwellStyle = FeatureStyle(color: "#e69f00")
        dwellStyle.markerRadius = 8
        map.addLayer(dwells, name: "Dwelled two days", style: dwellStyle)
        small.markerColor = "#d55e00"
        map.addLayer(exits, name: "Left a fence", style: small)
        map.addLayer(siteFeatures, name: "Study sites", style: FeatureStyle(color: "#1b2a36"))
        map.attribution.append("Sites, voyage and notes: Meridian's demo data")
        try map.write(to: URL(fileURLWithPath: path))
        report.append("Wrote the map to \(path)")
        return report
    }
}
