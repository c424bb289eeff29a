import Foundation
import GeoCore

/// `meridian geometry OPERATION`: measures and operations on WKT or GeoJSON geometries.
enum GeometryCommand: Subcommand {
    static let name = "geometry"
    static let summary =
        "area, length, buffer, hulls, simplify, validity, containment of WKT/GeoJSON"
    static let valueOptions: Set<String> = [
        "meters", "tolerance", "point", "ratio", "format", "decimals",
    ]
    static let help = """
        Usage: meridian geometry OPERATION [FILE] [options]

        Reads geometries with x = longitude and y = latitude in degrees from FILE or standard
        input, either as one GeoJSON document (a geometry, a Feature or a FeatureCollection: the
        operation runs on every geometry of it), or one geometry per line, as WKT or as GeoJSON
        (each line on its own, so the two may be mixed; a line's GeoJSON must hold exactly one
        geometry) in batch mode: one output line per input line, see below. Operations:

          area                 geodesic area on WGS84, square meters, with each edge taken
                               as a geodesic; the rings bound the same side as for contains
                               (a ring around a pole that reaches it bounds that pole's cap,
                               a box cut at ±180° (RFC 7946) is taken as written)
          length               geodesic length on WGS84, meters (the perimeter for polygons)
          buffer --meters M    the points within M meters (negative erodes polygons); a point's
                               buffer is its geodesic circle at any distance (vertices on the
                               exact circle, at most 10 km apart, chords between them), other
                               geometries may reach at most 2 500 km from their center
          hull                 the convex hull, in the plane of longitude and latitude
          concave-hull         a concave hull (--ratio R in [0, 1], default 0.3; 1 is the convex
                               hull), in that plane; GEOS's triangulation of points that lie
                               almost on one circle (a buffer's 300,000 vertices) can take
                               minutes
          simplify --tolerance M
                               topology-preserving simplification within M meters on the
                               ellipsoid (with --planar, M in coordinate units)
          validate             "valid", or "invalid: reason at x y", by GEOS's rules in the plane
                               of longitude and latitude (a ring around a pole or across the
                               180th meridian as written is invalid there, though area and
                               contains take it as it is on the globe)
          make-valid           a valid geometry covering the same points in that plane; parts that
                               collapse to lines or points are kept (as shapely does) unless
                               --drop-collapsed
          contains --point LAT,LON [FILE]
                               whether the point lies inside each geometry, on the globe: rings
                               across the 180th meridian, around a pole, or cut at ±180° (RFC
                               7946) mean what they mean on the Earth, and a point on a ring
                               counts as inside. Edges are straight in longitude and latitude
                               (RFC 7946), not geodesics as for area: the two part by about
                               L² |tan(lat)| / 8R for an east-west edge L long (2 m for 10 km
                               at 45°, km for edges of hundreds of km; slanted edges part too,
                               near the equator as well). With --planar, GEOS's contains
                               in the plane, where a point on a ring is outside
          contains FILE        the same for many points: one "LAT LON" per line of standard input

        Geometries are written as the input was (WKT or GeoJSON, in batch mode each line as that
        line was; a Feature keeps its id, properties and other members, but not a bbox, which
        described the geometry replaced) unless --format says otherwise. GeoJSON output follows
        RFC 7946's right-hand rule (exterior rings counterclockwise, holes clockwise; empty
        rings left out). In a
        FeatureCollection, a feature whose geometry could not be made gets a null geometry (as
        WKT, "error: FEATURE: ..." in its place), its error goes to standard error and the exit
        code is 2.

        In batch mode (one WKT or GeoJSON geometry per line) every input line gets exactly one
        output line, in order: the answer; for a bad line an error record in its place ("error:
        line N: ..." as text, {"line":N,"error":...,"kind":...} as JSON) with the same message on
        standard error; for a blank or # line an empty line ({"line":N,"skipped":true} as JSON).
        Where the answers are GeoJSON geometries (every line GeoJSON, or --format geojson), error
        records and skipped lines are JSON objects too, so every line parses. UTF-16 input gets
        one error record for the whole input. Errors give the line, and the column where the
        reader knows it.

        Options:
          --format wkt|geojson   output format for geometries
          --decimals N           decimals of written coordinates (default: shortest exact)
          --planar               contains and simplify in the plane of longitude and latitude
          --drop-collapsed       make-valid: leave out parts that collapse (a polygon
                                 that became lines or points; a collection's other
                                 members stay)
          --json                 measures and answers as JSON objects

        Examples:
          echo 'POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))' | meridian geometry area
          echo 'POINT (2.35 48.86)' | meridian geometry buffer --meters 500 --format geojson
          meridian geometry contains --point 48.86,2.35 paris.geojson
          meridian geometry contains countries.geojson < points.txt

        \(ExitCode.table)

        """

