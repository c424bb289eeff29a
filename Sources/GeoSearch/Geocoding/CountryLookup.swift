import Foundation
import GeoCore

/// A country found by ``CountryLookup``.
public struct Country: Sendable, Hashable, Codable {
    /// The country's name ("Switzerland").
    public var name: String
    /// ISO 3166-1 alpha-3 code ("CHE"), or `nil` where the outlines have none.
    public var isoCode: String?
    /// 0 when the point is inside the country's outline; otherwise the geodesic distance in meters
    /// to the nearest point of its outline (the nearest-country fallback).
    public var distance: Double
}

/// Which country a point is in, on Natural Earth's 1:110m outlines (public domain) shipped with the
/// package, or on outlines of your own.
///
/// Containment is exact on the outlines as drawn: edges are straight in longitude and latitude,
/// as GeoJSON means them, and a point on an edge counts as inside. The 1:110m outlines are off by
/// kilometers at coastlines and borders (a coastal town can fall in the sea, a border town in its
/// neighbor), so answers within a few kilometers of a border or coast are a guess; use finer
/// outlines for those. Countries across the 180th meridian (Fiji, Russia) are split there by
/// Natural Earth, and Antarctica's outline runs along the south pole's latitude, so both work.
///
/// At sea, ``country(containing:fallbackWithin:)`` can name the nearest country within a
/// distance; that distance is measured to the closest point of the nearest edges, found in the
/// local plane of the point (`LocalPlane`) and measured by geodesic, good to about 0.1 % within
/// 100 km.
public struct CountryLookup: Sendable {
    struct Part: Sendable {
        var country: Int
        var rings: [[Position]]
        var west, south, east, north: Double
    }

    /// The countries, in the order of their outlines.
    public let countries: [(name: String, isoCode: String?)]
    let parts: [Part]

    /// A lookup over GeoJSON features with polygon or multipolygon geometry; others are skipped.
    ///
    /// - Parameters:
    ///   - features: The outlines, one country per feature.
    ///   - nameProperty: The property holding a country's name (features without one are
    ///     skipped).
    ///   - codeProperty: The property holding its ISO code; `-99` counts as none.
    public init(features: [Feature], nameProperty: String = "name", codeProperty: String = "iso_a3")
    {
        var countries = [(name: String, isoCode: String?)]()
        var parts = [Part]()
        for feature in features {
            guard let name = feature.properties.objectValue?[nameProperty]?.stringValue else {
                continue
            }
            let code = feature.properties.objectValue?[codeProperty]?.stringValue
            let polygons: [[[Position]]]
            switch feature.geometry {
            case .polygon(let rings)?: polygons = [rings]
            case .multiPolygon(let list)?: polygons = list
            default: continue
            }
            let country = countries.count
            countries.append((name, code == "-99" ? nil : code))
            for rings in polygons where !(rings.first?.isEmpty ?? true) {
                var part = Part(
                    country: country, rings: rings, west: .infinity, south: .infinity,
                    east: -.infinity, north: -.infinity)
                for p in rings[0] {
                    part.west = min(part.west, p.x)
                    part.east = max(part.east, p.x)
                    part.south = min(part.south, p.y)
                    part.north = max(part.north, p.y)
                }
                parts.append(part)
            }
        }
        self.countries = countries
        self.parts = parts
    }

    /// Natural Earth's 1:110m Admin 0 countries (177 outlines), read once.
    ///
    /// - Throws: `GeoError.Kind.io` when the package's copy is missing.
    public static func naturalEarth() throws(GeoError) -> CountryLookup {
        try naturalEarthResult.get()
    }

    private static let naturalEarthResult: Result<CountryLookup, GeoError> = {
        do throws(GeoError) {
            return .success(CountryLookup(features: try NaturalEarthCountries.features()))
        } catch {
            return .failure(error)
        }
    }()

