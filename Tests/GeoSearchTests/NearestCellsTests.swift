import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoSearch

@Suite("Nearest cells")
struct NearestCellsTests {
    /// Query points that sit on cell edges: latitudes and longitudes that are multiples of
    /// 180° / 2^j, the poles and ±180°.
    static func edgeQueries(_ rng: inout SplitMix64, count: Int) -> [Coordinate] {
        (0..<count).map { _ in
            let j = Double(1 << (rng.next() % 12))
            let lat = (-90 + (180 / j) * Double(rng.next() % UInt64(j + 1))).clamped(-90, 90)
            let lon = (-180 + (180 / j) * Double(rng.next() % UInt64(2 * j + 1))).clamped(
                -180, 180)
            return Coordinate(latitude: lat, longitude: lon)
        }
    }

    static func tree(
        _ index: PlaceIndex<Coordinate>, _ q: Coordinate, limit: Double
    ) -> (distance: Double, element: Int32)? {
        var found: (distance: Double, element: Int32)?
        index.tree.nearest(1, to: q, limit: limit, accepts: nil) { found = $0.first }
        return found
    }

    @Test("the cells answer what the tree answers, to the bit", arguments: PlaceScatter.allCases)
    func equalsTree(scatter: PlaceScatter) throws {
        let points = scatter.coordinates(TestScale.steps(3_000, minimum: 1_000), seed: 0xCE11)
        let index = try PlaceIndex(points, coordinate: { $0 })
        let cells = NearestCells(index.tree)
        #expect(cells.nodes.count >= 2)
        var rng = SplitMix64(seed: 0xCE12)
        var queries = (0..<TestScale.steps(1_500, minimum: 300)).map { _ in scatter.query(&rng) }
        queries += Self.edgeQueries(&rng, count: TestScale.steps(600, minimum: 100))
        queries += points.prefix(200)
        var compactUndecided = 0, exactUndecided = 0
        for (i, q) in queries.enumerated() {
            let limit = i % 5 == 4 ? 50_000.0 : .infinity
            let expected = Self.tree(index, q, limit: limit)
            let found = cells.nearest(to: q, limit: limit, in: index.tree)
            #expect(found?.element == expected?.element, "\(q)")
            #expect(found?.distance == expected?.distance, "\(q)")
            let element = cells.nearestElement(to: q, limit: limit, in: index.tree)
            #expect(element == expected?.element, "\(q)")
            // What the Float positions decide, the exact positions decide alike (or measure).
            let node = cells.leaf(latitude: q.latitude, longitude: q.longitude)
            guard node.count != NearestCells.fallback else { continue }
            let query = WGS84.earthCentered(q)
            if cells.decision(node, query, limit: limit) == .undecided { exactUndecided += 1 }
            switch cells.compactDecision(node, query, limit: limit) {
            case .undecided: compactUndecided += 1
            case .none: #expect(expected == nil, "\(q)")
            case .nearest(let e):
                #expect(e == expected?.element, "\(q)")
                let exact = cells.decision(node, query, limit: limit)
                #expect(exact == .nearest(e) || exact == .undecided, "\(q)")
            }
        }
        // The quarter meter of rounding leaves few more to the exact positions (sub-meter
        // near-ties, common only where places are duplicated with jitter).
        #expect(
            compactUndecided <= exactUndecided + queries.count / 20,
            "\(compactUndecided), exact \(exactUndecided), of \(queries.count)")
    }

    @Test("the decisions' polynomial positions are within 10 nm of the library's")
    func polynomialPositions() {
        var rng = SplitMix64(seed: 0x9017)
        var worst = 0.0
        var coordinates = (0..<200_000).map { _ in
            Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
        }
        // The ends and middles of the reduction's ranges.
        for lat in stride(from: -90.0, through: 90, by: 22.5) {
            for lon in stride(from: -180.0, through: 180, by: 22.5) {
                coordinates.append(Coordinate(latitude: lat, longitude: lon))
                coordinates.append(
                    Coordinate(
                        latitude: lat.nextDown.clamped(-90, 90),
                        longitude: lon.nextUp.clamped(-180, 180)))
            }
        }
        for c in coordinates {
            let d =
                NearestCells.position(latitude: c.latitude, longitude: c.longitude)
                - WGS84.earthCentered(c)
            let error = (d * d).sum().squareRoot()
            #expect(error <= 1e-8, "\(c): \(error) m")
            worst = max(worst, error)
        }
        #expect(worst > 0)
        let pole = NearestCells.position(latitude: 90, longitude: 37)
        #expect(pole.x == 0 && pole.y == 0 && pole.z == WGS84.polarRadius)
    }

    @Test("the chords decide only what the geodesics would: ties and near-ties are measured")
    func chordDecisions() throws {
        func decision(
            _ places: [Coordinate], _ q: Coordinate, limit: Double = .infinity
        ) throws
            -> (NearestCells.ChordDecision, Int32?)
        {
            let index = try PlaceIndex(places, coordinate: { $0 })
            let cells = NearestCells(index.tree)
            let node = cells.leaf(latitude: q.latitude, longitude: q.longitude)
            let decided = cells.decision(node, WGS84.earthCentered(q), limit: limit)
            return (decided, cells.nearestElement(to: q, limit: limit, in: index.tree))
        }
        let q = Coordinate(latitude: 0, longitude: 0)
        // Mirror images: equal chords, equal geodesics; the lower index wins either way round.
        let mirror = [
            Coordinate(latitude: 0, longitude: 1), Coordinate(latitude: 0, longitude: -1),
        ]
        #expect(try decision(mirror, q) == (.undecided, 0))
        #expect(try decision(mirror.reversed(), q) == (.undecided, 0))
        // 0.1 mm apart: within the margin, so measured; the nearer one wins.
        let nearTie = [
            Coordinate(latitude: 0, longitude: 1 + 1e-9), Coordinate(latitude: 0, longitude: -1),
        ]
        #expect(try decision(nearTie, q) == (.undecided, 1))
        // Far apart: decided by the chords, with no geodesic.
        let apart = [
            Coordinate(latitude: 0, longitude: 2), Coordinate(latitude: 0.5, longitude: -1),
        ]
        #expect(try decision(apart, q) == (.nearest(1), 1))
        // Beyond the limit by chord: nothing; within it by chord but not surely by geodesic:
        // measured.
        #expect(try decision(apart, q, limit: 100_000) == (.none, nil))
        let near = WGS84.earthCentered(apart[1]) - WGS84.earthCentered(q)
        let chord = (near * near).sum().squareRoot()
        #expect(try decision(apart, q, limit: chord + 1e-4) == (.undecided, nil))
        #expect(try decision(apart, q, limit: chord + 1_000) == (.nearest(1), 1))
        // A pile at one coordinate is one position: its lowest element, decided.
        let pile = [apart[0]] + Array(repeating: apart[1], count: 5)
        #expect(try decision(pile, q) == (.nearest(1), 1))
    }

    @Test("a pile of places closer than the finest cell: bounded build, the tree's answers")
    func pile() throws {
        var rng = SplitMix64(seed: 0x9115)
        let n = TestScale.steps(5_000, minimum: 2_000)
        let points = (0..<n).map { _ in
            Coordinate(
                latitude: 46.5 + rng.uniform(0, 1e-5), longitude: 6.6 + rng.uniform(0, 1e-5))
        }
        let index = try PlaceIndex(points, coordinate: { $0 })
        let cells = NearestCells(index.tree)
        // O(n): the build's budget bounds the lists, nodes and candidates.
        #expect(cells.candidates.count <= 64 * n)
        #expect(cells.nodes.count <= 64 * n)
        var queries = (0..<200).map { _ in
            Coordinate(
                latitude: 46.5 + rng.uniform(-2e-5, 3e-5), longitude: 6.6 + rng.uniform(-2e-5, 3e-5)
            )
        }
        // From afar every place of the pile is a candidate of the exact finish (slow, so few).
        queries += (0..<20).map { _ in
            Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
        }
        for q in queries {
            let expected = Self.tree(index, q, limit: .infinity)
            let found = cells.nearest(to: q, limit: .infinity, in: index.tree)
            #expect(found?.element == expected?.element, "\(q)")
            #expect(found?.distance == expected?.distance, "\(q)")
            #expect(
                cells.nearestElement(to: q, limit: .infinity, in: index.tree)
                    == expected?.element, "\(q)")
        }
    }

    @Test("the bundled GeoNames places: the geocoder's batch equals the index's nearest")
    func geoNamesPlaces() throws {
        let geocoder = try ReverseGeocoder.bundled()
        let places = geocoder.places
        // Every part of the globe is listed: no cell leaves these places to the tree.
        #expect(!geocoder.cells.nodes.contains { $0.count == NearestCells.fallback })
        #expect(geocoder.cells.candidates.count < 10 * places.count)
        var rng = SplitMix64(seed: 0xCE13)
        var queries = (0..<TestScale.steps(10_000, minimum: 2_000)).map { i in
            i % 4 == 0
                ? places[Int(rng.next() % UInt64(places.count))].coordinate
                : Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
        }
        queries += Self.edgeQueries(&rng, count: 2_000)
        // The grid starts each descent where the descent from the top would be: on cell edges,
        // a step either side of them, and anywhere.
        let cells = geocoder.cells
        #expect(!cells.grid.isEmpty)
        for q in queries {
            for (lat, lon) in [
                (q.latitude, q.longitude), (q.latitude.nextDown, q.longitude.nextDown),
                (q.latitude.nextUp, q.longitude.nextUp),
            ] where abs(lat) <= 90 && abs(lon) <= 180 {
                let a = cells.leaf(latitude: lat, longitude: lon)
                let b = cells.leafFromTop(latitude: lat, longitude: lon)
                #expect(a.start == b.start && a.count == b.count, "\(lat), \(lon)")
            }
        }
        let batch = geocoder.nearestPlaces(for: queries)
        let indices = geocoder.nearestPlaceIndices(for: queries)
        #expect(indices.count == queries.count)
        for (q, (found, index)) in zip(queries, zip(batch, indices)) {
            let expected = geocoder.index.nearest(to: q)
            #expect(found?.index == expected?.index, "\(q)")
            #expect(found?.distance == expected?.distance, "\(q)")
            #expect(index == expected?.index, "\(q)")
        }
        // Both batches on more than one thread: the same places.
        let many = Array(repeating: queries, count: 4_096 / queries.count + 1).flatMap { $0 }
        #expect(
            geocoder.nearestPlaceIndices(for: many)
                == geocoder.nearestPlaces(for: many).map { $0?.index })
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double {
        Swift.min(high, Swift.max(low, self))
    }
}
