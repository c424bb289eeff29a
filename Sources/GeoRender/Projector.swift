import Foundation
import GeoCore

/// A point of the picture, in view points from its top left.
struct ViewPoint: Sendable {
    var x: Double
    var y: Double
}

/// Longitude/latitude geometry to view points: unrolled across the 180th meridian, clipped to the
/// view (with a margin, so strokes at the edge are whole), projected through the viewport.
struct Projector {
    let viewport: MapViewport
    /// The clip rectangle in map points.
    private(set) var minX, minY, maxX, maxY: Double
    /// Vertices closer than this to the one drawn before are dropped, in view points.
    let resolution = 0.3

    init(viewport: MapViewport) {
        self.viewport = viewport
        let rect = viewport.visibleMapRect
        let margin = 32 * viewport.mapPointsPerPoint
        if rect.isNull {
            (minX, minY, maxX, maxY) = (0, 0, 0, 0)
        } else {
            // At most `maximumWorlds` copies of the world side by side, centered on the view: a
            // picture wider than that (2,048 points at zoom 0) shows sea beyond them, so that the
            // drawing never grows past that many times its features.
            let band = Double(Self.maximumWorlds) / 2 * Projector.world
            let center = viewport.center.x
            (minX, minY, maxX, maxY) = (
                max(rect.minX - margin, center - band), rect.minY - margin,
                min(rect.maxX + margin, center + band), rect.maxY + margin
            )
        }
    }

    static let world = MapSize.world.width

    /// 0 for points, 1 for lines, 2 for polygons; a collection by its highest part.
    static func dimension(of geometry: Geometry) -> Int {
        switch geometry {
        case .point, .multiPoint: 0
        case .lineString, .multiLineString: 1
        case .polygon, .multiPolygon: 2
        case .geometryCollection(let parts): parts.map(dimension(of:)).max() ?? 0
        }
    }

    /// The dimensions of a geometry's parts: one for a single or multi geometry, each part's for
    /// a collection (nested ones included), so that a collection is drawn part by part.
    static func dimensions(of geometry: Geometry) -> Set<Int> {
        guard case .geometryCollection(let parts) = geometry else {
            return [dimension(of: geometry)]
        }
        return parts.reduce(into: Set<Int>()) { $0.formUnion(dimensions(of: $1)) }
    }

    // MARK: - Unrolling

    /// A path with points added along each edge that is slanted in both longitude and latitude,
    /// so that it is drawn straight in longitude and latitude, as GeoJSON's edges are (RFC 7946,
    /// and as `geometry contains` tests them), and not straight on the Mercator map, within a
    /// quarter of a view point.
    ///
    /// Along an edge x is linear and y = Y(φ) with φ linear, so the straight piece between two
    /// of its points strays from it by at most Y″ Δφ² / 8, where Y″ = (2²⁸ / 2π) sec φ tan φ
    /// (map points per radian²) at the edge's largest |φ|. Edges along a meridian or a parallel
    /// are straight on the map and get none; so do edges that cannot be seen: an edge's curve lies
    /// in the box of its ends' map points (x is linear along it and y monotone), so one whose box
    /// misses the clip rectangle, in every copy of the world, is drawn as it is (it is clipped
    /// away). At most 256 pieces per edge: an edge longer than that allows at the view's scale (at
    /// street zooms, an edge across degrees of latitude) is drawn within a coarser bound.
    func densified(_ path: [Position]) -> [Position] {
        let tolerance = 0.25 * viewport.mapPointsPerPoint
        guard tolerance > 0, tolerance.isFinite, path.count >= 2 else { return path }
        var result = [Position]()
        result.reserveCapacity(path.count)
        var previous: Position?
        for p in path {
            defer {
                result.append(p)
                previous = p
            }
            guard let a = previous, a.x.isFinite, a.y.isFinite, p.x.isFinite, p.y.isFinite
            else { continue }
            let dLon = Angle.longitudeDifference(from: a.x, to: p.x)
            let limit = WebMercator.maximumLatitude
            let fromLatitude = max(-limit, min(limit, a.y)),
                toLatitude = max(-limit, min(limit, p.y))
            let dPhi = Angle.radians(toLatitude - fromLatitude)
            guard dLon != 0, dPhi != 0 else { continue }
            // Wrapped first: at a longitude of 1e15° a step of the edge would round to 0.1°.
            let west = Angle.normalizedLongitude(a.x)
            guard mayBeSeen(fromLongitude: west, by: dLon, fromLatitude, toLatitude) else {
                continue
            }
            let phi = Angle.radians(max(abs(fromLatitude), abs(toLatitude)))
            let curvature = Projector.world / (2 * .pi) * tan(phi) / cos(phi)
            let pieces = min(
                256, (abs(dPhi) * (curvature / (8 * tolerance)).squareRoot()).rounded(.up))
            guard pieces > 1 else { continue }
            let n = Int(pieces)
            for k in 1..<n {
                let t = Double(k) / Double(n)
                result.append(
                    Position(
                        x: Angle.normalizedLongitude(west + t * dLon), y: a.y + t * (p.y - a.y)))
            }
        }
        return result
    }

