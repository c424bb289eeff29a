// cluster-tiles: the core of a marker-clustering tile service.
//
//     swift run -c release cluster-tiles [POINTS.csv|POINTS.geojson] [--svg DIR] < requests
//
// Builds a ClusterIndex once (from a file of `lon,lat` lines or GeoJSON points, or 200 000
// generated points), then answers one `z/x/y` request per line of standard input with the tile as
// supercluster's getTile JSON, the format Mapbox GL and MapLibre layers consume. Bad requests are
// answered with an error object naming them; the index is immutable and Sendable, so a real server
// would share it between request handlers without locks. With `--svg DIR` each tile is also
// drawn, as DIR/z-x-y.svg: the clusters and points it serves, on the country outlines.

import Foundation
import GeoTestSupport
import Meridian

func json(_ value: JSONValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
}

/// Draws what a tile serves: its clusters and points over the tile's area.
func drawTile(
    _ tile: TileID, of index: ClusterIndex<PointFeature>, into directory: String
)
    throws(GeoError)
{
    let b = tile.bounds
    let size = MapSize(width: 512, height: 512)
    let camera = try MapCamera(
        fitting: MapRect(
            fitting: [
                Coordinate(latitude: b.south, longitude: b.west),
                Coordinate(latitude: b.north, longitude: b.east),
            ]), viewSize: size)
    var map = SVGMap(size: size, camera: camera)
    map.title = "Tile \(tile)"
    try map.addBasemap()
    let features = index.clusters(in: b, zoom: Double(tile.zoom)).map { feature in
        switch feature {
        case .cluster(let c):
            Feature(
                geometry: .point(Position(c.coordinate)), properties: .object(c.geoJSONProperties))
        case .point(let p):
            Feature(geometry: .point(Position(p.coordinate)), properties: ["marker-size": "small"])
        }
    }
    map.addLayer(features, name: "Clusters and points")
    try map.write(
        to: URL(fileURLWithPath: directory).appendingPathComponent(
            "\(tile.zoom)-\(tile.x)-\(tile.y).svg"))
}

do {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var svgDirectory: String?
    if let flag = arguments.firstIndex(of: "--svg"), flag + 1 < arguments.count {
        svgDirectory = arguments[flag + 1]
        arguments.removeSubrange(flag...(flag + 1))
        try? FileManager.default.createDirectory(
            atPath: svgDirectory ?? ".", withIntermediateDirectories: true)
    }
    let points: [PointFeature]
    if let path = arguments.first {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GeoError(.io, "cannot read \(path)")
        }
        points = try PointFeature.read(data)
    } else {
        points = SyntheticPoints.coordinates(.clustered(), count: 200_000, seed: 42).map {
            PointFeature(coordinate: $0)
        }
    }
    let started = Date()
    let index = try ClusterIndex(
        points, coordinate: { $0.coordinate }, aggregation: .counts { $0.category ?? "point" })
    FileHandle.standardError.write(
        Data(
            "indexed \(points.count) points in \(Int(Date().timeIntervalSince(started) * 1000)) ms; reading z/x/y requests\n"
                .utf8))

    var lineNumber = 0
    while let line = readLine() {
        lineNumber += 1
        let parts = line.split(separator: "/").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2],
            let tile = try? TileID(x: x, y: y, zoom: z)
        else {
            print(json(["error": .string("line \(lineNumber): '\(line)' is not a tile z/x/y")]))
            continue
        }
        let features: [JSONValue] =
            index.tile(z: tile.zoom, x: tile.x, y: tile.y)?.features.map { feature in
                var tags: [String: JSONValue] = [:]
                if let cluster = feature.feature.cluster {
                    tags = [
                        "cluster": true, "cluster_id": .integer(cluster.id),
                        "point_count": .integer(cluster.pointCount),
                        "point_count_abbreviated": .string(cluster.abbreviatedPointCount),
                        "kinds": cluster.aggregate ?? .null,
                    ]
                } else if let point = feature.feature.point {
                    tags = point.element.properties.objectValue ?? [:]
                }
                return [
                    "type": 1, "geometry": [[.integer(feature.x), .integer(feature.y)]],
                    "tags": .object(tags),
                ]
            } ?? []
        print(json(["tile": .string(tile.description), "features": .array(features)]))
        if let svgDirectory { try drawTile(tile, of: index, into: svgDirectory) }
    }
} catch {
    FileHandle.standardError.write(Data("cluster-tiles: \(error)\n".utf8))
    exit(1)
}
