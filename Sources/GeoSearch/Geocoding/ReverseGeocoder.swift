import Foundation
import GeoCore

/// The answer of a reverse geocode: the nearest populated place, named as `CLPlacemark` names it.
public struct Placemark: Sendable, Hashable, Codable {
    /// The place's name ("Zürich").
    public var name: String
    /// The first-level administrative division ("Zurich"; a state, canton, region), when the
    /// data names it.
    public var administrativeArea: String?
    /// The first-level division's GeoNames code ("25"), when the data has it.
    public var administrativeAreaCode: String?
    /// The second-level administrative division ("Bezirk Zürich"; a county, district), when the
    /// data names it.
    public var subAdministrativeArea: String?
    /// The second-level division's GeoNames code ("112"), when the data has it.
    public var subAdministrativeAreaCode: String?
    /// ISO 3166-1 alpha-2 country code ("CH").
    public var isoCountryCode: String
    /// The place's own coordinate (WGS84 degrees).
    public var coordinate: Coordinate
    /// The geodesic distance on WGS84 in meters from the query to the place.
    public var distance: Double
    /// GeoNames' id of the place, when the data has it.
    public var geonameID: Int?
    /// The place's population, when known.
    public var population: Int?
    /// Where the answer came from, for attribution ("GeoNames (geonames.org), CC BY 4.0").
    public var source: String
}

/// Offline reverse geocoding: the nearest GeoNames place to a coordinate, by geodesic distance on
/// WGS84, as `CLGeocoder.reverseGeocodeLocation` answers from Apple's servers.
///
/// ```swift
/// let placemark = ReverseGeocoder.default.placemark(for: photo.coordinate)
/// print(placemark?.name, placemark?.isoCountryCode)    // Optional("Zürich") Optional("CH")
/// ```
///
/// ``default`` answers from the copy of GeoNames' `cities15000` the package ships (places with
/// more than about 15,000 people, CC BY 4.0, attributed in every placemark's ``Placemark/source``);
/// it has first-level division codes but not their names. Load a larger set (`cities1000.txt`,
/// `cities500.txt`) with ``init(contentsOf:format:source:)`` for finer answers.
///
/// "Nearest" is by the exact geodesic (see ``PlaceIndex``), ties to the place listed first: the
/// same answer, to the bit, as ``PlaceIndex/nearest(to:within:)``, found from a table of the places
/// that can be nearest in each latitude–longitude cell rather than by a tree walk. A
/// point in the sea or a desert gets the nearest town however far; pass `within:` to cap it.
/// When only the place matters (tagging a batch of photos), ``nearestPlaceIndices(for:within:)``
/// finds the same places without measuring their distances, except between near-ties.
public struct ReverseGeocoder: Sendable {
    /// The places answered from, in file order.
    public var places: [GeoNamesPlace] { index.elements }
    /// The attribution every placemark carries.
    public let source: String
    let index: PlaceIndex<GeoNamesPlace>
    /// The few places that can be nearest to each part of the globe.
    let cells: NearestCells

    /// The attribution of GeoNames data.
    public static let geoNamesAttribution = "GeoNames (geonames.org), CC BY 4.0"

    /// A geocoder over places.
    ///
    /// - Throws: `GeoError.Kind.invalidCoordinate` naming the first place whose coordinate is off
    ///   the globe.
    /// - Complexity: O(n) time and memory: a ``PlaceIndex`` and a table of the few places that can
    ///   be nearest to each part of the globe (built on all cores; about 1.2 s and 34 MB for
    ///   96,384 GeoNames places on two cores, about a third of that for the bundled 34,006).
    public init(
        places: [GeoNamesPlace], source: String = ReverseGeocoder.geoNamesAttribution
    )
        throws(GeoError)
    {
        self.source = source
        self.index = try PlaceIndex(places, coordinate: \.coordinate)
        self.cells = NearestCells(index.tree)
    }

    private init(empty: ()) {
        source = ReverseGeocoder.geoNamesAttribution
        index = PlaceIndex(validated: [], coordinates: [])
        cells = NearestCells(index.tree)
    }

