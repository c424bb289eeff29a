import Foundation

/// A slippy-map tile: zoom level `zoom`, column `x` from the west, row `y` from the north (the XYZ or
/// "Google" scheme used by OpenStreetMap, Mapbox and MapKit tile overlays).
///
/// At zoom z the Web-Mercator world is cut into 2ᶻ × 2ᶻ tiles. ``tmsY`` gives the row in the TMS
/// scheme (counted from the south), ``quadkey`` the Bing Maps key. Conversions agree with Mapbox's
/// `mercantile` 1.2: a point exactly on a tile edge belongs to the tile east or south of it.
public struct TileID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The zoom level, in 0...``maximumZoom``.
    public let zoom: Int
    /// The column, in 0..<2^zoom, counted from the 180th meridian eastwards.
    public let x: Int
    /// The row, in 0..<2^zoom, counted from the north edge southwards.
    public let y: Int

    /// The deepest zoom level supported, 30 (tiles about 4 cm wide at the equator).
    public static let maximumZoom = 30

    /// The most tiles ``tiles(covering:zoom:)-(BoundingBox,_)`` and
    /// ``tiles(covering:zoom:)-(MapRect,_)`` answer with, 2²⁴ (16,777,216: the world at zoom 12),
    /// so that a wide area at a deep zoom is an error rather than an allocation of exabytes.
    public static let maximumCoveringCount = 1 << 24

    /// Creates a tile.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a zoom outside 0...30 or a column
    ///   or row outside 0..<2^zoom.
    public init(x: Int, y: Int, zoom: Int) throws(GeoError) {
        guard zoom >= 0 && zoom <= TileID.maximumZoom else {
            throw GeoError(.invalidArgument, "zoom \(zoom) is outside 0...\(TileID.maximumZoom)")
        }
        let n = 1 << zoom
        guard x >= 0 && x < n else {
            throw GeoError(.invalidArgument, "tile column \(x) is outside 0..<\(n) at zoom \(zoom)")
        }
        guard y >= 0 && y < n else {
            throw GeoError(.invalidArgument, "tile row \(y) is outside 0..<\(n) at zoom \(zoom)")
        }
        self.init(unchecked: x, y, zoom)
    }

    private enum CodingKeys: String, CodingKey {
        case zoom, x, y
    }

    /// Decodes a tile's `zoom`, `x` and `y`, validated as ``init(x:y:zoom:)`` validates them.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the zoom, column or row that is out of range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let zoom = try container.decode(Int.self, forKey: .zoom)
        let x = try container.decode(Int.self, forKey: .x)
        let y = try container.decode(Int.self, forKey: .y)
        do {
            try self.init(x: x, y: y, zoom: zoom)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// Creates a tile from a TMS row (counted from the south).
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` as ``init(x:y:zoom:)``.
    public init(x: Int, tmsY: Int, zoom: Int) throws(GeoError) {
        guard zoom >= 0 && zoom <= TileID.maximumZoom else {
            throw GeoError(.invalidArgument, "zoom \(zoom) is outside 0...\(TileID.maximumZoom)")
        }
        let n = 1 << zoom
        guard tmsY >= 0 && tmsY < n else {
            throw GeoError(
                .invalidArgument, "TMS tile row \(tmsY) is outside 0..<\(n) at zoom \(zoom)")
        }
        try self.init(x: x, y: n - 1 - tmsY, zoom: zoom)
    }

    private init(unchecked x: Int, _ y: Int, _ zoom: Int) {
        self.x = x
        self.y = y
        self.zoom = zoom
    }

    /// The tile containing a coordinate at a zoom level.
    ///
    /// Points on a tile's west or north edge belong to it; longitudes and latitudes beyond the map are
    /// clamped to its edge tiles.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for an invalid coordinate,
    ///   ``GeoError/Kind-swift.struct/invalidArgument`` for a zoom outside 0...30.
    public init(containing coordinate: Coordinate, zoom: Int) throws(GeoError) {
        _ = try coordinate.validated()
        guard zoom >= 0 && zoom <= TileID.maximumZoom else {
            throw GeoError(.invalidArgument, "zoom \(zoom) is outside 0...\(TileID.maximumZoom)")
        }
        let (x, y) = TileID.tileIndex(
            longitude: coordinate.longitude, latitude: coordinate.latitude, zoom: zoom)
        self.init(unchecked: x, y, zoom)
    }

    /// The tile named by a Bing Maps quadkey; the empty key is tile 0/0/0.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/malformedInput`` naming the first character that is not
    ///   `0`–`3` and its offset, or for a key longer than 30 digits.
    public init(quadkey: String) throws(GeoError) {
        var x = 0, y = 0, zoom = 0
        for (offset, character) in quadkey.enumerated() {
            guard zoom < TileID.maximumZoom else {
                throw GeoError(
                    .malformedInput, "quadkey is longer than \(TileID.maximumZoom) digits",
                    offset: offset)
            }
            guard let digit = character.wholeNumberValue, (0...3).contains(digit), character.isASCII
            else {
                throw GeoError(
                    .malformedInput,
                    "quadkey digit \(GeoError.quoted(String(character))) is not 0, 1, 2 or 3",
                    offset: offset)
            }
            x = x << 1 | (digit & 1)
            y = y << 1 | (digit >> 1)
            zoom += 1
        }
        self.init(unchecked: x, y, zoom)
    }

    // MARK: - Names

    /// `"z/x/y"`.
    public var description: String { "\(zoom)/\(x)/\(y)" }

    /// The row in the TMS scheme, counted from the south edge.
    public var tmsY: Int { (1 << zoom) - 1 - y }

    /// The Bing Maps quadkey: one digit per zoom level, `2·ybit + xbit`; empty at zoom 0.
    public var quadkey: String {
        var digits = [Character]()
        digits.reserveCapacity(zoom)
        for level in stride(from: zoom, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            let digit = (x & mask != 0 ? 1 : 0) + (y & mask != 0 ? 2 : 0)
            digits.append(Character(String(digit)))
        }
        return String(digits)
    }

    // MARK: - Hierarchy

    /// The tile one zoom level up that contains this one; `nil` at zoom 0.
    public var parent: TileID? {
        zoom == 0 ? nil : TileID(unchecked: x >> 1, y >> 1, zoom - 1)
    }

    /// The tile at a lower (or equal) zoom level that contains this one.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` if `targetZoom` is negative or deeper
    ///   than this tile.
    public func ancestor(atZoom targetZoom: Int) throws(GeoError) -> TileID {
        guard targetZoom >= 0 && targetZoom <= zoom else {
            throw GeoError(
                .invalidArgument,
                "zoom \(targetZoom) is outside 0...\(zoom) for an ancestor of \(self)")
        }
        let shift = zoom - targetZoom
        return TileID(unchecked: x >> shift, y >> shift, targetZoom)
    }

    /// The four tiles one zoom level down, in the order north-west, north-east, south-east, south-west;
    /// empty at the maximum zoom.
    public var children: [TileID] {
        guard zoom < TileID.maximumZoom else { return [] }
        let z = zoom + 1, x0 = 2 * x, y0 = 2 * y
        return [
            TileID(unchecked: x0, y0, z), TileID(unchecked: x0 + 1, y0, z),
            TileID(unchecked: x0 + 1, y0 + 1, z), TileID(unchecked: x0, y0 + 1, z),
        ]
    }

    /// Every tile at a deeper zoom level inside this one, row by row from the north-west.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` if `targetZoom` is below this tile's
    ///   zoom, above 30, or would give more than 2²⁴ tiles.
    /// - Complexity: O(4^(targetZoom − zoom)).
    public func descendants(atZoom targetZoom: Int) throws(GeoError) -> [TileID] {
        guard targetZoom >= zoom && targetZoom <= TileID.maximumZoom else {
            throw GeoError(
                .invalidArgument, "zoom \(targetZoom) is outside \(zoom)...\(TileID.maximumZoom)")
        }
        let shift = targetZoom - zoom
        guard shift <= 12 else {
            throw GeoError(
                .invalidArgument, "zoom \(targetZoom) would give 4^\(shift) tiles below \(self)")
        }
        let side = 1 << shift
        var result = [TileID]()
        result.reserveCapacity(side * side)
        for row in 0..<side {
            for column in 0..<side {
                result.append(
                    TileID(unchecked: (x << shift) + column, (y << shift) + row, targetZoom))
            }
        }
        return result
    }

    // MARK: - Geometry

    /// The coordinate of the tile's north-west corner.
    public var upperLeft: Coordinate { TileID.corner(x: x, y: y, zoom: zoom) }

    /// The tile's edges in degrees.
    public var bounds: BoundingBox {
        let nw = upperLeft
        let se = TileID.corner(x: x + 1, y: y + 1, zoom: zoom)
        return BoundingBox(
            west: nw.longitude, south: se.latitude, east: se.longitude, north: nw.latitude)
    }

    /// The tile's edges in EPSG:3857 meters.
    public var webMercatorBounds: ProjectedBounds {
        let nw = WebMercator.project(upperLeft)
        let se = WebMercator.project(TileID.corner(x: x + 1, y: y + 1, zoom: zoom))
        return ProjectedBounds(minX: nw.x, minY: se.y, maxX: se.x, maxY: nw.y)
    }

    /// The tile as a rectangle of map points.
    public var mapRect: MapRect {
        let side = MapSize.world.width / Double(1 << zoom)
        return MapRect(x: Double(x) * side, y: Double(y) * side, width: side, height: side)
    }

    // MARK: - Covering

    /// The tiles at a zoom level that intersect a box, column by column from the west.
    ///
    /// A box that crosses the 180th meridian (`west > east`) is split in two. Latitudes beyond the
    /// map's ±85.051129° are clamped.
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for an invalid box,
    ///   ``GeoError/Kind-swift.struct/invalidArgument`` for a zoom outside 0...30,
    ///   ``GeoError/Kind-swift.struct/limitExceeded`` for more than ``maximumCoveringCount`` tiles.
    /// - Complexity: O(number of tiles returned).
    public static func tiles(covering box: BoundingBox, zoom: Int) throws(GeoError) -> [TileID] {
        _ = try box.validated()
        guard zoom >= 0 && zoom <= maximumZoom else {
            throw GeoError(.invalidArgument, "zoom \(zoom) is outside 0...\(maximumZoom)")
        }
        var result = [TileID]()
        for part in box.splitAt180thMeridian {
            let west = max(-180, part.west), east = min(180, part.east)
            let south = max(-85.051129, part.south), north = min(85.051129, part.north)
            let (x0, y0) = tileIndex(longitude: west, latitude: north, zoom: zoom)
            let (x1, y1) = tileIndex(
                longitude: east - edgeEpsilon, latitude: south + edgeEpsilon, zoom: zoom)
            guard x0 <= x1 && y0 <= y1 else { continue }
            guard result.count + (x1 - x0 + 1) * (y1 - y0 + 1) <= maximumCoveringCount else {
                throw GeoError(
                    .limitExceeded,
                    "the box covers more than \(maximumCoveringCount) tiles at zoom \(zoom)")
            }
            for column in x0...x1 {
                for row in y0...y1 { result.append(TileID(unchecked: column, row, zoom)) }
            }
        }
        return result
    }

    /// The tiles at a zoom level that intersect a map rectangle, column by column from its west
    /// edge.
    ///
    /// The rectangle is half-open, so one that ends on a tile edge does not include the next tile;
    /// one of zero width or height covers the tiles its edge or point lies in. East and west it
    /// wraps round the world as many times as it reaches past an edge (a rectangle at least a world
    /// wide covers every column); north and south it is cut at the map's edges, so a rectangle
    /// wholly above or below the map covers no tile. A rectangle of zero width on the world's east
    /// edge (x = 2²⁸, where ``MapPoint`` puts longitude 180°) covers the easternmost column, as
    /// ``init(containing:zoom:)`` does for longitude 180°. A null rectangle (an infinite origin,
    /// ``MapRect/isNull``) covers no tile.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidArgument`` for a zoom outside 0...30, or for a
    ///   rectangle whose origin is NaN or whose size is not finite or negative;
    ///   ``GeoError/Kind-swift.struct/limitExceeded`` when the answer would hold more than
    ///   ``maximumCoveringCount`` tiles (the world at zoom 30 has 2⁶⁰).
    /// - Complexity: O(number of tiles returned).
    public static func tiles(covering rect: MapRect, zoom: Int) throws(GeoError) -> [TileID] {
        guard zoom >= 0 && zoom <= maximumZoom else {
            throw GeoError(.invalidArgument, "zoom \(zoom) is outside 0...\(maximumZoom)")
        }
        if rect.isNull { return [] }
        guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite,
            rect.width >= 0, rect.height >= 0
        else {
            throw GeoError(
                .invalidArgument,
                "map rectangle at (\(rect.minX), \(rect.minY)) of size \(rect.width) × "
                    + "\(rect.height) is not finite and non-negative")
        }
        let n = 1 << zoom
        let world = MapSize.world.width
        // A tile's side is a power of two, so these divisions are exact.
        let side = world / Double(n)

        // Rows: cut at the map's north and south edges.
        let rows: ClosedRange<Int>
        if rect.height > 0 {
            let top = max(0, rect.minY), bottom = min(world, rect.maxY)
            guard top < bottom else { return [] }
            let first = min(n - 1, Int((top / side).rounded(.down)))
            rows = first...min(n - 1, max(first, Int((bottom / side).rounded(.up)) - 1))
        } else {
            guard rect.minY >= 0 && rect.minY <= world else { return [] }
            let row = min(n - 1, Int((rect.minY / side).rounded(.down)))
            rows = row...row
        }

        // Columns: counted on the world the west edge falls in (the remainder is exact), then
        // wrapped.
        var first = 0, last = n - 1
        if rect.width < world {
            if rect.width == 0 && rect.minX == world {
                (first, last) = (n - 1, n - 1)
            } else {
                let west = rect.minX.truncatingRemainder(dividingBy: world)
                first = Int((west / side).rounded(.down))
                last = max(first, Int(((west + rect.width) / side).rounded(.up)) - 1)
                if last - first >= n { (first, last) = (0, n - 1) }
            }
        }
        guard (last - first + 1) * rows.count <= maximumCoveringCount else {
            throw GeoError(
                .limitExceeded,
                "the rectangle covers \(last - first + 1) × \(rows.count) tiles at zoom \(zoom), more than \(maximumCoveringCount)"
            )
        }
        var result = [TileID]()
        result.reserveCapacity((last - first + 1) * rows.count)
        for column in first...last {
            let x = (column % n + n) % n
            for row in rows { result.append(TileID(unchecked: x, row, zoom)) }
        }
        return result
    }

    /// The smallest tile that contains a whole box (Mapbox `tilebelt`'s bounding tile); zoom 0 when the
    /// box straddles the equator or the prime meridian.
    ///
    /// - Throws: ``GeoError/Kind-swift.struct/invalidCoordinate`` for an invalid box.
    public static func smallestTile(containing box: BoundingBox) throws(GeoError) -> TileID {
        _ = try box.validated()
        if box.crosses180thMeridian { return TileID(unchecked: 0, 0, 0) }
        // Corner tiles at zoom 32, then the longest common prefix of their indices.
        let (x0, y0) = tileIndex(longitude: box.west, latitude: box.north, zoom: 32)
        let (x1, y1) = tileIndex(
            longitude: box.east - edgeEpsilon, latitude: box.south + edgeEpsilon, zoom: 32)
        var zoom = 0
        while zoom < 28 {
            let mask = 1 << (31 - zoom)
            if x0 & mask != x1 & mask || y0 & mask != y1 & mask { break }
            zoom += 1
        }
        return TileID(unchecked: x0 >> (32 - zoom), y0 >> (32 - zoom), zoom)
    }

    // MARK: - Arithmetic

    /// mercantile's `EPSILON`: points this close to a tile's east or south edge count as the next tile,
    /// so corners computed from tile indices map back to those tiles.
    private static let indexEpsilon = 1e-14
    /// mercantile's `LL_EPSILON` in degrees: the inset of a box's east and south edges when covering.
    private static let edgeEpsilon = 1e-11

    /// Column and row of the tile containing a longitude and latitude, clamped into the map.
    private static func tileIndex(longitude: Double, latitude: Double, zoom: Int) -> (Int, Int) {
        let (ux, uy) = WebMercator.unitSquarePoint(
            Coordinate(latitude: latitude, longitude: longitude))
        let n = Double(sign: .plus, exponent: zoom, significand: 1)
        func index(_ u: Double) -> Int {
            if !(u > 0) { return 0 }  // also NaN (a pole) on the north side; the south pole is +inf
            if u >= 1 { return Int(n) - 1 }
            return min(Int(n) - 1, Int(((u + indexEpsilon) * n).rounded(.down)))
        }
        let row = latitude <= -90 ? Int(n) - 1 : index(uy)
        return (index(ux), row)
    }

    /// The coordinate of the north-west corner of tile (x, y) at a zoom, for any x, y in 0...2^zoom.
    private static func corner(x: Int, y: Int, zoom: Int) -> Coordinate {
        let n = Double(sign: .plus, exponent: zoom, significand: 1)
        // x / n and y / n are exact: n is a power of two.
        let corner = WGS84.unitSquareMercatorInverse(x: Double(x) / n, y: Double(y) / n)
        return Coordinate(latitude: corner.latitude, longitude: corner.longitude)
    }
}
