/// Any GeoJSON (RFC 7946) document: a geometry, a feature or a feature collection.
///
/// ```swift
/// let document = try GeoJSON(parsing: #"{"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.86]},"properties":{"name":"Paris"}}"#)
/// if case .feature(let feature) = document { print(feature.properties["name"]) }
/// ```
///
/// Positions are `[longitude, latitude]` or `[longitude, latitude, height]`; further numbers in a
/// position are read and dropped. The reader is strict about structure (a line string needs two
/// positions, a ring four and must be closed in longitude and latitude, as GEOS asks) and says
/// where the problem is; it is lenient about a missing `properties` or `geometry` member of a
/// feature (read as `null`), about a ring's winding, and about a ring whose last height differs
/// from its first. The writer writes what it is given; ``Geometry/followingRightHandRule()``
/// makes a geometry what RFC 7946 asks of a writer.
public enum GeoJSON: Hashable, Sendable {
    /// A bare geometry object.
    case geometry(Geometry)
    /// A `Feature`.
    case feature(Feature)
    /// A `FeatureCollection`.
    case featureCollection(FeatureCollection)

    /// Parses GeoJSON text.
    ///
    /// - Parameters:
    ///   - text: The document.
    ///   - limits: What the reader accepts (``InputLimits/standard`` by default): the size, JSON
    ///     nesting, positions (arrays of numbers), parts (other arrays and objects) and string length.
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` whose ``GeoError/offset`` is the byte
    ///   offset of the problem and whose message names its JSON path (`features[2].geometry.coordinates[0]`);
    ///   ``GeoError/Kind-swift.struct/limitExceeded`` naming the limit.
    /// - Complexity: O(length of the text) in time and memory.
    public init(parsing text: String, limits: InputLimits = .standard) throws(GeoError) {
        try self.init(data: Array(text.utf8), limits: limits)
    }

    /// Parses GeoJSON from UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - data: The document's bytes (a UTF-8 byte-order mark is allowed).
    ///   - limits: What the reader accepts (see ``init(parsing:limits:)``).
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` with the byte offset and JSON path of the
    ///   problem; ``GeoError/Kind-swift.struct/limitExceeded`` naming the limit.
    public init(data: some Collection<UInt8>, limits: InputLimits = .standard) throws(GeoError) {
        var parser = JSONParser(Array(data), limits: limits)
        let root = try parser.parseDocument()
        self = try GeoJSONReader.document(root, path: "$")
    }

    /// The document as compact GeoJSON text (`type` first, other members in a stable order).
    public var jsonText: String {
        var writer = JSONWriter()
        writer.write(jsonValue)
        return writer.text
    }

    /// The document as a JSON value.
    public var jsonValue: JSONValue {
        switch self {
        case .geometry(let g): g.geoJSONValue
        case .feature(let f): f.jsonValue
        case .featureCollection(let c): c.jsonValue
        }
    }

    /// Every feature in the document: a geometry as a feature without properties, the feature
    /// itself, or the features of a collection.
    public var features: [Feature] {
        switch self {
        case .geometry(let g): [Feature(geometry: g)]
        case .feature(let f): [f]
        case .featureCollection(let c): c.features
        }
    }