    /// Whether the map-point box of an edge (from `longitude`, `dLon` degrees east, between two
    /// latitudes) meets the clip rectangle in some copy of the world.
    private func mayBeSeen(
        fromLongitude longitude: Double, by dLon: Double, _ latitude1: Double, _ latitude2: Double
    ) -> Bool {
        let a = MapPoint(Coordinate(latitude: latitude1, longitude: longitude))
        let b = MapPoint(Coordinate(latitude: latitude2, longitude: longitude))
        let low = min(a.y, b.y), high = max(a.y, b.y)
        guard high >= minY && low <= maxY else { return false }
        let x0 = a.x + min(0, dLon) / 360 * Projector.world
        let x1 = a.x + max(0, dLon) / 360 * Projector.world
        return copies(low: x0, high: x1) != nil
    }

    /// Map points of a path whose x steps the short way round (never more than half a world).
    private func unrolled(_ positions: [Position]) -> [MapPoint] {
        var result = [MapPoint]()
        result.reserveCapacity(positions.count)
        for p in positions where p.x.isFinite && p.y.isFinite {
            // Wrapped first: a longitude of 1e15° has no map point of its own to the meter.
            var m = MapPoint(
                Coordinate(
                    latitude: max(-90, min(90, p.y)), longitude: Angle.normalizedLongitude(p.x)))
            if let last = result.last {
                m.x -= ((m.x - last.x) / Projector.world).rounded() * Projector.world
            }
            result.append(m)
        }
        return result
    }

    /// Whether the edge from `p` to `q` is where a dataset cut its polygon rather than a border:
    /// a piece of the 180th meridian (Russia, Fiji and Antarctica in Natural Earth end there on
    /// either side) or of a pole's line, beyond the map's top or bottom edge. Within 10⁻⁹° (0.1
    /// mm): datasets write 180 as 180.00000000000006 too.
    static func isCut(_ p: Position, _ q: Position) -> Bool {
        let pole = WebMercator.maximumLatitude
        return (abs(abs(p.x) - 180) < 1e-9 && abs(p.x - q.x) < 1e-9)
            || (p.y >= pole && q.y >= pole) || (p.y <= -pole && q.y <= -pole)
    }

    /// The shift (a whole number of worlds) that puts a path's middle nearest the view's center.
    private func shift(for points: [MapPoint]) -> Double {
        guard let low = points.map(\.x).min(), let high = points.map(\.x).max() else { return 0 }
        return ((viewport.center.x - (low + high) / 2) / Projector.world).rounded()
            * Projector.world
    }

    /// The most copies of the world a view shows side by side (the clip rectangle is at most this
    /// many worlds wide), so the most copies of a feature it draws.
    static let maximumWorlds = 8

    /// The whole numbers of worlds k for which the x range `low...high`, moved by k worlds,
    /// meets the clip rectangle; `nil` for none. In closed form, without allocating: the clip is
    /// at most ``maximumWorlds`` wide, so the range is that short too.
    private func copies(low: Double, high: Double) -> ClosedRange<Int>? {
        let w = Projector.world, span = Double(Self.maximumWorlds + 1)
        let first = max(-span, ((minX - high) / w).rounded(.up))
        let last = min(span, ((maxX - low) / w).rounded(.down))
        guard first <= last else { return nil }  // false for NaN too
        return Int(first)...Int(last)
    }

