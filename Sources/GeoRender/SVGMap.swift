import Foundation
import GeoCore

/// A map drawn as SVG: GeoJSON features on Web Mercator, seen through a `MapCamera`, with
/// optional country outlines, a graticule, a scale bar, a north arrow, a legend and attribution.
///
/// ```swift
/// var map = try SVGMap(fitting: trip.features, size: MapSize(width: 800, height: 500),
///                      padding: MapEdgePadding(all: 24))
/// try map.addBasemap()
/// map.addLayer(sites, name: "Study sites")                      // points, lines, polygons
/// map.addLayer(clusters, name: "Notes")                         // supercluster's cluster features
/// try map.render().write(to: URL(fileURLWithPath: "map.svg"), atomically: true, encoding: .utf8)
/// ```
///
/// ### What features become
/// - Points: circles, styled by simplestyle properties (see ``FeatureStyle``); a layer may size
///   and color them by a property (``PointScale``); a `label` property is written beside them.
/// - **Clusters**: a point whose properties have `cluster: true` and `point_count` (what
///   supercluster and `ClusterIndex` write) is a bubble with its count, its area growing with it.
/// - **Circles on the ground**: a point with a numeric `radius` property (meters) is drawn as its
///   true geodesic circle (`GeodesicCircle`), not as a circle of pixels.
/// - Lines, with arrowheads along them when their properties have `"direction": true`; polygons
///   with holes; every multi-geometry and collection part by part.
///
/// Edges are drawn straight in longitude and latitude, as GeoJSON's are (RFC 7946) and as
/// `Geometry.contains` tests them, not straight on the Mercator map: an edge slanted in both is
/// drawn as the curve it is on the map, within a quarter of a point. Geometry is unrolled across
/// the 180th meridian (each edge the short way, each feature drawn in
/// every copy of the world that meets the view, as a web map repeats the world, up to eight side
/// by side) and clipped to the view with GEOS's
/// rectangle clipper, so a world dataset gives a file the size of what is visible. A ring that
/// winds once round a pole (Antarctica, a polar cap) is filled out to the map's edge at that pole;
/// a polygon whose exterior is the whole world (a box from pole to pole at least 360° wide, as a
/// point's buffer round both poles has) fills the view, with its holes open in every copy of the
/// world in view. Edges along the 180th meridian or a pole's line are where a dataset cut its
/// polygon (Russia, Fiji and Antarctica in Natural Earth): they close the fill but are not
/// stroked, so no line runs down the meridian.
///
/// The output is SVG 1.1 (one `<svg>` element, no scripts), opened by browsers, Inkscape and
/// `rsvg-convert`.
public struct SVGMap: Sendable {
    /// The picture's size in points (SVG user units).
    public var size: MapSize
    /// The camera the map is seen through.
    public var camera: MapCamera
    /// The color of the sea (the background).
    public var backgroundColor = "#e6eff5"
    /// A title drawn at the top left, if any.
    public var title: String?
    /// Lines of attribution drawn at the bottom right, after the basemap's own when it is shown.
    public var attribution: [String] = []
    /// Whether to draw a scale bar, in meters at the view's center.
    public var showsScaleBar = true
    /// Whether to draw the legend of the named layers.
    public var showsLegend = true
    /// Whether to draw a north arrow; `nil` draws one when the heading is not 0.
    public var showsNorthArrow: Bool?

    /// The layers, in drawing order.
    public private(set) var layers: [Layer] = []

    /// One group of features drawn together, with its legend entry.
    public struct Layer: Sendable {
        /// The legend's label; a layer without one has no legend entry.
        public var name: String?
        /// The features.
        public var features: [Feature]
        /// The layer's style; each feature's simplestyle properties override it.
        public var style: FeatureStyle
        /// How points are sized and colored by their properties, if at all.
        public var pointScale: PointScale?
        /// What kind of layer it is.
        var kind: Kind

        enum Kind: Sendable {
            case features
            case basemap
            case graticule(spacing: Double?)
        }
    }

    /// Points sized by a numeric property (area proportional to its value) and colored by another:
    /// a color of ``FeatureStyle/palette`` per distinct value, in the order first seen; beyond the
    /// palette's eight, the first seven values keep theirs and the rest are gray, with a legend
    /// row that counts them. Points without a value of the color property are a lighter gray,
    /// with a legend row of their own.
    ///
    /// Sizes: the layer's largest value gets the largest radius, and every other positive value
    /// the radius that makes its circle's area proportional to it (a value a quarter of the
    /// largest gets half its radius), but never less than the smallest radius; zero, negative and
    /// missing values get the smallest radius.
    public struct PointScale: Hashable, Sendable {
        /// The numeric property that sets the radius, if any.
        public var sizeProperty: String?
        /// The radius in points of the largest value (the upper bound) and the least radius any
        /// point is drawn with (the lower bound).
        public var radii: ClosedRange<Double>
        /// The property whose values get colors, if any.
        public var colorProperty: String?

