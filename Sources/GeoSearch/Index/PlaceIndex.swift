import Foundation
import GeoCore

/// One answer of a ``PlaceIndex`` query: an element, its position in the index's ``PlaceIndex/elements``,
/// and its distance from the query point.
public struct PlaceMatch<Element: Sendable>: Sendable {
    /// The element's index in ``PlaceIndex/elements`` (its position in the array the index was
    /// built from).
    public var index: Int
    /// The element.
    public var element: Element
    /// The geodesic distance on WGS84 in meters from the query point (see ``PlaceIndex`` for its
    /// accuracy).
    public var distance: Double

    /// Creates a match.
    public init(index: Int, element: Element, distance: Double) {
        self.index = index
        self.element = element
        self.distance = distance
    }
}

extension PlaceMatch: Equatable where Element: Equatable {}
extension PlaceMatch: Hashable where Element: Hashable {}

/// An immutable index of places for nearest-neighbor, radius, region and text queries, exact on
/// the WGS84 ellipsoid.
///
/// Build it once from any elements that have a coordinate (and, for text search, a name; for
/// filtering, a category):
///
/// ```swift
/// let index = try PlaceIndex(stores, coordinate: \.coordinate, name: \.name)
/// let nearest = index.nearest(5, to: rider)              // the 5 closest, closest first
/// let close = index.places(within: 2_000, of: rider)     // every store within 2 km
/// ```
///
/// **Distances** are geodesic distances on WGS84. Lines up to 60 km are measured from the chord
/// between the Earth-centered positions plus its curvature terms, within 0.1 µm of Karney's
/// geodesic; longer ones by PROJ's `geod_inverse` (Karney's algorithm, about 15 nm). Queries
/// near the 180th meridian and at the poles need no special care: the index works in
/// Earth-centered coordinates.
///
/// **Order**: results are sorted by distance, ties (equal coordinates, or exactly equal distances)
/// by element index, so a query always gives the same answer as a brute-force scan that sorts by
/// (distance, index).
///
/// **Structure**: the distinct positions, sorted along a Hilbert curve on the faces of a cube
/// around the Earth, under a static tree of Earth-centered boxes (32 children each), with a grid
/// of cells on each face (about 8 positions each, from 4,096 positions on) where nearest queries
/// start: the cells around the query are read until the ball that must hold the answers lies
/// inside them, and only a ball that reaches a face's edge walks the tree. Places at the same
/// coordinate share one entry, so piles of duplicates cost nothing extra.
///
/// The index is a value (`Sendable` when its elements are), safe to share between threads.
public struct PlaceIndex<Element: Sendable>: Sendable {
    /// The elements, in the order they were given; ``PlaceMatch/index`` points into it.
    public let elements: [Element]
    /// Each element's coordinate.
    let coordinates: [Coordinate]
    @usableFromInline let tree: PointTree
    let text: TextIndex?
    let categories: [String?]?

    /// Builds an index over elements.
    ///
    /// - Parameters:
    ///   - elements: The places, in any order; the order decides ties.
    ///   - coordinate: Each element's coordinate (WGS84 degrees).
    ///   - name: Each element's name, for ``search(_:near:in:category:limit:)-(_,_,CoordinateRegion?,_,_)`` and
    ///     ``completions(for:near:in:limit:)-(_,_,CoordinateRegion?,_)``; `nil` for an index without text search.
    ///   - category: Each element's category (`"cafe"`, `"store"`…), for the `category:` filter
    ///     of text search.
    /// - Throws: `GeoError.Kind.invalidCoordinate` naming the first element whose coordinate is
    ///   NaN, infinite or out of range, and its index; `invalidArgument` for more than
    ///   2,147,483,647 elements.
    /// - Complexity: O(n) time and memory (a radix sort along the curve), plus O(w log w) time
    ///   for the w words of the names when they are given, and 64 bytes per word (each word's
    ///   entry carries its place's position, so a search reads consecutive memory).
    @inlinable
    public init(
        _ elements: [Element], coordinate: (Element) -> Coordinate,
        name: ((Element) -> String?)? = nil, category: ((Element) -> String?)? = nil
    ) throws(GeoError) {
        // Inlined, so the closures run specialized for the caller's element type.
        try self.init(
            elements: elements, coordinates: elements.map(coordinate),
            names: name.map { name in elements.map { name($0) ?? "" } },
            categories: category.map { category in elements.map(category) })
    }

