import Foundation
import GeoCluster
import GeoCore

/// `meridian cluster --input FILE --zoom Z`: supercluster-compatible clusters as GeoJSON.
enum ClusterCommand: Subcommand {
    static let name = "cluster"
    static let summary = "cluster points as supercluster does (GeoJSON out)"
    static let valueOptions: Set<String> = [
        "input", "zoom", "bbox", "radius", "extent", "max-zoom", "min-zoom", "min-points", "tile",
        "sum",
    ]
    static let help = """
        Usage: meridian cluster --input FILE --zoom Z [--bbox W,S,E,N] [--radius R] [--extent E]
                                [--max-zoom M] [--min-points P] [--tile Z/X/Y] [--sum PROPERTY]

        Clusters points exactly as supercluster 8.0.1 does and writes the clusters and points at zoom Z
        inside the box (default the whole world) as a GeoJSON FeatureCollection. Clusters carry
        supercluster's properties cluster, cluster_id, point_count and point_count_abbreviated; points
        keep their GeoJSON properties and id. With --tile, writes supercluster's getTile object for
        that tile instead (features with tile-pixel geometry, tags and id); --zoom is then not needed.

        Input (FILE, or - for standard input): CSV lines lon,lat[,category] (a header line is
        skipped; points only cluster with points of the same category) or GeoJSON Point features.

        Options:
          --radius R      cluster radius in pixels (default 40)
          --extent E      tile extent in pixels (default 512)
          --max-zoom M    highest zoom with clusters, 0-30 (default 16)
          --min-zoom M    lowest zoom with clusters (default 0)
          --min-points P  fewest points in a cluster (default 2)
          --sum PROPERTY  give each cluster the sum of a numeric GeoJSON property of its points,
                          under the same name (supercluster's map/reduce)
          --json          accepted for symmetry with the other commands; the output is always JSON

        Example:
          meridian cluster --input places.geojson --zoom 3 --bbox -30,30,40,70

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        _ = arguments.flag("json")  // the output is always JSON
        guard let path = arguments.option("input") else {
            throw UsageError("--input FILE is required")
        }
        var options = ClusterOptions()
        if let v = try arguments.number("radius") { options.radius = v }
        if let v = try arguments.number("extent") { options.extent = v }
        if let v = try arguments.integer("max-zoom") { options.maxZoom = v }
        if let v = try arguments.integer("min-zoom") { options.minZoom = v }
        if let v = try arguments.integer("min-points") { options.minPoints = v }
        let sumProperty = arguments.option("sum")
        let zoom = try arguments.number("zoom")
        let tile = try arguments.option("tile").map { text throws(UsageError) in
            let parts = text.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 3 else { throw UsageError("--tile: '\(text)' is not Z/X/Y") }
            return (z: parts[0], x: parts[1], y: parts[2])
        }
        var box = BoundingBox(west: -180, south: -90, east: 180, north: 90)
        if let text = arguments.option("bbox") {
            let parts = text.split(separator: ",").map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2],
                let n = parts[3]
            else {
                throw UsageError("--bbox: '\(text)' is not W,S,E,N")
            }
            box = BoundingBox(west: w, south: s, east: e, north: n)
        }
        guard zoom != nil || tile != nil else {
            throw UsageError("--zoom Z (or --tile Z/X/Y) is required")
        }
        try arguments.rejectUnknown()
        guard arguments.positional.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positional[0])'")
        }

        let data: Data
        if path == "-" {
            data = console.readAll()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                console.printError("meridian cluster: cannot read '\(path)'")
                return ExitCode.failure
            }
            data = contents
        }
        do {
            let points = try PointFeature.read(data)
            let hasCategories = points.contains { $0.category != nil }
            let index = try ClusterIndex(
                points, options: options, coordinate: { $0.coordinate },
                clusteringIdentifier: hasCategories ? { $0.category } : nil,
                aggregation: sumProperty.map { name in
                    .sum { $0.properties[name]?.doubleValue ?? 0 }
                })
            if let tile {
                console.print(
                    encode(
                        tileObject(index.tile(z: tile.z, x: tile.x, y: tile.y), sum: sumProperty)))
            } else if let zoom {
                let features = index.clusters(in: box, zoom: zoom).map {
                    geoJSON($0, sum: sumProperty)
                }
                console.print(encode(["type": "FeatureCollection", "features": .array(features)]))
            }
            return ExitCode.success
        } catch {
            console.printError(
                "meridian cluster: \(path): \(error.message)\(error.line.map { " (line \($0))" } ?? "")"
            )
            return ExitCode.failure
        }
    }

    /// supercluster's cluster properties, and the summed property under its own name.
    static func properties(_ cluster: Cluster, sum: String?) -> JSONValue {
        var object: [String: JSONValue] = [
            "cluster": true, "cluster_id": .integer(cluster.id),
            "point_count": .integer(cluster.pointCount),
            "point_count_abbreviated": cluster.pointCount < 1000
                ? .integer(cluster.pointCount) : .string(cluster.abbreviatedPointCount),
        ]
        if let category = cluster.clusteringIdentifier { object["category"] = .string(category) }
        if let sum, let value = cluster.aggregate { object[sum] = value }
        return .object(object)
    }

    static func geoJSON(_ feature: ClusterFeature<PointFeature>, sum: String?) -> JSONValue {
        switch feature {
        case .cluster(let cluster):
            return [
                "type": "Feature", "id": .integer(cluster.id),
                "properties": properties(cluster, sum: sum),
                "geometry": [
                    "type": "Point",
                    "coordinates": [
                        .number(cluster.coordinate.longitude), .number(cluster.coordinate.latitude),
                    ],
                ],
            ]
        case .point(let point):
            var properties = point.element.properties
            if let category = point.element.category {
                properties = ["category": .string(category)]
            }
            var object: [String: JSONValue] = [
                "type": "Feature", "properties": properties,
                "geometry": [
                    "type": "Point",
                    "coordinates": [
                        .number(point.coordinate.longitude), .number(point.coordinate.latitude),
                    ],
                ],
            ]
            if let id = point.element.id { object["id"] = id }
            return .object(object)
        }
    }

    static func tileObject(_ tile: ClusterTile<PointFeature>?, sum: String?) -> JSONValue {
        guard let tile else { return .null }
        return [
            "features": .array(
                tile.features.map { feature in
                    var object: [String: JSONValue] = [
                        "type": 1, "geometry": [[.integer(feature.x), .integer(feature.y)]],
                    ]
                    switch feature.feature {
                    case .cluster(let cluster):
                        object["tags"] = properties(cluster, sum: sum)
                        object["id"] = .integer(cluster.id)
                    case .point(let point):
                        object["tags"] = point.element.properties
                        if let id = point.element.id { object["id"] = id }
                    }
                    return .object(object)
                })
        ]
    }

    static func encode(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