    /// What an operation gives for one geometry: a measure or answer, or a new geometry.
    enum Outcome {
        case text(String, [String: JSONValue])
        case geometry(Geometry)
    }

    /// How the output is written.
    struct Output {
        var json: Bool
        var geoJSON: Bool
        var decimals: Int?

        func write(_ g: Geometry) -> String {
            if geoJSON { return rounded(g).geoJSON }
            return decimals.map { g.wkt(decimals: $0) } ?? g.wkt
        }

        /// The geometry for GeoJSON: its coordinates rounded to `decimals` (WKT rounds as it
        /// writes), its rings following RFC 7946's right-hand rule.
        func rounded(_ g: Geometry) -> Geometry {
            guard let decimals else { return g.followingRightHandRule() }
            return g.followingRightHandRule().mapPositions { p in
                Position(
                    x: GeometryCommand.rounded(p.x, decimals),
                    y: GeometryCommand.rounded(p.y, decimals),
                    z: p.z.map { GeometryCommand.rounded($0, decimals) })
            }
        }

        /// A line's answer. A geometry answer to a Feature's line is, as GeoJSON, that Feature
        /// with the geometry in place of its own; as a JSON record, the geometry with the
        /// Feature's `id` and `properties` beside it.
        func answer(_ outcome: Outcome, feature: Feature? = nil) -> Answer {
            switch outcome {
            case .text(let text, let object): return Answer(text: text, json: object)
            case .geometry(let g):
                var record: [String: JSONValue] = [
                    "geometry":
                        (try? JSONDecoder().decode(
                            JSONValue.self, from: Data(rounded(g).geoJSON.utf8))) ?? .null
                ]
                guard var feature else { return Answer(text: write(g), json: record) }
                feature.geometry = rounded(g)
                feature.bbox = nil  // it described the geometry replaced
                if case .object(let members) = feature.jsonValue {
                    for key in ["id", "properties"] { record[key] = members[key] }
                }
                return Answer(text: geoJSON ? feature.jsonText : write(g), json: record)
            }
        }
    }

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let meters = try arguments.number("meters")
        let tolerance = try arguments.number("tolerance")
        let ratio = try arguments.number("ratio")
        let pointText = arguments.option("point")
        let outputFormat = arguments.option("format")
        let decimals = try arguments.integer("decimals")
        let json = arguments.flag("json")
        let planar = arguments.flag("planar")
        let dropCollapsed = arguments.flag("drop-collapsed")
        try arguments.rejectUnknown()
        guard let operation = arguments.positional.first else {
            throw UsageError("missing OPERATION")
        }
        guard arguments.positional.count <= 2 else {
            throw UsageError("unexpected argument \(GeoError.quoted(arguments.positional[2]))")
        }
        if let outputFormat, outputFormat != "wkt" && outputFormat != "geojson" {
            throw UsageError("unknown format \(GeoError.quoted(outputFormat)) (use wkt or geojson)")
        }
        if let decimals, !(0...17).contains(decimals) {
            throw UsageError("--decimals \(decimals) is outside 0...17")
        }
        let file = arguments.positional.count == 2 ? arguments.positional[1] : nil

