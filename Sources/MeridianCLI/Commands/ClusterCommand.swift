import Foundation
import GeoCluster
import GeoCore

/// `meridian cluster --input FILE --zoom Z`: supercluster-compatible clusters as GeoJSON.
enum ClusterCommand: Subcommand {
    static let name = "cluster"
    static let summary = "cluster points as supercluster does (GeoJSON out)"
    static let valueOptions: Set<String> = [
        "input", "zoom", "bbox", "radius", "extent", "max-zoom", "min-zoom", "min-points", "tile",
        "sum", "min", "max", "mean", "count", "leaves", "children", "expansion-zoom", "limit",
        "offset",
    ]
    static let help = """
        Usage: meridian cluster --input FILE (--zoom Z [--bbox W,S,E,N] | --tile Z/X/Y
                                | --children ID | --leaves ID [--limit N --offset K]
                                | --expansion-zoom ID) [options]
               meridian cluster --live [options]   (a stream of changes on standard input)

        Clusters points exactly as supercluster 8.0.1 does, and answers supercluster's questions:
          --zoom Z [--bbox W,S,E,N]  the clusters and points at zoom Z inside the box (default the
                                     whole world) as a GeoJSON FeatureCollection (getClusters)
          --tile Z/X/Y               supercluster's getTile object for a tile (tile-pixel geometry,
                                     tags, id), or null for an empty tile
          --children ID              the clusters and points a cluster splits into one zoom in
                                     (getChildren), as a FeatureCollection
          --leaves ID                the points of a cluster, --limit N (default 10, 0 for all)
                                     from --offset K (default 0) (getLeaves)
          --expansion-zoom ID        the zoom at which a cluster splits (getClusterExpansionZoom)
        Clusters carry supercluster's properties cluster, cluster_id, point_count and
        point_count_abbreviated; a GeoJSON point comes back exactly as it was given (its id,
        properties, bbox, altitude and other members), a CSV record as a Point feature.

        Input (FILE, or - for standard input): CSV records lon,lat[,category] (a header may name
        lon, lat and category/kind/type; points only cluster with points of the same category,
        points without one with each other, in both modes;
        CRLF, ';' or tab separators, quotes and a byte-order mark are fine) or GeoJSON Point
        features. Bad CSV records are reported on standard error with their line and column and
        left out (exit code 2); points beyond Web Mercator's ±85.05° are clustered at the map's
        edge, as supercluster does, and counted on standard error. Input without points is an
        empty index, as in supercluster: no features, a null tile (with a note on standard error).

        Live (--live): standard input is a stream of lines
          insert KEY LAT LON [CATEGORY] | move KEY LAT LON | remove KEY
          view WEST SOUTH EAST NORTH ZOOM | commit (or a blank line) | # comment
        and each batch of changes (ended by a blank or commit line, a view line or the end)
        is answered with one JSON line: {"line", "batch", "applied", "count"} and, once a view
        is set, the features that "appeared" (with the "source" they came from), "disappeared"
        (with their "destination") and "changed" in the view. A view line answers with every
        feature in the new view; its ZOOM is read as getClusters reads it (floored and clamped to
        --min-zoom...--max-zoom + 1), and echoed as given. A bad line is answered with
        {"line", "error", "kind"} and changes nothing: its batch is applied as if it were not
        there. Clusters keep their id while their first element and zoom stay; a point carries
        its key and category. The live index takes --radius, --extent, --min-zoom, --max-zoom
        and --min-points up to 2;
        the aggregates (--sum, --min, --max, --mean, --count) and --generate-id are for files.

        Options:
          --radius R      cluster radius in pixels, more than 0 (default 40)
          --extent E      tile extent in pixels, more than 0 (default 512)
          --max-zoom M    highest zoom with clusters, 0-30 (default 16)
          --min-zoom M    lowest zoom with clusters (default 0)
          --min-points P  fewest points in a cluster (default 2)
          --generate-id   in --tile, give points their input index as id (supercluster's generateId)
          --sum P         each cluster carries the sum of the numeric property P, named P
                          (supercluster's map/reduce)
          --min P, --max P, --mean P
                          the smallest, largest and mean value of P, named min_P, max_P and
                          mean_P (mean_P is {"mean": m, "count": n, "sum": s}: m is s / n,
                          n the points with a number; where s overflows, null, and m the
                          weighted mean of the parts' means)
          --count P       how many points have each value of P, named count_P ({"value": n};
                          numbers spelled as JavaScript spells them, so 1, 1.0 and 1e0 are
                          one value "1")
          Aggregates read a point's properties as the output reports them (a CSV point's
          category too); each of --sum, --min, --max, --mean and --count is given once.
          --json          accepted for symmetry with the other commands; the output is always JSON

        Examples:
          meridian cluster --input places.geojson --zoom 3 --bbox -30,30,40,70
          meridian cluster --input points.csv --tile 2/1/1 --radius 60 --generate-id
          meridian cluster --input places.geojson --leaves 164 --limit 0 --sum scalerank
          printf 'view 8 47 9 48 12\\ninsert bus-1 47.37 8.54\\n' | meridian cluster --live

        \(ExitCode.table)

        """

