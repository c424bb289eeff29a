import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoSearch

/// Seeded point sets with the shapes that break point indexes.
enum PlaceScatter: String, CaseIterable, Sendable {
    case uniform, clustered, polar, antimeridian, duplicates

    func coordinates(_ n: Int, seed: UInt64) -> [Coordinate] {
        var rng = SplitMix64(seed: seed)
        var out = [Coordinate]()
        let centers = (0..<8).map { _ in
            Coordinate(latitude: rng.uniform(-60, 60), longitude: rng.uniform(-180, 180))
        }
        for i in 0..<n {
            switch self {
            case .uniform:
                // Uniform on the sphere: latitude from the arcsine of a uniform number.
                out.append(
                    Coordinate(
                        latitude: asin(rng.uniform(-1, 1)) * 180 / .pi,
                        longitude: rng.uniform(-180, 180)))
            case .clustered:
                let c = centers[Int(rng.next() % 8)]
                out.append(
                    Coordinate(
                        latitude: max(-90, min(90, c.latitude + rng.normal() * 0.05)),
                        longitude: Angle.normalizedLongitude(c.longitude + rng.normal() * 0.05)))
            case .polar:
                let north = i % 2 == 0
                out.append(
                    Coordinate(
                        latitude: (north ? 1 : -1) * (90 - rng.nextUnit() * rng.nextUnit() * 2),
                        longitude: rng.uniform(-180, 180)))
            case .antimeridian:
                let lon = 180 - rng.nextUnit() * 0.5
                out.append(
                    Coordinate(
                        latitude: rng.uniform(-1, 1), longitude: rng.next() % 2 == 0 ? lon : -lon))
            case .duplicates:
                // Few distinct coordinates, each many times, and exact poles and ±180.
                let spots = [
                    Coordinate(latitude: 0, longitude: 180),
                    Coordinate(latitude: 0, longitude: -180),
                    Coordinate(latitude: 90, longitude: 0),
                    Coordinate(latitude: -90, longitude: 45),
                    Coordinate(latitude: 47.3769, longitude: 8.5417),
                    Coordinate(latitude: 47.3770, longitude: 8.5417),
                ]
                out.append(spots[Int(rng.next() % UInt64(spots.count))])
            }
        }
        return out
    }

    func query(_ rng: inout SplitMix64) -> Coordinate {
        switch self {
        case .uniform, .clustered:
            Coordinate(latitude: rng.uniform(-89, 89), longitude: rng.uniform(-180, 180))
        case .polar:
            Coordinate(
                latitude: rng.next() % 2 == 0 ? 89.5 : -90, longitude: rng.uniform(-180, 180))
        case .antimeridian:
            Coordinate(latitude: rng.uniform(-1, 1), longitude: rng.next() % 2 == 0 ? 180 : -179.9)
        case .duplicates:
            Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
        }
    }
}

/// The brute-force answer: every place's geodesic distance (PROJ), sorted by (distance, index).
func bruteForce(
    _ points: [Coordinate], from origin: Coordinate, where keep: (Int) -> Bool = { _ in true }
) -> [(index: Int, distance: Double)] {
    points.indices.filter(keep).map { ($0, Geodesic.distance(from: origin, to: points[$0])) }
        .sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.index < $1.index) }
}

