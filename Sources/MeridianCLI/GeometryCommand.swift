import Foundation
import GeoCore

/// `meridian geometry OPERATION`: measures and operations on WKT or GeoJSON geometries.
enum GeometryCommand: Subcommand {
    static let name = "geometry"
    static let summary = "area, length, buffer, hulls, simplify, validity of WKT/GeoJSON"
    static let valueOptions: Set<String> = [
        "meters", "tolerance", "point", "ratio", "format", "decimals",
    ]
    static let help = """
        Usage: meridian geometry OPERATION [FILE] [options]

        Reads one geometry as WKT, or GeoJSON (a geometry, a Feature or a FeatureCollection), from FILE
        or standard input, with x = longitude and y = latitude in degrees, and runs OPERATION on it (on
        every geometry of a GeoJSON document):

          area                 geodesic area on WGS84, square meters
          length               geodesic length on WGS84, meters (the perimeter for polygons)
          buffer --meters M    the points within M meters (negative erodes polygons)
          hull                 the convex hull
          concave-hull         a concave hull (--ratio R in [0, 1], default 0.3; 1 is the convex hull)
          simplify --tolerance T
                               topology-preserving simplification, T in degrees
          validate             "valid", or "invalid: reason at x y"
          make-valid           a valid geometry covering the same points
          contains --point LAT,LON
                               whether the point lies inside (exact)

        Geometries are written as the input was (WKT or GeoJSON; a Feature keeps its properties)
        unless --format says otherwise. Malformed input is reported with its position and exit code 1.

        Options:
          --format wkt|geojson   output format for geometries
          --decimals N           decimals of written coordinates (default: shortest exact)
          --json                 measures and answers as JSON objects

        Examples:
          echo 'POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))' | meridian geometry area
          echo 'POINT (2.35 48.86)' | meridian geometry buffer --meters 500 --format geojson
          meridian geometry contains --point 48.86,2.35 paris.geojson

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let meters = try arguments.number("meters")
        let tolerance = try arguments.number("tolerance")
        let ratio = try arguments.number("ratio")
        let pointText = arguments.option("point")
        let outputFormat = arguments.option("format")
        let decimals = try arguments.integer("decimals")
        let json = arguments.flag("json")
        try arguments.rejectUnknown()
        guard let operation = arguments.positional.first else {
            throw UsageError("missing OPERATION")
        }
        guard arguments.positional.count <= 2 else {
            throw UsageError("unexpected argument '\(arguments.positional[2])'")
        }
        if let outputFormat, outputFormat != "wkt" && outputFormat != "geojson" {
            throw UsageError("unknown format '\(outputFormat)' (use wkt or geojson)")
        }
        if let decimals, !(0...17).contains(decimals) {
            throw UsageError("--decimals \(decimals) is outside 0...17")
        }

        let producesGeometry = ["buffer", "hull", "concave-hull", "simplify", "make-valid"]
            .contains(operation)
        // What to do with each geometry: a measure or answer (text), or a new geometry.
        enum Result { case text(String, JSONValue), geometry(Geometry) }
        let apply: (Geometry) throws(GeoError) -> Result
        switch operation {
        case "area":
            apply = { (g) throws(GeoError) in
                let a = try g.geodesicArea();
                return .text("\(format(a, decimals: 3)) m²", ["area": .number(a)])
            }
        case "length":
            apply = { (g) throws(GeoError) in
                let length = try g.geodesicLength() + g.geodesicPerimeter()
                return .text("\(format(length, decimals: 3)) m", ["length": .number(length)])
            }
        case "buffer":
            guard let meters else { throw UsageError("buffer needs --meters M") }
            apply = { (g) throws(GeoError) in .geometry(try g.buffer(meters: meters)) }
        case "hull":
            apply = { (g) throws(GeoError) in .geometry(try g.convexHull()) }
        case "concave-hull":
            let r = ratio ?? 0.3
            guard (0...1).contains(r) else { throw UsageError("--ratio \(r) is outside [0, 1]") }
            apply = { (g) throws(GeoError) in .geometry(try g.concaveHull(ratio: r)) }
        case "simplify":
            guard let tolerance else { throw UsageError("simplify needs --tolerance T") }
            guard tolerance >= 0 else {
                throw UsageError("--tolerance \(tolerance) must not be negative")
            }
            apply = { (g) throws(GeoError) in .geometry(try g.simplified(tolerance: tolerance)) }
        case "validate":
            apply = { (g) throws(GeoError) in
                let report = try g.validity()
                var object: [String: JSONValue] = ["valid": .bool(report.isValid)]
                if let reason = report.reason { object["reason"] = .string(reason) }
                if let p = report.location { object["location"] = [.number(p.x), .number(p.y)] }
                if report.isValid { return .text("valid", .object(object)) }
                let at =
                    report.location.map {
                        " at \(NumberText.shortest($0.x)) \(NumberText.shortest($0.y))"
                    } ?? ""
                return .text("invalid: \(report.reason ?? "unknown reason")\(at)", .object(object))
            }
        case "make-valid":
            apply = { (g) throws(GeoError) in .geometry(try g.makeValid()) }
        case "contains":
            guard let pointText else { throw UsageError("contains needs --point LAT,LON") }
            let parts = pointText.split(separator: ",")
            guard parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)),
                let coordinate = try? Coordinate(validatingLatitude: lat, longitude: lon)
            else { throw UsageError("--point '\(pointText)' is not LAT,LON in degrees") }
            apply = { (g) throws(GeoError) in
                let inside = g.contains(coordinate)
                return .text(inside ? "true" : "false", ["contains": .bool(inside)])
            }
        default:
            throw UsageError("unknown operation '\(operation)'")
        }

        // Read the input.
        let data: Data
        if arguments.positional.count == 2 {
            let path = arguments.positional[1]
            guard let contents = FileManager.default.contents(atPath: path) else {
                console.printError("meridian geometry: cannot read '\(path)'")
                return ExitCode.failure
            }
            data = contents
        } else {
            data = console.readAll()
        }
        let isGeoJSON =
            data.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) })
            == UInt8(ascii: "{")
        let document: GeoJSON
        do {
            if isGeoJSON {
                document = try GeoJSON(data: data)
            } else {
                document = .geometry(
                    try Geometry(
                        wkt: String(decoding: data, as: UTF8.self).trimmingCharacters(
                            in: .whitespacesAndNewlines)))
            }
        } catch {
            console.printError("meridian geometry: \(error.message)")
            return ExitCode.failure
        }
        let asGeoJSON = outputFormat.map { $0 == "geojson" } ?? isGeoJSON

        func write(_ g: Geometry) -> String {
            if asGeoJSON {
                guard let decimals else { return g.geoJSON }
                return g.mapPositions { p in
                    Position(
                        x: rounded(p.x, decimals), y: rounded(p.y, decimals),
                        z: p.z.map { rounded($0, decimals) })
                }.geoJSON
            }
            return decimals.map { g.wkt(decimals: $0) } ?? g.wkt
        }
        func emit(_ result: Result, label: String?) {
            switch result {
            case .text(let text, let object):
                if json {
                    var fields = object.objectValue ?? [:]
                    if let label { fields["feature"] = .string(label) }
                    console.print(jsonLine(fields))
                } else {
                    console.print(label.map { "\($0): \(text)" } ?? text)
                }
            case .geometry(let g):
                console.print(write(g))
            }
        }

        do {
            switch document {
            case .geometry(let g):
                emit(try apply(g), label: nil)
            case .feature(var feature):
                guard let g = feature.geometry else {
                    console.printError("meridian geometry: the feature has no geometry")
                    return ExitCode.failure
                }
                let result = try apply(g)
                if case .geometry(let out) = result, asGeoJSON {
                    feature.geometry = out
                    console.print(feature.jsonText)
                } else {
                    emit(result, label: nil)
                }
            case .featureCollection(var collection):
                var failed = false
                var texts = [String]()
                for i in collection.features.indices {
                    let label: String
                    switch collection.features[i].id {
                    case .string(let s)?: label = s
                    case .integer(let n)?: label = String(n)
                    case .number(let d)?: label = NumberText.shortest(d)
                    case nil: label = "feature \(i)"
                    }
                    guard let g = collection.features[i].geometry else { continue }
                    do {
                        switch try apply(g) {
                        case .geometry(let out):
                            collection.features[i].geometry = out
                            if !asGeoJSON { texts.append(write(out)) }
                        case let other:
                            emit(other, label: label)
                        }
                    } catch {
                        console.printError("meridian geometry: \(label): \(error.message)")
                        failed = true
                    }
                }
                if producesGeometry {
                    if asGeoJSON {
                        console.print(collection.jsonText)
                    } else {
                        texts.forEach { console.print($0) }
                    }
                }
                return failed ? ExitCode.partialFailure : ExitCode.success
            }
        } catch {
            console.printError("meridian geometry: \(error.message)")
            return ExitCode.failure
        }
        return ExitCode.success
    }

    private static func rounded(_ value: Double, _ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}

/// Shortest exact text of a number, as WKT writes it.
enum NumberText {
    static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 0x1p53 { return String(Int64(value)) }
        return "\(value)"
    }
}