    /// What the command is asked.
    private enum Question {
        case clusters(zoom: Double, box: BoundingBox)
        case tile(TileID)
        case children(Int)
        case leaves(Int, limit: Int, offset: Int)
        case expansionZoom(Int)
    }

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        _ = arguments.flag("json")  // the output is always JSON
        var options = ClusterOptions()
        if let v = try arguments.number("radius") { options.radius = v }
        if let v = try arguments.number("extent") { options.extent = v }
        if let v = try arguments.integer("max-zoom") { options.maxZoom = v }
        if let v = try arguments.integer("min-zoom") { options.minZoom = v }
        if let v = try arguments.integer("min-points") { options.minPoints = v }
        if arguments.flag("live") {
            for name in ["sum", "min", "max", "mean", "count"] where arguments.option(name) != nil {
                throw UsageError("--\(name) is for --input files; a live index keeps no aggregates")
            }
            if arguments.flag("generate-id") {
                throw UsageError(
                    "--generate-id is for --input files; live clusters have their own ids")
            }
            try finish(&arguments, options: options)
            guard options.minPoints <= 2 else {
                throw UsageError("--live takes --min-points 2 at most")
            }
            return LiveClusterMode.run(options: options, console: console)
        }
        guard let path = arguments.option("input") else {
            throw UsageError("--input FILE is required")
        }
        let generateID = arguments.flag("generate-id")
        var aggregates = [
            (name: String, property: String, aggregation: ClusterAggregation<PointFeature>)
        ]()
        // The aggregates read the properties a point is reported with (a CSV point's category
        // among them), as supercluster's map reads what getClusters returns.
        func numeric(_ property: String) -> (PointFeature) -> Double {
            { pointProperties($0)[property]?.doubleValue ?? .nan }
        }
        if let p = arguments.option("sum") {
            aggregates.append((p, p, .sum { pointProperties($0)[p]?.doubleValue ?? 0 }))
        }
        if let p = arguments.option("min") {
            aggregates.append(("min_" + p, p, .minimum(numeric(p))))
        }
        if let p = arguments.option("max") {
            aggregates.append(("max_" + p, p, .maximum(numeric(p))))
        }
        if let p = arguments.option("mean") {
            aggregates.append(("mean_" + p, p, .mean(numeric(p))))
        }
        if let p = arguments.option("count") {
            aggregates.append(
                (
                    "count_" + p, p,
                    .counts { feature in
                        // Keys as JavaScript spells the values (supercluster's reduce keyed by
                        // String(v)): equal numbers share one, however the input wrote them.
                        switch pointProperties(feature)[p] {
                        case .string(let s)?: s
                        case .integer(let n)?: NumberText.javaScript(Double(n))
                        case .number(let d)?: NumberText.javaScript(d)
                        case .bool(let b)?: String(b)
                        default: "null"
                        }
                    }
                ))
        }
        let question = try question(&arguments)
        try finish(&arguments, options: options)

