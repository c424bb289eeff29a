import Foundation
import GeoCore

/// One rendering of an ``SVGMap``: the layers projected, clipped and written, then the overlays.
struct Renderer {
    let map: SVGMap
    let viewport: MapViewport
    let projector: Projector
    var out = SVGWriter()
    var legend = [LegendEntry]()
    var usedIDs = Set<String>()

    init(map: SVGMap) {
        self.map = map
        viewport = map.camera.viewport(size: map.size)
        projector = Projector(viewport: viewport)
    }

    mutating func document() throws(GeoError) -> String {
        let w = map.size.width, h = map.size.height
        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"")
        out.attribute("width", w)
        out.attribute("height", h)
        out.raw(" viewBox=\"0 0 ")
        out.number(w)
        out.raw(" ")
        out.number(h)
        out.raw("\" font-family=\"Helvetica, Arial, sans-serif\">\n")
        out.raw("<defs><clipPath id=\"view\"><rect width=\"")
        out.number(w)
        out.raw("\" height=\"")
        out.number(h)
        out.raw("\"/></clipPath></defs>\n")
        out.raw("<rect width=\"")
        out.number(w)
        out.raw("\" height=\"")
        out.number(h)
        out.raw("\"")
        out.attribute("fill", map.backgroundColor)
        out.raw("/>\n<g clip-path=\"url(#view)\">\n")
        for (i, layer) in map.layers.enumerated() {
            switch layer.kind {
            case .basemap: try drawBasemap(layer)
            case .graticule(let spacing): drawGraticule(layer, spacing: spacing)
            case .features: try drawFeatures(layer, index: i)
            }
        }
        out.raw("</g>\n")
        drawOverlays()
        out.raw("</svg>\n")
        return out.string
    }

    // MARK: - Layers

    private mutating func drawBasemap(_ layer: SVGMap.Layer) throws(GeoError) {
        let style = layer.style
        out.raw("<g")
        out.attribute("fill", style.fill)
        out.attribute("stroke", style.stroke)
        out.attribute("stroke-width", style.strokeWidth)
        out.raw(" stroke-linejoin=\"round\">\n")
        for country in try Basemap.countries() {
            guard let geometry = country.geometry else { continue }
            let outlines = projector.outlines(of: geometry)
            for polygon in try projector.polygons(of: geometry) {
                out.raw("<path d=\"")
                writePath(polygon, closed: true)
                out.raw("\" fill-rule=\"evenodd\"")
                // Cut polygons meet along the cut: stroked in their fill's color, so that no
                // seam of background shows through where the two edges' antialiasing meets.
                if outlines != nil { out.attribute("stroke", style.fill) }
                out.raw("/>\n")
            }
            if let outlines, !outlines.isEmpty {
                out.raw("<path d=\"")
                writePath(outlines, closed: false)
                out.raw("\" fill=\"none\"/>\n")
            }
        }
        out.raw("</g>\n")
    }

    private mutating func drawGraticule(_ layer: SVGMap.Layer, spacing: Double?) {
        let region = viewport.visibleRegion
        let step =
            spacing.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
            ?? Graticule.spacing(
                forSpan: max(region.span.longitudeDelta, region.span.latitudeDelta))
        let style = layer.style
        out.raw("<g fill=\"none\"")
        out.attribute("stroke", style.stroke)
        out.attribute("stroke-width", style.strokeWidth)
        out.attribute("stroke-opacity", style.strokeOpacity)
        out.raw(">\n")
        for line in Graticule.lines(in: region, spacing: step) {
            for path in projector.line(line) where path.count >= 2 {
                out.raw("<path d=\"")
                writePath([path], closed: false)
                out.raw("\"/>\n")
            }
        }
        out.raw("</g>\n")
    }

    private mutating func drawFeatures(_ layer: SVGMap.Layer, index: Int) throws(GeoError) {
        do throws(GeoError) {
            try SVGMap.checkCoordinates(layer.features)
        } catch {
            let name = layer.name.map { GeoError.quoted($0) } ?? "\(index)"
            throw GeoError(error.kind, "layer \(name), \(error.message)")
        }
        let scale = PointScaleResolver(layer.pointScale, features: layer.features)
        // Polygons and circles on the ground first, then lines, then points and clusters.
        var lines = [(Feature, FeatureStyle)](), points = [(Feature, FeatureStyle)]()
        out.raw("<g>\n")
        // The legend shows the kind drawn on top, in the style of its first feature: what the
        // layer looks like.
        var kinds = [LegendEntry.Kind: FeatureStyle]()
        for feature in layer.features {
            guard let geometry = feature.geometry else { continue }
            let style = layer.style.applying(feature.properties)
            if case .point(let p?) = geometry, let radius = SVGMap.groundRadius(feature) {
                if let circle = try? GeodesicCircle(
                    center: Coordinate(latitude: p.y, longitude: p.x), radius: radius)
                {
                    try drawPolygonal(circle.polygon(), feature: feature, style: style)
                    if kinds[.circle] == nil { kinds[.circle] = style }
                }
                continue
            }
            // A collection's polygons, lines and points are each drawn with their kind.
            let dimensions = Projector.dimensions(of: geometry)
            if dimensions.contains(2) {
                try drawPolygonal(geometry, feature: feature, style: style)
                if kinds[.polygon] == nil { kinds[.polygon] = style }
            }
            if dimensions.contains(1) { lines.append((feature, style)) }
            if dimensions.contains(0) { points.append((feature, style)) }
        }
        for (feature, style) in lines {
            try drawLinear(feature.geometry, feature: feature, style: style)
            if kinds[.line] == nil { kinds[.line] = style }
        }
        for (feature, style) in points {
            if Cluster.count(of: feature) != nil {
                drawCluster(feature, style: style)
                if kinds[.cluster] == nil { kinds[.cluster] = style }
            } else {
                drawPoints(feature, style: scale.style(of: feature, base: style))
                // The layer's row shows the point before the scale, which has rows of its own.
                if kinds[.point] == nil { kinds[.point] = style }
            }
        }
        out.raw("</g>\n")
        if let name = layer.name,
            let kind = LegendEntry.Kind.allCases.first(where: { kinds[$0] != nil })
        {
            legend.append(LegendEntry(label: name, style: kinds[kind] ?? layer.style, kind: kind))
        }
        for entry in scale.legendEntries(base: layer.style) { legend.append(entry) }
    }

    /// Whether a feature is drawn as its circle on the ground: a point with a radius.
    static func isGroundCircle(_ feature: Feature) -> Bool {
        guard case .point(_?) = feature.geometry else { return false }
        return SVGMap.groundRadius(feature) != nil
    }

    private mutating func openElement(_ name: String, feature: Feature) {
        out.raw("<\(name)")
        if let id = feature.id {
            var text: String
            switch id {
            case .string(let s): text = s
            case .integer(let i): text = String(i)
            case .number(let n): text = String(n)
            }
            // An XML name: letters, digits, '-', '_' and '.', starting with a letter.
            text =
                "f-"
                + String(
                    text.unicodeScalars.map { s in
                        s.isASCII
                            && (CharacterSet.alphanumerics.contains(s)
                                || "-_.".unicodeScalars.contains(s))
                            ? Character(s) : "_"
                    }.prefix(64))
            var unique = text, n = 1
            while usedIDs.contains(unique) {
                n += 1
                unique = "\(text)-\(n)"
            }
            usedIDs.insert(unique)
            out.attribute("id", unique)
        }
    }

    private mutating func closeElement(_ name: String, feature: Feature) {
        if case .object(let p) = feature.properties, let title = p["title"]?.stringValue {
            out.raw("><title>")
            out.text(title)
            out.raw("</title></\(name)>\n")
        } else {
            out.raw("/>\n")
        }
    }

    private mutating func drawPolygonal(
        _ geometry: Geometry, feature: Feature, style: FeatureStyle
    ) throws(GeoError) {
        let polygons = try projector.polygons(of: geometry)
        guard !polygons.isEmpty else { return }
        if let outlines = projector.outlines(of: geometry) {
            // Cut at the 180th meridian: filled whole, outlined without the cut, in one group.
            openElement("g", feature: feature)
            out.raw("><path d=\"")
            for polygon in polygons { writePath(polygon, closed: true) }
            out.raw("\" fill-rule=\"evenodd\"")
            out.attribute("fill", style.fill)
            out.attribute("fill-opacity", style.fillOpacity)
            // An opaque fill is stroked in its own color, so that no seam of what lies beneath
            // shows along the cut; a translucent one would show the overlap.
            if style.fillOpacity >= 1 {
                out.attribute("stroke", style.fill)
                out.attribute("stroke-width", style.strokeWidth)
            } else {
                out.raw(" stroke=\"none\"")
            }
            out.raw("/>")
            if !outlines.isEmpty {
                out.raw("<path d=\"")
                writePath(outlines, closed: false)
                out.raw("\" fill=\"none\"")
                out.attribute("stroke", style.stroke)
                out.attribute("stroke-width", style.strokeWidth)
                out.attribute("stroke-opacity", style.strokeOpacity)
                out.raw(" stroke-linejoin=\"round\"/>")
            }
            if case .object(let p) = feature.properties, let title = p["title"]?.stringValue {
                out.raw("<title>")
                out.text(title)
                out.raw("</title>")
            }
            out.raw("</g>\n")
            return
        }
        openElement("path", feature: feature)
        out.raw(" d=\"")
        for polygon in polygons { writePath(polygon, closed: true) }
        out.raw("\" fill-rule=\"evenodd\"")
        out.attribute("fill", style.fill)
        out.attribute("fill-opacity", style.fillOpacity)
        out.attribute("stroke", style.stroke)
        out.attribute("stroke-width", style.strokeWidth)
        out.attribute("stroke-opacity", style.strokeOpacity)
        out.raw(" stroke-linejoin=\"round\"")
        closeElement("path", feature: feature)
    }

    private mutating func drawLinear(
        _ geometry: Geometry?, feature: Feature, style: FeatureStyle
    ) throws(GeoError) {
        guard let geometry else { return }
        let paths = try projector.lines(of: geometry)
        guard !paths.isEmpty else { return }
        openElement("path", feature: feature)
        out.raw(" d=\"")
        for path in paths { writePath([path], closed: false) }
        out.raw("\" fill=\"none\"")
        out.attribute("stroke", style.stroke)
        out.attribute("stroke-width", style.strokeWidth)
        out.attribute("stroke-opacity", style.strokeOpacity)
        out.raw(" stroke-linejoin=\"round\" stroke-linecap=\"round\"")
        closeElement("path", feature: feature)
        if case .object(let p) = feature.properties, p["direction"] == .bool(true) {
            for path in paths { drawArrows(along: path, style: style) }
        }
    }

    /// Arrowheads every 90 points along a drawn line, pointing the way it goes.
    private mutating func drawArrows(along path: [ViewPoint], style: FeatureStyle) {
        let spacing = 90.0, size = 4 + style.strokeWidth * 1.5
        var next = spacing / 2, walked = 0.0
        out.raw("<g")
        out.attribute("fill", style.stroke)
        out.attribute("fill-opacity", style.strokeOpacity)
        out.raw(">\n")
        for (a, b) in zip(path, path.dropFirst()) {
            let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { continue }
            while next <= walked + length {
                let t = (next - walked) / length
                let x = a.x + t * dx, y = a.y + t * dy, ux = dx / length, uy = dy / length
                out.raw("<path d=\"M")
                out.number(x + ux * size)
                out.raw(" ")
                out.number(y + uy * size)
                out.raw("L")
                out.number(x - ux * size - uy * size * 0.7)
                out.raw(" ")
                out.number(y - uy * size + ux * size * 0.7)
                out.raw("L")
                out.number(x - ux * size + uy * size * 0.7)
                out.raw(" ")
                out.number(y - uy * size - ux * size * 0.7)
                out.raw("Z\"/>\n")
                next += spacing
            }
            walked += length
        }
        out.raw("</g>\n")
    }

    private mutating func drawPoints(_ feature: Feature, style: FeatureStyle) {
        guard let geometry = feature.geometry else { return }
        var label: String?
        // A label is text, or a number (in its shortest decimal form) or a boolean.
        if case .object(let p) = feature.properties, let value = p["label"],
            value.stringValue != nil || value.doubleValue != nil || value.boolValue != nil
        {
            label = PointScaleResolver.label(value)
        }
        for point in projector.points(of: geometry) {
            openElement("circle", feature: feature)
            out.attribute("cx", point.x)
            out.attribute("cy", point.y)
            out.attribute("r", style.markerRadius)
            out.attribute("fill", style.markerColor)
            out.raw(" stroke=\"#ffffff\" stroke-width=\"1\"")
            closeElement("circle", feature: feature)
            if let label {
                drawLabel(label, x: point.x, y: point.y + 4, gap: style.markerRadius + 3)
            }
        }
    }

    /// Text shortened with an ellipsis to about `width` points, at `perCharacter` points per
    /// character (an estimate: SVG text has no measured width).
    static func shortened(_ text: String, toFit width: Double, perCharacter: Double) -> String {
        // In Double until it is known to be small: a picture may be any size, or none.
        let fits = (width / perCharacter).rounded(.down)
        guard !(fits >= Double(text.count)) else { return text }
        return shortened(text, toCharacters: fits >= 1 ? Int(fits) : 1)
    }

    /// Text of more than `room` characters cut to `room − 1` and an ellipsis.
    static func shortened(_ text: String, toCharacters room: Int) -> String {
        guard text.count > room else { return text }
        return String(text.prefix(max(0, room - 1))) + "…"
    }

    /// A label beside a point (`gap` points from its center): dark text on a white halo (the text
    /// drawn twice, as SVG 1.1 has no paint order), on the point's right, or on its left where
    /// the right has no room; at most 60 characters, and shortened to the wider side's room.
    private mutating func drawLabel(_ text: String, x: Double, y: Double, gap: Double) {
        // Text at 11 points is about 6.3 points per character.
        let perCharacter = 6.3, w = map.size.width
        let rightRoom = w - 4 - (x + gap), leftRoom = x - gap - 4
        let label = String(text.prefix(60))
        let onLeft = Double(label.count) * perCharacter > rightRoom && leftRoom > rightRoom
        let fitted = Self.shortened(
            label, toFit: onLeft ? leftRoom : rightRoom, perCharacter: perCharacter)
        for halo in [true, false] {
            out.raw("<text")
            out.attribute("x", onLeft ? x - gap : x + gap)
            out.attribute("y", y)
            if onLeft { out.raw(" text-anchor=\"end\"") }
            out.raw(
                halo
                    ? " font-size=\"11\" fill=\"#ffffff\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\">"
                    : " font-size=\"11\" fill=\"#1b2a36\">")
            out.text(fitted)
            out.raw("</text>\n")
        }
    }

    private mutating func drawCluster(_ feature: Feature, style: FeatureStyle) {
        guard let geometry = feature.geometry, let count = Cluster.count(of: feature) else {
            return
        }
        let radius = Cluster.radius(count)
        for point in projector.points(of: geometry) {
            openElement("g", feature: feature)
            out.raw(">")
            out.raw("<circle")
            out.attribute("cx", point.x)
            out.attribute("cy", point.y)
            out.attribute("r", radius)
            out.attribute("fill", style.markerColor)
            out.raw(" fill-opacity=\"0.85\" stroke=\"#ffffff\" stroke-width=\"1.5\"/>")
            out.raw("<text")
            out.attribute("x", point.x)
            out.attribute("y", point.y + 3.5)
            out.raw(
                " text-anchor=\"middle\" font-size=\"10\" font-weight=\"bold\" fill=\"#ffffff\">")
            out.text(Cluster.label(of: feature, count: count))
            out.raw("</text>")
            if case .object(let p) = feature.properties, let title = p["title"]?.stringValue {
                out.raw("<title>")
                out.text(title)
                out.raw("</title>")
            }
            out.raw("</g>\n")
        }
    }

    /// Path data for rings or lines in view points.
    private mutating func writePath(_ rings: [[ViewPoint]], closed: Bool) {
        for ring in rings {
            guard let first = ring.first else { continue }
            out.raw("M")
            out.number(first.x)
            out.raw(" ")
            out.number(first.y)
            for p in ring.dropFirst() {
                out.raw("L")
                out.number(p.x)
                out.raw(" ")
                out.number(p.y)
            }
            if closed { out.raw("Z") }
        }
    }

    // MARK: - Overlays

    private mutating func drawOverlays() {
        let w = map.size.width, h = map.size.height
        if let title = map.title {
            out.raw(
                "<text x=\"12\" y=\"24\" font-size=\"16\" font-weight=\"bold\" fill=\"#1b2a36\">")
            // Bold text at 16 points is about 9.6 points per character.
            out.text(Self.shortened(title, toFit: w - 24, perCharacter: 9.6))
            out.raw("</text>\n")
        }
        if map.showsScaleBar, let bar = ScaleBar(viewport: viewport) {
            let x = 12.0, y = h - 16
            out.raw("<g stroke=\"#1b2a36\" stroke-width=\"1.5\" fill=\"none\">")
            out.raw("<path d=\"M")
            out.number(x)
            out.raw(" ")
            out.number(y - 5)
            out.raw("V")
            out.number(y)
            out.raw("H")
            out.number(x + bar.points)
            out.raw("V")
            out.number(y - 5)
            out.raw("\"/></g>\n<text")
            out.attribute("x", x + bar.points + 6)
            out.attribute("y", y)
            out.raw(" font-size=\"11\" fill=\"#1b2a36\">")
            out.text(bar.label)
            out.raw("</text>\n")
        }
        if map.showsNorthArrow ?? (Angle.normalizedLongitude(map.camera.heading) != 0) {
            drawNorthArrow(x: w - 28, y: 40)
        }
        if map.showsLegend && !legend.isEmpty { drawLegend() }
        var y = h - 8
        for line in map.attribution.reversed() {
            out.raw("<text")
            out.attribute("x", w - 8)
            out.attribute("y", y)
            out.raw(" text-anchor=\"end\" font-size=\"9\" fill=\"#5a6670\">")
            out.text(line)
            out.raw("</text>\n")
            y -= 12
        }
    }

    private mutating func drawNorthArrow(x: Double, y: Double) {
        // North on the view: from the center toward a point a little north of it.
        let c = viewport.center
        guard let a = viewport.point(for: c),
            let b = viewport.point(for: MapPoint(x: c.x, y: c.y - viewport.mapPointsPerPoint * 20))
        else { return }
        let angle = atan2(b.x - a.x, -(b.y - a.y)) * 180 / .pi
        out.raw("<g transform=\"translate(")
        out.number(x)
        out.raw(" ")
        out.number(y)
        out.raw(") rotate(")
        out.number(angle)
        out.raw(")\"><path d=\"M0 -16L7 10L0 5L-7 10Z\" fill=\"#1b2a36\"/>")
        out.raw(
            "<text x=\"0\" y=\"-20\" text-anchor=\"middle\" font-size=\"11\" fill=\"#1b2a36\">N</text></g>\n"
        )
    }

    private mutating func drawLegend() {
        // As many rows as fit above the scale bar (the bottom 40 points); when some do not, the
        // last row that fits says how many layers and values are left out.
        let rowHeight = 18.0
        let x = 12.0, y = map.title == nil ? 12.0 : 34.0
        let rows = ((map.size.height - 40 - y - 10) / rowHeight).rounded(.down)
        guard rows >= 1 else { return }
        let fitting = rows >= Double(legend.count) ? legend.count : Int(rows)
        var legend = self.legend
        if legend.count > fitting {
            let omitted = legend.count - fitting + 1
            legend = Array(legend.prefix(fitting - 1))
            legend.append(
                LegendEntry(label: "and \(omitted) more", style: FeatureStyle(), kind: nil))
        }
        // Text at 11 points is about 6.3 points per character; the box stays inside the picture
        // (12 points from either side), its labels shortened to fit.
        let room = ((map.size.width - 2 * x - 44) / 6.3).rounded(.down)
        let characters = room >= 40 ? 40 : room >= 1 ? Int(room) : 1
        let longest = legend.map { min($0.label.count, characters) }.max() ?? 0
        let width = 44 + 6.3 * Double(longest)
        let height = 10 + rowHeight * Double(legend.count)
        out.raw("<g")
        out.attribute("transform", "translate(\(x) \(y))")
        out.raw("><rect")
        out.attribute("width", width)
        out.attribute("height", height)
        out.raw(" rx=\"4\" fill=\"#ffffff\" fill-opacity=\"0.85\" stroke=\"#c9c4ba\"/>\n")
        for (i, entry) in legend.enumerated() {
            let cy = 5 + rowHeight * (Double(i) + 0.5)
            let s = entry.style
            switch entry.kind {
            case .point:
                out.raw("<circle cx=\"16\"")
                out.attribute("cy", cy)
                out.attribute("r", min(s.markerRadius, 7))
                out.attribute("fill", s.markerColor)
                out.raw("/>")
            case .cluster:
                out.raw("<circle cx=\"16\"")
                out.attribute("cy", cy)
                out.raw(" r=\"7\"")
                out.attribute("fill", s.markerColor)
                out.raw(" fill-opacity=\"0.85\"/>")
            case .line:
                out.raw("<path")
                out.attribute("d", "M8 \(cy)H24")
                out.attribute("stroke", s.stroke)
                out.attribute("stroke-width", min(s.strokeWidth, 5))
                out.raw("/>")
            case nil:
                break
            case .polygon, .circle:
                out.raw("<rect x=\"8\"")
                out.attribute("y", cy - 6)
                out.raw(" width=\"16\" height=\"12\"")
                out.attribute("rx", entry.kind == .circle ? 6 : 1)
                out.attribute("fill", s.fill)
                out.attribute("fill-opacity", max(s.fillOpacity, 0.3))
                out.attribute("stroke", s.stroke)
                out.raw("/>")
            }
            out.raw(entry.kind == nil ? "<text x=\"8\"" : "<text x=\"32\"")
            out.attribute("y", cy + 4)
            out.raw(" font-size=\"11\" fill=\"#1b2a36\">")
            out.text(Self.shortened(entry.label, toCharacters: characters))
            out.raw("</text>\n")
        }
        out.raw("</g>\n")
    }
}