    /// The GeoJSON documents in some bytes: one document, or one per line (newline-delimited
    /// GeoJSON, as the `meridian` batch commands write it; RFC 8142's record separators are
    /// accepted too). A byte-order mark and CRLF line ends are fine; blank lines are skipped.
    ///
    /// - Parameters:
    ///   - data: One document, or one per line.
    ///   - limits: What the reader accepts: the size of all the data, and for each document the
    ///     rest of ``init(parsing:limits:)``'s limits.
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` for the first document that is not
    ///   GeoJSON, naming its line when there are several, and for data with no document (empty,
    ///   or blank lines only); ``GeoError/Kind-swift.struct/limitExceeded``.
    /// - Complexity: O(length of the data).
    public static func documents(
        in data: some Collection<UInt8>, limits: InputLimits = .standard
    ) throws(GeoError) -> [GeoJSON] {
        try read(data, limits: limits, leavingOutRecords: false).documents
    }

    /// The GeoJSON documents of a `meridian` batch command's output (``documents(in:limits:)``),
    /// leaving out its records of the input lines that were skipped or bad
    /// (`{"line":2,"skipped":true}`, `{"line":3,"error":…}`): a line holding a JSON object with
    /// a `line` member and no `type` member. Such output may hold no document at all.
    ///
    /// - Returns: The documents, and the line numbers (from 1) of the records left out.
    /// - Throws: As ``documents(in:limits:)``, except that data holding only records gives no
    ///   document rather than an error.
    /// - Complexity: O(length of the data).
    public static func documentsOfBatchOutput(
        in data: some Collection<UInt8>, limits: InputLimits = .standard
    ) throws(GeoError) -> (documents: [GeoJSON], recordLines: [Int]) {
        try read(data, limits: limits, leavingOutRecords: true)
    }

    private static func read(
        _ data: some Collection<UInt8>, limits: InputLimits, leavingOutRecords: Bool
    ) throws(GeoError) -> (documents: [GeoJSON], recordLines: [Int]) {
        var bytes = Array(data)
        try limits.checkSize(bytes.count, format: "GeoJSON")
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let whole: GeoJSON
        do throws(GeoError) {
            whole = try GeoJSON(data: bytes, limits: limits)
        } catch {
            let lines = bytes.split(
                omittingEmptySubsequences: false, whereSeparator: { $0 == 0x0A || $0 == 0x1E })
            guard error.kind != .limitExceeded else { throw error }
            guard lines.count > 1 || (leavingOutRecords && isRecord(bytes, limits: limits)) else {
                throw error
            }
            var documents = [GeoJSON]()
            var records = [Int]()
            for (number, line) in lines.enumerated() {
                let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
                guard trimmed.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else {
                    continue
                }
                do throws(GeoError) {
                    documents.append(try GeoJSON(data: trimmed, limits: limits))
                } catch {
                    if leavingOutRecords && isRecord(Array(trimmed), limits: limits) {
                        records.append(number + 1)
                        continue
                    }
                    throw GeoError(
                        error.kind, "line \(number + 1): \(error.message)", line: number + 1)
                }
            }
            // Blank lines alone are no more a document than empty input is.
            guard !documents.isEmpty || !records.isEmpty else { throw error }
            return (documents, records)
        }
        return ([whole], [])
    }

    /// Whether a line is a batch command's record of a skipped or bad input line: a JSON object
    /// with a `line` member and no `type` member.
    private static func isRecord(_ line: [UInt8], limits: InputLimits) -> Bool {
        var parser = JSONParser(line, limits: limits)
        guard let root = try? parser.parseDocument(), case .object(let members) = root.value
        else { return false }
        return members.contains { $0.key == "line" } && !members.contains { $0.key == "type" }
    }

    /// Every geometry in the document: the geometry itself, a feature's geometry, or the geometries of
    /// all features of a collection (features without a geometry are skipped).
    public var geometries: [Geometry] {
        switch self {
        case .geometry(let g): [g]
        case .feature(let f): f.geometry.map { [$0] } ?? []
        case .featureCollection(let c): c.features.compactMap(\.geometry)
        }
    }
}

extension GeoJSON: Codable {
    public init(from decoder: any Decoder) throws {
        let plain = try JSONValue(from: decoder)
        do {
            self = try GeoJSONReader.document(LocatedJSON(plain), path: "$")
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

// MARK: - Geometry as GeoJSON

extension Geometry {
    /// Parses a GeoJSON geometry object (not a feature).
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` with the byte offset and JSON path of the
    ///   problem.
    public init(geoJSON text: String, limits: InputLimits = .standard) throws(GeoError) {
        var parser = JSONParser(Array(text.utf8), limits: limits)
        self = try GeoJSONReader.geometry(try parser.parseDocument(), path: "$", depth: 0)
    }

    /// The geometry as compact GeoJSON text.
    public var geoJSON: String {
        var writer = JSONWriter()
        writer.write(geoJSONValue)
        return writer.text
    }

    /// The geometry as a GeoJSON geometry object. `POINT EMPTY` has `"coordinates": []`.
    public var geoJSONValue: JSONValue {
        let number = GeoJSONReader.coordinate
        func position(_ p: Position) -> JSONValue {
            if let z = p.z { return .array([number(p.x), number(p.y), number(z)]) }
            return .array([number(p.x), number(p.y)])
        }
        func line(_ ps: [Position]) -> JSONValue { .array(ps.map(position)) }
        func rings(_ rs: [[Position]]) -> JSONValue { .array(rs.map(line)) }
        let type = JSONValue.string(self.type.geoJSONName)
        switch self {
        case .point(let p): return ["type": type, "coordinates": p.map(position) ?? .array([])]
        case .lineString(let ps), .multiPoint(let ps):
            return ["type": type, "coordinates": line(ps)]
        case .polygon(let rs), .multiLineString(let rs):
            return ["type": type, "coordinates": rings(rs)]
        case .multiPolygon(let ps): return ["type": type, "coordinates": .array(ps.map(rings))]
        case .geometryCollection(let members):
            return ["type": type, "geometries": .array(members.map(\.geoJSONValue))]
        }
    }
}