        let apply: (Geometry) throws(GeoError) -> Outcome
        switch operation {
        case "area":
            apply = { (g) throws(GeoError) in
                let a = try g.geodesicArea()
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
            guard let tolerance else { throw UsageError("simplify needs --tolerance M") }
            guard tolerance >= 0 else {
                throw UsageError("--tolerance \(tolerance) must not be negative")
            }
            apply = { (g) throws(GeoError) in
                .geometry(
                    planar
                        ? try g.simplified(tolerance: tolerance)
                        : try g.simplified(meters: tolerance))
            }
        case "validate":
            apply = { (g) throws(GeoError) in
                let report = try g.validity()
                var object: [String: JSONValue] = ["valid": .bool(report.isValid)]
                if let reason = report.reason { object["reason"] = .string(reason) }
                if let p = report.location { object["location"] = [.number(p.x), .number(p.y)] }
                if report.isValid { return .text("valid", object) }
                let at =
                    report.location.map {
                        " at \(NumberText.shortest($0.x)) \(NumberText.shortest($0.y))"
                    } ?? ""
                return .text("invalid: \(report.reason ?? "unknown reason")\(at)", object)
            }
        case "make-valid":
            func repaired(_ g: Geometry) throws(GeoError) -> Geometry {
                dropCollapsed
                    ? try g.makeValidWithoutCollapsedParts()
                    : try g.makeValid(method: .linework, keepCollapsed: true)
            }
            apply = { (g) throws(GeoError) in .geometry(try repaired(g)) }
        case "contains":
            if let pointText {
                let coordinate = try Self.point(pointText)
                apply = { (g) throws(GeoError) in
                    let inside = try Self.contains(g, coordinate, planar: planar)
                    return .text(inside ? "true" : "false", ["contains": .bool(inside)])
                }
            } else {
                guard let file else {
                    throw UsageError(
                        "contains needs --point LAT,LON, or a FILE whose geometry is tested against the points on standard input"
                    )
                }
                return containsMany(
                    file, planar: planar, json: json, console: console)
            }
        default:
            throw UsageError("unknown operation \(GeoError.quoted(operation))")
        }

        let data: Data
        do {
            data = try readInput(file, console: console)
        } catch {
            console.printError("meridian geometry: \(error.message)")
            return ExitCode.failure
        }
        // --format, when given, decides the output's format; otherwise the input does.
        let formatIsGeoJSON = outputFormat.map { $0 == "geojson" }
        var output = Output(json: json, geoJSON: formatIsGeoJSON ?? false, decimals: decimals)
        let givesGeometry = ["buffer", "hull", "concave-hull", "simplify", "make-valid"].contains(
            operation)
        // Answers that are GeoJSON geometries get JSON error records, so every line parses.
        func makeBatch() -> Batch {
            Batch(
                command: name, json: json, jsonRecords: json || (output.geoJSON && givesGeometry),
                console: console)
        }
        switch Input.read(data) {
        case .document(let document):
            output.geoJSON = formatIsGeoJSON ?? true
            return runDocument(
                document, apply: apply, givesGeometry: givesGeometry, output: output,
                console: console)
        case .lines(let lines, let geoJSON):
            output.geoJSON = formatIsGeoJSON ?? geoJSON
            var batch = makeBatch()
            for line in lines {
                switch line.value {
                case nil: batch.skip(line: line.number)
                case .failure(let error)?: batch.emit(line: line.number, .failure(error))
                case .success(let g)?:
                    // Each line's geometry is written as that line was (they may be mixed).
                    var lineOutput = output
                    lineOutput.geoJSON = formatIsGeoJSON ?? line.geoJSON
                    let result = Result { () throws(GeoError) -> Outcome in try apply(g) }
                    batch.emit(
                        line: line.number,
                        result.map { lineOutput.answer($0, feature: line.feature) })
                }
            }
            return batch.exitCode
        case .malformed(let error):
            // One error record stands for the whole input, as in the other batch commands.
            var batch = makeBatch()
            batch.emit(line: 1, .failure(error))
            return batch.exitCode
        }
    }