    /// The country whose outline contains a coordinate; when none does, the nearest country
    /// whose outline is at most `fallbackWithin` meters away (with that distance), or `nil`.
    ///
    /// - Complexity: O(v) in the vertices of the outlines whose bounding boxes hold the point
    ///   (about a microsecond to tens of microseconds on Natural Earth's).
    public func country(
        containing coordinate: Coordinate, fallbackWithin maxDistance: Double = 0
    )
        -> Country?
    {
        guard coordinate.isValid else { return nil }
        let x = coordinate.longitude, y = coordinate.latitude
        // Longitudes −180 and 180 are one meridian: outlines cut there may close on either side.
        if let found = part(containingX: x, y: y)
            ?? (abs(x) == 180 ? part(containingX: -x, y: y) : nil)
        {
            let c = countries[found.country]
            return Country(name: c.name, isoCode: c.isoCode, distance: 0)
        }
        guard maxDistance > 0 else { return nil }
        return nearest(to: coordinate, within: maxDistance)
    }

    /// The first part whose rings contain (x, y), read as plane coordinates.
    private func part(containingX x: Double, y: Double) -> Part? {
        parts.first {
            y >= $0.south && y <= $0.north && x >= $0.west && x <= $0.east
                && Self.contains($0.rings, x: x, y: y)
        }
    }

    /// Even–odd containment over the rings, with points on an edge inside.
    static func contains(_ rings: [[Position]], x: Double, y: Double) -> Bool {
        var inside = false
        for ring in rings where ring.count >= 3 {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let a = ring[j], b = ring[i]
                j = i
                // On the edge: collinear and within its box.
                let cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
                if cross == 0 && x >= min(a.x, b.x) && x <= max(a.x, b.x) && y >= min(a.y, b.y)
                    && y <= max(a.y, b.y)
                {
                    return true
                }
                if (a.y > y) != (b.y > y) {
                    let t = (y - a.y) / (b.y - a.y)
                    if x < a.x + t * (b.x - a.x) { inside.toggle() }
                }
            }
        }
        return inside
    }

    private func nearest(to coordinate: Coordinate, within maxDistance: Double) -> Country? {
        // Degrees of latitude and longitude that `maxDistance` can reach, generously.
        let latitudeMargin = maxDistance / 110_000 + 0.01
        let cosine = cos(min(89.9, abs(coordinate.latitude) + latitudeMargin) * .pi / 180)
        let longitudeMargin = min(360, latitudeMargin / max(cosine, 1e-6))
        var best: (country: Int, distance: Double)?
        for part in parts {
            guard coordinate.latitude >= part.south - latitudeMargin,
                coordinate.latitude <= part.north + latitudeMargin,
                Self.longitudeGap(coordinate.longitude, part.west, part.east) <= longitudeMargin
            else { continue }
            for ring in part.rings where ring.count >= 2 {
                for i in 1..<ring.count {
                    let closest = Self.closestPoint(
                        on: ring[i - 1], ring[i], to: coordinate)
                    let d = Geodesic.distance(from: coordinate, to: closest)
                    if d <= maxDistance && d < (best?.distance ?? .infinity) {
                        best = (part.country, d)
                    }
                }
            }
        }
        return best.map {
            Country(
                name: countries[$0.country].name, isoCode: countries[$0.country].isoCode,
                distance: $0.distance)
        }
    }

    /// How many degrees of longitude separate `x` from the range [west, east], the short way.
    static func longitudeGap(_ x: Double, _ west: Double, _ east: Double) -> Double {
        if x >= west && x <= east { return 0 }
        let toWest = Angle.longitudeDifference(from: x, to: west)
        let toEast = Angle.longitudeDifference(from: east, to: x)
        return min(abs(toWest), abs(toEast))
    }

    /// The point of segment ab closest to c in the local plane at c.
    static func closestPoint(on a: Position, _ b: Position, to c: Coordinate) -> Coordinate {
        let pa = LocalPlane.offset(from: c, to: Coordinate(latitude: a.y, longitude: a.x))
        let pb = LocalPlane.offset(from: c, to: Coordinate(latitude: b.y, longitude: b.x))
        let dx = pb.east - pa.east, dy = pb.north - pa.north
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? max(0, min(1, -(pa.east * dx + pa.north * dy) / length2)) : 0
        let lon = a.x + t * Angle.longitudeDifference(from: a.x, to: b.x)
        return Coordinate(
            latitude: a.y + t * (b.y - a.y), longitude: Angle.normalizedLongitude(lon))
    }
}
