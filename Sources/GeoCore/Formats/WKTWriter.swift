extension Geometry {
    /// The geometry as Well-Known Text, every number in the shortest form that reads back to the same
    /// `Double` (`POINT (1 2.5)`).
    ///
    /// Heights are written (`POINT Z (1 2 3)`) when every position has one; otherwise they are left
    /// out. Multi-points are written with each point in parentheses, as OGC 06-103r4 specifies.
    /// - Complexity: O(n).
    public var wkt: String {
        var writer = WKTWriter(decimals: nil)
        writer.write(self, withZ: hasZ)
        return writer.text
    }

    /// The geometry as WKT with numbers rounded to a number of decimals (trailing zeros removed).
    ///
    /// - Parameter decimals: Decimal places, 0...17; values outside are clamped.
    public func wkt(decimals: Int) -> String {
        var writer = WKTWriter(decimals: max(0, min(17, decimals)))
        writer.write(self, withZ: hasZ)
        return writer.text
    }

    /// Extended WKT: `SRID=n;` followed by ``wkt``.
    public func ewkt(srid: Int32) -> String {
        "SRID=\(srid);" + wkt
    }
}

/// Formats numbers for the text formats (WKT, GeoJSON): integral values without a fraction, others
/// in the shortest round-tripping form.
enum NumberFormat {
    static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 0x1p53 { return String(Int64(value)) }
        return "\(value)"
    }

    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if abs(rounded * scale) >= 0x1p53 { return shortest(value) }
        var text = shortest(rounded)
        // Shortest form may give an exponent for small values; fall back to a plain rendering.
        if text.contains("e") {
            let units = Int64((rounded * scale).rounded())
            let negative = units < 0
            var digits = String(units.magnitude)
            while digits.count <= decimals { digits = "0" + digits }
            let cut = digits.index(digits.endIndex, offsetBy: -decimals)
            var fraction = String(digits[cut...])
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text =
                (negative ? "-" : "") + String(digits[..<cut])
                + (fraction.isEmpty ? "" : "." + fraction)
        }
        return text
    }
}

/// Appends WKT for geometries to a string.
struct WKTWriter {
    let decimals: Int?
    private(set) var text = ""

    init(decimals: Int?) { self.decimals = decimals }

    mutating func write(_ geometry: Geometry, withZ: Bool) {
        text += geometry.type.wktName
        if geometry.isEmpty && !isCollectionWithMembers(geometry) {
            text += " EMPTY"
            return
        }
        text += withZ ? " Z " : " "
        switch geometry {
        case .point(let p):
            if let p { text += "("; position(p, withZ); text += ")" }
        case .lineString(let ps):
            line(ps, withZ)
        case .polygon(let rings):
            writeRings(rings, withZ)
        case .multiPoint(let ps):
            text += "("
            for (i, p) in ps.enumerated() {
                if i > 0 { text += ", " }
                text += "("; position(p, withZ); text += ")"
            }
            text += ")"
        case .multiLineString(let lines):
            writeRings(lines, withZ)
        case .multiPolygon(let polygons):
            text += "("
            for (i, polygon) in polygons.enumerated() {
                if i > 0 { text += ", " }
                if polygon.isEmpty { text += "EMPTY" } else { writeRings(polygon, withZ) }
            }
            text += ")"
        case .geometryCollection(let members):
            text += "("
            for (i, member) in members.enumerated() {
                if i > 0 { text += ", " }
                write(member, withZ: withZ)
            }
            text += ")"
        }
    }

    /// A collection of empty members is written with its members, so it reads back the same.
    private func isCollectionWithMembers(_ geometry: Geometry) -> Bool {
        switch geometry {
        case .geometryCollection(let members): !members.isEmpty
        case .multiLineString(let lines): !lines.isEmpty
        case .multiPolygon(let polygons): !polygons.isEmpty
        case .polygon(let rings): !rings.isEmpty
        default: false
        }
    }

    private mutating func writeRings(_ rings: [[Position]], _ withZ: Bool) {
        text += "("
        for (i, ring) in rings.enumerated() {
            if i > 0 { text += ", " }
            line(ring, withZ)
        }
        text += ")"
    }

    private mutating func line(_ ps: [Position], _ withZ: Bool) {
        if ps.isEmpty {
            text += "EMPTY"
            return
        }
        text += "("
        for (i, p) in ps.enumerated() {
            if i > 0 { text += ", " }
            position(p, withZ)
        }
        text += ")"
    }

    private mutating func position(_ p: Position, _ withZ: Bool) {
        number(p.x)
        text += " "
        number(p.y)
        if withZ, let z = p.z {
            text += " "
            number(z)
        }
    }

    private mutating func number(_ value: Double) {
        if let decimals {
            text += NumberFormat.fixed(value, decimals: decimals)
        } else {
            text += NumberFormat.shortest(value)
        }
    }
}