@Suite("Chord geodesics")
struct ChordGeodesicTests {
    @Test("lines up to 60 km agree with PROJ's geodesic to 0.1 µm at every latitude")
    func shortLines() throws {
        var rng = SplitMix64(seed: 0x5407)
        var worst = 0.0, compared = 0
        for i in 0..<20_000 {
            let lat = i % 10 == 0 ? (i % 20 == 0 ? 90 : -89.999) : rng.uniform(-90, 90)
            let a = Coordinate(latitude: lat, longitude: rng.uniform(-180, 180))
            let length = rng.nextUnit() * (i % 3 == 0 ? 1_000 : 59_000)
            let b = Geodesic.wgs84.direct(from: a, azimuth: rng.uniform(0, 360), distance: length)
                .coordinate
            let p = WGS84.earthCentered(a), q = WGS84.earthCentered(b)
            // Every line is shorter than 60 km, so its chord is too: the formula always answers.
            let s = try #require(ChordGeodesic.distance(from: p, to: q), "\(a) → \(b)")
            compared += 1
            let reference = Geodesic.distance(from: a, to: b)
            worst = max(worst, abs(s - reference))
            #expect(abs(s - reference) <= 1e-7, "\(a) → \(b): \(s) vs \(reference)")
            #expect(ChordGeodesic.distance(from: q, to: p) == s)
        }
        #expect(compared == 20_000)
        #expect(worst > 0)
        #expect(
            ChordGeodesic.distance(
                from: WGS84.earthCentered(.init(latitude: 1, longitude: 2)),
                to: WGS84.earthCentered(.init(latitude: 1, longitude: 2))) == 0)
    }

    @Test("chords bracket the geodesic at every length")
    func bracket() {
        var rng = SplitMix64(seed: 0xB4AC)
        for _ in 0..<5_000 {
            let a = Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            let b = Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            let d = WGS84.earthCentered(b) - WGS84.earthCentered(a)
            let c = (d * d).sum().squareRoot()
            let s = Geodesic.distance(from: a, to: b)
            #expect(c <= s * (1 + 1e-15))
            #expect(ChordGeodesic.upperBound(chord: c) >= s, "\(a) → \(b): chord \(c), s \(s)")
        }
    }

    /// The bound without an arcsine is never below the one with it, and within its stated
    /// (3/40) x⁷ / (1 − x²) · 2M₀ (plus rounding) above it, at every chord up to the Earth's
    /// diameter.
    @Test("the series bound is at least the arcsine bound and close to it")
    func seriesBound() {
        var rng = SplitMix64(seed: 0x5E41)
        let diameter = 2 * WGS84.equatorialRadius * (1 - WGS84.eccentricitySquared)
        var chords = (0..<100_000).map { _ in rng.uniform(0, 12_800_000) }
        chords += [0, 1e-9, 1, 1_000, 60_000, 0.9 * diameter, (0.9 * diameter).nextDown]
        for c in chords {
            let exact = ChordGeodesic.upperBound(chord: c)
            let series = ChordGeodesic.seriesUpperBound(chord: c)
            let x = c / diameter
            #expect(series >= exact, "chord \(c)")
            guard x < 0.9 else { continue }
            #expect(
                series - exact <= 3 / 40 * pow(x, 7) / (1 - x * x) * diameter + 1e-13 * c + 1e-9,
                "chord \(c): \(series - exact)")
        }
        let atThousandKilometers = ChordGeodesic.seriesUpperBound(chord: 1_000_000)
        #expect(atThousandKilometers - ChordGeodesic.upperBound(chord: 1_000_000) < 0.02)
        // The quick form: never below the series, within 10⁻⁵ relative of it up to x = 0.1,
        // the series itself beyond.
        for c in chords + [0.1 * diameter, (0.1 * diameter).nextUp] {
            let quick = ChordGeodesic.quickUpperBound(chord: c)
            let series = ChordGeodesic.seriesUpperBound(chord: c)
            #expect(quick >= series && quick <= series * (1 + 1e-5), "chord \(c)")
        }
    }

    /// The inside ball's bound: never above PROJ's geodesic, at every length, latitude and
    /// direction (poles, antipodes and equal points included), and within its stated
    /// 0.002 s³/M₀² below it where the chord falls short by about s³/24R².
    @Test("the inside ball bounds the geodesic from below, twenty times tighter than the chord")
    func insideBall() {
        var rng = SplitMix64(seed: 0xBA11)
        let m0 = WGS84.equatorialRadius * (1 - WGS84.eccentricitySquared)
        var tightest = 0.0, gain = Double.infinity
        for i in 0..<20_000 {
            let lat = i % 50 == 0 ? (i % 100 == 0 ? 90 : -90) : rng.uniform(-90, 90)
            let a = Coordinate(latitude: lat, longitude: rng.uniform(-180, 180))
            let b: Coordinate
            switch i % 4 {
            case 0:
                b = Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            case 1:
                // Nearly antipodal.
                b = Coordinate(
                    latitude: max(-90, min(90, -a.latitude + rng.uniform(-1, 1))),
                    longitude: a.longitude + 180 + rng.uniform(-1, 1))
            default:
                b =
                    Geodesic.wgs84.direct(
                        from: a, azimuth: rng.uniform(0, 360),
                        distance: rng.nextUnit() * (i % 4 == 2 ? 3_000_000 : 50_000)
                    ).coordinate
            }
            let p = WGS84.earthCentered(a), q = WGS84.earthCentered(b)
            let s = Geodesic.distance(from: a, to: b)
            let bound = ChordGeodesic.InsideBall(touching: p).lowerBound(to: q)
            #expect(bound <= s, "\(a) → \(b): \(bound) > \(s)")
            guard s > 100_000, s < 3_000_000 else { continue }
            let d = q - p
            let chord = (d * d).sum().squareRoot()
            let cube = s * s * s / (m0 * m0)
            #expect(s - bound <= 0.002 * cube + 2e-6, "\(a) → \(b): \(s - bound) m short")
            tightest = max(tightest, (s - bound) / cube)
            gain = min(gain, (s - chord) / max(s - bound, 1e-9))
        }
        #expect(
            ChordGeodesic.InsideBall(
                touching: WGS84.earthCentered(.init(latitude: 10, longitude: 20))
            ).lowerBound(to: WGS84.earthCentered(.init(latitude: 10, longitude: 20))) == 0)
        // The stated factor: some twenty times tighter than the chord, everywhere.
        #expect(tightest > 0.001 && gain > 15, "worst \(tightest) s³/M₀², gain \(gain)")
    }
}

