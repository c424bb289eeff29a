import Foundation
import GeoCore
import GeoSearch

/// The places a `--places FILE` option names, as a searchable index, or the error that kept the
/// file from being read (see ``placesFailure(_:_:path:console:)``).
///
/// - Throws: ``UsageError`` when no file is named.
private func loadPlaces(
    _ path: String?, console: Console
) throws(UsageError) -> Result<PlaceIndex<GeoNamesPlace>, GeoError> {
    guard let path else { throw UsageError("--places FILE is required") }
    do throws(GeoError) {
        let places = try readPlaces(path, console: console)
        return .success(try PlaceIndex(places, coordinate: \.coordinate, name: \.name))
    } catch {
        return .failure(error)
    }
}

/// The places of a file; a file without any is refused, since every search over it would
/// answer nothing.
private func readPlaces(_ path: String, console: Console) throws(GeoError) -> [GeoNamesPlace] {
    var skipped = [Int]()
    let places = try PlaceFile.read(try readInput(path, console: console), skipped: &skipped)
    guard !places.isEmpty else { throw PlaceFile.noPlaces }
    if !skipped.isEmpty {
        // The answers' indices count the places kept, not the file's features: say so.
        let listed = skipped.prefix(10).map(String.init).joined(separator: ", ")
        console.printError(
            "meridian: --places \(GeoError.quoted(path)): skipped \(skipped.count) feature"
                + "\(skipped.count == 1 ? "" : "s") that \(skipped.count == 1 ? "is" : "are") not a "
                + "point with a name (\(listed)\(skipped.count > 10 ? ", …" : "")); indices count "
                + "the \(places.count) places kept")
    }
    return places
}

/// Reports a places file that could not be used and returns the exit code: 1 when it could not be
/// read, 2 when it is malformed (the message names the line).
private func placesFailure(
    _ command: String, _ error: GeoError, path: String?, console: Console
) -> Int32 {
    let file = path.map { "--places \(GeoError.quoted($0)): " } ?? ""
    console.printError("meridian \(command): \(file)\(error.description)")
    return error.kind == .io ? ExitCode.failure : ExitCode.badInput
}

/// Text from a data file as a text output line shows it: characters that could drive a terminal
/// or change how the line reads spelled out as `\u{1B}`, everything else as it is. Those are the
/// controls (C0, DEL and C1), the byte-order mark (U+FEFF), the line and paragraph separators,
/// and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
/// reorder what a terminal shows; joiners (U+200C, U+200D), which names in many scripts need,
/// are kept.
private func displayable(_ text: String) -> String {
    func escaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFEFF, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: scalar.properties.generalCategory == .control
        }
    }
    guard text.unicodeScalars.contains(where: escaped) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
        if escaped(scalar) {
            result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}

/// A place as a JSON object.
private func placeJSON(_ place: GeoNamesPlace, distance: Double, index: Int) -> JSONValue {
    var object: [String: JSONValue] = [
        "name": .string(place.name), "latitude": .number(place.coordinate.latitude),
        "longitude": .number(place.coordinate.longitude), "distance": .number(distance),
        "index": .integer(index),
    ]
    if !place.countryCode.isEmpty { object["countryCode"] = .string(place.countryCode) }
    if let admin1 = place.admin1Name ?? place.admin1Code { object["admin1"] = .string(admin1) }
    return .object(object)
}

/// The query point and the places found, as one GeoJSON FeatureCollection on one line, styled for
/// `meridian render`: the query as a red marker, the places as titled markers.
private func placesGeoJSON(
    query: Coordinate, _ found: [(place: GeoNamesPlace, distance: Double, index: Int?)]
) -> String {
    var features: [Feature] = [
        Feature(
            geometry: .point(Position(x: query.longitude, y: query.latitude)),
            properties: ["title": "query", "marker-color": "#d55e00"])
    ]
    for (rank, item) in found.enumerated() {
        var properties: [String: JSONValue] = [
            "title": .string(item.place.name), "name": .string(item.place.name),
            "distance": .number(item.distance), "rank": .integer(rank + 1),
        ]
        // The place's row in the file, where the answer knows it.
        if let index = item.index { properties["index"] = .integer(index) }
        features.append(
            Feature(
                geometry: .point(
                    Position(x: item.place.coordinate.longitude, y: item.place.coordinate.latitude)),
                properties: .object(properties)))
    }
    return GeoJSON.featureCollection(FeatureCollection(features: features)).jsonText
}