/// A row of the legend.
struct LegendEntry: Sendable {
    enum Kind: Int, CaseIterable, Hashable, Sendable {
        case cluster, point, line, circle, polygon
    }

    var label: String
    var style: FeatureStyle
    /// What its symbol shows; `nil` for a row of text alone.
    var kind: Kind?
}

/// supercluster's cluster features: a point with `cluster: true` and `point_count`.
enum Cluster {
    static func count(of feature: Feature) -> Int? {
        guard case .object(let p) = feature.properties, p["cluster"] == .bool(true),
            let count = p["point_count"]?.intValue, count > 0
        else { return nil }
        return count
    }

    /// The bubble's radius: its area grows with the logarithm of the count.
    static func radius(_ count: Int) -> Double {
        10 + 4 * log10(Double(max(1, count)))
    }

    /// `point_count_abbreviated` when the feature has it, else the count.
    static func label(of feature: Feature, count: Int) -> String {
        if case .object(let p) = feature.properties, let abbreviated = p["point_count_abbreviated"]
        {
            if let text = abbreviated.stringValue { return text }
            if let n = abbreviated.intValue { return String(n) }
        }
        return String(count)
    }
}

/// Sizes and colors a layer's points by their properties.
///
/// Colors go to the values of the color property in the order first seen, one of
/// ``FeatureStyle/palette`` each; when there are more values than the palette has colors, the
/// first seven keep theirs and every other value is drawn in gray, with a legend row saying how
/// many values that is, so no two values seem to be one. Points without the property (or with
/// `null`) are drawn in a lighter gray of their own, with a legend row "no PROPERTY". Values are
/// told apart by type as well as text: the string "1" and the number 1 are two values.
struct PointScaleResolver {
    let scale: SVGMap.PointScale?
    /// The largest positive value of the size property: its points get the largest radius.
    let largest: Double?
    var colors: [String: String] = [:]
    var order: [String] = []
    var labels: [String: String] = [:]
    /// The number of values drawn in ``otherColor``.
    var others = 0
    /// Whether some point has no value of the color property.
    var anyMissing = false