    /// The shifts (whole numbers of worlds) at which a path's copies meet the clip rectangle,
    /// the one nearest the view's center first: a view wider than the world shows every copy, as
    /// a web map does, and a path longer than the world (a line round the globe) shows each of
    /// its parts.
    private func shifts(for points: [MapPoint]) -> [Double] {
        guard let low = points.map(\.x).min(), let high = points.map(\.x).max() else { return [] }
        let base = shift(for: points)
        guard let range = copies(low: low + base, high: high + base) else { return [] }
        return range.sorted { abs($0) < abs($1) }.map { base + Double($0) * Projector.world }
    }

    /// How many turns of a ring round a pole its fill takes so that it covers the clip rectangle
    /// wherever the ring is placed: odd, at least 3.
    private var capTurns: Int {
        let worlds = ((maxX - minX) / Projector.world).rounded(.up)
        guard worlds.isFinite else { return 3 }
        let half = Int(min(Double(Self.maximumWorlds), worlds)) / 2 + 1
        return max(3, 2 * half + 1)
    }

    // MARK: - Projection

    /// The view points of map points, close ones merged.
    private func project(_ points: [MapPoint], closed: Bool) -> [ViewPoint] {
        var result = [ViewPoint]()
        result.reserveCapacity(points.count)
        let c = viewport.center
        for (i, m) in points.enumerated() {
            guard let p = viewport.point(east: m.x - c.x, north: c.y - m.y) else { continue }
            if let last = result.last, i != points.count - 1,
                abs(p.x - last.x) < resolution && abs(p.y - last.y) < resolution
            {
                continue
            }
            result.append(ViewPoint(x: p.0, y: p.1))
        }
        if closed && result.count < 3 { return [] }
        return result
    }

    private func inside(_ m: MapPoint) -> Bool {
        m.x >= minX && m.x <= maxX && m.y >= minY && m.y <= maxY
    }

    /// Whether every point is inside the clip, or all on one side outside it.
    private func relation(_ rings: [[MapPoint]]) -> (inside: Bool, outside: Bool) {
        var lowX = Double.infinity, highX = -Double.infinity
        var lowY = Double.infinity, highY = -Double.infinity
        for ring in rings {
            for m in ring {
                lowX = min(lowX, m.x)
                highX = max(highX, m.x)
                lowY = min(lowY, m.y)
                highY = max(highY, m.y)
            }
        }
        let inside = lowX >= minX && highX <= maxX && lowY >= minY && highY <= maxY
        let outside = highX < minX || lowX > maxX || highY < minY || lowY > maxY
        return (inside, outside)
    }