@Suite("Place index: nearest, radius and region against brute force")
struct PlaceIndexTests {
    @Test("nearest k equals a brute-force geodesic scan", arguments: PlaceScatter.allCases)
    func nearestEqualsBruteForce(scatter: PlaceScatter) throws {
        let points = scatter.coordinates(3_000, seed: 0xAB + UInt64(scatter.rawValue.count))
        let index = try PlaceIndex(Array(points.indices), coordinate: { points[$0] })
        var rng = SplitMix64(seed: 0x9E + UInt64(scatter.rawValue.count))
        for q in 0..<TestScale.steps(60, minimum: 16) {
            let origin = scatter.query(&rng)
            let k = [1, 3, 10, 40][q % 4]
            let expected = bruteForce(points, from: origin)
            let found = index.nearest(k, to: origin)
            #expect(
                found.map(\.index) == expected.prefix(k).map(\.index), "\(scatter) \(origin) k \(k)"
            )
            for (f, e) in zip(found, expected) {
                #expect(abs(f.distance - e.distance) <= 1e-7)
            }
            // A distance cap and a filter.
            let cap =
                (expected[min(expected.count - 1, 2 * k)].distance
                    + expected[min(expected.count - 1, 2 * k + 1)].distance) / 2
            let odd = index.nearest(k, to: origin, within: cap, where: { _ in true })
            #expect(
                odd.map(\.index) == expected.filter { $0.distance <= cap }.prefix(k).map(\.index))
            let filtered = index.nearest(k, to: origin, where: { $0 % 3 == 0 })
            #expect(
                filtered.map(\.index)
                    == bruteForce(points, from: origin, where: { $0 % 3 == 0 }).prefix(k).map(
                        \.index))
            if q % 10 == 0 {
                #expect(index.nearest(to: origin)?.index == expected.first?.index)
            }
        }
    }

    /// The grid of cells a large index starts its nearest queries from gives the tree's answers
    /// bit for bit (the tree is checked against brute force above): every scatter, points and
    /// queries on the cube's face edges and corners (where the grid hands over to the tree),
    /// several k, distance caps and filters. A few answers are checked against brute force too.
    @Test("the cell grid answers as the tree does", arguments: PlaceScatter.allCases + [nil])
    func gridEqualsTree(scatter: PlaceScatter?) throws {
        var rng = SplitMix64(seed: 0x6E1D + UInt64(scatter?.rawValue.count ?? 0))
        // Without a scatter: directions near the cube's edges and corners (|x| = |y|, and the
        // corners at latitude ±35.26°), where cells are smallest and balls cross faces.
        func nearEdge() -> Coordinate {
            let corner = atan(1 / 2.0.squareRoot()) * 180 / .pi
            let longitude = 45.0 + 90 * Double(rng.next() % 4) + rng.normal() * 0.3
            let latitude = rng.next() % 2 == 0 ? rng.uniform(-60, 60) : corner + rng.normal() * 0.3
            return Coordinate(
                latitude: max(-90, min(90, latitude)),
                longitude: Angle.normalizedLongitude(longitude))
        }
        let points =
            scatter?.coordinates(12_000, seed: 0x51 + UInt64(scatter?.rawValue.count ?? 0))
            ?? (0..<12_000).map { _ in nearEdge() }
        let tree = PointTree(points)
        #expect((tree.grid != nil) == (tree.count >= 4_096), "a grid over \(tree.count) positions")
        var treeOnly = tree
        treeOnly.grid = nil
        func answers(
            _ t: PointTree, _ k: Int, _ q: Coordinate, _ limit: Double, _ keep: ((Int) -> Bool)?
        )
            -> [(Double, Int32)]
        {
            var out = [(Double, Int32)]()
            t.nearest(k, to: q, limit: limit, accepts: keep) { found in
                out = found.map { ($0.distance, $0.element) }
            }
            return out
        }
        // Crowded cells are cut into quarters, so the grid answers queries among clustered
        // places too (here 12,000 places in 8 clumps of σ 5 km: cells of the base grid hold
        // up to 1,500); a clump denser than the finest quarters (150 m) is left to the tree,
        // which stays logarithmic there.
        if scatter == .clustered {
            let answered = (0..<400).filter { _ in
                tree.gridAnswers(10, to: points[Int(rng.next() % 12_000)])
            }.count
            #expect(answered > 360, "the grid answered \(answered) of 400 queries")
            let clump = (0..<6_000).map { i in
                Coordinate(
                    latitude: 47 + Double(i % 80) * 1e-5, longitude: 8 + Double(i / 80) * 1e-5)
            }
            let clumped = PointTree(clump + points)
            #expect(!clumped.gridAnswers(10, to: clump[0]))
            #expect(clumped.gridAnswers(10, to: points[0]))
        }
        // On spread-out places the grid answers most queries by itself: here those whose ten
        // nearest (within about 300 km) do not reach a face's edge, some nine in ten (a million
        // places, 40 km, 98 %).
        if scatter == .uniform {
            let answered = (0..<400).filter { _ in
                tree.gridAnswers(10, to: PlaceScatter.uniform.query(&rng))
            }.count
            #expect(answered > 330, "the grid answered \(answered) of 400 queries")
        }
        for step in 0..<TestScale.steps(600, minimum: 150) {
            let q =
                scatter.map { step % 3 == 0 ? $0.query(&rng) : points[Int(rng.next() % 12_000)] }
                ?? nearEdge()
            let k = [1, 3, 10, 40][step % 4]
            let limit = step % 5 == 4 ? 30_000.0 : .infinity
            let keep: ((Int) -> Bool)? = step % 7 == 6 ? { $0 % 3 == 0 } : nil
            let fromGrid = answers(tree, k, q, limit, keep)
            let fromTree = answers(treeOnly, k, q, limit, keep)
            #expect(fromGrid.map(\.1) == fromTree.map(\.1), "\(q) k \(k)")
            #expect(fromGrid.map(\.0) == fromTree.map(\.0), "\(q) k \(k)")
            if step % 50 == 0 {
                let expected = bruteForce(points, from: q).filter { $0.distance <= limit }
                    .filter { keep?($0.index) ?? true }.prefix(k)
                #expect(fromGrid.map { Int($0.1) } == expected.map(\.index), "\(q) k \(k)")
            }
        }
    }

    @Test("places within a radius and in a box equal brute force", arguments: PlaceScatter.allCases)
    func radiusAndBox(scatter: PlaceScatter) throws {
        let points = scatter.coordinates(2_000, seed: 0xC0 + UInt64(scatter.rawValue.count))
        let index = try PlaceIndex(points, coordinate: { $0 })
        var rng = SplitMix64(seed: 0xD1)
        for _ in 0..<30 {
            let origin = scatter.query(&rng)
            let expected = bruteForce(points, from: origin)
            // Halfway between two places' distances: a radius exactly at a place's distance
            // would test the last 0.1 µm of the formula against PROJ's.
            let radius =
                (expected[min(expected.count - 1, 25)].distance
                    + expected[min(expected.count - 1, 26)].distance) / 2
            let found = index.places(within: radius, of: origin)
            #expect(found.map(\.index) == expected.filter { $0.distance <= radius }.map(\.index))
            let box = BoundingBox(
                west: Angle.normalizedLongitude(origin.longitude - rng.uniform(0.1, 40)),
                south: max(-90, origin.latitude - rng.uniform(0, 20)),
                east: Angle.normalizedLongitude(origin.longitude + rng.uniform(0.1, 40)),
                north: min(90, origin.latitude + rng.uniform(0, 20)))
            let inBox = index.places(in: box)
            #expect(inBox.map(\.index) == points.indices.filter { box.contains(points[$0]) })
            let sorted = index.places(in: box, sortedByDistanceFrom: origin)
            #expect(
                sorted.map(\.index)
                    == expected.filter { box.contains(points[$0.index]) }.map(\.index))
            let region = CoordinateRegion(
                center: origin, span: CoordinateSpan(latitudeDelta: 10, longitudeDelta: 30))
            #expect(
                index.places(in: region).map(\.index)
                    == points.indices.filter { region.contains(points[$0]) })
        }
    }

    @Test("regions ending on the 180th meridian and boxes beyond the poles miss nothing")
    func regionAndBoxEdges() throws {
        // Places written at both signs of the 180th meridian, and near both poles.
        var points = [Coordinate]()
        for lat in stride(from: -89.5, through: 89.5, by: 0.5) {
            points += [-180.0, 180, 176, -176, 179.99].map {
                Coordinate(latitude: lat, longitude: $0)
            }
        }
        let index = try PlaceIndex(points, coordinate: { $0 })
        for (center, span) in [
            ((0.0, 175.0), (10.0, 10.0)), ((0.0, -175.0), (10.0, 10.0)), ((0, 180), (2, 0)),
            ((0, -180), (2, 0)), ((0, 170), (400, 20)), ((60, 179.99), (40, 0.02)),
        ] {
            let region = CoordinateRegion(
                center: Coordinate(latitude: center.0, longitude: center.1),
                span: CoordinateSpan(latitudeDelta: span.0, longitudeDelta: span.1))
            let expected = points.indices.filter { region.contains(points[$0]) }
            #expect(!expected.isEmpty)
            #expect(index.places(in: region).map(\.index) == expected, "\(center) \(span)")
        }
        for box in [
            BoundingBox(west: 170, south: -95, east: -170, north: 95),
            BoundingBox(west: -180, south: -1e3, east: 180, north: 1e3),
        ] {
            let expected = points.indices.filter { box.contains(points[$0]) }
            #expect(expected.count > points.count / 3)
            #expect(index.places(in: box).map(\.index) == expected, "\(box)")
        }
    }

    @Test("a million places at one coordinate: the lowest indices, in order")
    func onePile() throws {
        let spot = Coordinate(latitude: -33.8688, longitude: 151.2093)
        let points = [Coordinate](repeating: spot, count: 1_000_000)
        let index = try PlaceIndex(points, coordinate: { $0 })
        #expect(index.distinctCoordinateCount == 1)
        let found = index.nearest(5, to: Coordinate(latitude: -33.9, longitude: 151.2))
        #expect(found.map(\.index) == [0, 1, 2, 3, 4])
        #expect(index.places(within: 1, of: spot).count == 1_000_000)
        #expect(index.nearest(3, to: spot, where: { _ in false }).isEmpty)
    }

    @Test("clumps within one curve cell: exact duplicates merge, near ones stay apart")
    func clumps() throws {
        // Places a few centimeters apart share a curve key; equal coordinates (0.0 and −0.0 too)
        // must become one position, different ones must not.
        var rng = SplitMix64(seed: 0xC1)
        var points = [Coordinate]()
        for i in 0..<20_000 {
            let clump = Double(i % 50)
            let offset = Double(rng.next() % 40) * 1e-7
            points.append(Coordinate(latitude: clump, longitude: i % 7 == 0 ? -0.0 : offset))
        }
        let distinct = Set(points.map { [$0.latitude, $0.longitude == 0 ? 0 : $0.longitude] })
        let index = try PlaceIndex(points, coordinate: { $0 })
        #expect(index.distinctCoordinateCount == distinct.count)
        for q in [
            Coordinate(latitude: 10, longitude: 1e-6), Coordinate(latitude: 49.2, longitude: 0.4),
        ] {
            let expected = bruteForce(points, from: q)
            #expect(index.nearest(30, to: q).map(\.index) == expected.prefix(30).map(\.index))
        }
        #expect(
            PointTree.keyLayout(count: 1) == (1, 35) && PointTree.keyLayout(count: 2) == (1, 35))
        #expect(PointTree.keyLayout(count: 1 << 29) == (29, 35))
        #expect(PointTree.keyLayout(count: (1 << 29) + 1) == (30, 34))
        #expect(PointTree.keyLayout(count: Int(Int32.max)) == (31, 33))
    }

    @Test("places all at nearly one distance: more candidates than the walk keeps, same answer")
    func oneDistance() throws {
        // Seen from the north pole every place on a parallel is at one geodesic distance, and the
        // chord cannot tell them apart within its bound, so every one is a candidate.
        var rng = SplitMix64(seed: 0x81)
        let points = (0..<3_000).map { _ in
            Coordinate(latitude: 45 + rng.uniform(-1e-9, 1e-9), longitude: rng.uniform(-180, 180))
        }
        let index = try PlaceIndex(Array(points.indices), coordinate: { points[$0] })
        let pole = Coordinate(latitude: 90, longitude: 0)
        let expected = bruteForce(points, from: pole)
        for k in [1, 5, 300] {
            #expect(index.nearest(k, to: pole).map(\.index) == expected.prefix(k).map(\.index))
        }
    }

    @Test("bad input: invalid coordinates throw naming the place; bad queries give nothing")
    func badInput() throws {
        #expect(throws: GeoError.self) {
            try PlaceIndex(
                [Coordinate(latitude: 1, longitude: 2), Coordinate(latitude: 91, longitude: 0)],
                coordinate: { $0 })
        }
        do {
            _ = try PlaceIndex([Coordinate(latitude: .nan, longitude: 0)], coordinate: { $0 })
        } catch {
            #expect(error.kind == .invalidCoordinate)
            #expect(error.message.hasPrefix("place 0:"))
        }
        let index = try PlaceIndex([Coordinate(latitude: 1, longitude: 2)], coordinate: { $0 })
        #expect(index.nearest(3, to: Coordinate(latitude: .nan, longitude: 0)).isEmpty)
        #expect(index.nearest(0, to: Coordinate(latitude: 0, longitude: 0)).isEmpty)
        #expect(index.nearest(-5, to: Coordinate(latitude: 0, longitude: 0)).isEmpty)
        #expect(index.nearest(3, to: Coordinate(latitude: 0, longitude: 0), within: -1).isEmpty)
        #expect(index.nearest(3, to: Coordinate(latitude: 0, longitude: 0)).count == 1)
        let empty = try PlaceIndex([Coordinate](), coordinate: { $0 })
        #expect(empty.nearest(3, to: Coordinate(latitude: 0, longitude: 0)).isEmpty)
        #expect(empty.places(within: 1e7, of: Coordinate(latitude: 0, longitude: 0)).isEmpty)
        #expect(empty.places(in: BoundingBox.world).isEmpty)
    }
}

@Suite("Place index: shared between threads")
struct PlaceIndexConcurrencyTests {
    @Test("many threads query one index and get a single thread's answers")
    func concurrentQueries() throws {
        let points = PlaceScatter.clustered.coordinates(
            TestScale.steps(20_000, minimum: 5_000), seed: 0x7C)
        let index = try PlaceIndex(
            Array(points.indices), coordinate: { points[$0] }, name: { "place \($0)" })
        var rng = SplitMix64(seed: 0x7D)
        let queries = (0..<200).map { _ in PlaceScatter.clustered.query(&rng) }
        let expected = queries.map { index.nearest(8, to: $0).map(\.index) }
        let lock = NSLock()
        nonisolated(unsafe) var mismatches = 0
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var results = [PlaceMatch<Int>]()
            for (i, q) in queries.enumerated() where i % 8 == worker || i % 3 == 0 {
                index.nearest(8, to: q, into: &results)
                let searched = index.search("place \(i % 100)", near: q, limit: 3)
                if results.map(\.index) != expected[i] || searched.isEmpty {
                    lock.lock()
                    mismatches += 1
                    lock.unlock()
                }
            }
        }
        #expect(mismatches == 0)
    }
}
