import Foundation
import GeoCore
import GeoTestSupport
import Testing

@Suite("TileID")
struct TileIDTests {
    /// OpenStreetMap wiki, "Slippy map tilenames": zoom 0 is one tile; Bing's documented quadkey for
    /// tile (3, 5) at zoom 3 is "213".
    @Test func publishedValues() throws {
        #expect(
            try TileID(containing: Coordinate(latitude: 0, longitude: 0), zoom: 0)
                == TileID(x: 0, y: 0, zoom: 0))
        #expect(try TileID(x: 3, y: 5, zoom: 3).quadkey == "213")
        #expect(try TileID(quadkey: "213") == TileID(x: 3, y: 5, zoom: 3))
        #expect(try TileID(x: 3, y: 5, zoom: 3).tmsY == 2)
        #expect(try TileID(x: 3, tmsY: 2, zoom: 3) == TileID(x: 3, y: 5, zoom: 3))
    }

    @Test func badInputThrowsWithTheValue() {
        #expect(throws: GeoError.self) { try TileID(x: 4, y: 0, zoom: 2) }
        #expect(throws: GeoError.self) { try TileID(x: 0, y: 0, zoom: 31) }
        #expect(throws: GeoError.self) {
            try TileID(containing: Coordinate(latitude: .nan, longitude: 0), zoom: 3)
        }
        do {
            _ = try TileID(quadkey: "0124")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 3 && error.message.contains("4"))
        }
        #expect(throws: GeoError.self) { try TileID(quadkey: String(repeating: "1", count: 31)) }
    }

    /// Every tile's corner maps back to that tile; a tile's map rect holds the map points of coordinates
    /// inside it; parents contain children.
    @Test func hierarchyAndRoundTrips() throws {
        var rng = SplitMix64(seed: 4)
        for _ in 0..<2_000 {
            let zoom = Int(rng.uniform(0, 23))
            let coordinate = Coordinate(
                latitude: rng.uniform(-85, 85), longitude: rng.uniform(-180, 180))
            let tile = try TileID(containing: coordinate, zoom: zoom)
            #expect(tile.bounds.contains(coordinate))
            #expect(tile.mapRect.contains(MapPoint(coordinate)))
            #expect(try TileID(containing: tile.upperLeft, zoom: zoom) == tile)
            #expect(try TileID(quadkey: tile.quadkey) == tile)
            if let parent = tile.parent {
                #expect(parent.children.contains(tile))
                #expect(parent.mapRect.contains(tile.mapRect))
                #expect(try tile.ancestor(atZoom: 0) == TileID(x: 0, y: 0, zoom: 0))
            }
        }
    }

    @Test func coveringAMapRectAcrossTheAntimeridian() throws {
        let region = CoordinateRegion(
            center: Coordinate(latitude: 0, longitude: 180),
            span: CoordinateSpan(latitudeDelta: 10, longitudeDelta: 10))
        let tiles = try TileID.tiles(covering: MapRect(region), zoom: 3)
        #expect(Set(tiles.map(\.x)) == [0, 7])
        #expect(Set(tiles.map(\.y)) == [3, 4])
        let viaBox = try TileID.tiles(covering: region.boundingBox, zoom: 3)
        #expect(Set(viaBox) == Set(tiles))
    }

    /// A TMS row far outside the zoom's range is an error naming it, not an overflow.
    @Test func tmsRowOutOfRangeThrows() {
        for row in [Int.min, -Int.max, -1, 8, Int.max] {
            do {
                _ = try TileID(x: 0, tmsY: row, zoom: 3)
                Issue.record("expected an error for TMS row \(row)")
            } catch {
                #expect(error.kind == .invalidArgument && error.message.contains("\(row)"))
            }
        }
    }

    /// Covering map rectangles, against a brute-force oracle: a tile is covered when the
    /// rectangle, shifted by whole worlds east or west, meets the tile (half-open on both, a
    /// rectangle of zero extent on an axis meeting the tiles its edge lies in), cut at the map's
    /// north and south edges. Seeded rectangles on tile edges, past the world's edges by several
    /// worlds, of zero width or height, and wider than the world.
    @Test func coveringMapRectsMatchesABruteForceOracle() throws {
        let world = MapSize.world.width
        var rng = SplitMix64(seed: 31)
        func oracle(_ rect: MapRect, zoom: Int) throws -> Set<TileID> {
            let n = 1 << zoom
            let side = world / Double(n)
            // Half-open overlap on one axis; a zero-length span is a point, inside [a, a + side).
            func meets(_ lo: Double, _ length: Double, _ a: Double) -> Bool {
                length == 0 ? lo >= a && lo < a + side : lo < a + side && lo + length > a
            }
            var rows = Set<Int>()
            for row in 0..<n {
                let a = Double(row) * side
                if meets(rect.minY, rect.height, a)
                    || (rect.height == 0 && rect.minY == world && row == n - 1)
                {
                    rows.insert(row)
                }
            }
            var columns = Set<Int>()
            if rect.width == 0 && rect.minX == world {
                columns = [n - 1]
            } else {
                for shift in -4...4 {
                    for column in 0..<n {
                        let a = Double(column) * side + Double(shift) * world
                        if meets(rect.minX, rect.width, a) { columns.insert(column) }
                    }
                }
            }
            var tiles = Set<TileID>()
            for column in columns {
                for row in rows { tiles.insert(try TileID(x: column, y: row, zoom: zoom)) }
            }
            return tiles
        }
        for _ in 0..<3_000 {
            let zoom = Int(rng.uniform(0, 4))
            let side = world / Double(1 << zoom)
            // Edges on tile edges half the time.
            func place(_ lo: Double, _ hi: Double) -> Double {
                let v = rng.uniform(lo, hi)
                return rng.uniform(0, 1) < 0.5 ? (v / side).rounded() * side : v
            }
            let x = place(-3 * world, 3 * world)
            let y = place(-0.5 * world, 1.5 * world)
            let width = rng.uniform(0, 1) < 0.2 ? 0 : place(0, 1.3 * world)
            let height = rng.uniform(0, 1) < 0.2 ? 0 : place(0, 1.3 * world)
            let rect = MapRect(x: x, y: y, width: max(0, width), height: max(0, height))
            let tiles = try TileID.tiles(covering: rect, zoom: zoom)
            #expect(Set(tiles).count == tiles.count, "no tile twice for \(rect)")
            #expect(try Set(tiles) == oracle(rect, zoom: zoom), "\(rect) at zoom \(zoom)")
        }
    }

    /// The edge cases that used to trap or wrap wrongly: points on the world's east and south
    /// edges, rectangles several worlds away, wholly above the map, or infinite.
    @Test func coveringMapRectsAtTheEdges() throws {
        let world = MapSize.world.width
        let east = MapPoint(Coordinate(latitude: 10, longitude: 180))
        #expect(
            try TileID.tiles(
                covering: MapRect(origin: east, size: MapSize(width: 0, height: 0)), zoom: 3)
                == [TileID(containing: Coordinate(latitude: 10, longitude: 180), zoom: 3)])
        #expect(
            try TileID.tiles(covering: MapRect(x: 100, y: world, width: 10, height: 0), zoom: 3)
                == [TileID(x: 0, y: 7, zoom: 3)])
        #expect(
            try TileID.tiles(
                covering: MapRect(x: 2.5 * world, y: 10, width: 10, height: 10), zoom: 2)
                == [TileID(x: 2, y: 0, zoom: 2)])
        #expect(
            try TileID.tiles(
                covering: MapRect(x: -2.5 * world, y: 10, width: 10, height: 10), zoom: 2)
                == [TileID(x: 2, y: 0, zoom: 2)])
        #expect(
            try TileID.tiles(covering: MapRect(x: -10, y: -100, width: 5, height: 10), zoom: 2)
                .isEmpty)
        #expect(
            try TileID.tiles(
                covering: MapRect(x: world + 10, y: world + 10, width: 10, height: 10), zoom: 2
            ).isEmpty)
        #expect(
            try TileID.tiles(covering: MapRect(x: 0, y: 0, width: 1e300, height: 10), zoom: 2).count
                == 4)
        #expect(try TileID.tiles(covering: .null, zoom: 2).isEmpty)
        // Too many tiles to answer: an error, not an allocation of exabytes.
        for zoom in [13, 30] {
            #expect(throws: GeoError.self) { try TileID.tiles(covering: MapRect.world, zoom: zoom) }
            #expect(throws: GeoError.self) {
                try TileID.tiles(
                    covering: BoundingBox(west: -180, south: -85, east: 180, north: 85), zoom: zoom)
            }
        }
        #expect(try TileID.tiles(covering: MapRect.world, zoom: 12).count == 1 << 24)
        #expect(throws: GeoError.self) {
            try TileID.tiles(covering: MapRect(x: .nan, y: 0, width: 1, height: 1), zoom: 2)
        }
        #expect(throws: GeoError.self) {
            try TileID.tiles(covering: MapRect(x: 0, y: 0, width: .infinity, height: 10), zoom: 2)
        }
        #expect(throws: GeoError.self) {
            try TileID.tiles(covering: MapRect(x: 0, y: 0, width: -1, height: 10), zoom: 2)
        }
        // A region across the 180th meridian, listed from its west edge.
        let region = CoordinateRegion(
            center: Coordinate(latitude: 0, longitude: 180),
            span: CoordinateSpan(latitudeDelta: 1, longitudeDelta: 10))
        #expect(try TileID.tiles(covering: MapRect(region), zoom: 1).map(\.x) == [1, 1, 0, 0])
    }

    /// mercantile's test-suite values (web_mercator_tiles.json), dispatched on the function name.
    @Test func mercantileReference() throws {
        let cases = try #require(
            try ReferenceData.json("projections/web_mercator_tiles.json")["cases"]?.arrayValue)
        #expect(!cases.isEmpty)
        for c in cases {
            let id = c["id"]?.stringValue ?? "?"
            let function = c["function"]?.stringValue ?? ""
            let args = c["args"] ?? .null
            func arg(_ k: String) -> Double { ReferenceData.number(args[k]) ?? .nan }
            func int(_ k: String) -> Int { args[k]?.intValue ?? -1 }
            let expected = c["expected"] ?? .null
            let tolerance = ReferenceData.number(c["tolerance"]) ?? 0
            func expectNumbers(_ actual: [Double]) {
                let values = (expected.arrayValue ?? []).map { ReferenceData.number($0) ?? .nan }
                #expect(values.count == actual.count, "\(id): \(actual) vs \(values)")
                for (a, e) in zip(actual, values) {
                    if e.isInfinite {
                        #expect(a == e, "\(id): \(a) vs \(e)")
                    } else {
                        #expect(abs(a - e) <= tolerance, "\(id): \(a) vs \(e) ± \(tolerance)")
                    }
                }
            }
            func tile(_ value: JSONValue?) -> TileID? {
                guard let a = value?.arrayValue, a.count == 3, let x = a[0].intValue,
                    let y = a[1].intValue, let z = a[2].intValue
                else { return nil }
                return try? TileID(x: x, y: y, zoom: z)
            }
            func box() -> BoundingBox {
                BoundingBox(
                    west: arg("west"), south: arg("south"), east: arg("east"), north: arg("north"))
            }
            switch function {
            case "tile_upper_left_lnglat":
                let ul = try TileID(x: int("x"), y: int("y"), zoom: int("z")).upperLeft
                expectNumbers([ul.longitude, ul.latitude])
            case "tile_bounds_lnglat":
                let b = try TileID(x: int("x"), y: int("y"), zoom: int("z")).bounds
                expectNumbers([b.west, b.south, b.east, b.north])
            case "tile_bounds_webmercator":
                let b = try TileID(x: int("x"), y: int("y"), zoom: int("z")).webMercatorBounds
                expectNumbers([b.minX, b.minY, b.maxX, b.maxY])
            case "lnglat_to_webmercator_xy":
                let p = WebMercator.project(Coordinate(latitude: arg("lat"), longitude: arg("lng")))
                expectNumbers([p.x, p.y])
            case "webmercator_xy_to_lnglat":
                let c = WebMercator.unproject(Position(x: arg("x"), y: arg("y")))
                expectNumbers([c.longitude, c.latitude])
            case "lnglat_to_unit_square":
                let p = WebMercator.unitSquarePoint(
                    Coordinate(latitude: arg("lat"), longitude: arg("lng")))
                expectNumbers([p.x, p.y])
            case "tile_containing_lnglat":
                let t = try TileID(
                    containing: Coordinate(latitude: arg("lat"), longitude: arg("lng")),
                    zoom: int("z"))
                #expect(t == tile(expected), "\(id): \(t)")
            case "tiles_covering_bbox":
                let tiles = try TileID.tiles(covering: box(), zoom: int("z"))
                #expect(
                    tiles == (expected.arrayValue ?? []).compactMap { tile($0) }, "\(id): \(tiles)")
            case "tiles_covering_bbox_count":
                #expect(
                    try TileID.tiles(covering: box(), zoom: int("z")).count == expected.intValue,
                    "\(id)")
            case "quadkey":
                #expect(
                    try TileID(x: int("x"), y: int("y"), zoom: int("z")).quadkey
                        == expected.stringValue, "\(id)")
            case "quadkey_to_tile":
                #expect(
                    try TileID(quadkey: args["quadkey"]?.stringValue ?? "") == tile(expected),
                    "\(id)")
            case "parent":
                let t = try TileID(x: int("x"), y: int("y"), zoom: int("z"))
                let p = args["zoom"] == nil ? t.parent : try t.ancestor(atZoom: int("zoom"))
                #expect(p == tile(expected), "\(id)")
            case "children":
                let t = try TileID(x: int("x"), y: int("y"), zoom: int("z"))
                let expectedTiles = (expected.arrayValue ?? []).compactMap { tile($0) }
                if args["zoom"] == nil {
                    #expect(t.children == expectedTiles, "\(id)")
                } else {
                    #expect(
                        Set(try t.descendants(atZoom: int("zoom"))) == Set(expectedTiles), "\(id)")
                }
            case "children_count":
                let t = try TileID(x: int("x"), y: int("y"), zoom: int("z"))
                #expect(try t.descendants(atZoom: int("zoom")).count == expected.intValue, "\(id)")
            case "smallest_tile_containing_bbox":
                #expect(try TileID.smallestTile(containing: box()) == tile(expected), "\(id)")
            default:
                Issue.record("\(id): no Meridian operation for '\(function)'")
            }
        }
    }

    /// Decoding validates as the initializer does: a tile out of range is a decoding error, not a
    /// value whose children overflow; a valid one round-trips.
    @Test func decodingValidates() throws {
        for json in [
            #"{"zoom":29,"x":9223372036854775807,"y":0}"#, #"{"zoom":99,"x":-5,"y":7}"#,
            #"{"zoom":64,"x":0,"y":0}"#, #"{"zoom":2,"x":1,"y":4}"#, #"{"zoom":2,"x":1}"#,
        ] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(TileID.self, from: Data(json.utf8))
            }
        }
        let tile = try TileID(x: 5, y: 9, zoom: 4)
        let back = try JSONDecoder().decode(TileID.self, from: JSONEncoder().encode(tile))
        #expect(back == tile)
    }
}