    /// Runs an operation on a GeoJSON document: the geometry, the feature's geometry, or each
    /// feature's geometry of a collection.
    private static func runDocument(
        _ document: GeoJSON, apply: (Geometry) throws(GeoError) -> Outcome, givesGeometry: Bool,
        output: Output, console: Console
    ) -> Int32 {
        func emit(_ outcome: Outcome, label: String?) {
            switch outcome {
            case .text(let text, var object):
                if output.json {
                    if let label { object["feature"] = .string(label) }
                    console.print(jsonLine(object))
                } else {
                    console.print(label.map { "\($0): \(text)" } ?? text)
                }
            case .geometry(let g):
                console.print(output.write(g))
            }
        }
        do {
            switch document {
            case .geometry(let g):
                emit(try apply(g), label: nil)
            case .feature(var feature):
                guard let g = feature.geometry else {
                    console.printError("meridian geometry: the feature has no geometry")
                    return ExitCode.badInput
                }
                let outcome = try apply(g)
                if case .geometry(let out) = outcome, output.geoJSON {
                    feature.geometry = output.rounded(out)
                    feature.bbox = nil  // it described the geometry replaced
                    console.print(feature.jsonText)
                } else {
                    emit(outcome, label: nil)
                }
            case .featureCollection(var collection):
                var failed = false
                // A collection in, a collection out, even when every feature failed.
                var producesGeometry = givesGeometry
                var texts = [String]()
                for i in collection.features.indices {
                    let label = Self.label(of: collection.features[i], index: i)
                    guard let g = collection.features[i].geometry else {
                        // Nothing to answer for it, but not in silence.
                        console.printError(
                            "meridian geometry: \(label) has no geometry (null); left out")
                        continue
                    }
                    do {
                        switch try apply(g) {
                        case .geometry(let out):
                            producesGeometry = true
                            collection.features[i].geometry = output.rounded(out)
                            collection.features[i].bbox = nil
                            if !output.geoJSON { texts.append(output.write(out)) }
                        case let other:
                            emit(other, label: label)
                        }
                    } catch {
                        console.printError(
                            "meridian geometry: \(label): \(error.message)")
                        failed = true
                        // A feature whose geometry could not be made keeps no geometry rather
                        // than its input's, which would pass for an answer; as text, its error
                        // takes its line.
                        collection.features[i].geometry = nil
                        texts.append("error: \(label): \(error.message)")
                    }
                }
                if producesGeometry {
                    // Bounding boxes described the geometries replaced.
                    collection.bbox = nil
                    if output.geoJSON {
                        console.print(collection.jsonText)
                    } else {
                        texts.forEach { console.print($0) }
                    }
                }
                return failed ? ExitCode.badInput : ExitCode.success
            }
        } catch {
            console.printError("meridian geometry: \(error.message)")
            return ExitCode.badInput
        }
        return ExitCode.success
    }

    /// `contains FILE`: the points on standard input against the geometry of a file.
    private static func containsMany(
        _ file: String, planar: Bool, json: Bool, console: Console
    ) -> Int32 {
        let features: [(label: String, geometry: Geometry)]
        do throws(GeoError) {
            let data = try readInput(file, console: console)
            switch Input.read(data) {
            case .document(let document):
                switch document {
                case .geometry(let g): features = [("geometry", g)]
                case .feature(let f):
                    features = f.geometry.map { [(label(of: f, index: 0), $0)] } ?? []
                case .featureCollection(let c):
                    features = c.features.enumerated().compactMap { i, f in
                        f.geometry.map { (label(of: f, index: i), $0) }
                    }
                }
            case .lines(let lines, _):
                var list = [(label: String, geometry: Geometry)]()
                for line in lines {
                    guard let value = line.value else { continue }
                    list.append(("line \(line.number)", try value.get()))
                }
                features = list
            case .malformed(let error):
                throw error
            }
        } catch {
            console.printError("meridian geometry: \(printable(file)): \(error.message)")
            return error.kind == .io ? ExitCode.failure : ExitCode.badInput
        }
        // Prepared once: geographic polygons (or the planar geometries).
        var shapes = [(label: String, test: (Coordinate) -> Bool)]()
        for (label, geometry) in features {
            if planar {
                shapes.append((label, { geometry.contains($0) }))
            } else {
                do {
                    let polygon = try GeographicPolygon(geometry)
                    shapes.append((label, polygon.contains))
                } catch {
                    console.printError(
                        "meridian geometry: \(printable(file)): \(label): \(error.message)"
                    )
                    return ExitCode.badInput
                }
            }
        }
        let many = shapes.count > 1
        return Batch.runLines(name, json: json, console: console) {
            (fields) throws(GeoError) in
            try expectFields(fields, ["LAT", "LON"])
            let point = try parseCoordinate(fields[0], fields[1])
            let inside = shapes.filter { $0.test(point) }.map(\.label)
            var object: [String: JSONValue] = ["contains": .bool(!inside.isEmpty)]
            if many { object["features"] = .array(inside.map { .string($0) }) }
            let text =
                (inside.isEmpty ? "false" : "true")
                + (many && !inside.isEmpty ? " " + inside.joined(separator: ", ") : "")
            return Answer(text: text, json: object)
        }
    }