    /// The color of the values beyond the palette's.
    static let otherColor = "#9a9a9a"
    /// The color of points without a value of the color property.
    static let missingColor = "#d0d0d0"

    init(_ scale: SVGMap.PointScale?, features: [Feature]) {
        self.scale = scale
        if let property = scale?.colorProperty {
            // The features drawn as plain points: not clusters, circles on the ground, lines or
            // polygons.
            for f in features {
                guard let geometry = f.geometry, Projector.dimensions(of: geometry).contains(0),
                    Cluster.count(of: f) == nil, !Renderer.isGroundCircle(f)
                else { continue }
                guard let key = Self.key(Self.value(of: f, property)) else {
                    anyMissing = true
                    continue
                }
                if colors[key] == nil {
                    colors[key] = ""
                    order.append(key)
                    labels[key] = Self.label(Self.value(of: f, property))
                }
            }
            // Values told apart by type but written alike (the string "1" and the number 1)
            // get their type in the legend, so that two rows never read the same.
            let spelled = labels
            let written = Dictionary(grouping: order) { spelled[$0] ?? "" }
            for (_, keys) in written where keys.count > 1 {
                for key in keys where !key.hasPrefix("s") {
                    let kind =
                        key.hasPrefix("n") ? "number" : key.hasPrefix("b") ? "boolean" : "object"
                    labels[key] = (labels[key] ?? "") + " (\(kind))"
                }
            }
            let palette = FeatureStyle.palette
            let named = order.count <= palette.count ? order.count : palette.count - 1
            for (i, key) in order.enumerated() {
                colors[key] = i < named ? palette[i] : Self.otherColor
            }
            others = order.count - named
            order = Array(order.prefix(named))
        }
        guard let property = scale?.sizeProperty else {
            largest = nil
            return
        }
        var high = 0.0
        for f in features {
            if case .object(let p) = f.properties, let v = p[property]?.doubleValue, v.isFinite {
                high = max(high, v)
            }
        }
        largest = high > 0 ? high : nil
    }