    /// A geocoder over a GeoNames file (see ``GeoNamesPlace/read(_:format:limits:)``).
    ///
    /// - Throws: `GeoError.Kind.io` naming the path when it cannot be read; the reader's errors
    ///   otherwise.
    public init(
        contentsOf url: URL, format: GeoNamesFormat? = nil,
        source: String = ReverseGeocoder.geoNamesAttribution
    ) throws(GeoError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw GeoError(
                .io,
                "cannot read \(GeoError.quoted(url.path, limit: .max)): \(error.localizedDescription)"
            )
        }
        try self.init(places: try GeoNamesPlace.read(data, format: format), source: source)
    }

    /// The geocoder over the package's copy of GeoNames' `cities15000` (34,006 places; read once).
    ///
    /// - Throws: `GeoError.Kind.io` when the package's copy is missing.
    public static func bundled() throws(GeoError) -> ReverseGeocoder {
        try bundledResult.get()
    }

    /// ``bundled()``, or a geocoder with no places (which answers `nil`) if the package's copy
    /// is missing.
    public static var `default`: ReverseGeocoder {
        (try? bundledResult.get()) ?? ReverseGeocoder(empty: ())
    }

    private static let bundledResult: Result<ReverseGeocoder, GeoError> = {
        guard
            let url = Bundle.module.url(
                forResource: "geonames_cities15000", withExtension: "tsv")
        else {
            return .failure(GeoError(.io, "the package's copy of GeoNames cities15000 is missing"))
        }
        do throws(GeoError) {
            return .success(try ReverseGeocoder(contentsOf: url, format: .cities))
        } catch {
            return .failure(error)
        }
    }()

    /// The placemark of the place nearest to a coordinate, at most `maxDistance` meters away;
    /// `nil` when there is none (or the coordinate is invalid).
    ///
    /// - Complexity: a cell lookup (O(log n) levels, a few in practice), the chords to the few places
    ///   listed there and one geodesic; about 1.5 µs (`meridian-bench places`), no allocation but
    ///   the placemark's strings.
    public func placemark(
        for coordinate: Coordinate, within maxDistance: Double = .infinity
    )
        -> Placemark?
    {
        guard let match = nearest(to: coordinate, within: maxDistance) else { return nil }
        return placemark(places[match.index], distance: match.distance)
    }

    /// The placemarks of many coordinates, in their order, on all cores; `nil` where
    /// ``placemark(for:within:)`` would give `nil`.
    public func placemarks(
        for coordinates: [Coordinate], within maxDistance: Double = .infinity
    )
        -> [Placemark?]
    {
        nearestPlaces(for: coordinates, within: maxDistance).map { match in
            match.map { placemark(places[$0.index], distance: $0.distance) }
        }
    }

    /// The index of the nearest place and its distance for many coordinates, on all cores: the
    /// batch form without building placemarks.
    public func nearestPlaces(
        for coordinates: [Coordinate], within maxDistance: Double = .infinity
    )
        -> [(index: Int, distance: Double)?]
    {
        answers(for: coordinates) { nearest(to: $0, within: maxDistance) }
    }

    /// The index in ``places`` of the place nearest to a coordinate, at most `maxDistance` meters
    /// away; `nil` when there is none (or the coordinate is invalid): the place of
    /// ``placemark(for:within:)``, without its distance.
    ///
    /// The same place, to the bit, as ``nearestPlaces(for:within:)`` and
    /// ``PlaceIndex/nearest(to:within:)``, ties included, but usually found with no geodesic at
    /// all: the chords from the coordinate to the places its cell lists bound the geodesics (the
    /// geodesic is at least the chord, and at most U(c), see ``PlaceIndex``), so when the second
    /// nearest chord exceeds U(nearest chord) by more than a millimeter, the nearest chord's place
    /// is the geodesic-nearest and nothing is measured. Near-ties by chord (about 7 % of random
    /// queries over GeoNames' 96,384 places, mostly far out at sea where U(c) − c grows as c³)
    /// are tested against a floor twenty times tighter than the chord (the inside ball of
    /// `ChordGeodesic`); only the rest (about 0.5 %) take the geodesics of
    /// ``placemark(for:within:)``.
    ///
    /// - Complexity: a cell lookup and the chords to the few places listed there; about 0.15 µs
    ///   (`meridian-bench places`), no allocation.
    public func nearestPlaceIndex(
        to coordinate: Coordinate, within maxDistance: Double = .infinity
    ) -> Int? {
        guard coordinate.isValid, !(maxDistance < 0) else { return nil }
        let limit = maxDistance.isNaN ? Double.infinity : maxDistance
        return cells.nearestElement(to: coordinate, limit: limit, in: index.tree).map { Int($0) }
    }

    /// ``nearestPlaceIndex(to:within:)`` for many coordinates, in their order, on all cores: the
    /// batch form for callers that need the place but not its distance (as `reverse_geocoder`
    /// answers), about 5× faster than ``nearestPlaces(for:within:)`` on random queries.
    public func nearestPlaceIndices(
        for coordinates: [Coordinate], within maxDistance: Double = .infinity
    ) -> [Int?] {
        answers(for: coordinates) { nearestPlaceIndex(to: $0, within: maxDistance) }
    }

    /// `answer` of every coordinate, in their order, on all cores (one thread below 4,096).
    @inline(__always)
    private func answers<Answer>(
        for coordinates: [Coordinate], _ answer: @Sendable (Coordinate) -> Answer?
    ) -> [Answer?] {
        let n = coordinates.count
        let parts = n >= 4_096 ? ProcessInfo.processInfo.activeProcessorCount : 1
        var results = [Answer?](repeating: nil, count: n)
        results.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let slots = WorkerSlots(base)
            coordinates.withUnsafeBufferPointer { input in
                let queries = SharedView(input)
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    // The view's buffer, read directly: its generic subscript is not always
                    // specialized across modules.
                    let queries = queries.buffer
                    for i in (n * part / parts)..<(n * (part + 1) / parts) {
                        slots[i] = answer(queries[i])
                    }
                }
            }
        }
        return results
    }

    /// The nearest place's index and distance: the answer of `index.nearest(to:within:)`, from the
    /// cells.
    @inline(__always)
    func nearest(
        to coordinate: Coordinate, within maxDistance: Double
    ) -> (index: Int, distance: Double)? {
        guard coordinate.isValid, !(maxDistance < 0) else { return nil }
        let limit = maxDistance.isNaN ? Double.infinity : maxDistance
        return cells.nearest(to: coordinate, limit: limit, in: index.tree).map {
            (Int($0.element), $0.distance)
        }
    }

    private func placemark(_ place: GeoNamesPlace, distance: Double) -> Placemark {
        Placemark(
            name: place.name, administrativeArea: place.admin1Name,
            administrativeAreaCode: place.admin1Code, subAdministrativeArea: place.admin2Name,
            subAdministrativeAreaCode: place.admin2Code, isoCountryCode: place.countryCode,
            coordinate: place.coordinate, distance: distance,
            geonameID: place.geonameID, population: place.population, source: source)
    }
}