extension Geometry: Codable {
    /// Decodes a GeoJSON geometry object.
    public init(from decoder: any Decoder) throws {
        let plain = try JSONValue(from: decoder)
        do {
            self = try GeoJSONReader.geometry(LocatedJSON(plain), path: "$", depth: 0)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// Encodes the geometry as a GeoJSON geometry object.
    public func encode(to encoder: any Encoder) throws {
        try geoJSONValue.encode(to: encoder)
    }
}

// MARK: - Reader

/// Turns parsed JSON into GeoJSON values, naming the JSON path and byte offset of every problem.
enum GeoJSONReader {
    static let maximumDepth = 64

    /// A coordinate or bbox value as JSON: whole numbers as integers (`[1,2]`), as the reader gives
    /// them back.
    static func coordinate(_ v: Double) -> JSONValue {
        v == v.rounded() && abs(v) < 0x1p53 ? .integer(Int(v)) : .number(v)
    }

    static func document(_ node: LocatedJSON, path: String) throws(GeoError) -> GeoJSON {
        guard case .object = node.value else {
            throw error(path, "expected a GeoJSON object, found \(node.kindName)", node)
        }
        let type = try typeName(node, path: path)
        switch type {
        case "Feature": return .feature(try feature(node, path: path))
        case "FeatureCollection": return .featureCollection(try featureCollection(node, path: path))
        default: return .geometry(try geometry(node, path: path, depth: 0))
        }
    }

    static func featureCollection(
        _ node: LocatedJSON, path: String
    ) throws(GeoError) -> FeatureCollection {
        guard case .object(let members) = node.value else {
            throw error(path, "expected a FeatureCollection object, found \(node.kindName)", node)
        }
        guard try typeName(node, path: path) == "FeatureCollection" else {
            throw error(path + ".type", "expected \"FeatureCollection\"", node["type"] ?? node)
        }
        guard let list = node["features"] else {
            throw error(path, "FeatureCollection has no \"features\" member", node)
        }
        guard case .array(let items) = list.value else {
            throw error(
                path + ".features", "expected an array of features, found \(list.kindName)", list)
        }
        var features = [Feature]()
        features.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            features.append(try feature(item, path: "\(path).features[\(i)]"))
        }
        return FeatureCollection(
            features: features, bbox: try bbox(node, path: path),
            foreignMembers: foreign(members, known: ["type", "features", "bbox"]))
    }

    static func feature(_ node: LocatedJSON, path: String) throws(GeoError) -> Feature {
        guard case .object(let members) = node.value else {
            throw error(path, "expected a Feature object, found \(node.kindName)", node)
        }
        guard try typeName(node, path: path) == "Feature" else {
            throw error(path + ".type", "expected \"Feature\"", node["type"] ?? node)
        }
        var geometry: Geometry?
        if let g = node["geometry"], !isNull(g) {
            geometry = try self.geometry(g, path: path + ".geometry", depth: 0)
        }
        var properties = JSONValue.null
        if let p = node["properties"] {
            switch p.value {
            case .null: break
            case .object: properties = p.jsonValue
            default:
                throw error(
                    path + ".properties", "expected an object or null, found \(p.kindName)", p)
            }
        }
        var id: FeatureIdentifier?
        if let i = node["id"] {
            switch i.value {
            case .string(let s): id = .string(s)
            case .integer(let n): id = .integer(n)
            case .number(let d): id = .number(d)
            default:
                throw error(path + ".id", "expected a string or a number, found \(i.kindName)", i)
            }
        }
        return Feature(
            id: id, geometry: geometry, properties: properties, bbox: try bbox(node, path: path),
            foreignMembers: foreign(
                members, known: ["type", "id", "geometry", "properties", "bbox"]))
    }

    static func geometry(_ node: LocatedJSON, path: String, depth: Int) throws(GeoError) -> Geometry
    {
        guard depth <= maximumDepth else {
            throw error(
                path, "geometry collections nested deeper than \(maximumDepth) levels", node)
        }
        guard case .object = node.value else {
            throw error(path, "expected a geometry object, found \(node.kindName)", node)
        }
        let name = try typeName(node, path: path)
        if name == "GeometryCollection" {
            guard let list = node["geometries"] else {
                throw error(path, "GeometryCollection has no \"geometries\" member", node)
            }
            let items = try array(list, path: path + ".geometries")
            var members = [Geometry]()
            members.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                members.append(
                    try geometry(item, path: "\(path).geometries[\(i)]", depth: depth + 1))
            }
            return .geometryCollection(members)
        }
        guard let coordinates = node["coordinates"] else {
            throw error(path, "\(name) has no \"coordinates\" member", node)
        }
        let cpath = path + ".coordinates"
        switch name {
        case "Point":
            if case .array(let items) = coordinates.value, items.isEmpty { return .point(nil) }
            return .point(try position(coordinates, path: cpath))
        case "LineString":
            return .lineString(try line(coordinates, path: cpath))
        case "Polygon":
            return .polygon(try rings(coordinates, path: cpath))
        case "MultiPoint":
            let items = try array(coordinates, path: cpath)
            var points = [Position]()
            points.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                points.append(try position(item, path: "\(cpath)[\(i)]"))
            }
            return .multiPoint(points)
        case "MultiLineString":
            let items = try array(coordinates, path: cpath)
            var lines = [[Position]]()
            lines.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                lines.append(try line(item, path: "\(cpath)[\(i)]"))
            }
            return .multiLineString(lines)
        case "MultiPolygon":
            let items = try array(coordinates, path: cpath)
            var polygons = [[[Position]]]()
            polygons.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                polygons.append(try rings(item, path: "\(cpath)[\(i)]"))
            }
            return .multiPolygon(polygons)
        default:
            throw error(path + ".type", "unknown geometry type \"\(name)\"", node["type"] ?? node)
        }
    }

    // MARK: Parts

    private static func rings(_ node: LocatedJSON, path: String) throws(GeoError) -> [[Position]] {
        let items = try array(node, path: path)
        var result = [[Position]]()
        result.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let ring = try line(item, path: "\(path)[\(i)]", minimum: 4)
            if let problem = WKTParser.ringProblem(ring, index: i, minimumCount: 4) {
                throw error("\(path)[\(i)]", problem, item)
            }
            result.append(ring)
        }
        return result
    }

    private static func line(
        _ node: LocatedJSON, path: String, minimum: Int = 2
    ) throws(GeoError) -> [Position] {
        let items = try array(node, path: path)
        guard items.isEmpty || items.count >= minimum else {
            throw error(
                path,
                "\(items.count) position\(items.count == 1 ? "" : "s"); at least \(minimum) are needed",
                node)
        }
        var result = [Position]()
        result.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            result.append(try position(item, path: "\(path)[\(i)]"))
        }
        return result
    }

    private static func position(_ node: LocatedJSON, path: String) throws(GeoError) -> Position {
        guard case .array(let items) = node.value else {
            throw error(
                path, "expected a position (an array of numbers), found \(node.kindName)", node)
        }
        guard items.count >= 2 else {
            throw error(path, "a position needs at least 2 numbers, found \(items.count)", node)
        }
        var values = [Double]()
        for (i, item) in items.prefix(3).enumerated() {
            guard let v = item.doubleValue else {
                throw error("\(path)[\(i)]", "expected a number, found \(item.kindName)", item)
            }
            values.append(v)
        }
        return Position(x: values[0], y: values[1], z: values.count > 2 ? values[2] : nil)
    }

    private static func array(_ node: LocatedJSON, path: String) throws(GeoError) -> [LocatedJSON] {
        guard case .array(let items) = node.value else {
            throw error(path, "expected an array, found \(node.kindName)", node)
        }
        return items
    }

    private static func typeName(_ node: LocatedJSON, path: String) throws(GeoError) -> String {
        guard let type = node["type"] else {
            throw error(path, "object has no \"type\" member", node)
        }
        guard case .string(let name) = type.value else {
            throw error(path + ".type", "expected a string, found \(type.kindName)", type)
        }
        return name
    }

    private static func bbox(_ node: LocatedJSON, path: String) throws(GeoError) -> [Double]? {
        guard let box = node["bbox"] else { return nil }
        let items = try array(box, path: path + ".bbox")
        guard items.count >= 4 && items.count % 2 == 0 else {
            throw error(
                path + ".bbox", "a bbox has 2 × n numbers (n ≥ 2), found \(items.count)", box)
        }
        var values = [Double]()
        for (i, item) in items.enumerated() {
            guard let v = item.doubleValue else {
                throw error("\(path).bbox[\(i)]", "expected a number, found \(item.kindName)", item)
            }
            values.append(v)
        }
        return values
    }

    private static func foreign(
        _ members: [(key: String, value: LocatedJSON)], known: Set<String>
    ) -> [String: JSONValue] {
        var result = [String: JSONValue]()
        for (key, value) in members where !known.contains(key) { result[key] = value.jsonValue }
        return result
    }

    private static func isNull(_ node: LocatedJSON) -> Bool {
        if case .null = node.value { return true }
        return false
    }

    private static func error(_ path: String, _ message: String, _ node: LocatedJSON) -> GeoError {
        var text = "GeoJSON: \(path): \(message)"
        if let offset = node.offset { text += " (at byte \(offset))" }
        return GeoError(.malformedInput, text, offset: node.offset)
    }
}
