/// A rectangle on the Web-Mercator world map, in map points (`MKMapRect`).
///
/// Semantics follow MapKit and Core Graphics:
/// - ``null`` (origin at infinity) is the rectangle that contains nothing; union with it is the
///   identity, intersection with anything disjoint gives it.
/// - ``contains(_:)-(MapPoint)`` is half-open, like `CGRect.contains(_:)`: a point on the minimum edges
///   is inside, one on the maximum edges is not, so adjacent rectangles (tiles) never share a point.
/// - ``intersects(_:)`` and ``intersection(_:)`` treat rectangles as closed: rectangles that share only
///   an edge intersect in a rectangle of zero width or height.
/// - A rectangle may extend past the world's east edge (x > 2²⁸) when it crosses the 180th meridian;
///   ``spans180thMeridian`` tells and ``remainder`` gives the part that wraps round.
public struct MapRect: Hashable, Sendable, Codable {
    /// The corner with the smallest x and y (north-west).
    public var origin: MapPoint
    /// The extent.
    public var size: MapSize

    /// Creates a rectangle from its north-west corner and size.
    public init(origin: MapPoint, size: MapSize) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its north-west corner and size in map points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: MapPoint(x: x, y: y), size: MapSize(width: width, height: height))
    }

    /// The whole world: origin (0, 0), size 2²⁸ × 2²⁸.
    public static let world = MapRect(origin: MapPoint(x: 0, y: 0), size: .world)

    /// The null rectangle (`MKMapRectNull`): origin at +infinity, zero size.
    ///
    /// Its infinite origin encodes as infinities, which `JSONEncoder` refuses (an `EncodingError`)
    /// unless its `nonConformingFloatEncodingStrategy` names them.
    public static let null = MapRect(x: .infinity, y: .infinity, width: 0, height: 0)

    // MARK: - Edges

    /// The western edge.
    public var minX: Double { origin.x }
    /// The northern edge.
    public var minY: Double { origin.y }
    /// The eastern edge.
    public var maxX: Double { origin.x + size.width }
    /// The southern edge.
    public var maxY: Double { origin.y + size.height }
    /// The x of the center.
    public var midX: Double { origin.x + size.width / 2 }
    /// The y of the center.
    public var midY: Double { origin.y + size.height / 2 }
    /// The width in map points.
    public var width: Double { size.width }
    /// The height in map points.
    public var height: Double { size.height }

    /// Whether this is the null rectangle (an infinite origin).
    public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }

    /// Whether the rectangle is null or has no area.
    public var isEmpty: Bool { isNull || size.width <= 0 || size.height <= 0 }

    // MARK: - Set operations

    /// The smallest rectangle containing both (`MKMapRectUnion`); null only if both are null.
    public func union(_ other: MapRect) -> MapRect {
        if isNull { return other }
        if other.isNull { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return MapRect(
            x: x0, y: y0,
            width: MapRect.extent(from: x0, reaching: max(maxX, other.maxX)),
            height: MapRect.extent(from: y0, reaching: max(maxY, other.maxY)))
    }

    /// The overlap of two rectangles (`MKMapRectIntersection`), or ``null`` when they are disjoint.
    /// Rectangles sharing only an edge give a rectangle of zero width or height.
    public func intersection(_ other: MapRect) -> MapRect {
        if isNull || other.isNull { return .null }
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 >= x0 && y1 >= y0 else { return .null }
        return MapRect(
            x: x0, y: y0,
            width: MapRect.extent(from: x0, within: x1),
            height: MapRect.extent(from: y0, within: y1))
    }

    /// The smallest width `w` with `origin + w >= end` in floating point, so a union really contains
    /// the rectangles it was made of.
    private static func extent(from origin: Double, reaching end: Double) -> Double {
        var w = end - origin
        while origin + w < end { w = w.nextUp }
        return w
    }

    /// The largest width `w` with `origin + w <= end` in floating point, so an intersection really lies
    /// inside both rectangles.
    private static func extent(from origin: Double, within end: Double) -> Double {
        var w = end - origin
        while w > 0 && origin + w > end { w = w.nextDown }
        return w
    }

    /// Whether the rectangles overlap or touch (their ``intersection(_:)`` is not null).
    public func intersects(_ other: MapRect) -> Bool { !intersection(other).isNull }

    /// Whether a point lies inside: `minX ≤ x < maxX` and `minY ≤ y < maxY`.
    public func contains(_ point: MapPoint) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// Whether another rectangle lies entirely inside this one (edges may coincide). Nothing contains
    /// the null rectangle, and the null rectangle contains nothing.
    public func contains(_ other: MapRect) -> Bool {
        if isNull || other.isNull { return false }
        return other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    // MARK: - Derived rectangles

    /// The rectangle shrunk by `dx` on the left and right and `dy` at the top and bottom (negative
    /// values grow it), or ``null`` if that leaves a negative width or height (`MKMapRectInset`).
    public func insetBy(dx: Double, dy: Double) -> MapRect {
        if isNull { return .null }
        let w = size.width - 2 * dx, h = size.height - 2 * dy
        guard w >= 0 && h >= 0 else { return .null }
        return MapRect(x: origin.x + dx, y: origin.y + dy, width: w, height: h)
    }

    /// The rectangle moved by `dx`, `dy` map points (`MKMapRectOffset`).
    public func offsetBy(dx: Double, dy: Double) -> MapRect {
        if isNull { return .null }
        return MapRect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }

    /// An edge of a rectangle, for ``divided(atDistance:from:)``.
    public enum Edge: Sendable, Hashable, CaseIterable {
        /// The western edge.
        case minX
        /// The northern edge.
        case minY
        /// The eastern edge.
        case maxX
        /// The southern edge.
        case maxY
    }

    /// Cuts the rectangle in two along a line parallel to an edge (`MKMapRectDivide`).
    ///
    /// - Parameters:
    ///   - distance: Map points from `edge` to the cut; clamped to [0, the rectangle's extent].
    ///   - edge: The edge the slice is taken from.
    /// - Returns: The `slice` next to `edge` and the `remainder`.
    public func divided(
        atDistance distance: Double, from edge: Edge
    ) -> (slice: MapRect, remainder: MapRect) {
        if isNull { return (.null, .null) }
        switch edge {
        case .minX, .maxX:
            let d = max(0, min(distance, size.width))
            let left = edge == .minX ? d : size.width - d
            let a = MapRect(x: minX, y: minY, width: left, height: height)
            let b = MapRect(x: minX + left, y: minY, width: size.width - left, height: height)
            return edge == .minX ? (a, b) : (b, a)
        case .minY, .maxY:
            let d = max(0, min(distance, size.height))
            let top = edge == .minY ? d : size.height - d
            let a = MapRect(x: minX, y: minY, width: width, height: top)
            let b = MapRect(x: minX, y: minY + top, width: width, height: size.height - top)
            return edge == .minY ? (a, b) : (b, a)
        }
    }

    // MARK: - The 180th meridian

    /// Whether the rectangle reaches across the 180th meridian: past the world's east edge
    /// (x = 2²⁸) or its west edge (x = 0) (`MKMapRectSpans180thMeridian`).
    public var spans180thMeridian: Bool {
        if isNull { return false }
        let world = MapSize.world.width
        return (minX < world && maxX > world) || (minX < 0 && maxX > 0)
    }

    /// The part of the rectangle that lies outside the world east or west, moved by one world width
    /// so that it lies inside (`MKMapRectRemainder`); ``null`` if nothing lies outside.
    public var remainder: MapRect {
        if isNull { return .null }
        let world = MapSize.world.width
        var result = MapRect.null
        if maxX > world {
            result = result.union(
                intersection(MapRect(x: world, y: minY, width: maxX - world, height: height))
                    .offsetBy(dx: -world, dy: 0))
        }
        if minX < 0 {
            result = result.union(
                intersection(MapRect(x: minX, y: minY, width: -minX, height: height)).offsetBy(
                    dx: world, dy: 0))
        }
        return result
    }

    // MARK: - Regions

    /// The map rectangle covering a coordinate region (`MKMapRectForCoordinateRegion`).
    ///
    /// Its west edge lies in [0, 2²⁸); a region crossing the 180th meridian gives a rectangle that
    /// extends past the world's east edge (see ``spans180thMeridian``). Latitudes are clamped to the
    /// map's ±85.05°.
    public init(_ region: CoordinateRegion) {
        let world = MapSize.world.width
        let north = MapPoint(
            Coordinate(
                latitude: region.center.latitude + region.span.latitudeDelta / 2, longitude: 0))
        let south = MapPoint(
            Coordinate(
                latitude: region.center.latitude - region.span.latitudeDelta / 2, longitude: 0))
        let longitudeDelta = min(region.span.longitudeDelta, 360)
        var west = Angle.normalizedLongitude(region.center.longitude - longitudeDelta / 2)
        if west == 180 { west = -180 }
        let x = (west + 180) / 360 * world
        self.init(x: x, y: north.y, width: longitudeDelta / 360 * world, height: south.y - north.y)
    }
}