        let data: Data
        do {
            data = try readInput(path, console: console)
        } catch {
            console.printError("meridian cluster: \(error.message)")
            return ExitCode.failure
        }
        var bad = false
        let points: [PointFeature]
        do {
            let records = try PointFeature.records(data)
            for record in records {
                if case .failure(let error) = record.value {
                    bad = true
                    console.printError(
                        "meridian cluster: \(printable(path)): line \(record.line)\(error.column.map { ", column \($0)" } ?? ""): \(error.message)"
                    )
                }
            }
            points = records.values()
        } catch {
            console.printError("meridian cluster: \(printable(path)): \(error.message)")
            return ExitCode.badInput
        }
        if points.isEmpty {
            // Answered as supercluster answers an empty index: no features, a null tile, and no
            // cluster for any id. The note says why.
            console.printError("meridian cluster: note: \(printable(path)) holds no points")
        }
        let beyond = points.filter {
            guard let c = $0.coordinate else { return false }
            return abs(c.latitude) > WebMercator.maximumLatitude
        }.count
        if beyond > 0 {
            console.printError(
                "meridian cluster: \(beyond) point\(beyond == 1 ? " lies" : "s lie") beyond Web Mercator's ±\(WebMercator.maximumLatitude)° and \(beyond == 1 ? "is" : "are") clustered at the edge of the map, as supercluster does"
            )
        }
        do {
            let hasCategories = points.contains { $0.category != nil }
            let aggregation: ClusterAggregation<PointFeature>? =
                aggregates.isEmpty
                ? nil : .combined(aggregates.map { ($0.name, $0.aggregation) })
            let index = try ClusterIndex(
                points, options: options, coordinate: { $0.coordinate },
                clusteringIdentifier: hasCategories ? { categoryIdentifier($0) } : nil,
                aggregation: aggregation)
            let names = aggregates.map(\.name)
            switch question {
            case .clusters(let zoom, let box):
                let features = index.clusters(in: box, zoom: zoom).map {
                    geoJSON($0, aggregates: names)
                }
                console.print(
                    jsonText(["type": "FeatureCollection", "features": .array(features)]))
            case .tile(let tile):
                console.print(
                    jsonText(
                        tileObject(index.tile(tile), aggregates: names, generateID: generateID)))
            case .children(let id):
                let features = try index.children(of: id).map { geoJSON($0, aggregates: names) }
                console.print(
                    jsonText(["type": "FeatureCollection", "features": .array(features)]))
            case .leaves(let id, let limit, let offset):
                let leaves = try index.leaves(
                    of: id, limit: limit == 0 ? .max : limit, offset: offset)
                let features = leaves.map { geoJSON(.point($0), aggregates: names) }
                console.print(
                    jsonText(["type": "FeatureCollection", "features": .array(features)]))
            case .expansionZoom(let id):
                console.print(
                    jsonLine(["expansionZoom": .integer(try index.expansionZoom(of: id))]))
            }
            return bad ? ExitCode.badInput : ExitCode.success
        } catch {
            console.printError("meridian cluster: \(error.message)")
            return ExitCode.badInput
        }
    }

    /// Refuses unknown options, positional arguments and invalid cluster options.
    private static func finish(
        _ arguments: inout Arguments, options: ClusterOptions
    ) throws(UsageError) {
        try arguments.rejectUnknown()
        guard arguments.positional.isEmpty else {
            throw UsageError("unexpected argument \(GeoError.quoted(arguments.positional[0]))")
        }
        do {
            _ = try options.validated()
        } catch {
            throw UsageError(error.message)
        }
    }

    /// The one question the options ask.
    private static func question(_ arguments: inout Arguments) throws(UsageError) -> Question {
        var asked = [Question]()
        if let z = try arguments.number("zoom") {
            var box = BoundingBox(west: -180, south: -90, east: 180, north: 90)
            if let text = arguments.option("bbox") {
                let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
                    Double($0.trimmingCharacters(in: .whitespaces))
                }
                guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2],
                    let n = parts[3], w.isFinite, s.isFinite, e.isFinite, n.isFinite
                else {
                    throw UsageError(
                        "--bbox: \(GeoError.quoted(text)) is not W,S,E,N (four finite numbers)")
                }
                guard s <= n else {
                    throw UsageError("--bbox: south \(s) is north of north \(n)")
                }
                box = BoundingBox(west: w, south: s, east: e, north: n)
            }
            asked.append(.clusters(zoom: z, box: box))
        } else if arguments.option("bbox") != nil {
            throw UsageError("--bbox needs --zoom Z")
        }
        if let text = arguments.option("tile") {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false).map {
                Int($0)
            }
            guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2] else {
                throw UsageError("--tile: \(GeoError.quoted(text)) is not Z/X/Y")
            }
            do throws(GeoError) {
                asked.append(.tile(try TileID(x: x, y: y, zoom: z)))
            } catch {
                throw UsageError("--tile: \(error.message)")
            }
        }
        if let id = try arguments.integer("children") { asked.append(.children(id)) }
        let limit = try arguments.integer("limit"), offset = try arguments.integer("offset")
        if let id = try arguments.integer("leaves") {
            guard (limit ?? 10) >= 0, (offset ?? 0) >= 0 else {
                throw UsageError("--limit and --offset must not be negative")
            }
            asked.append(.leaves(id, limit: limit ?? 10, offset: offset ?? 0))
        } else if limit != nil || offset != nil {
            throw UsageError("--limit and --offset go with --leaves ID")
        }
        if let id = try arguments.integer("expansion-zoom") { asked.append(.expansionZoom(id)) }
        guard asked.count == 1, let only = asked.first else {
            throw UsageError(
                asked.isEmpty
                    ? "ask one of --zoom Z, --tile Z/X/Y, --children ID, --leaves ID or --expansion-zoom ID"
                    : "ask only one of --zoom, --tile, --children, --leaves and --expansion-zoom")
        }
        return only
    }

    /// A point's clustering identifier: its category behind a "c", or "-" without one, so that
    /// points without a category cluster with each other, as in --live (an identifier of nil
    /// would leave them unclustered).
    static func categoryIdentifier(_ point: PointFeature) -> String? {
        point.category.map { "c" + $0 } ?? "-"
    }

    /// A cluster of the file's index with its category as the input spelled it (see
    /// ``categoryIdentifier(_:)``).
    static func withCategory(_ cluster: Cluster) -> Cluster {
        var cluster = cluster
        cluster.clusteringIdentifier = cluster.clusteringIdentifier.flatMap {
            $0.hasPrefix("c") ? String($0.dropFirst()) : nil
        }
        return cluster
    }

    /// supercluster's cluster properties, and the aggregates under their names; as in supercluster,
    /// `cluster`, `cluster_id`, `point_count` and `point_count_abbreviated` win over an aggregate
    /// of the same name.
    static func properties(_ cluster: Cluster, aggregates: [String]) -> JSONValue {
        var object = [String: JSONValue]()
        for name in aggregates { object[name] = cluster.aggregate?[name] ?? .null }
        object.merge(cluster.geoJSONProperties) { _, own in own }
        return .object(object)
    }

    /// A point's properties, with the aggregates' names filled in from its own values, so that a
    /// map styles clusters and points alike.
    static func pointProperties(_ feature: PointFeature) -> JSONValue {
        if let category = feature.category { return ["category": .string(category)] }
        return feature.properties
    }

    static func geoJSON(_ feature: ClusterFeature<PointFeature>, aggregates: [String]) -> JSONValue
    {
        switch feature {
        case .cluster(let cluster):
            return [
                "type": "Feature", "id": .integer(cluster.id),
                "properties": properties(withCategory(cluster), aggregates: aggregates),
                "geometry": [
                    "type": "Point",
                    "coordinates": [
                        .number(cluster.coordinate.longitude), .number(cluster.coordinate.latitude),
                    ],
                ],
            ]
        case .point(let point):
            // A GeoJSON input feature comes back as it was given, as supercluster returns it.
            if let given = point.element.feature { return given }
            var object: [String: JSONValue] = [
                "type": "Feature", "properties": pointProperties(point.element),
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

    static func tileObject(
        _ tile: ClusterTile<PointFeature>?, aggregates: [String], generateID: Bool
    ) -> JSONValue {
        guard let tile else { return .null }
        return [
            "features": .array(
                tile.features.map { feature in
                    var object: [String: JSONValue] = [
                        "type": 1, "geometry": [[.integer(feature.x), .integer(feature.y)]],
                    ]
                    switch feature.feature {
                    case .cluster(let cluster):
                        object["tags"] = properties(withCategory(cluster), aggregates: aggregates)
                        object["id"] = .integer(cluster.id)
                    case .point(let point):
                        // A feature without `properties` has no tags, as in supercluster.
                        if let given = point.element.feature {
                            if let tags = given["properties"] { object["tags"] = tags }
                        } else {
                            // As --zoom reports it: a CSV point's category.
                            object["tags"] = pointProperties(point.element)
                        }
                        if generateID {
                            object["id"] = .integer(point.index)
                        } else if let id = point.element.id {
                            object["id"] = id
                        }
                    }
                    return .object(object)
                })
        ]
    }
}