    /// The clipped geometry in map points, or `nil` to draw the input unclipped (GEOS refused an
    /// invalid polygon; the SVG's own clip path still bounds it).
    private func clipped(_ geometry: Geometry) -> Geometry? {
        try? geometry.clipped(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// A polygon of map points as GEOS's rectangle clipper needs it: valid. A ring valid in
    /// longitude and latitude can cross itself once its vertices are joined by straight lines in
    /// Web Mercator (a narrow spike, as Sudan's outline has, whose sides cross when latitudes are
    /// stretched), and the clipper answers such a ring with the clip rectangle less the polygon,
    /// flooding the view. So an invalid polygon is rebuilt from its rings first, the areas its
    /// even-odd fill covers; `nil` for one that cannot be, which is drawn unclipped (the SVG's
    /// clip path still bounds it).
    private static func clippable(_ rings: [[MapPoint]]) -> Geometry? {
        let polygon = Geometry.polygon(rings.map(positions))
        switch try? polygon.isValid() {
        case true?: return polygon
        case false?: return try? polygon.makeValid(method: .structure)
        case nil: return nil
        }
    }

    private static func positions(_ points: [MapPoint]) -> [Position] {
        points.map { Position(x: $0.x, y: $0.y) }
    }

    private static func mapPoints(_ positions: [Position]) -> [MapPoint] {
        positions.map { MapPoint(x: $0.x, y: $0.y) }
    }

    // MARK: - Geometry

    /// Each polygon of a polygonal geometry as rings of view points.
    func polygons(of geometry: Geometry) throws(GeoError) -> [[[ViewPoint]]] {
        var polygons = [[[Position]]]()
        collectPolygons(geometry, into: &polygons)
        polygons = polygons.map { $0.map(densified) }
        var result = [[[ViewPoint]]]()
        for rings in polygons {
            if let first = rings.first, Self.isWorldBox(first) {
                result += worldWithHoles(Array(rings.dropFirst()))
                continue
            }
            var mapRings = rings.map(unrolled).filter { $0.count >= 3 }
            // An exterior ring that winds around a pole (Antarctica, a polar cap) encloses the
            // cap: drawn as turns of its path enough to cover the view, closed along the map's
            // edge at that pole, it is an ordinary polygon, drawn once.
            var placed = [[[MapPoint]]]()
            if let first = mapRings.first, Self.polarCap(of: first, rings[0]) != nil,
                let fill = capFill(rings[0])
            {
                mapRings[0] = fill
                let dx = shift(for: fill)
                for j in mapRings[0].indices { mapRings[0][j].x += dx }
                // Its holes lie anywhere along its turns: each in every copy in view.
                var capRings = [mapRings[0]]
                for hole in mapRings.dropFirst() {
                    for s in shifts(for: hole) {
                        capRings.append(hole.map { MapPoint(x: $0.x + s, y: $0.y) })
                    }
                }
                placed = [capRings]
            } else if let exterior = mapRings.first {
                // Other polygons in every copy of the world in view, holes with their shell.
                placed = shifts(for: exterior).map { s in
                    mapRings.map { ring in ring.map { MapPoint(x: $0.x + s, y: $0.y) } }
                }
            }
            for copy in placed {
                let (isInside, isOutside) = relation(copy)
                if isOutside { continue }
                var parts = [copy]
                if !isInside, let polygon = Self.clippable(copy), let clip = clipped(polygon) {
                    var clippedPolygons = [[[Position]]]()
                    collectPolygons(clip, into: &clippedPolygons)
                    parts = clippedPolygons.map { $0.map(Projector.mapPoints) }
                }
                for part in parts {
                    let rings = part.map { project($0, closed: true) }.filter { !$0.isEmpty }
                    if !rings.isEmpty { result.append(rings) }
                }
            }
        }
        return result
    }

    /// The outlines to stroke of a polygonal geometry's rings where they differ from the rings:
    /// without their cuts (``isCut(_:_:)``), which the fill still closes, so a country split at
    /// the 180th meridian shows no line down it; `nil` when no ring has a cut, so that the rings
    /// themselves are stroked. A world box's holes are outlined whole, in every copy it fills
    /// (its exterior lies outside the view).
    func outlines(of geometry: Geometry) -> [[ViewPoint]]? {
        var polygons = [[[Position]]]()
        collectPolygons(geometry, into: &polygons)
        polygons = polygons.map { $0.map(densified) }
        var anyCut = false
        var runs = [[MapPoint]]()
        for rings in polygons {
            if let first = rings.first, Self.isWorldBox(first) {
                // Its exterior lies outside the view; each hole is outlined where it is filled.
                for hole in rings.dropFirst().map(unrolled) where hole.count >= 3 {
                    for s in shifts(for: hole) {
                        runs.append(hole.map { MapPoint(x: $0.x + s, y: $0.y) })
                    }
                }
                continue
            }
            let finite = rings.map { $0.filter { $0.x.isFinite && $0.y.isFinite } }
            var mapRings = finite.map(unrolled)
            guard let exterior = mapRings.first, exterior.count >= 3 else { continue }
            // A ring round a pole is outlined over the same turns as it is filled (each turn's
            // points are the ring's, in order), without the fill's closure at the pole.
            var isCap = false
            if let cap = Self.polarCap(of: exterior, rings[0], turns: capTurns) {
                mapRings[0] = Array(cap.dropLast(2))
                isCap = true
                anyCut = true
            }
            let shellShifts = isCap ? [shift(for: mapRings[0])] : shifts(for: mapRings[0])
            for (i, ring) in mapRings.enumerated() where ring.count >= 3 {
                let positions = finite[i]
                let n = positions.count
                // As filled: a cap's holes in every copy in view, other rings with their shell.
                for shift in isCap && i > 0 ? shifts(for: ring) : shellShifts {
                    var run = [MapPoint]()
                    for j in ring.indices {
                        let m = MapPoint(x: ring[j].x + shift, y: ring[j].y)
                        if j > 0, Self.isCut(positions[(j - 1) % n], positions[j % n]) {
                            anyCut = true
                            if run.count >= 2 { runs.append(run) }
                            run = []
                        }
                        run.append(m)
                    }
                    if run.count >= 2 { runs.append(run) }
                }
            }
        }
        guard anyCut else { return nil }
        return runs.flatMap(clippedPaths)
    }

    /// Whether a ring is the whole world: a box from pole to pole at least 360° wide (as a point's
    /// buffer round both poles, or a world box, has), every vertex on its edges. Unrolled the short
    /// way its two sides would fall on one meridian, a line of no area.
    static func isWorldBox(_ ring: [Position]) -> Bool {
        guard ring.count >= 4, let low = ring.map(\.x).min(), let high = ring.map(\.x).max()
        else { return false }
        return high - low >= 360 && ring.contains { $0.y == 90 } && ring.contains { $0.y == -90 }
            && ring.allSatisfy { ($0.x == low || $0.x == high || abs($0.y) == 90) }
    }

    /// The world less some holes: the clip rectangle (which covers the view) with each hole, as
    /// unrolled, in every copy of the world in view.
    private func worldWithHoles(_ holes: [[Position]]) -> [[[ViewPoint]]] {
        var rings = [
            [
                MapPoint(x: minX, y: minY), MapPoint(x: maxX, y: minY), MapPoint(x: maxX, y: maxY),
                MapPoint(x: minX, y: maxY), MapPoint(x: minX, y: minY),
            ]
        ]
        for hole in holes.map(unrolled) where hole.count >= 3 {
            for s in shifts(for: hole) {
                rings.append(hole.map { MapPoint(x: $0.x + s, y: $0.y) })
            }
        }
        let projected = rings.map { project($0, closed: true) }.filter { !$0.isEmpty }
        return projected.isEmpty ? [] : [projected]
    }

    /// The ring to fill for an exterior ring that winds round a pole: its turns
    /// (``polarCap(of:_:)``) without the vertices at the pole itself and the spikes they leave (a
    /// dataset's cut down the 180th meridian and along the pole, which would run down to the
    /// map's edge and back at each seam, a ring GEOS cannot clip), closed a map point beyond the
    /// map's edge, so that vertices past ±85.05° (on the edge once projected) do not lie on the
    /// closure; `nil` when what is left does not wind.
    private func capFill(_ positions: [Position]) -> [MapPoint]? {
        let kept = positions.filter { abs($0.y) != 90 }
        guard let cap = Self.polarCap(of: unrolled(kept), positions, turns: capTurns),
            let edge = cap.last?.y
        else { return nil }
        var ring = Self.withoutSpikes(Array(cap.dropLast(2)))
        let beyond = edge == 0 ? -1 : edge + 1
        guard let first = ring.first, let last = ring.last, ring.count >= 3 else { return nil }
        ring += [MapPoint(x: last.x, y: beyond), MapPoint(x: first.x, y: beyond), first]
        return ring
    }

    /// A path without repeated points and without reversals along one line (a way down and
    /// back up the same meridian): the point where it turns back goes.
    static func withoutSpikes(_ points: [MapPoint]) -> [MapPoint] {
        var out = [MapPoint]()
        out.reserveCapacity(points.count)
        for p in points {
            while let b = out.last {
                if b.x == p.x && b.y == p.y { break }
                guard out.count >= 2 else { break }
                let a = out[out.count - 2]
                let (ux, uy, vx, vy) = (b.x - a.x, b.y - a.y, p.x - b.x, p.y - b.y)
                let cross = ux * vy - uy * vx
                let scale = (ux * ux + uy * uy).squareRoot() * (vx * vx + vy * vy).squareRoot()
                guard abs(cross) <= 1e-12 * scale && ux * vx + uy * vy < 0 else { break }
                out.removeLast()
            }
            if let b = out.last, b.x == p.x && b.y == p.y { continue }
            out.append(p)
        }
        return out
    }

    /// A ring that winds once around a pole, as a planar ring of map points: its unrolled path
    /// `turns` times (odd: as many worlds before it as after), closed along the map's top (north
    /// pole) or bottom edge; `nil` for a ring that does not wind.
    ///
    /// The pole is the one a vertex of the ring reaches, or else the one on the side of the ring's
    /// mean latitude (the smaller cap, for a ring that keeps to one hemisphere).
    static func polarCap(
        of ring: [MapPoint], _ positions: [Position], turns: Int = 3
    ) -> [MapPoint]? {
        guard let start = ring.first, let end = ring.last, ring.count >= 3 else { return nil }
        // The closing edge takes the short way too: the ring's whole turn in x.
        let close = start.x - end.x
        let turn = end.x + close - ((close / world).rounded() * world) - start.x
        guard abs(abs(turn) - world) < world / 4 else { return nil }
        let latitudes = positions.map(\.y).filter(\.isFinite)
        let north: Bool
        if latitudes.contains(90) != latitudes.contains(-90) {
            north = latitudes.contains(90)
        } else {
            north = latitudes.reduce(0, +) > 0
        }
        let edge = north ? 0 : world
        var cap = [MapPoint]()
        let side = max(1, turns / 2)
        cap.reserveCapacity((2 * side + 1) * ring.count + 2)
        for k in -side...side {
            for m in ring { cap.append(MapPoint(x: m.x + Double(k) * turn, y: m.y)) }
        }
        if let last = cap.last, let first = cap.first {
            cap.append(MapPoint(x: last.x, y: edge))
            cap.append(MapPoint(x: first.x, y: edge))
        }
        return cap
    }

    private func collectPolygons(_ geometry: Geometry, into polygons: inout [[[Position]]]) {
        switch geometry {
        case .polygon(let rings): if !rings.isEmpty { polygons.append(rings) }
        case .multiPolygon(let parts): polygons += parts.filter { !$0.isEmpty }
        case .geometryCollection(let parts):
            for part in parts { collectPolygons(part, into: &polygons) }
        default: break
        }
    }

    /// Each line of a linear geometry as view points.
    func lines(of geometry: Geometry) throws(GeoError) -> [[ViewPoint]] {
        var lines = [[Position]]()
        collectLines(geometry, into: &lines)
        lines = lines.map(densified)
        var result = [[ViewPoint]]()
        for line in lines {
            let points = unrolled(line)
            guard points.count >= 2 else { continue }
            for s in shifts(for: points) {
                result += clippedPaths(points.map { MapPoint(x: $0.x + s, y: $0.y) })
            }
        }
        return result
    }

    /// A path of map points (placed in x already) clipped to the view and projected: its pieces
    /// of at least two view points.
    private func clippedPaths(_ points: [MapPoint]) -> [[ViewPoint]] {
        let (isInside, isOutside) = relation([points])
        if isOutside { return [] }
        var parts = [points]
        if !isInside, let clip = clipped(.lineString(Projector.positions(points))) {
            var clippedLines = [[Position]]()
            collectLines(clip, into: &clippedLines)
            parts = clippedLines.map(Projector.mapPoints)
        }
        return parts.map { project($0, closed: false) }.filter { $0.count >= 2 }
    }

    private func collectLines(_ geometry: Geometry, into lines: inout [[Position]]) {
        switch geometry {
        case .lineString(let line): lines.append(line)
        case .multiLineString(let parts): lines += parts
        case .geometryCollection(let parts):
            for part in parts { collectLines(part, into: &lines) }
        default: break
        }
    }

    /// The view points of a geometry's points (inside the view).
    func points(of geometry: Geometry) -> [ViewPoint] {
        var positions = [Position]()
        switch geometry {
        case .point(let p?): positions = [p]
        case .multiPoint(let ps): positions = ps
        case .geometryCollection(let parts):
            return parts.flatMap { points(of: $0) }
        default: return []
        }
        var result = [ViewPoint]()
        let c = viewport.center
        for p in positions where p.x.isFinite && p.y.isFinite {
            var m = MapPoint(
                Coordinate(
                    latitude: max(-90, min(90, p.y)), longitude: Angle.normalizedLongitude(p.x)))
            m.x += ((c.x - m.x) / Projector.world).rounded() * Projector.world
            // Every copy in view.
            guard let range = copies(low: m.x, high: m.x) else { continue }
            for k in range {
                let copy = MapPoint(x: m.x + Double(k) * Projector.world, y: m.y)
                guard inside(copy), let v = viewport.point(east: copy.x - c.x, north: c.y - copy.y)
                else { continue }
                result.append(ViewPoint(x: v.x, y: v.y))
            }
        }
        return result
    }

    /// A line given in coordinates (a graticule line), unclipped, in every copy of the world in
    /// view.
    func line(_ coordinates: [Coordinate]) -> [[ViewPoint]] {
        let points = unrolled(coordinates.map { Position(x: $0.longitude, y: $0.latitude) })
        return shifts(for: points).map { s in
            project(points.map { MapPoint(x: $0.x + s, y: $0.y) }, closed: false)
        }
    }
}

/// Meridians and parallels at a round spacing.
enum Graticule {
    /// A round spacing in degrees that draws about six lines across a span.
    static func spacing(forSpan span: Double) -> Double {
        let steps = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30]
        let target = span / 6
        return steps.last(where: { $0 <= target }) ?? steps[0]
    }

    /// The lines inside a region (at most 120), each densified every 5° so that it bends with the
    /// view and takes the short way across the 180th meridian.
    static func lines(in region: CoordinateRegion, spacing: Double) -> [[Coordinate]] {
        let maxLatitude = WebMercator.maximumLatitude
        let south = max(-maxLatitude, region.center.latitude - region.span.latitudeDelta / 2)
        let north = min(maxLatitude, region.center.latitude + region.span.latitudeDelta / 2)
        let west = region.center.longitude - min(360, region.span.longitudeDelta) / 2
        let east = west + min(360, region.span.longitudeDelta)
        guard spacing > 0, south < north, west < east,
            (east - west) / spacing + (north - south) / spacing < 120
        else { return [] }
        func steps(_ a: Double, _ b: Double) -> [Double] {
            let n = max(1, Int(((b - a) / 5).rounded(.up)))
            return (0...n).map { a + (b - a) * Double($0) / Double(n) }
        }
        var lines = [[Coordinate]]()
        var lon = (west / spacing).rounded(.up) * spacing
        // A full turn's meridians once: west + 360 is west again (each is drawn in every copy
        // of the world in view).
        let full = east - west >= 360
        while full ? lon < west + 360 : lon <= east {
            lines.append(steps(south, north).map { Coordinate(latitude: $0, longitude: lon) })
            lon += spacing
        }
        var lat = (south / spacing).rounded(.up) * spacing
        while lat <= north {
            lines.append(steps(west, east).map { Coordinate(latitude: lat, longitude: $0) })
            lat += spacing
        }
        return lines
    }
}

/// A scale bar of a round length, about a fifth of the view wide, right at the view's center.
struct ScaleBar {
    /// Its length in view points.
    var points: Double
    /// Its length in words: `500 m`, `2 km`.
    var label: String

    init?(viewport: MapViewport) {
        // The scale where the view is centered: a camera over a pole looks at the map's edge,
        // ±85.0511°.
        let latitude = viewport.camera.centerCoordinate.latitude
        let shown = max(-WebMercator.maximumLatitude, min(WebMercator.maximumLatitude, latitude))
        let metersPerPoint =
            viewport.mapPointsPerPoint * MapPoint.metersPerMapPoint(atLatitude: shown)
        let target = viewport.size.width / 5 * metersPerPoint
        // Beyond a few times round the Earth a scale says nothing (and its label would not fit
        // an integer).
        guard target.isFinite, target > 0, target <= 1e9 else { return nil }
        let magnitude = pow(10, (log10(target)).rounded(.down))
        let meters = [5.0, 2, 1].map { $0 * magnitude }.first(where: { $0 <= target }) ?? magnitude
        points = meters / metersPerPoint
        if meters >= 1000 {
            let km = meters / 1000
            label = km == km.rounded() ? "\(Int(km)) km" : "\(km) km"
        } else {
            label = meters >= 1 ? "\(Int(meters)) m" : "\(meters) m"
        }
    }
}