/// The text of one found place.
private func placeText(_ place: GeoNamesPlace, distance: Double) -> String {
    "\(displayable(place.name)) (\(format(place.coordinate.latitude, decimals: 5)), "
        + "\(format(place.coordinate.longitude, decimals: 5))) \(format(distance, decimals: 1)) m"
}

/// `meridian nearest --places FILE [-k K] [--within METERS] LAT LON`.
enum NearestCommand: Subcommand {
    static let name = "nearest"
    static let summary = "the places nearest to a point, by geodesic distance"
    static let valueOptions: Set<String> = ["places", "k", "within"]
    static let help = """
        Usage: meridian nearest --places FILE [-k K] [--within METERS] LAT LON [--json | --geojson]

        Prints the K places (default 5) of FILE nearest to the point by geodesic distance on WGS84
        (exact: within 0.1 µm up to 60 km, Karney's algorithm beyond), nearest first, ties to the
        place listed first; with --within only those at most METERS away ("no place within M m"
        when there is none). A file without places is refused (exit 2). FILE is a GeoNames file
        (cities1000.txt and the like, 19 tab-separated columns; or a header lat, lon, name, ...)
        or GeoJSON points with a name property.

        \(batchHelp(fields: "LAT LON"))

        Options:
          --places FILE    the places to search (required)
          -k K, --k K      how many (default 5)
          --within M       at most M meters away
          --json           one JSON object per line: places [{name, latitude, longitude,
                           distance, index, countryCode and admin1 when known}], line
          --geojson        one GeoJSON FeatureCollection per line (the query and its places),
                           which `meridian render` draws; error records and skipped lines are
                           JSON objects as with --json, so every line parses

        Example:
          meridian nearest --places cities1000.txt -k 3 47.3769 8.5417

        \(ExitCode.table)

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let json = arguments.flag("json"), geojson = arguments.flag("geojson")
        let k = try arguments.integer("k") ?? 5
        guard k > 0 else { throw UsageError("-k \(k) is not a positive count") }
        let within = try arguments.number("within") ?? .infinity
        guard within >= 0 else { throw UsageError("--within \(within) is negative") }
        let placesPath = arguments.option("places")
        try arguments.rejectUnknown()
        let index: PlaceIndex<GeoNamesPlace>
        switch try loadPlaces(placesPath, console: console) {
        case .success(let loaded): index = loaded
        case .failure(let error):
            return placesFailure(name, error, path: placesPath, console: console)
        }
        var matches = [PlaceMatch<GeoNamesPlace>]()
        return try Batch.run(
            name, positional: arguments.positional, json: json, jsonRecords: json || geojson,
            console: console
        ) {
            (fields) throws(GeoError) in
            try expectFields(fields, ["LAT", "LON"])
            let query = try parseCoordinate(fields[0], fields[1])
            index.nearest(k, to: query, within: within, into: &matches)
            let found = matches.map { ($0.element, $0.distance, $0.index) }
            return Answer(
                text: geojson
                    ? placesGeoJSON(query: query, found.map { ($0.0, $0.1, $0.2) })
                    : found.isEmpty
                        ? (within.isFinite
                            ? "no place within \(format(within, decimals: 0)) m" : "no place")
                        : found.map { placeText($0.0, distance: $0.1) }.joined(separator: "; "),
                json: ["places": .array(found.map { placeJSON($0.0, distance: $0.1, index: $0.2) })]
            )
        }
    }
}

/// `meridian reverse LAT LON`: offline reverse geocoding.
enum ReverseCommand: Subcommand {
    static let name = "reverse"
    static let summary = "the nearest town to a point and the country it is in (offline)"
    static let valueOptions: Set<String> = ["places", "within"]
    static let help = """
        Usage: meridian reverse LAT LON [--places FILE] [--within METERS] [--json | --geojson]

