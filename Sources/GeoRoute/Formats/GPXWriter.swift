import Foundation
import GeoCore

extension GPX {
    /// Writes a document as GPX 1.1.
    ///
    /// Points are written with `lat`, `lon`, `<ele>` and `<time>` (in UTC) when they have them, and
    /// the waypoint fields. Numbers are written in
    /// their shortest form that reads back to the same `Double`, so ``read(_:limits:)`` gives back the same
    /// coordinates and altitudes (times to the microsecond). Speed, course and accuracies have no
    /// place in GPX 1.1 and are not written.
    ///
    /// - Parameters:
    ///   - document: What to write.
    ///   - creator: The `creator` attribute when the document has none; "Meridian" by default.
    /// - Returns: The XML text, UTF-8, ending with a newline.
    /// - Throws: `GeoError.Kind.invalidCoordinate` naming the first point whose coordinate is NaN,
    ///   infinite or out of range (GPX cannot carry it).
    /// - Complexity: O(number of points).
    public static func write(
        _ document: GPXDocument, creator: String = "Meridian"
    ) throws(GeoError) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<gpx version=\"1.1\" creator=\"\(escape(document.creator ?? creator))\""
        out += " xmlns=\"http://www.topografix.com/GPX/1/1\""
        out += " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
        out +=
            " xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\">\n"
        if let name = document.name {
            out += "  <metadata>\n    <name>\(escape(name))</name>\n  </metadata>\n"
        }
        for (i, waypoint) in document.waypoints.enumerated() {
            try writePoint(
                "wpt", waypoint.point, waypoint, indent: "  ", into: &out, where: "waypoint \(i)")
        }
        for (r, route) in document.routes.enumerated() {
            out += "  <rte>\n"
            if let name = route.name { out += "    <name>\(escape(name))</name>\n" }
            for (i, point) in route.points.enumerated() {
                try writePoint(
                    "rtept", point.point, point, indent: "    ", into: &out,
                    where: "route \(r) point \(i)")
            }
            out += "  </rte>\n"
        }
        for (t, track) in document.tracks.enumerated() {
            out += "  <trk>\n"
            if let name = track.name { out += "    <name>\(escape(name))</name>\n" }
            for (s, segment) in track.segments.enumerated() {
                out += "    <trkseg>\n"
                for (i, fix) in segment.enumerated() {
                    try writePoint(
                        "trkpt", fix, nil, indent: "      ", into: &out,
                        where: "track \(t) segment \(s) point \(i)")
                }
                out += "    </trkseg>\n"
            }
            out += "  </trk>\n"
        }
        out += "</gpx>\n"
        return out
    }

    /// Writes tracks as a GPX 1.1 document.
    ///
    /// - Throws: `GeoError.Kind.invalidCoordinate` naming the first point with an invalid coordinate.
    public static func write(
        _ tracks: [Track], creator: String = "Meridian"
    ) throws(GeoError) -> String {
        try write(GPXDocument(tracks: tracks), creator: creator)
    }

    private static func writePoint(
        _ element: String, _ point: TrackPoint, _ waypoint: GPXWaypoint?, indent: String,
        into out: inout String,
        where place: @autoclosure () -> String
    ) throws(GeoError) {
        let c = point.coordinate
        guard c.isValid else {
            throw GeoError(
                .invalidCoordinate,
                "\(place()) has coordinate (\(c.latitude), \(c.longitude)), which GPX cannot hold")
        }
        out += "\(indent)<\(element) lat=\"\(decimal(c.latitude))\" lon=\"\(decimal(c.longitude))\""
        var children = ""
        if let elevation = point.elevation, elevation.isFinite {
            children += "\(indent)  <ele>\(decimal(elevation))</ele>\n"
        }
        if let time = point.time {
            children += "\(indent)  <time>\(ISO8601Time.format(time))</time>\n"
        }
        if let waypoint {
            // The order GPX 1.1's wptType requires.
            for (tag, value) in [
                ("name", waypoint.name), ("cmt", waypoint.comment), ("desc", waypoint.description),
                ("sym", waypoint.symbol), ("type", waypoint.type),
            ] {
                if let value { children += "\(indent)  <\(tag)>\(escape(value))</\(tag)>\n" }
            }
        }
        if children.isEmpty {
            out += "/>\n"
        } else {
            out += ">\n" + children + "\(indent)</\(element)>\n"
        }
    }

    /// Text with the five XML special characters escaped, a carriage return written as `&#13;`
    /// (a reader turns a literal one into a line feed, XML 1.0 § 2.11), and the characters XML
    /// 1.0 does not allow at all (control characters other than tab, line feed and carriage
    /// return; U+FFFE and U+FFFF) replaced by U+FFFD, so that the document stays well-formed and
    /// reads back as written.
    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;".unicodeScalars
            case "<": out += "&lt;".unicodeScalars
            case ">": out += "&gt;".unicodeScalars
            case "\"": out += "&quot;".unicodeScalars
            case "'": out += "&apos;".unicodeScalars
            case "\r": out += "&#13;".unicodeScalars
            case "\t", "\n": out.append(scalar)
            default:
                let forbidden =
                    scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF
                out.append(forbidden ? "\u{FFFD}" : scalar)
            }
        }
        return String(out)
    }

    /// The shortest decimal text that reads back to the same `Double`, without an exponent (which
    /// `xsd:decimal` does not allow).
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let shortest = "\(value)"
        guard shortest.contains("e") else {
            return shortest.hasSuffix(".0") ? String(shortest.dropLast(2)) : shortest
        }
        // Enough fractional digits for 17 significant ones, then trailing zeros trimmed.
        let magnitude = abs(value)
        let decimals = magnitude >= 1 ? 1 : min(340, 17 + Int((-log10(magnitude)).rounded(.up)))
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