    private static func contains(
        _ g: Geometry, _ point: Coordinate, planar: Bool
    ) throws(GeoError) -> Bool {
        planar ? g.contains(point) : try g.containsGeographically(point)
    }

    /// `--point LAT,LON`.
    private static func point(_ text: String) throws(UsageError) -> Coordinate {
        do throws(GeoError) {
            let fields = try splitJob(text)
            try expectFields(fields, ["LAT", "LON"])
            return try parseCoordinate(fields[0], fields[1])
        } catch {
            throw UsageError("--point \(GeoError.quoted(text)): \(error.message)")
        }
    }

    /// A feature's name in messages: its id, its name property, or its index.
    static func label(of feature: Feature, index: Int) -> String {
        switch feature.id {
        case .string(let s)?: return s
        case .integer(let n)?: return String(n)
        case .number(let d)?: return NumberText.shortest(d)
        case nil:
            return feature.properties["name"]?.stringValue ?? "feature \(index)"
        }
    }

    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}

/// How geometry input is laid out: one GeoJSON document, or one geometry per line.
enum Input {
    /// One line of line-based input: its geometry, or its error, or `nil` for a blank or comment.
    struct Line {
        var number: Int
        var value: Result<Geometry, GeoError>?
        /// Whether the line is GeoJSON (it starts with `{`) rather than WKT.
        var geoJSON = false
        /// The line's Feature when it is one, whose id, properties and other members its answer
        /// keeps (a collection's line is answered with the bare geometry).
        var feature: Feature?
    }

    case document(GeoJSON)
    case lines([Line], geoJSON: Bool)
    case malformed(GeoError)