        Prints the nearest populated place (by geodesic distance on WGS84) with its first-level
        division and country code, from GeoNames' cities15000 shipped with Meridian (places with
        more than about 15,000 people; GeoNames, geonames.org, CC BY 4.0) or from FILE (a GeoNames
        file), and the country whose Natural Earth 1:110m outline contains the point (off by
        kilometers at coasts and borders; "-" at sea).

        \(batchHelp(fields: "LAT LON"))

        Options:
          --places FILE   answer from these places instead of the shipped set
          --within M      no place farther than M meters
          --json          one JSON object per line: name, admin1 and admin2 (names, or
                          codes where the data has no names; when known),
                          countryCode, latitude, longitude, distance, country, source (GeoNames'
                          attribution for the shipped set, the file's name for --places), line
          --geojson       one GeoJSON FeatureCollection per line (the point and its place);
                          error records and skipped lines as with --json

        Example:
          meridian reverse 47.3769 8.5417

        \(ExitCode.table)

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let json = arguments.flag("json"), geojson = arguments.flag("geojson")
        let within = try arguments.number("within") ?? .infinity
        guard within >= 0 else { throw UsageError("--within \(within) is negative") }
        let placesPath = arguments.option("places")
        try arguments.rejectUnknown()
        let geocoder: ReverseGeocoder
        let countries: CountryLookup
        do throws(GeoError) {
            if let placesPath {
                // The user's own places are named by their file, not attributed to GeoNames.
                geocoder = try ReverseGeocoder(
                    places: try readPlaces(placesPath, console: console),
                    source: placesPath == "-"
                        ? "standard input" : URL(fileURLWithPath: placesPath).lastPathComponent)
            } else {
                geocoder = try ReverseGeocoder.bundled()
            }
            countries = try CountryLookup.naturalEarth()
        } catch {
            return placesFailure(name, error, path: placesPath, console: console)
        }
        return try Batch.run(
            name, positional: arguments.positional, json: json, jsonRecords: json || geojson,
            console: console
        ) {
            (fields) throws(GeoError) in
            try expectFields(fields, ["LAT", "LON"])
            let query = try parseCoordinate(fields[0], fields[1])
            let country = countries.country(containing: query)
            guard let placemark = geocoder.placemark(for: query, within: within) else {
                return Answer(
                    text: geojson
                        ? placesGeoJSON(query: query, [])
                        : "no place within \(format(within, decimals: 0)) m; country \(country?.name ?? "-")",
                    json: ["name": .null, "country": country.map { .string($0.name) } ?? .null])
            }
            var fields: [String: JSONValue] = [
                "name": .string(placemark.name),
                "countryCode": placemark.isoCountryCode.isEmpty
                    ? .null : .string(placemark.isoCountryCode),
                "latitude": .number(placemark.coordinate.latitude),
                "longitude": .number(placemark.coordinate.longitude),
                "distance": .number(placemark.distance), "source": .string(placemark.source),
                "country": country.map { .string($0.name) } ?? .null,
            ]
            let admin1 = placemark.administrativeArea ?? placemark.administrativeAreaCode
            if let admin1 { fields["admin1"] = .string(admin1) }
            // A division's name when the data has it, else its code.
            let admin2 = placemark.subAdministrativeArea ?? placemark.subAdministrativeAreaCode
            if let admin2 { fields["admin2"] = .string(admin2) }
            let place = GeoNamesPlace(
                name: placemark.name, coordinate: placemark.coordinate,
                countryCode: placemark.isoCountryCode)
            return Answer(
                text: geojson
                    ? placesGeoJSON(query: query, [(place, placemark.distance, nil)])
                    : [
                        placemark.name, admin1, admin2,
                        placemark.isoCountryCode,
                    ].compactMap { $0 }.filter { !$0.isEmpty }.map(displayable).joined(
                        separator: ", ")
                        + " (\(format(placemark.distance, decimals: 0)) m); country "
                        + (country?.name ?? "-"),
                json: fields)
        }
    }
}

