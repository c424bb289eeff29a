/// Well-formed UTF-8, as the text readers require it.
package enum UTF8Validation {
    /// The offset of the first byte that does not begin a well-formed UTF-8 sequence (overlong
    /// forms, surrogates and values past U+10FFFF included), or `nil` for UTF-8 text.
    ///
    /// - Complexity: O(n).
    package static func firstInvalidByte(in bytes: ArraySlice<UInt8>) -> Int? {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            // The sequence's length and the range its second byte must be in.
            let (length, second): (Int, ClosedRange<UInt8>)
            switch b {
            case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
            case 0xE0: (length, second) = (3, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
            case 0xED: (length, second) = (3, 0x80...0x9F)
            case 0xF0: (length, second) = (4, 0x90...0xBF)
            case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
            case 0xF4: (length, second) = (4, 0x80...0x8F)
            default: return i - bytes.startIndex
            }
            guard bytes.endIndex - i >= length, second.contains(bytes[i + 1]),
                (2..<length).allSatisfy({ (0x80...0xBF).contains(bytes[i + $0]) })
            else { return i - bytes.startIndex }
            i += length
        }
        return nil
    }

    /// A message naming the bad byte of text that is not UTF-8: "byte 0xE9 at column 4 is not
    /// UTF-8 text" (`place` names where: "at column 4", "at byte 17").
    package static func message(byte: UInt8, place: String) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count < 2 ? "0" : "")\(hex) \(place) is not UTF-8 text"
    }
}