        /// A point scale.
        public init(
            sizeProperty: String? = nil, radii: ClosedRange<Double> = 3...14,
            colorProperty: String? = nil
        ) {
            self.sizeProperty = sizeProperty
            self.radii = radii
            self.colorProperty = colorProperty
        }
    }

    /// A map of a camera's view.
    public init(size: MapSize, camera: MapCamera) {
        self.size = size
        self.camera = camera
    }

    /// A map that shows every position of some features inside the padding (across the 180th
    /// meridian when that is narrower), top-down or tilted by `pitch` degrees (clamped as
    /// `MapCamera.pitch` is; tilted, the camera backs away from the top-down fit until every
    /// position is inside again).
    ///
    /// - Complexity: O(n) for n positions, times up to 60 for a tilted map.
    /// - Throws: `GeoError.Kind.invalidCoordinate` naming the feature of a position that is not
    ///   a longitude/latitude (as ``render()`` does); `GeoError.Kind.notFound` when the features
    ///   have no position; the errors of
    ///   `MapCamera.init(fitting:viewSize:edgePadding:heading:minimumMeters:)`.
    public init(
        fitting features: [Feature], size: MapSize,
        padding: MapEdgePadding = MapEdgePadding(all: 20),
        heading: Double = 0, pitch: Double = 0
    ) throws(GeoError) {
        try SVGMap.checkCoordinates(features)
        var coordinates = [Coordinate]()
        func add(_ p: Position) {
            coordinates.append(Coordinate(latitude: max(-90, min(90, p.y)), longitude: p.x))
        }
        // A path is drawn the short way between its positions, so the fit takes in the
        // longitudes between them too: points at most 10° apart along each edge, so that the
        // widest gap the fit leaves out is one no edge crosses (or, for paths round nearly the
        // whole globe, one of at most 10°). At most 17 points per edge: O(n).
        func addPath(_ path: [Position]) {
            var previous: Position?
            for p in path where p.x.isFinite && p.y.isFinite {
                if let a = previous {
                    let dx = Angle.longitudeDifference(from: a.x, to: p.x)
                    let steps = Int((abs(dx) / 10).rounded(.up))
                    let west = Angle.normalizedLongitude(a.x)
                    for k in stride(from: 1, to: steps, by: 1) {
                        let t = Double(k) / Double(steps)
                        add(
                            Position(
                                x: Angle.normalizedLongitude(west + t * dx),
                                y: a.y + t * (p.y - a.y)
                            ))
                    }
                }
                add(p)
                previous = p
            }
        }
        func addGeometry(_ geometry: Geometry) {
            switch geometry {
            case .point(let p?) where p.x.isFinite && p.y.isFinite: add(p)
            case .point: break
            case .multiPoint(let ps): for p in ps where p.x.isFinite && p.y.isFinite { add(p) }
            case .lineString(let path): addPath(path)
            case .multiLineString(let paths), .polygon(let paths): paths.forEach(addPath)
            case .multiPolygon(let polygons): for rings in polygons { rings.forEach(addPath) }
            case .geometryCollection(let members): members.forEach(addGeometry)
            }
        }
        for feature in features {
            guard let geometry = feature.geometry else { continue }
            addGeometry(geometry)
            // A circle on the ground is fitted whole.
            if case .point(let p?) = geometry, let radius = SVGMap.groundRadius(feature),
                let circle = try? GeodesicCircle(
                    center: Coordinate(latitude: p.y, longitude: p.x), radius: radius)
            {
                coordinates += circle.polygon(minimumVertices: 16).positions.map {
                    Coordinate(latitude: $0.y, longitude: $0.x)
                }
            }
        }
        guard !coordinates.isEmpty else {
            throw GeoError(.notFound, "the features have no position to fit the map to")
        }
        var camera = try MapCamera(
            fitting: coordinates.map { $0.normalized }, viewSize: size, edgePadding: padding,
            heading: heading)
        if pitch > 0 {
            // Tilted, the far side of the view takes in more and the near side less: the
            // camera backs away (by 15 % a step, at most 60 steps) until every position is
            // inside the padding again.
            camera.pitch = pitch
            let points = coordinates.map { MapPoint($0.normalized) }
            func fits(_ camera: MapCamera) -> Bool {
                let viewport = camera.viewport(size: size)
                return points.allSatisfy { p in
                    guard let v = viewport.point(for: p) else { return false }
                    return v.x >= padding.left - 1e-6 && v.x <= size.width - padding.right + 1e-6
                        && v.y >= padding.top - 1e-6 && v.y <= size.height - padding.bottom + 1e-6
                }
            }
            var steps = 0
            while steps < 60 && !fits(camera) {
                camera.distance *= 1.15
                steps += 1
            }
        }
        self.init(size: size, camera: camera)
    }