    /// The initializer behind ``init(_:coordinate:name:category:)``, over the extracted values.
    @usableFromInline
    init(
        elements: [Element], coordinates: [Coordinate], names: [String]?, categories: [String?]?
    ) throws(GeoError) {
        guard elements.count < Int(Int32.max) else {
            throw GeoError(
                .invalidArgument,
                "\(elements.count) places are more than a place index holds (2,147,483,647)")
        }
        if let i = coordinates.firstIndex(where: { !$0.isValid }) {
            do throws(GeoError) {
                _ = try coordinates[i].validated()
            } catch {
                throw GeoError(.invalidCoordinate, "place \(i): \(error.message)")
            }
            throw GeoError(.invalidCoordinate, "place \(i): not a valid coordinate")
        }
        self.elements = elements
        self.coordinates = coordinates
        self.tree = PointTree(coordinates)
        self.text = names.map { TextIndex($0, coordinates: coordinates) }
        self.categories = categories
    }

    /// An index over elements whose coordinates are known to be valid, without text search.
    init(validated elements: [Element], coordinates: [Coordinate]) {
        self.elements = elements
        self.coordinates = coordinates
        self.tree = PointTree(coordinates)
        self.text = nil
        self.categories = nil
    }

    /// The number of elements.
    public var count: Int { elements.count }

    /// Whether the index is empty.
    public var isEmpty: Bool { elements.isEmpty }

    /// The number of distinct coordinates among the elements.
    public var distinctCoordinateCount: Int { tree.count }

    // MARK: - Nearest

    /// The `k` elements nearest to a coordinate by geodesic distance on WGS84, nearest first (ties
    /// to the lower index), at most `maxDistance` meters away, among those `filter` accepts.
    ///
    /// Returns fewer than `k` when fewer qualify; none for `k` ≤ 0 or an invalid origin.
    /// - Complexity: O(k log k) for well-spread places and a cheap filter (the cells around the
    ///   query; O(log n + k log k) through the tree at a face's edge); a filter that turns most
    ///   places down makes the search visit them. Allocates only the result.
    @inlinable
    public func nearest(
        _ k: Int, to origin: Coordinate, within maxDistance: Double = .infinity,
        where filter: ((Element) -> Bool)? = nil
    ) -> [PlaceMatch<Element>] {
        var results = [PlaceMatch<Element>]()
        nearest(k, to: origin, within: maxDistance, where: filter, into: &results)
        return results
    }

    /// ``nearest(_:to:within:where:)`` written into an array the caller keeps, so that a loop of
    /// queries allocates nothing once the array has grown to `k` (the search's scratch is
    /// borrowed from a 64 KiB block per thread; a `k` beyond about 350 takes it from the heap).
    @inlinable
    public func nearest(
        _ k: Int, to origin: Coordinate, within maxDistance: Double = .infinity,
        where filter: ((Element) -> Bool)? = nil, into results: inout [PlaceMatch<Element>]
    ) {
        results.removeAll(keepingCapacity: true)
        let k = min(k, elements.count)
        guard k > 0, origin.isValid, !(maxDistance < 0) else { return }
        let limit = maxDistance.isNaN ? Double.infinity : maxDistance
        let elements = self.elements
        let accepts: ((Int) -> Bool)? = filter.map { filter in { filter(elements[$0]) } }
        // Inlined, so the results are written specialized for the caller's element type. The
        // elements are gathered first, in reads that do not wait on one another (they are
        // scattered through the input), then appended.
        // The answers' elements are prefetched as soon as the search knows its candidates.
        elements.withUnsafeBufferPointer { buffer in
            let lines = buffer.baseAddress.map {
                ElementLines(base: UnsafeRawPointer($0), stride: MemoryLayout<Element>.stride)
            }
            tree.nearest(k, to: origin, limit: limit, accepts: accepts, lines: lines) { answers in
                withUnsafeTemporaryAllocation(of: Element.self, capacity: answers.count) {
                    gathered in
                    guard let base = gathered.baseAddress else { return }
                    for (i, answer) in answers.enumerated() {
                        (base + i).initialize(to: buffer[Int(answer.element)])
                    }
                    results.reserveCapacity(answers.count)
                    for (i, answer) in answers.enumerated() {
                        results.append(
                            PlaceMatch(
                                index: Int(answer.element), element: (base + i).move(),
                                distance: answer.distance))
                    }
                }
            }
        }
    }

