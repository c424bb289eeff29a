import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoRender

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Collects the elements of an SVG document, and whether it parsed.
final class SVGElements: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var text = ""

    static func parse(_ svg: String) -> SVGElements? {
        let collector = SVGElements()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        return parser.parse() ? collector : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        elements.append((elementName, attributeDict))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func all(_ name: String) -> [[String: String]] {
        elements.filter { $0.name == name }.map(\.attributes)
    }
}

@Suite("SVGMap")
struct SVGMapTests {
    let size = MapSize(width: 600, height: 400)

    func point(
        _ lon: Double, _ lat: Double, _ properties: JSONValue = .null, id: FeatureIdentifier? = nil
    )
        -> Feature
    {
        Feature(id: id, geometry: .point(Position(x: lon, y: lat)), properties: properties)
    }

    /// The numbers of an SVG path's data.
    func numbers(_ d: String) -> [Double] {
        d.split(whereSeparator: { "MLZ ".contains($0) }).compactMap { Double($0) }
    }

    /// A point lands where the viewport says, within half a point; the document is well-formed SVG
    /// with its title, legend, scale bar and attribution; text is escaped.
    @Test func pointsLandWhereTheCameraSays() throws {
        let features = [
            point(2.35, 48.86, ["title": "Paris <&> \u{1}"], id: "paris"),
            point(-0.12, 51.5, id: 2), point(13.4, 52.52, ["marker-color": "#ff0000"]),
        ]
        var map = try SVGMap(fitting: features, size: size, padding: MapEdgePadding(all: 30))
        map.title = "Capitals & more"
        try map.addBasemap()
        map.addGraticule()
        map.addLayer(features, name: "Capitals")
        let svg = try map.render()
        let parsed = try #require(SVGElements.parse(svg), "not well-formed")
        let viewport = map.camera.viewport(size: size)
        let circles = parsed.all("circle").filter { $0["id"] != nil || $0["fill"] == "#ff0000" }
        for feature in features {
            guard case .point(let p?) = feature.geometry else { continue }
            let expected = try #require(
                viewport.point(for: MapPoint(Coordinate(latitude: p.y, longitude: p.x))))
            let hit = circles.contains { c in
                abs((Double(c["cx"] ?? "") ?? .nan) - expected.x) <= 0.5
                    && abs((Double(c["cy"] ?? "") ?? .nan) - expected.y) <= 0.5
            }
            #expect(hit, "no circle at \(expected)")
        }
        #expect(parsed.all("circle").contains { $0["id"] == "f-paris" })
        #expect(parsed.all("circle").contains { $0["id"] == "f-2" })
        #expect(parsed.text.contains("Paris <&>"))
        #expect(parsed.text.contains("Capitals & more") && parsed.text.contains("Natural Earth"))
        #expect(parsed.text.contains("Capitals"))
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg"))
    }

    /// A line across the 180th meridian is drawn once and short, not across the whole map; a
    /// fit of Fiji and Samoa is narrow.
    @Test func theAntimeridianIsCrossedTheShortWay() throws {
        let line = Feature(
            geometry: .lineString([Position(x: 178, y: -17), Position(x: -178, y: -16)]),
            properties: ["stroke": "#123456"])
        let map0 = try SVGMap(
            fitting: [line, point(178.4, -18.1), point(-171.8, -13.8)], size: size)
        var map = map0
        map.addLayer([line])
        let parsed = try #require(SVGElements.parse(try map.render()))
        let path = try #require(parsed.all("path").first { $0["stroke"] == "#123456" })
        let xy = numbers(path["d"] ?? "")
        try #require(xy.count == 4)
        #expect(abs(xy[2] - xy[0]) < 300, "the line spans \(xy[2] - xy[0]) points")
        #expect(map.camera.viewport(size: size).visibleRegion.span.longitudeDelta < 40)
    }

    /// A polygon whose ring winds around the south pole (a cap written as GeoJSON writes it, cut
    /// at the 180th meridian and closed along the pole) is filled from its edge to the map's
    /// bottom in every view, on either side of the 180th meridian; a ring that does not wind is
    /// left as it is.
    @Test func polarCapsFillEveryView() throws {
        let ring = [
            (-180.0, -60.0), (-90, -60), (0, -60), (90, -60), (180, -60), (180, -90), (-180, -90),
            (-180, -60),
        ].map { Position(x: $0.0, y: $0.1) }
        for longitude in [180.0, -180, -90, 0, 135] {
            let camera = MapCamera(
                centerCoordinate: Coordinate(latitude: -65, longitude: longitude), distance: 8e6)
            let viewport = camera.viewport(size: size)
            let polygons = try Projector(viewport: viewport).polygons(of: .polygon([ring]))
            let exterior = try #require(polygons.first?.first, "\(longitude)")
            // The filled ring spans the whole view's width, and reaches from the −60° parallel
            // to the view's bottom edge.
            let xs = exterior.map(\.x), ys = exterior.map(\.y)
            #expect(
                (xs.min() ?? 0) <= 0 && (xs.max() ?? 0) >= size.width
                    && (ys.max() ?? 0) >= size.height, "\(longitude)")
            let parallel = try #require(
                viewport.point(
                    east: MapPoint(Coordinate(latitude: -60, longitude: longitude)).x
                        - viewport.center.x,
                    north: viewport.center.y
                        - MapPoint(Coordinate(latitude: -60, longitude: longitude)).y))
            #expect(abs((ys.min() ?? 0) - parallel.1) < 1, "\(longitude)")
        }
        let square = [(0.0, 0.0), (10, 0), (10, 10), (0, 10), (0, 0)].map {
            Position(x: $0.0, y: $0.1)
        }
        let unrolled = square.map { MapPoint(Coordinate(latitude: $0.y, longitude: $0.x)) }
        #expect(Projector.polarCap(of: unrolled, square) == nil)
    }

    /// A line longer than the world (a loop round the 40th parallel, a flight round the globe)
    /// is drawn along all of its length, and in a view wider than the world every copy of a
    /// line or point in view is drawn: the loop was drawn on one copy, off the world's edge on
    /// one side and missing on the other.
    @Test func linesRoundTheGlobeAndEveryCopy() throws {
        let loop = Geometry.lineString(
            [0.0, 120, 240, 360].map { Position(x: $0, y: 40) })
        let wide = MapSize(width: 800, height: 400)
        for longitude in [0.0, 100, -179] {
            let camera = MapCamera(
                centerCoordinate: Coordinate(latitude: 0, longitude: longitude), distance: 6e7)
            let projector = Projector(viewport: camera.viewport(size: wide))
            let xs = try projector.lines(of: loop).flatMap { $0.map(\.x) }
            #expect((xs.min() ?? 1) <= 0 && (xs.max() ?? 0) >= wide.width, "\(longitude)")
            // A point shows in each copy of the world in view: two or three here.
            let points = projector.points(of: .point(Position(x: longitude + 90, y: 0)))
            #expect(points.count >= 2, "\(longitude): \(points.count)")
            let apart = Set(points.map { ($0.x * 10).rounded() })
            #expect(apart.count == points.count)
        }
    }

    /// A view wider than the world draws each meridian once per copy (the first and last of a
    /// full turn are one meridian), and at most eight copies of the world side by side: a
    /// picture 20,000 points wide at zoom 0 (78 worlds) draws a point eight or nine times, not
    /// 65.
    @Test func wideViewsDrawEachCopyOnceAndAtMostEight() throws {
        for (longitude, width) in [(0.0, 800.0), (180, 800), (0, 4_000), (15, 800)] {
            let camera = MapCamera(
                centerCoordinate: Coordinate(latitude: 0, longitude: longitude),
                distance: MapCamera.distance(forZoom: 0, atLatitude: 0, viewHeight: 400))
            var map = SVGMap(size: MapSize(width: width, height: 400), camera: camera)
            map.addGraticule(spacing: 30)
            let svg = try map.render()
            let paths = svg.components(separatedBy: "<path d=\"").dropFirst().map {
                $0.prefix(while: { $0 != "\"" })
            }
            #expect(paths.count > 0)
            #expect(Set(paths).count == paths.count, "\(longitude), \(width)")
        }
        let camera = MapCamera(
            centerCoordinate: Coordinate(latitude: 0, longitude: 0),
            distance: MapCamera.distance(forZoom: 0, atLatitude: 0, viewHeight: 200))
        let projector = Projector(
            viewport: camera.viewport(size: MapSize(width: 20_000, height: 200)))
        let copies = projector.points(of: .point(Position(x: 10, y: 0)))
        #expect((8...9).contains(copies.count), "\(copies.count)")
        let loop = Geometry.lineString([0.0, 120, 240, 360].map { Position(x: $0, y: 40) })
        #expect(try projector.lines(of: loop).count <= 10)
    }

    /// In a view wider than the world, every copy of the world in view is drawn, as a web map
    /// draws them: a ring round a pole (Natural Earth's Antarctica, cut at the 180th meridian,
    /// closed along the pole, with vertices beyond the map's edge, and a plain cap) fills and
    /// outlines the whole width of the view, at whatever longitude the view is centered (it was
    /// drawn one world wide, leaving sea beside it).
    @Test func polarCapsCoverAWideView() throws {
        let antarctica = try #require(
            try Basemap.countries().first { $0.properties["name"] == "Antarctica" }?.geometry)
        let cap = Geometry.polygon([
            [
                (-180.0, -60.0), (-90, -60), (0, -60), (90, -60), (180, -60), (180, -90),
                (-180, -90),
                (-180, -60),
            ].map { Position(x: $0.0, y: $0.1) }
        ])
        let wide = MapSize(width: 800, height: 400)
        for longitude in [0.0, 100, -179] {
            let camera = MapCamera(
                centerCoordinate: Coordinate(latitude: 0, longitude: longitude), distance: 6e7)
            let viewport = camera.viewport(size: wide)
            let worldWidth = MapSize.world.width / viewport.mapPointsPerPoint
            #expect(worldWidth < wide.width - 100, "the view shows more than one world")
            let projector = Projector(viewport: viewport)
            for geometry in [antarctica, cap] {
                let filled = try projector.polygons(of: geometry).flatMap { $0.flatMap { $0 } }
                let stroked = try #require(projector.outlines(of: geometry)).flatMap { $0 }
                for (name, points) in [("fill", filled), ("outline", stroked)] {
                    let xs = points.map(\.x)
                    let low = try #require(xs.min()), high = try #require(xs.max())
                    #expect(
                        low <= 0 && high >= wide.width,
                        "\(longitude) \(name): \(low)...\(high), world \(worldWidth)")
                }
            }
        }
    }

    /// Whether a view point is inside a filled polygon (its rings by the even-odd rule).
    func filled(_ polygons: [[[ViewPoint]]], _ p: (Double, Double)) -> Bool {
        var inside = false
        for ring in polygons.flatMap({ $0 }) {
            for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1))
            where (a.y > p.1) != (b.y > p.1)
                && p.0 < a.x + (p.1 - a.y) / (b.y - a.y) * (b.x - a.x)
            {
                inside.toggle()
            }
        }
        return inside
    }

    /// The view point of a longitude/latitude.
    func viewPoint(
        _ viewport: MapViewport, _ latitude: Double, _ longitude: Double
    ) throws
        -> (Double, Double)
    {
        let m = MapPoint(Coordinate(latitude: latitude, longitude: longitude))
        let p = try #require(
            viewport.point(east: m.x - viewport.center.x, north: viewport.center.y - m.y))
        return (p.0, p.1)
    }

    /// A cap's real vertices beyond ±85.05° (on the map's edge once projected) keep their place
    /// in the fill: a ring that dips to 89° S at two longitudes leaves the land between the dips
    /// and the −60° parallel unfilled; and a cap's hole is open in the fill wherever the view is
    /// centered, in a view wider than the world too, with its outline where the fill has it.
    @Test func capsKeepTheirShapeAndHoles() throws {
        let dips = Geometry.polygon([
            [(-180.0, -60.0), (-90, -89), (0, -60), (90, -89), (180, -60), (-180, -60)].map {
                Position(x: $0.0, y: $0.1)
            }
        ])
        let viewport = MapCamera(
            centerCoordinate: Coordinate(latitude: -74, longitude: -35), distance: 5e6
        ).viewport(size: size)
        let polygons = try Projector(viewport: viewport).polygons(of: dips)
        for (latitude, longitude) in [(-62.0, -5.0), (-66, -30), (-70, -45), (-80, -45)] {
            let p = try viewPoint(viewport, latitude, longitude)
            #expect(p.0 > 0 && p.0 < size.width && p.1 > 0 && p.1 < size.height, "\(p)")
        }
        // The edge from (0, −60) down to (−90, −89) is straight in longitude and latitude (as
        // GeoJSON's edges are), at 61.61° S below 5° W, 69.67° S below 30° W and 74.5° S below
        // 45° W: north of it is outside, south of it inside.
        #expect(!filled(polygons, try viewPoint(viewport, -61.2, -5)))
        #expect(filled(polygons, try viewPoint(viewport, -62, -5)))
        #expect(!filled(polygons, try viewPoint(viewport, -66, -30)))
        #expect(filled(polygons, try viewPoint(viewport, -70.2, -30)))
        #expect(!filled(polygons, try viewPoint(viewport, -74, -45)))
        #expect(filled(polygons, try viewPoint(viewport, -80, -45)))
        let cap = Geometry.polygon([
            [
                (-180.0, -60.0), (-90, -60), (0, -60), (90, -60), (180, -60), (180, -90),
                (-180, -90),
                (-180, -60),
            ].map { Position(x: $0.0, y: $0.1) },
            [(100.0, -75.0), (110, -75), (110, -70), (100, -70), (100, -75)].map {
                Position(x: $0.0, y: $0.1)
            },
        ])
        let wide = MapSize(width: 800, height: 400)
        for (longitude, distance) in [(-50.0, 6e7), (-179.0, 8e6), (105.0, 8e6), (160, 3e7)] {
            let viewport = MapCamera(
                centerCoordinate: Coordinate(latitude: -60, longitude: longitude),
                distance: distance
            ).viewport(size: wide)
            let projector = Projector(viewport: viewport)
            let polygons = try projector.polygons(of: cap)
            let worldWidth = MapSize.world.width / viewport.mapPointsPerPoint
            // The hole's middle, in the copy nearest the view's center.
            let hole = MapPoint(Coordinate(latitude: -72.5, longitude: 105))
            let shift =
                ((viewport.center.x - hole.x) / MapSize.world.width).rounded() * MapSize.world.width
            let p = try #require(
                viewport.point(
                    east: hole.x + shift - viewport.center.x, north: viewport.center.y - hole.y))
            guard p.0 >= 0 && p.0 <= wide.width && p.1 >= 0 && p.1 <= wide.height else { continue }
            #expect(!filled(polygons, (p.0, p.1)), "\(longitude): the hole is filled")
            // Between the hole (70° S to 75° S) and the cap's edge (60° S): filled.
            let north = MapPoint(Coordinate(latitude: -65, longitude: 105))
            let q = try #require(
                viewport.point(
                    east: north.x + shift - viewport.center.x, north: viewport.center.y - north.y))
            #expect(filled(polygons, (q.0, q.1)), "\(longitude): north of the hole is not")
            let outline = try #require(projector.outlines(of: cap)).flatMap { $0 }
            let near = outline.filter { abs($0.x - p.0) < worldWidth / 10 && abs($0.y - p.1) < 100 }
            #expect(!near.isEmpty, "\(longitude): the hole has no outline")
        }
    }

    /// A position that is not a longitude/latitude is refused by layer and feature, when the map
    /// is fitted and when it is drawn.
    @Test func outOfRangePositionsAreRefused() throws {
        let bad = point(10, -91)
        do {
            _ = try SVGMap(fitting: [point(0, 0), bad], size: size)
            Issue.record("fitted a latitude of -91")
        } catch {
            #expect(error.kind == .invalidCoordinate && error.message.hasPrefix("feature 1: "))
        }
        var map = SVGMap(
            size: size,
            camera: MapCamera(
                centerCoordinate: Coordinate(latitude: 0, longitude: 0), distance: 1e7))
        map.addLayer([point(0, 0), point(.infinity, 0)], name: "fleet")
        do {
            _ = try map.render()
            Issue.record("drew an infinite longitude")
        } catch {
            #expect(
                error.kind == .invalidCoordinate
                    && error.message.hasPrefix("layer \"fleet\", feature 1: "), "\(error)")
        }
    }

    /// The world less a hole (a point's buffer round both poles, a world box from −351.5° to
    /// 8.5°) fills the whole view and leaves its hole, in every copy of the world in view, open:
    /// unrolled the short way the box's sides would fall on one meridian, a line of no area.
    @Test func worldWithAHoleFillsTheView() throws {
        let center = Coordinate(latitude: 47.4, longitude: 8.5)
        let buffer = try Geometry.point(coordinate: center).buffer(meters: 19_000_000)
        guard case .polygon(let rings) = buffer else {
            Issue.record("not a polygon")
            return
        }
        #expect(rings.count == 2 && Projector.isWorldBox(rings[0]))
        #expect(!Projector.isWorldBox(rings[1]))
        for (longitude, distance) in [(-171.5, 3e7), (8.5, 8e6), (179.0, 4e7)] {
            let camera = MapCamera(
                centerCoordinate: Coordinate(latitude: 0, longitude: longitude), distance: distance)
            let viewport = camera.viewport(size: size)
            let polygons = try Projector(viewport: viewport).polygons(of: buffer)
            let drawn = try #require(polygons.first, "\(longitude)")
            let exterior = drawn[0].map(\.x), top = drawn[0].map(\.y)
            #expect(
                (exterior.min() ?? 0) <= 0 && (exterior.max() ?? 0) >= size.width
                    && (top.min() ?? 1) <= 0 && (top.max() ?? 0) >= size.height, "\(longitude)")
            // Views that reach the antipode show its 1,000 km hole, a ring of its own; the view
            // round Zurich does not.
            let holes = drawn.dropFirst()
            #expect(holes.isEmpty == (distance < 1e7), "\(longitude)")
            for hole in holes {
                let xs = hole.map(\.x)
                let width = (xs.max() ?? 0) - (xs.min() ?? 0)
                #expect(width > 0 && width < size.width / 2, "\(longitude)")
            }
        }
        // A world box given as GeoJSON writes it is the world too.
        let box = [(-180.0, -90.0), (180, -90), (180, 90), (-180, 90), (-180, -90)].map {
            Position(x: $0.0, y: $0.1)
        }
        #expect(Projector.isWorldBox(box))
        let polygons = try Projector(
            viewport: MapCamera(
                centerCoordinate: center, distance: 1e7
            ).viewport(size: size)
        ).polygons(
            of: .polygon([box]))
        #expect(polygons.count == 1 && polygons.first?.count == 1)
    }

    /// A country cut at the 180th meridian (two parts meeting there, one written at
    /// 180.00000000000006 as Natural Earth has it) and a cap round the south pole cut there too
    /// are outlined without the cut: no stroked segment runs along the meridian, while every
    /// coast is stroked; a polygon without a cut has no separate outline.
    @Test func cutsAtTheAntimeridianAreNotStroked() throws {
        let east = 180.00000000000006
        func ring(_ pairs: [(Double, Double)]) -> [Position] {
            pairs.map { Position(x: $0.0, y: $0.1) }
        }
        let island = Geometry.multiPolygon([
            [ring([(175.0, 60.0), (east, 60), (east, 65), (175, 65), (175, 60)])],
            [ring([(-180.0, 60.0), (-175, 60), (-175, 65), (-180, 65), (-180, 60)])],
        ])
        let cap = Geometry.polygon([
            ring([(-180.0, -70.0), (0, -72), (180, -70), (180, -90), (-180, -90), (-180, -70)])
        ])
        for (geometry, latitude) in [(island, 62.5), (cap, -75)] {
            let camera = MapCamera(
                centerCoordinate: Coordinate(latitude: latitude, longitude: 180), distance: 3e6)
            let viewport = camera.viewport(size: size)
            let projector = Projector(viewport: viewport)
            let outlines = try #require(projector.outlines(of: geometry))
            let meridian = MapPoint(Coordinate(latitude: latitude, longitude: 180))
            let x = try #require(
                viewport.point(
                    east: meridian.x - viewport.center.x, north: viewport.center.y - meridian.y)
            ).0
            var alongMeridian = 0, strokedLength = 0.0
            for path in outlines {
                for (a, b) in zip(path, path.dropFirst()) {
                    if abs(a.x - x) < 0.5 && abs(b.x - x) < 0.5 && abs(a.y - b.y) > 1 {
                        alongMeridian += 1
                    }
                    strokedLength += ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y))
                        .squareRoot()
                }
            }
            #expect(alongMeridian == 0, "\(latitude)")
            #expect(strokedLength > 100, "\(latitude)")
            // The fill still closes along the cut.
            #expect(!(try projector.polygons(of: geometry)).isEmpty)
        }
        let square = Geometry.polygon([
            ring([(170.0, 60.0), (175, 60), (175, 65), (170, 65), (170, 60)])
        ])
        #expect(
            Projector(
                viewport: MapCamera(
                    centerCoordinate: Coordinate(latitude: 62, longitude: 172), distance: 3e6
                ).viewport(size: size)
            ).outlines(of: square) == nil)
        // The rendered map: one group per cut feature, its fill unstroked in another color.
        var map = SVGMap(
            size: size,
            camera: MapCamera(
                centerCoordinate: Coordinate(latitude: 62.5, longitude: 180), distance: 3e6))
        map.addLayer([Feature(id: nil, geometry: island, properties: ["stroke": "#123456"])])
        let parsed = try #require(SVGElements.parse(try map.render()))
        let strokes = parsed.all("path").filter { $0["stroke"] == "#123456" }
        #expect(strokes.count == 1 && strokes.first?["fill"] == "none")
    }

    /// A point with a radius is its geodesic circle: every vertex drawn lies at that distance from
    /// the center, to the drawing's resolution.
    @Test func groundCirclesAreGeodesic() throws {
        let center = Coordinate(latitude: 60, longitude: 10)
        let fence = point(10, 60, ["radius": 50_000])
        var map = try SVGMap(fitting: [fence], size: size)
        map.addLayer([fence])
        let viewport = map.camera.viewport(size: size)
        let parsed = try #require(SVGElements.parse(try map.render()))
        let path = try #require(parsed.all("path").first { $0["fill-rule"] == "evenodd" })
        let xy = numbers(path["d"] ?? "")
        #expect(xy.count >= 64)
        // 0.01 point at this scale.
        let tolerance =
            viewport.mapPointsPerPoint * MapPoint.metersPerMapPoint(atLatitude: 60) * 0.02
        for i in stride(from: 0, to: xy.count - 1, by: 2) {
            let m = try #require(viewport.mapPoint(atViewPoint: xy[i], xy[i + 1]))
            let d = Geodesic.wgs84.distance(from: center, to: m.coordinate)
            #expect(abs(d - 50_000) < tolerance + 1, "vertex at \(d) m")
        }
    }

    /// A world dataset seen at a city's scale keeps only what is in view; clusters get bubbles with
    /// their counts; directed lines get arrowheads.
    @Test func clippingClustersAndArrows() throws {
        var rng = SplitMix64(seed: 4)
        let world = (0..<5_000).map { _ in point(rng.uniform(-180, 180), rng.uniform(-80, 80)) }
        let camera = MapCamera(
            centerCoordinate: Coordinate(latitude: 0, longitude: 0),
            distance: MapCamera.distance(forZoom: 6, atLatitude: 0, viewHeight: 400))
        var map = SVGMap(size: size, camera: camera)
        let longLine = Feature(
            geometry: .lineString([Position(x: -30, y: -1), Position(x: 30, y: 1)]),
            properties: ["direction": true, "stroke": "#abcdef"])
        let cluster = point(
            0.5, 0.5, ["cluster": true, "point_count": 12_345, "point_count_abbreviated": "12k"])
        map.addLayer(world + [cluster])
        map.addLayer([longLine])
        let svg = try map.render()
        let parsed = try #require(SVGElements.parse(svg))
        let visible = parsed.all("circle").count
        #expect(visible < 50, "\(visible) circles for a zoom-6 view")
        #expect(parsed.text.contains("12k"))
        // The clipped line still crosses the view, with arrowheads along it.
        let line = try #require(parsed.all("path").first { $0["stroke"] == "#abcdef" })
        let xy = numbers(line["d"] ?? "")
        #expect(xy.allSatisfy { abs($0) < 2_000 })
        #expect(parsed.all("g").contains { $0["fill"] == "#abcdef" }, "no arrowheads")
        #expect(svg.utf8.count < 60_000)
    }

    /// Polygons that cross themselves in the plane of the map are clipped to what their even-odd
    /// fill covers: a narrow spike from Natural Earth's outline of Sudan, valid in longitude and
    /// latitude, whose sides cross once latitudes are stretched (GEOS's rectangle clipper gave the
    /// view less the spike, flooding the sea), and a bow tie, crossing itself as written.
    @Test func selfCrossingPolygonsAreClippedToTheirFill() throws {
        let size = MapSize(width: 800, height: 500)
        let spike = [
            (24.567369012152085, 8.229187933785468), (23.805813429466752, 8.666318874542526),
            (32.9, 22.0), (23.886979580860668, 8.619729712933065),
            (24.567369012152085, 8.229187933785468),
        ].map { Position(x: $0.0, y: $0.1) }
        #expect(try Geometry.polygon([spike]).isValid())
        let bowTie = [(-10.0, 0.0), (10, 10), (10, 0), (-10, 10), (-10, 0)].map {
            Position(x: $0.0, y: $0.1)
        }
        for (ring, center, zoom) in [(spike, (-10.0, 0.0), 4.0), (bowTie, (8, 5), 5)] {
            let camera = MapCamera(
                centerCoordinate: Coordinate(latitude: center.1, longitude: center.0),
                distance: MapCamera.distance(
                    forZoom: zoom, atLatitude: center.1, viewHeight: size.height))
            let viewport = camera.viewport(size: size)
            let drawn = try Projector(viewport: viewport).polygons(of: .polygon([ring]))
            // The drawn area as the even-odd fill covers it (sampled every half point: a ring
            // drawn whole crosses itself, and its lobes' signed areas cancel), against the
            // ring's own box in view points (the whole ring for the spike, its visible part for
            // the bow tie, whose lobes are each a quarter of its box).
            let rings = drawn.flatMap { $0 }
            func covered(_ x: Double, _ y: Double) -> Bool {
                var crossings = 0
                for ring in rings {
                    for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1))
                    where (a.y > y) != (b.y > y) && x < a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
                    {
                        crossings += 1
                    }
                }
                return crossings % 2 == 1
            }
            var samples = 0
            let drawnXs = rings.flatMap { $0.map(\.x) }, drawnYs = rings.flatMap { $0.map(\.y) }
            for x in stride(from: (drawnXs.min() ?? 0) + 0.25, to: drawnXs.max() ?? 0, by: 0.5) {
                for y in stride(from: (drawnYs.min() ?? 0) + 0.25, to: drawnYs.max() ?? 0, by: 0.5)
                where covered(x, y) {
                    samples += 1
                }
            }
            let area = Double(samples) * 0.25
            let corners = ring.compactMap {
                viewport.point(for: MapPoint(Coordinate(latitude: $0.y, longitude: $0.x)))
            }
            #expect(corners.count == ring.count)
            let xs = corners.map { min(max($0.x, -32), size.width + 32) }
            let ys = corners.map { min(max($0.y, -32), size.height + 32) }
            let box = ((xs.max() ?? 0) - (xs.min() ?? 0)) * ((ys.max() ?? 0) - (ys.min() ?? 0))
            #expect(area > 0 && area <= box / 2 * 1.02 + 20, "\(area) of \(box): \(drawn)")
        }
    }

    /// 100,000 points are all drawn; the scale bar's label matches its length at the center.
    @Test func manyPointsAndTheScaleBar() throws {
        var rng = SplitMix64(seed: 5)
        let points = (0..<100_000).map { _ in point(rng.uniform(5, 15), rng.uniform(45, 50)) }
        var map = try SVGMap(fitting: points, size: size)
        map.addLayer(points, pointScale: SVGMap.PointScale(colorProperty: "none"))
        let svg = try map.render()
        let circles = svg.components(separatedBy: "<circle").count - 1
        // The points, and the legend's row for points without the color property.
        #expect(circles == 100_000 + 1)
        #expect(svg.contains(">no none</text>"))
        let viewport = map.camera.viewport(size: size)
        let bar = try #require(ScaleBar(viewport: viewport))
        let meters =
            bar.points * viewport.mapPointsPerPoint
            * MapPoint.metersPerMapPoint(atLatitude: map.camera.centerCoordinate.latitude)
        #expect(
            bar.label
                == (meters >= 1000
                    ? "\(Int((meters / 1000).rounded())) km" : "\(Int(meters.rounded())) m"))
        #expect(bar.points > 60 && bar.points <= 120)
    }

    /// The legend keeps above the scale bar: rows that do not fit become one "and N more" row.
    /// More values of a color property than the palette has colors: seven keep theirs, the rest
    /// share gray and one legend row, so no two values seem to be one. A layer's legend symbol
    /// is the style of the kind it shows. Colors are SVG 1.1's.
    @Test func legendRowsFitAndColorsStayDistinct() throws {
        let features = (0..<16).map { i in
            point(Double(i), Double(i % 4), ["c": .string(String(UnicodeScalar(UInt8(97 + i))))])
        }
        // Nine rows: the layer, seven values and the gray ones. 250 points tall, all fit; 180
        // points tall, (180 − 40 − 12 − 10) / 18 = 6 rows do, the last saying what is left.
        for (height, shown) in [(250.0, 9), (180, 6)] {
            var map = try SVGMap(fitting: features, size: MapSize(width: 400, height: height))
            map.addLayer(
                features, name: "letters", pointScale: SVGMap.PointScale(colorProperty: "c"))
            let texts = try #require(SVGElements.parse(try map.render())).text
            #expect(texts.contains("letters"))
            #expect(texts.contains("9 other values") == (shown == 9))
            #expect(texts.contains("and 4 more") == (shown == 6))
        }
        let resolver = PointScaleResolver(
            SVGMap.PointScale(colorProperty: "c"), features: features)
        let colors = features.map { resolver.style(of: $0, base: FeatureStyle()).markerColor }
        #expect(Set(colors.prefix(7)).count == 7)
        #expect(colors.dropFirst(7).allSatisfy { $0 == PointScaleResolver.otherColor })
        #expect(!colors.prefix(7).contains(PointScaleResolver.otherColor))
        let rows = resolver.legendEntries(base: FeatureStyle())
        #expect(rows.count == 8 && rows.last?.label == "9 other values")
        // Eight values or fewer: a color each, a row each.
        let eight = PointScaleResolver(
            SVGMap.PointScale(colorProperty: "c"), features: Array(features.prefix(8)))
        #expect(eight.legendEntries(base: FeatureStyle()).count == 8)
        #expect(Set(eight.colors.values) == Set(FeatureStyle.palette))

        // A red polygon, then black points: the legend's dot is black, the points' color.
        let square: Geometry = .polygon([
            [(0.0, 0.0), (1, 0), (1, 1), (0, 1), (0, 0)].map { Position(x: $0.0, y: $0.1) }
        ])
        let mixed = [
            Feature(geometry: square, properties: ["fill": "red", "stroke": "red"]),
            point(0.5, 0.5, ["marker-color": "#000000"]),
        ]
        var both = try SVGMap(fitting: mixed, size: size)
        both.addLayer(mixed, name: "mixed")
        let legendCircles = try #require(SVGElements.parse(try both.render())).all("circle")
            .filter { $0["cx"] == "16" }
        #expect(legendCircles.count == 1 && legendCircles.first?["fill"] == "#000000")

        #expect(FeatureStyle.color("notacolor") == nil)
        #expect(FeatureStyle.color("Tomato") == "tomato")
        #expect(FeatureStyle.color("#11223344") == "#112233")
        #expect(FeatureStyle.color("#abcd") == "#abc")
        #expect(FeatureStyle.color("#12345") == nil)
        #expect(
            FeatureStyle.color("none") == nil && FeatureStyle.color("None", orNone: true) == "none")
        #expect(FeatureStyle().applying(["fill": "none", "marker-color": "none"]).fill == "none")
        #expect(FeatureStyle().applying(["marker-color": "none"]).markerColor == "#1f77b4")
        // A map of any height draws its legend or leaves it out, and never traps.
        // Nor does a camera over a pole from far away, whose scale bar would be longer than
        // the Earth is round: it is left out.
        for (latitude, distance) in [(90.0, 5e7), (0, 1e30)] {
            let far = SVGMap(
                size: MapSize(width: 800, height: 600),
                camera: MapCamera(
                    centerCoordinate: Coordinate(latitude: latitude, longitude: 0),
                    distance: distance))
            #expect(!(try far.render()).contains(" km</text>"))
        }
        for height in [Double.nan, .infinity, 1e300, 20] {
            var tall = SVGMap(
                size: MapSize(width: 300, height: height),
                camera: MapCamera(
                    centerCoordinate: Coordinate(latitude: 0, longitude: 0), distance: 1e7))
            tall.addLayer([point(0, 0)], name: "one")
            _ = try? tall.render()
        }
    }

    /// A collection's points, lines and polygons are each drawn: a point, a line and a polygon
    /// in one feature give a circle, a stroked path and a filled path.
    @Test func collectionsAreDrawnPartByPart() throws {
        let collection: Geometry = .geometryCollection([
            .point(Position(x: 0, y: 0)),
            .lineString([Position(x: 0, y: 0), Position(x: 5, y: 5)]),
            .polygon([
                [(1.0, 1.0), (4, 1), (4, 4), (1, 4), (1, 1)].map { Position(x: $0.0, y: $0.1) }
            ]),
        ])
        let features = [Feature(geometry: collection, properties: ["title": "all"])]
        var map = try SVGMap(fitting: features, size: size)
        map.addLayer(features)
        let svg = try #require(SVGElements.parse(try map.render()))
        #expect(svg.all("circle").filter { $0["r"] != nil && $0["cx"] != "16" }.count == 1)
        let paths = svg.all("path").filter { $0["d"]?.isEmpty == false }
        #expect(paths.contains { $0["fill"] == "none" && $0["stroke-linecap"] == "round" })
        #expect(paths.contains { $0["fill-rule"] == "evenodd" && $0["fill"] != "none" })
    }

    /// Sizes are area proportional: a value half the largest gets 1/√2 of the largest radius; a
    /// tiny, zero or negative one the smallest radius. A point without the color property is a
    /// gray of its own (not the first value's color) with its own legend row, and values are
    /// told apart by type: the string "other" is not an object.
    @Test func sizesAreAreaProportionalAndMissingColorsAreTheirOwn() {
        let features = [
            point(0, 0, ["pop": 200, "k": "a"]), point(1, 0, ["pop": 100, "k": "other"]),
            point(2, 0, ["pop": 1, "k": .object(["x": 1])]), point(3, 0, ["pop": -5]),
            point(4, 0, ["pop": 50, "k": .null]),
        ]
        let resolver = PointScaleResolver(
            SVGMap.PointScale(sizeProperty: "pop", radii: 3...14, colorProperty: "k"),
            features: features)
        let styles = features.map { resolver.style(of: $0, base: FeatureStyle()) }
        #expect(styles[0].markerRadius == 14)
        #expect(abs(styles[1].markerRadius - 14 / 2.0.squareRoot()) < 1e-12)
        #expect(styles[2].markerRadius == 3 && styles[3].markerRadius == 3)
        #expect(abs(styles[4].markerRadius - 7) < 1e-12)
        let colors = styles.map(\.markerColor)
        #expect(Set(colors.prefix(3)).count == 3)
        #expect(colors[3] == PointScaleResolver.missingColor)
        #expect(colors[4] == PointScaleResolver.missingColor)
        #expect(!FeatureStyle.palette.contains(PointScaleResolver.missingColor))
        let rows = resolver.legendEntries(base: FeatureStyle()).map(\.label)
        #expect(rows == ["a", "other", "other (object)", "no k"])
    }

    /// Fitted, every position is drawn inside the padding: a line round most of the globe (its
    /// edges drawn the short way, so the fit must take in the longitudes between its vertices),
    /// and a tilted map, which backs away until the far and near sides hold everything.
    @Test func fittedMapsShowEverything() throws {
        let line = Feature(
            geometry: .lineString(
                [(-170.0, 0.0), (-60, 10), (0, 0), (60, -10), (170, 0)].map {
                    Position(x: $0.0, y: $0.1)
                }))
        let map = try SVGMap(fitting: [line], size: size)
        let viewport = map.camera.viewport(size: size)
        for x in stride(from: -170.0, through: 170, by: 5) {
            let p = try #require(
                viewport.point(for: MapPoint(Coordinate(latitude: 0, longitude: x))))
            #expect(p.x >= 19 && p.x <= size.width - 19, "\(x): \(p)")
        }
        var rng = SplitMix64(seed: 3)
        let points = (0..<50).map { _ in point(rng.uniform(2.2, 2.5), rng.uniform(48.8, 48.9)) }
        for pitch in [30.0, 60, 70] {
            let tilted = try SVGMap(fitting: points, size: size, heading: 20, pitch: pitch)
            #expect(tilted.camera.pitch == pitch)
            let view = tilted.camera.viewport(size: size)
            for feature in points {
                guard case .point(let p?) = feature.geometry else { continue }
                let v = try #require(
                    view.point(for: MapPoint(Coordinate(latitude: p.y, longitude: p.x))))
                #expect(
                    v.x >= 19.99 && v.x <= size.width - 19.99 && v.y >= 19.99
                        && v.y <= size.height - 19.99)
            }
        }
    }

    /// A polygon's edges are drawn straight in longitude and latitude, as `contains` takes them:
    /// the edge from (0°, 0°) to (10°, 60°) passes 5.1667° E at 31° N, so a point at 5.1° E is
    /// inside the drawn fill and one at 5.23° E outside (straight on the Mercator map, the edge
    /// would pass about 4.3° E there and both points would be outside).
    @Test func edgesAreStraightInLongitudeAndLatitude() throws {
        let triangle = Feature(
            geometry: .polygon([
                [(0.0, 0.0), (10, 60), (0, 60), (0, 0)].map { Position(x: $0.0, y: $0.1) }
            ]))
        var map = SVGMap(
            size: size,
            camera: MapCamera(
                centerCoordinate: Coordinate(latitude: 31, longitude: 5),
                distance: MapCamera.distance(forZoom: 6, atLatitude: 31, viewHeight: size.height)))
        map.addLayer([triangle])
        let svg = try #require(SVGElements.parse(try map.render()))
        let d = try #require(svg.all("path").first { $0["fill-rule"] == "evenodd" }?["d"])
        let xs = numbers(d)
        let ring = stride(from: 0, to: xs.count - 1, by: 2).map { (xs[$0], xs[$0 + 1]) }
        func inside(_ x: Double, _ y: Double) -> Bool {
            var crossings = 0
            for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1))
            where (a.1 > y) != (b.1 > y) && x < a.0 + (y - a.1) / (b.1 - a.1) * (b.0 - a.0) {
                crossings += 1
            }
            return crossings % 2 == 1
        }
        let viewport = map.camera.viewport(size: size)
        let inPoint = try #require(
            viewport.point(for: MapPoint(Coordinate(latitude: 31, longitude: 5.1))))
        let outPoint = try #require(
            viewport.point(for: MapPoint(Coordinate(latitude: 31, longitude: 5.23))))
        #expect(inside(inPoint.x, inPoint.y))
        #expect(!inside(outPoint.x, outPoint.y))
    }

    /// A label that is a number or a boolean is drawn as written; an object is no label.
    @Test func labelsOfNumbers() throws {
        let features = [
            point(0, 0, ["label": 12345]), point(1, 0, ["label": 2.5]),
            point(2, 0, ["label": true]), point(3, 0, ["label": ["a": 1]]),
        ]
        var map = try SVGMap(fitting: features, size: MapSize(width: 400, height: 300))
        map.addLayer(features, name: "labels")
        let svg = try map.render()
        for text in [">12345<", ">2.5<", ">true<"] { #expect(svg.contains(text), "\(text)") }
        #expect(!svg.contains(">other<"))
    }

    /// Text stays on the picture: a long title and legend row are shortened with an ellipsis, and
    /// a label with no room on its point's right goes on its left.
    @Test func textStaysOnThePicture() throws {
        let small = MapSize(width: 300, height: 200)
        let features = [
            point(0, 0, ["label": "West end label"]),
            point(1, 0.2, ["label": "East end with a long label text"]),
        ]
        var map = try SVGMap(fitting: features, size: small)
        map.title = String(repeating: "A rather long title ", count: 5)
        map.addLayer(features, name: String(repeating: "x", count: 80))
        let svg = try #require(SVGElements.parse(try map.render()))
        #expect(svg.text.contains("…"))
        // Each text's estimated extent (6.3 points a character at 11 points, 9.6 bold at 16),
        // from its anchor, lies on the picture.
        let source = try map.render()
        for piece in source.components(separatedBy: "<text").dropFirst() {
            guard let close = piece.firstIndex(of: ">"), let end = piece.range(of: "</text>")
            else { continue }
            let attributes = piece[..<close]
            let content = piece[piece.index(after: close)..<end.lowerBound]
            guard
                let xText = attributes.components(separatedBy: "x=\"").dropFirst().first?
                    .prefix(while: { $0 != "\"" }), let x = Double(xText)
            else { continue }
            // Entities count as one character.
            let characters = Double(
                content.replacingOccurrences(
                    of: "&[a-z#0-9]+;", with: "_", options: .regularExpression
                ).count)
            let per = attributes.contains("font-size=\"16\"") ? 9.6 : 6.3
            let translated =
                attributes.contains("text-anchor=\"middle\"") || piece.contains("translate")
            guard !translated else { continue }
            if attributes.contains("text-anchor=\"end\"") {
                #expect(x - characters * per >= -1, "\(piece)")
            } else {
                #expect(x + characters * per <= small.width + 1, "\(piece)")
            }
        }
        let east = svg.all("text").filter { $0["text-anchor"] == "end" && $0["font-size"] == "11" }
        #expect(!east.isEmpty)
        let box = try #require(svg.all("rect").first { $0["rx"] == "4" })
        #expect((Double(box["width"] ?? "") ?? .infinity) <= small.width - 24)
        // Pictures of any size, or none, shorten text without trapping.
        for width in [1e20, .infinity, .nan, 0] {
            var odd = SVGMap(
                size: MapSize(width: width, height: 500),
                camera: MapCamera(
                    centerCoordinate: Coordinate(latitude: 0, longitude: 0), distance: 1e6))
            odd.title = "hello"
            odd.addLayer(features, name: "layer")
            _ = try? odd.render()
        }
    }
}