    // MARK: - Layers

    /// Adds a layer of features, drawn above the layers added before.
    ///
    /// - Parameters:
    ///   - features: GeoJSON features in longitude/latitude.
    ///   - name: The legend's label for the layer (none without a name).
    ///   - style: The layer's style; by default the next color of ``FeatureStyle/palette``.
    ///   - pointScale: How to size and color its points by their properties.
    public mutating func addLayer(
        _ features: [Feature], name: String? = nil, style: FeatureStyle? = nil,
        pointScale: PointScale? = nil
    ) {
        let used = layers.filter { if case .features = $0.kind { true } else { false } }.count
        let color = FeatureStyle.palette[used % FeatureStyle.palette.count]
        layers.append(
            Layer(
                name: name, features: features, style: style ?? FeatureStyle(color: color),
                pointScale: pointScale, kind: .features))
    }

    /// Adds the world's country outlines (Natural Earth 1:110m, public domain, shipped with the
    /// package) below everything added later.
    ///
    /// - Throws: `GeoError.Kind.io` when the package's copy cannot be read.
    public mutating func addBasemap() throws(GeoError) {
        _ = try Basemap.countries()
        layers.append(
            Layer(
                name: nil, features: [],
                style: FeatureStyle(
                    markerColor: "#f7f4ee", markerRadius: 0, stroke: "#b5ad9e", strokeWidth: 0.6,
                    strokeOpacity: 1, fill: "#f7f4ee", fillOpacity: 1),
                pointScale: nil, kind: .basemap))
        if !attribution.contains(Basemap.attribution) {
            attribution.insert(Basemap.attribution, at: 0)
        }
    }

    /// Adds a graticule: meridians and parallels every `spacing` degrees (by default a round
    /// spacing that draws about six lines across the view).
    public mutating func addGraticule(spacing: Double? = nil) {
        layers.append(
            Layer(
                name: nil, features: [],
                style: FeatureStyle(
                    markerColor: "#8aa0b0", markerRadius: 0, stroke: "#8aa0b0", strokeWidth: 0.5,
                    strokeOpacity: 0.6, fill: "none", fillOpacity: 0),
                pointScale: nil, kind: .graticule(spacing: spacing)))
    }

    // MARK: - Output

    /// The SVG document.
    ///
    /// - Throws: `GeoError.Kind.invalidCoordinate` naming the layer and feature of a position
    ///   that is not a longitude/latitude (not finite, a latitude beyond ±90°, a longitude beyond
    ///   ±1e15°); `GeoError` from GEOS when clipping fails, or when the basemap cannot be read.
    /// - Complexity: O(n) for n vertices; about a second for 100,000 points in release builds.
    public func render() throws(GeoError) -> String {
        var renderer = Renderer(map: self)
        return try renderer.document()
    }

    /// The SVG document written to a file.
    ///
    /// - Throws: `GeoError.Kind.io` naming the path when it cannot be written, and the errors of
    ///   ``render()``.
    public func write(to url: URL) throws(GeoError) {
        let text = try render()
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw GeoError(
                .io, "cannot write \(GeoError.quoted(url.path)): \(error.localizedDescription)")
        }
    }

    /// Throws unless every position of the features is a longitude/latitude a map can place:
    /// finite, latitude within ±90°, longitude within ±1e15° (beyond ±180° a longitude is
    /// reduced, as a path across the 180th meridian writes it).
    ///
    /// - Throws: `GeoError.Kind.invalidCoordinate` naming the feature's index and the value.
    /// - Complexity: O(n) for n positions.
    package static func checkCoordinates(_ features: [Feature]) throws(GeoError) {
        for (i, feature) in features.enumerated() {
            do throws(GeoError) {
                try feature.geometry?.validateGeographic()
            } catch {
                throw GeoError(error.kind, "feature \(i): \(error.message)")
            }
        }
    }

    /// The radius in meters of a point drawn as a circle on the ground (its `radius` property).
    static func groundRadius(_ feature: Feature) -> Double? {
        guard case .object(let p) = feature.properties, let r = p["radius"]?.doubleValue,
            r.isFinite, r > 0
        else { return nil }
        return r
    }
}