    /// Text that starts with `{` and parses as one GeoJSON document is that document; anything else
    /// is one geometry per line, each line read on its own: GeoJSON when it starts with `{`, WKT
    /// otherwise (blank and `#` lines are skipped). Text that starts with `{` but is neither one
    /// document, nor lines whose first is a whole object, nor lines that each start with `{` or a
    /// letter (a document broken across lines) is malformed.
    ///
    /// Input that starts with UTF-16's byte-order mark is malformed as a whole (as the other
    /// commands refuse it); a line that is not UTF-8 is that line's error.
    static func read(_ data: Data) -> Input {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            return .malformed(
                GeoError(
                    .malformedInput,
                    "the input is UTF-16 (it starts with its byte-order mark); convert it to UTF-8, for example with iconv -f UTF-16 -t UTF-8"
                ))
        }
        let bytes = [UInt8](data)
        let text = String(decoding: bytes, as: UTF8.self)
        let start = Self.leading(text)
        let lines = Self.lines(of: bytes)
        // The lines that hold something, from their first character on.
        let content = lines.compactMap { try? $0.get() }.map(Self.leading).filter {
            !$0.isEmpty && !$0.hasPrefix("#")
        }
        if start.hasPrefix("{") {
            do throws(GeoError) {
                return .document(try GeoJSON(data: Array(data)))
            } catch {
                // Lines of a document broken across lines start with `"`, `}` or `]`; lines of
                // objects or WKT start with `{` or a letter, and each gets its own answer or
                // error (a single bad line too, and comment lines are skipped).
                // A stream of objects, one per line, starts with a whole object: then a bad
                // line is that line's error, whatever it starts with.
                let firstLineIsObject =
                    content.first.map { (try? GeoJSON(parsing: String($0))) != nil } ?? false
                guard
                    firstLineIsObject
                        || content.allSatisfy({ $0.hasPrefix("{") || $0.first?.isLetter == true })
                else { return .malformed(error) }
            }
        }
        let lineResults = parse(lines) { (text) throws(GeoError) -> (Geometry, Feature?) in
            guard Self.leading(text).hasPrefix("{") else { return (try Geometry(wkt: text), nil) }
            let document = try GeoJSON(parsing: text)
            let geometries = document.geometries
            guard geometries.count == 1 else {
                throw GeoError(
                    .malformedInput,
                    geometries.isEmpty
                        ? "the object has no geometry (a null geometry or no features)"
                        : "a line holds one geometry, this object has \(geometries.count) (give a collection as the whole input to answer each feature)"
                )
            }
            // A Feature's line comes back as that Feature; a collection's (of one located
            // feature) as the geometry, as it always has.
            if case .feature(let f) = document { return (geometries[0], f) }
            return (geometries[0], nil)
        }
        return .lines(
            lineResults, geoJSON: !content.isEmpty && content.allSatisfy { $0.hasPrefix("{") })
    }

    /// A line from its first character that is neither blank nor a byte-order mark (empty for a
    /// blank line).
    private static func leading(_ line: some StringProtocol) -> Substring {
        Substring(line).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
    }

    /// The lines of bytes, split at LF, CR LF and lone CR (a final line break does not start
    /// another line), each as text, or an error naming its first byte that is not UTF-8.
    private static func lines(of bytes: [UInt8]) -> [Result<Substring, GeoError>] {
        var lines = [Result<Substring, GeoError>]()
        var start = 0, i = 0
        func add(_ end: Int) {
            let line = bytes[start..<end]
            if let bad = UTF8Validation.firstInvalidByte(in: line) {
                let message = UTF8Validation.message(
                    byte: line[line.startIndex + bad], place: "at column \(bad + 1)")
                lines.append(.failure(GeoError(.malformedInput, message)))
            } else {
                lines.append(.success(Substring(String(decoding: line, as: UTF8.self))))
            }
        }
        while i < bytes.count {
            let b = bytes[i]
            guard b == 0x0A || b == 0x0D else {
                i += 1
                continue
            }
            add(i)
            i += b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
            start = i
        }
        if start < bytes.count { add(bytes.count) }
        return lines
    }

    private static func parse(
        _ lines: [Result<Substring, GeoError>],
        _ geometry: (String) throws(GeoError) -> (Geometry, Feature?)
    ) -> [Line] {
        lines.enumerated().map { index, line in
            let raw: Substring
            switch line {
            case .success(let text): raw = text
            case .failure(let error): return Line(number: index + 1, value: .failure(error))
            }
            let text = String(raw.drop { $0 == "\u{FEFF}" })
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty && !trimmed.hasPrefix("#") else {
                return Line(number: index + 1, value: nil)
            }
            let parsed = Result { () throws(GeoError) -> (Geometry, Feature?) in
                try geometry(text)
            }
            return Line(
                number: index + 1, value: parsed.map(\.0), geoJSON: trimmed.hasPrefix("{"),
                feature: (try? parsed.get())?.1)
        }
    }
}

/// Shortest exact text of a number, as WKT writes it.
enum NumberText {
    static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 0x1p53 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A finite number as JavaScript's `String(number)` spells it (ECMA-262 Number::toString):
    /// the shortest digits that read back the same, in plain notation from 10⁻⁶ up to below 10²¹
    /// ("1", "0.000001", "100", "123.45") and in exponent notation beyond ("1e-7", "1e+21");
    /// −0 is "0". Equal numbers have one spelling, whatever the input wrote (1, 1.0, 1e0).
    static func javaScript(_ value: Double) -> String {
        guard value.isFinite else {
            return value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity"
        }
        if value == 0 { return "0" }
        // Swift's description has the same shortest digits: "1.5e-07", "100.0", "0.001".
        let text = "\(abs(value))"
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0]
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let pieces = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = String(pieces[0]), fraction = pieces.count > 1 ? String(pieces[1]) : ""
        // digits × 10^(n − k): n is where the decimal point goes after the first digit's place.
        var digits = whole + fraction
        var n = whole.count + exponent
        while digits.hasPrefix("0") && digits.count > 1 {
            digits.removeFirst()
            n -= 1
        }
        while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
        let k = digits.count
        let sign = value < 0 ? "-" : ""
        if k <= n && n <= 21 { return sign + digits + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 {
            return sign + digits.prefix(n) + "." + digits.dropFirst(n)
        }
        if -6 < n && n <= 0 { return sign + "0." + String(repeating: "0", count: -n) + digits }
        let e = n - 1
        let mantissaText = k == 1 ? digits : digits.prefix(1) + "." + digits.dropFirst()
        return sign + mantissaText + "e" + (e >= 0 ? "+" : "-") + String(abs(e))
    }
}
