import Foundation
import GeoTestSupport
import Testing

@testable import GeoCore

@Suite("Crossing census: piles refused before GEOS nodes them")
struct CrossingCensusTests {
    /// The census counts what GEOS says: seeded random lines, some sharing and repeating
    /// vertices, against GEOS's `intersects` on every pair of edges that are not neighbours.
    @Test func countsWhatGEOSSees() throws {
        var rng = SplitMix64(seed: 91)
        for round in 0..<12 {
            var lines = [[Position]]()
            var grid = [Position]()
            for _ in 0..<(3 + round % 4) {
                let count = 2 + Int(rng.next() % 30)
                var line = [Position]()
                for _ in 0..<count {
                    // Coarse coordinates make shared vertices and collinear overlaps common.
                    let p = Position(
                        x: Double(rng.next() % 8) / 2, y: Double(rng.next() % 8) / 2)
                    if line.last != p { line.append(p) }
                    grid.append(p)
                }
                if line.count >= 2 { lines.append(line) }
            }
            var edges = [(chain: Int, index: Int, count: Int, geometry: Geometry)]()
            for (c, line) in lines.enumerated() {
                for i in 1..<line.count {
                    edges.append((c, i - 1, line.count - 1, .lineString([line[i - 1], line[i]])))
                }
            }
            var expected = 0
            for i in edges.indices {
                for j in (i + 1)..<edges.count {
                    let (p, q) = (edges[i], edges[j])
                    if p.chain == q.chain && abs(p.index - q.index) == 1 { continue }
                    if try p.geometry.intersects(q.geometry) { expected += 1 }
                }
            }
            let found = CrossingCensus.crossings([.multiLineString(lines)])
            #expect(found.edges == edges.count)
            #expect(found.crossings == expected, "round \(round)")
        }
    }

    /// Natural Earth's countries, whole, are far within the budget: their edges meet only where
    /// neighbours share a border.
    @Test func realCountriesPass() throws {
        let document = try GeoJSON(
            data: try ReferenceData.data("basemap/ne_110m_countries.geojson"))
        let world = Geometry.geometryCollection(document.geometries)
        let (edges, crossings) = CrossingCensus.crossings([world])
        #expect(edges > 10_000)
        let count = try #require(crossings)
        #expect(count < edges)
        #expect(try world.makeValid().isEmpty == false)
    }

    /// Valid rings of long, thin, parallel edges cross nowhere, and the census tells so within
    /// its budget: a comb of 10,000 teeth (40,000 edges, each tooth's sides spanning the comb's
    /// height). Splitting both axes at every level copied each long
    /// edge into every cell along it, so a comb of 2,500 teeth ran out of tests and was refused
    /// as if its edges crossed.
    @Test func longThinEdgesThatDoNotCross() throws {
        for teeth in [2_500, 10_000] {
            let w = 1 / Double(teeth)
            var ring = [Position(x: 0, y: 0)]
            for i in 0..<teeth {
                let x = Double(i) * w
                ring += [Position(x: x, y: 1), Position(x: x + w / 2, y: 1)]
                ring +=
                    i < teeth - 1
                    ? [Position(x: x + w / 2, y: 0.01), Position(x: x + w, y: 0.01)]
                    : [Position(x: x + w, y: 1)]
            }
            ring += [Position(x: 1, y: 0), Position(x: 0, y: 0)]
            let comb = Geometry.polygon([ring])
            let (edges, crossings) = CrossingCensus.crossings([comb])
            #expect(edges == ring.count - 1)
            #expect(crossings == 0, "\(teeth) teeth")
            try CrossingCensus.check([comb], operation: "make-valid")
        }
        let spikes = 10_000
        var star = (0..<(2 * spikes)).map { k -> Position in
            let angle = Double(k) * .pi / Double(spikes)
            let r = k % 2 == 0 ? 1.0 : 0.5
            return Position(x: r * cos(angle), y: r * sin(angle))
        }
        star.append(star[0])
        // Spikes crowded near the center take the census past its tests: refused, saying so
        // (not that they cross); GEOS's own validity check and noding are quadratic there too.
        let polygon = Geometry.polygon([star])
        #expect(CrossingCensus.crossings([polygon]).crossings == nil)
        do {
            try CrossingCensus.check([polygon], operation: "simplify")
            Issue.record("the crowded star passed")
        } catch {
            #expect(error.kind == .limitExceeded)
            #expect(error.message.contains("took more than"), "\(error.message)")
            #expect(!error.message.contains("cross or overlap one another more"))
        }
        // A tenth of it is within the budget, and crosses nowhere.
        var small = (0..<2_000).map { k -> Position in
            let angle = Double(k) * .pi / 1_000
            return Position(
                x: (k % 2 == 0 ? 1.0 : 0.5) * cos(angle), y: (k % 2 == 0 ? 1.0 : 0.5) * sin(angle))
        }
        small.append(small[0])
        #expect(CrossingCensus.crossings([.polygon([small])]).crossings == 0)
    }

    /// Piles whose edges cross one another everywhere are refused, naming the operation; the same
    /// parts one at a time, or merged by a cascaded union, are fine.
    @Test func pilesAreRefused() throws {
        var rng = SplitMix64(seed: 92)
        let triangles = (0..<2_000).map { _ -> [[Position]] in
            let d = rng.uniform(0, 1e-4)
            return [
                [
                    Position(x: d, y: 0), Position(x: 0.01 + d, y: 0),
                    Position(x: 0.01 + d, y: 0.01), Position(x: d, y: 0),
                ]
            ]
        }
        let pile = Geometry.multiPolygon(triangles)
        for operation in ["make-valid", "intersection"] {
            do {
                _ =
                    operation == "make-valid"
                    ? try pile.makeValid()
                    : try pile.intersection(.polygon(triangles[0]))
                Issue.record("\(operation) accepted")
            } catch {
                #expect(error.kind == .limitExceeded && error.message.hasPrefix(operation))
            }
        }
        #expect(try pile.unaryUnion().planarArea > 0.5e-4)
        // One ring that runs round the same triangle a thousand times.
        let loop = Array(repeating: triangles[0][0].dropLast(), count: 1_000).flatMap { $0 }
        #expect(throws: GeoError.self) {
            try Geometry.polygon([loop + [loop[0]]]).buffer(distance: 0.001)
        }
    }
}
