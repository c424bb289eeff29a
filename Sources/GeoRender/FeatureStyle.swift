import GeoCore

/// How a feature is drawn: the simplestyle convention that geojson.io and GitHub use, read from the
/// feature's properties, over a layer's defaults.
///
/// | property | meaning | default |
/// |---|---|---|
/// | `marker-color` | fill of a point's circle | the layer's color |
/// | `marker-size` | `small`, `medium` or `large`: radius 4, 6 or 9 points | `medium` |
/// | `stroke` | line and outline color | the layer's color |
/// | `stroke-width` | points | 2 |
/// | `stroke-opacity` | 0–1 | 1 |
/// | `fill` | polygon fill | the layer's color |
/// | `fill-opacity` | 0–1 | 0.3 |
/// | `title` | the tooltip and the legend's label | none |
///
/// Colors are those SVG 1.1 takes (`#rrggbb`, `#rgb`, its 147 names, and `none` for a stroke or
/// fill); `#rrggbbaa` and `#rgba` give their color without the alpha; anything else is ignored.
public struct FeatureStyle: Hashable, Sendable {
    /// A point's fill.
    public var markerColor: String
    /// A point's radius in points.
    public var markerRadius: Double
    /// Line and outline color.
    public var stroke: String
    /// Line width in points.
    public var strokeWidth: Double
    /// Line opacity, 0–1.
    public var strokeOpacity: Double
    /// Polygon fill.
    public var fill: String
    /// Polygon fill opacity, 0–1.
    public var fillOpacity: Double

    /// A style of one color.
    public init(color: String = "#1f77b4") {
        markerColor = color
        markerRadius = 6
        stroke = color
        strokeWidth = 2
        strokeOpacity = 1
        fill = color
        fillOpacity = 0.3
    }

    /// A style with every field given.
    public init(
        markerColor: String, markerRadius: Double, stroke: String, strokeWidth: Double,
        strokeOpacity: Double, fill: String, fillOpacity: Double
    ) {
        self.markerColor = markerColor
        self.markerRadius = markerRadius
        self.stroke = stroke
        self.strokeWidth = strokeWidth
        self.strokeOpacity = strokeOpacity
        self.fill = fill
        self.fillOpacity = fillOpacity
    }

    /// This style with a feature's simplestyle properties applied.
    public func applying(_ properties: JSONValue) -> FeatureStyle {
        guard case .object(let p) = properties else { return self }
        var style = self
        if let c = FeatureStyle.color(p["marker-color"]) { style.markerColor = c }
        switch p["marker-size"]?.stringValue {
        case "small": style.markerRadius = 4
        case "medium": style.markerRadius = 6
        case "large": style.markerRadius = 9
        default: break
        }
        if let c = FeatureStyle.color(p["stroke"], orNone: true) { style.stroke = c }
        if let w = p["stroke-width"]?.doubleValue, w.isFinite, w >= 0 {
            style.strokeWidth = min(w, 100)
        }
        if let o = p["stroke-opacity"]?.doubleValue, o.isFinite {
            style.strokeOpacity = max(0, min(1, o))
        }
        if let c = FeatureStyle.color(p["fill"], orNone: true) { style.fill = c }
        if let o = p["fill-opacity"]?.doubleValue, o.isFinite {
            style.fillOpacity = max(0, min(1, o))
        }
        return style
    }

    /// A color value SVG 1.1 takes: `#` and 3 or 6 hex digits, or one of its 147 color names (any
    /// case), or `none` where `orNone` (a stroke or fill left out). `#rgba` and `#rrggbbaa` give
    /// their color without the alpha, which SVG 1.1 has no way to write in a color.
    static func color(_ value: JSONValue?, orNone: Bool = false) -> String? {
        guard let text = value?.stringValue, !text.isEmpty, text.utf8.count <= 32 else {
            return nil
        }
        if text.hasPrefix("#") {
            let digits = text.dropFirst()
            guard [3, 4, 6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) else {
                return nil
            }
            return digits.count == 4 || digits.count == 8
                ? String(text.dropLast(digits.count / 4)) : text
        }
        let name = text.lowercased()
        return colorNames.contains(name) || (orNone && name == "none") ? name : nil
    }

    /// The color keywords of SVG 1.1 (section 4.4), which are CSS's.
    static let colorNames: Set<String> = [
        "aliceblue", "antiquewhite", "aqua", "aquamarine", "azure", "beige", "bisque", "black",
        "blanchedalmond", "blue", "blueviolet", "brown", "burlywood", "cadetblue", "chartreuse",
        "chocolate", "coral", "cornflowerblue", "cornsilk", "crimson", "cyan", "darkblue",
        "darkcyan", "darkgoldenrod", "darkgray", "darkgreen", "darkgrey", "darkkhaki",
        "darkmagenta", "darkolivegreen", "darkorange", "darkorchid", "darkred", "darksalmon",
        "darkseagreen", "darkslateblue", "darkslategray", "darkslategrey", "darkturquoise",
        "darkviolet", "deeppink", "deepskyblue", "dimgray", "dimgrey", "dodgerblue", "firebrick",
        "floralwhite", "forestgreen", "fuchsia", "gainsboro", "ghostwhite", "gold", "goldenrod",
        "gray", "grey", "green", "greenyellow", "honeydew", "hotpink", "indianred", "indigo",
        "ivory", "khaki", "lavender", "lavenderblush", "lawngreen", "lemonchiffon", "lightblue",
        "lightcoral", "lightcyan", "lightgoldenrodyellow", "lightgray", "lightgreen", "lightgrey",
        "lightpink", "lightsalmon", "lightseagreen", "lightskyblue", "lightslategray",
        "lightslategrey", "lightsteelblue", "lightyellow", "lime", "limegreen", "linen",
        "magenta", "maroon", "mediumaquamarine", "mediumblue", "mediumorchid", "mediumpurple",
        "mediumseagreen", "mediumslateblue", "mediumspringgreen", "mediumturquoise",
        "mediumvioletred", "midnightblue", "mintcream", "mistyrose", "moccasin", "navajowhite",
        "navy", "oldlace", "olive", "olivedrab", "orange", "orangered", "orchid",
        "palegoldenrod", "palegreen", "paleturquoise", "palevioletred", "papayawhip",
        "peachpuff", "peru", "pink", "plum", "powderblue", "purple", "red", "rosybrown",
        "royalblue", "saddlebrown", "salmon", "sandybrown", "seagreen", "seashell", "sienna",
        "silver", "skyblue", "slateblue", "slategray", "slategrey", "snow", "springgreen",
        "steelblue", "tan", "teal", "thistle", "tomato", "turquoise", "violet", "wheat", "white",
        "whitesmoke", "yellow", "yellowgreen",
    ]

    /// The palette layers take their colors from, in order (colorblind-friendly, after Okabe–Ito).
    public static let palette = [
        "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#000000",
    ]
}