    /// The element nearest to a coordinate and its distance, or `nil` for an empty index (or
    /// none within `maxDistance` meters).
    public func nearest(
        to origin: Coordinate, within maxDistance: Double = .infinity
    )
        -> PlaceMatch<Element>?
    {
        guard origin.isValid, !isEmpty, !(maxDistance < 0) else { return nil }
        var found: PlaceMatch<Element>?
        tree.nearest(
            1, to: origin, limit: maxDistance.isNaN ? .infinity : maxDistance, accepts: nil
        ) { answers in
            if let answer = answers.first {
                let e = Int(answer.element)
                found = PlaceMatch(index: e, element: elements[e], distance: answer.distance)
            }
        }
        return found
    }

    // MARK: - Radius and region

    /// Every element within `radius` meters (geodesic, WGS84) of a coordinate, nearest first (ties
    /// to the lower index).
    ///
    /// - Complexity: O(log n + m log m) for m results.
    public func places(within radius: Double, of origin: Coordinate) -> [PlaceMatch<Element>] {
        guard origin.isValid, radius >= 0 else { return [] }
        return tree.within(radius, of: origin).map { pair in
            PlaceMatch(
                index: Int(pair.element), element: elements[Int(pair.element)],
                distance: pair.distance)
        }
    }

    /// Every element inside a latitude–longitude box (edges included; `west > east` crosses the
    /// 180th meridian), in element order, or sorted by distance from `origin` when given.
    ///
    /// Distances are measured from `origin`, or from the box's center when it is `nil`.
    /// - Complexity: O(log n + m) for m results, O(m log m) when sorted; one geodesic distance
    ///   per result.
    public func places(
        in box: BoundingBox, sortedByDistanceFrom origin: Coordinate? = nil
    )
        -> [PlaceMatch<Element>]
    {
        guard box.south <= box.north, box.south.isFinite, box.north.isFinite, box.west.isFinite,
            box.east.isFinite
        else { return [] }
        return matches(tree.positions(in: box), from: origin ?? box.center, sorted: origin != nil)
    }

    /// Every element inside a region (across the 180th meridian too), in element order, or sorted
    /// by distance from `origin` when given; distances are from `origin`, or the region's center.
    ///
    /// - Complexity: O(log n + m) for m results, O(m log m) when sorted.
    public func places(
        in region: CoordinateRegion, sortedByDistanceFrom origin: Coordinate? = nil
    ) -> [PlaceMatch<Element>] {
        // The region's box widened by about a centimeter each way, so that a box ending on the
        // 180th meridian also takes places written at the other sign of it (−180 and 180 are one
        // meridian, as the region's own test has it); the region decides.
        var box = region.boundingBox
        if box.longitudeSpan < 359.999 {
            box.west = Angle.normalizedLongitude(box.west - 1e-7)
            box.east = Angle.normalizedLongitude(box.east + 1e-7)
        } else {
            (box.west, box.east) = (-180, 180)
        }
        let inBox = tree.positions(in: box).filter { region.contains(tree.coordinates[$0]) }
        return matches(inBox, from: origin ?? region.center, sorted: origin != nil)
    }

    private func matches(
        _ positions: [Int], from origin: Coordinate, sorted: Bool
    )
        -> [PlaceMatch<Element>]
    {
        let query = WGS84.earthCentered(origin)
        let curvature = ChordGeodesic.NormalCurvature(at: query)
        var pairs = [(distance: Double, element: Int32)]()
        for i in positions {
            let s = tree.geodesicDistance(from: query, origin, to: i, curvature: curvature)
            tree.forEachMember(of: tree.records[i]) { element in
                pairs.append((s, element))
                return true
            }
        }
        if sorted {
            pairs.sort(by: BestK.precedes)
        } else {
            pairs.sort { $0.element < $1.element }
        }
        return pairs.map { pair in
            PlaceMatch(
                index: Int(pair.element), element: elements[Int(pair.element)],
                distance: pair.distance)
        }
    }
}