    private static func value(of feature: Feature, _ property: String) -> JSONValue? {
        guard case .object(let p) = feature.properties else { return nil }
        return p[property]
    }

    /// The key a value of the color property is known by (its type and text), or `nil` for no
    /// value.
    static func key(_ value: JSONValue?) -> String? {
        guard let value, value != .null else { return nil }
        if let s = value.stringValue { return "s" + s }
        if let i = value.intValue { return "n" + String(i) }
        if let d = value.doubleValue { return "n" + String(d) }
        if let b = value.boolValue { return "b" + String(b) }
        return "j"
    }

    /// The legend's text for a value: strings as they are, numbers and booleans as written,
    /// objects and arrays as "other".
    static func label(_ value: JSONValue?) -> String {
        guard let value else { return "" }
        return value.stringValue ?? value.intValue.map { String($0) }
            ?? value.doubleValue.map { String($0) } ?? value.boolValue.map { String($0) }
            ?? "other"
    }

    func style(of feature: Feature, base: FeatureStyle) -> FeatureStyle {
        guard let scale else { return base }
        var style = base
        if let property = scale.sizeProperty {
            // Area proportional to the value: the largest value gets the largest radius, and a
            // circle that would be smaller than the smallest radius (zero, negative or missing
            // values among them) gets that one.
            let r0 = scale.radii.lowerBound, r1 = scale.radii.upperBound
            if let largest, let v = Self.value(of: feature, property)?.doubleValue, v.isFinite,
                v > 0
            {
                style.markerRadius = max(r0, r1 * (v / largest).squareRoot())
            } else {
                style.markerRadius = r0
            }
        }
        if let property = scale.colorProperty {
            if let key = Self.key(Self.value(of: feature, property)) {
                if let color = colors[key] { style.markerColor = color }
            } else {
                style.markerColor = Self.missingColor
            }
        }
        return style
    }

    /// One legend row per value with a color of its own, in the order first seen, and one for
    /// the values drawn in gray.
    func legendEntries(base: FeatureStyle) -> [LegendEntry] {
        var rows = order.map { key in
            var style = base
            style.markerColor = colors[key] ?? base.markerColor
            return LegendEntry(label: labels[key] ?? "", style: style, kind: .point)
        }
        if others > 0 {
            var style = base
            style.markerColor = Self.otherColor
            rows.append(LegendEntry(label: "\(others) other values", style: style, kind: .point))
        }
        if anyMissing, let property = scale?.colorProperty {
            var style = base
            style.markerColor = Self.missingColor
            rows.append(LegendEntry(label: "no \(property)", style: style, kind: .point))
        }
        return rows
    }
}
