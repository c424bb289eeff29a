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
