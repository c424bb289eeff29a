/// Writes ``JSONValue``s as compact JSON text with a stable member order: GeoJSON's `type` first, then
/// the GeoJSON members in their usual order, then all other members sorted by name. Numbers use the
/// shortest text that reads back to the same `Double`.
struct JSONWriter {
    private(set) var text = ""

    /// GeoJSON members in the order they are conventionally written.
    private static let leadingKeys = [
        "type", "id", "bbox", "coordinates", "geometries", "geometry", "properties", "features",
    ]

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: text += "null"
        case .bool(let b): text += b ? "true" : "false"
        case .integer(let i): text += String(i)
        case .number(let d):
            // A whole number stays a non-integer number when read back (`1.0`, not `1`).
            if !d.isFinite {
                text += "null"
            } else if d == d.rounded() && abs(d) < 0x1p53 {
                text += NumberFormat.shortest(d) + ".0"
            } else {
                text += NumberFormat.shortest(d)
            }
        case .string(let s): string(s)
        case .array(let items):
            text += "["
            for (i, item) in items.enumerated() {
                if i > 0 { text += "," }
                write(item)
            }
            text += "]"
        case .object(let members):
            text += "{"
            var first = true
            for key in Self.orderedKeys(members) {
                guard let member = members[key] else { continue }
                if !first { text += "," }
                first = false
                string(key)
                text += ":"
                write(member)
            }
            text += "}"
        }
    }

    static func orderedKeys(_ members: [String: JSONValue]) -> [String] {
        let leading = leadingKeys.filter { members[$0] != nil }
        let rest = members.keys.filter { !leadingKeys.contains($0) }.sorted()
        return leading + rest
    }

    private mutating func string(_ s: String) {
        text += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