/// `meridian search TEXT --places FILE --near LAT,LON [--region S,W,N,E]`.
enum SearchCommand: Subcommand {
    static let name = "search"
    static let summary = "places whose names match a text, biased to a region"
    static let valueOptions: Set<String> = ["places", "near", "region", "limit"]
    static let help = """
        Usage: meridian search TEXT --places FILE [--near LAT,LON] [--region S,W,N,E]
                               [--limit N] [--json | --geojson]

        Prints the places of FILE whose names match TEXT word by word, each query word the start
        of a word of the name, ignoring case and diacritics ("zur" finds Zürich), best first:
        those inside the region before the others, then exact names, then names that begin with
        the text, then names that contain its words; nearer to --near (or the region's center;
        with neither, 0° N 0° E, so give one of them) first. FILE is as for `meridian nearest`.

        Without TEXT, reads one query per line from standard input; every line gets exactly one
        output line (an error record for a bad one), as for the other commands.

        Options:
          --places FILE      the places to search (required)
          --near LAT,LON     where distances are measured from
          --region S,W,N,E   the visible region (west > east crosses the 180th meridian)
          --limit N          the most results (default 10)
          --json             one JSON object per line: places [{name, latitude, longitude,
                             distance, index, countryCode and admin1 when known, match (how
                             the name matched), inRegion (with --region)}], line
          --geojson          one GeoJSON FeatureCollection per line; error records and
                             skipped lines as with --json

        Example:
          meridian search "san fr" --places cities1000.txt --near 37.77,-122.42

        \(ExitCode.table)

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let json = arguments.flag("json"), geojson = arguments.flag("geojson")
        let limit = try arguments.integer("limit") ?? 10
        guard limit > 0 else { throw UsageError("--limit \(limit) is not a positive count") }
        var near: Coordinate?
        if let text = arguments.option("near") {
            do throws(GeoError) {
                let parts = try splitJob(text)
                try expectFields(parts, ["LAT", "LON"])
                near = try parseCoordinate(parts[0], parts[1])
            } catch {
                throw UsageError("--near \(GeoError.quoted(text)): \(error.message)")
            }
        }
        var region: BoundingBox?
        if let text = arguments.option("region") {
            do throws(GeoError) {
                let parts = try splitJob(text)
                try expectFields(parts, ["S", "W", "N", "E"])
                let v = try parts.enumerated().map { (i, p) throws(GeoError) in
                    try parseNumber(p, name: ["south", "west", "north", "east"][i])
                }
                // The box itself, so that a place on an edge as given is inside.
                region = try BoundingBox(west: v[1], south: v[0], east: v[3], north: v[2])
                    .validated()
            } catch {
                throw UsageError("--region \(GeoError.quoted(text)): \(error.message)")
            }
        }
        let placesPath = arguments.option("places")
        try arguments.rejectUnknown()
        let index: PlaceIndex<GeoNamesPlace>
        switch try loadPlaces(placesPath, console: console) {
        case .success(let loaded): index = loaded
        case .failure(let error):
            return placesFailure(name, error, path: placesPath, console: console)
        }
        let origin = near ?? region?.center ?? Coordinate(latitude: 0, longitude: 0)
        func answer(_ text: String) -> Answer {
            let found =
                region.map { index.search(text, near: near, in: $0, limit: limit) }
                ?? index.search(text, near: near, limit: limit)
            let items = found.map { ($0.element, $0.distance, $0.index) }
            return Answer(
                text: geojson
                    ? placesGeoJSON(query: origin, items.map { ($0.0, $0.1, $0.2) })
                    : found.isEmpty
                        ? "no match"
                        : found.map { placeText($0.element, distance: $0.distance) }.joined(
                            separator: "; "),
                json: [
                    "places": .array(
                        zip(found, items).map { result, item in
                            var object = placeJSON(item.0, distance: item.1, index: item.2)
                            if case .object(var fields) = object {
                                fields["match"] = .string("\(result.match)")
                                // Only a search biased to a region says which results are in it.
                                if region != nil {
                                    fields["inRegion"] = .bool(result.isInRegion)
                                }
                                object = .object(fields)
                            }
                            return object
                        })
                ])
        }
        var batch = Batch(
            command: name, json: json, jsonRecords: json || geojson, console: console)
        if !arguments.positional.isEmpty {
            batch.emit(line: 1, .success(answer(arguments.positional.joined(separator: " "))))
            return batch.exitCode
        }
        var number = 0
        while let line = console.readLine() {
            number += 1
            if batch.rejectsUnreadable(line: number) { continue }
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty || text.hasPrefix("#") {
                batch.skip(line: number)
                continue
            }
            batch.emit(line: number, .success(answer(text)))
        }
        return batch.exitCode
    }
}
