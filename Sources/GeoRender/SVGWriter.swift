import Foundation

/// The bytes of an SVG document as it is written: elements, attributes and numbers appended to one
/// buffer, text escaped for XML.
struct SVGWriter {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(1 << 16)
    }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Text content or an attribute value, escaped for XML; control characters (which XML 1.0 does
    /// not allow) become spaces.
    mutating func text(_ value: String) {
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": raw("&amp;")
            case "<": raw("&lt;")
            case ">": raw("&gt;")
            case "\"": raw("&quot;")
            case "'": raw("&apos;")
            case "\t", "\n", "\r": bytes.append(UInt8(ascii: " "))
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value)
                    || (0xD800...0xDFFF).contains(scalar.value)
                {
                    bytes.append(UInt8(ascii: " "))
                } else {
                    bytes.append(contentsOf: String(Character(scalar)).utf8)
                }
            }
        }
    }

    /// A number with at most two decimals (a hundredth of a view point), without trailing zeros;
    /// non-finite values are written as 0.
    mutating func number(_ value: Double) {
        guard value.isFinite, abs(value) < 1e15 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var hundredths = Int64((value * 100).rounded())
        if hundredths < 0 {
            bytes.append(UInt8(ascii: "-"))
            hundredths = -hundredths
        }
        let whole = hundredths / 100, fraction = Int(hundredths % 100)
        integer(whole)
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10))
            if fraction % 10 != 0 { bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
        }
    }

    private mutating func integer(_ value: Int64) {
        guard value >= 10 else {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        integer(value / 10)
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// ` name="value"` with the value escaped.
    mutating func attribute(_ name: String, _ value: String) {
        raw(" \(name)=\"")
        text(value)
        raw("\"")
    }

    /// ` name="number"`.
    mutating func attribute(_ name: String, _ value: Double) {
        raw(" \(name)=\"")
        number(value)
        raw("\"")
    }

    /// The document as text.
    var string: String { String(decoding: bytes, as: UTF8.self) }
}
