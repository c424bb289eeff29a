import Foundation

/// How names and queries are compared: the words of a text, folded so that case and diacritics do
/// not matter.
///
/// Exactly:
/// 1. The text is decomposed canonically (NFD), and combining marks (Unicode category Mn) are
///    dropped: "Zürich" → "Zurich", "Škoda" → "Skoda", "Ḩalab" → "Halab".
/// 2. Every letter is mapped to lowercase (full Unicode mapping, one letter at a time), and the
///    letters that have no decomposition are spelled as their base letters: ß → ss, æ → ae,
///    œ → oe, ø → o, ł → l, đ → d, ð → d, þ → th, ħ → h, ı → i; and Greek's final sigma as
///    sigma, ς → σ, so that "ΛΕΜΕΣΟΣ" matches "Λεμεσός".
/// 3. Words are the maximal runs of characters with Unicode's Alphabetic property (letters, and
///    also what the property counts with them: the spacing vowel signs of Indic scripts, as in
///    "दिल्ली", and circled letters such as Ⓐ) or a numeric type (digits, and also fractions
///    and Roman numerals); everything else (spaces, hyphens, apostrophes, periods, commas)
///    separates words: "Saint-Étienne" has the words "saint" and "etienne", "L'Aquila" has "l"
///    and "aquila".
///
/// A name matches a query when every query word is the beginning of some word of the name.
public enum SearchFolding {
    /// The folded words of a text.
    ///
    /// - Complexity: O(n) in the length of the text.
    public static func words(_ text: String) -> [String] {
        var words = [String]()
        var current = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            let properties = scalar.properties
            if properties.generalCategory == .nonspacingMark { continue }
            if properties.isAlphabetic || properties.numericType != nil {
                if let spelled = baseSpelling(scalar) {
                    current.append(contentsOf: spelled.unicodeScalars)
                } else if properties.changesWhenLowercased {
                    current.append(contentsOf: properties.lowercaseMapping.unicodeScalars)
                } else {
                    current.append(scalar)
                }
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    private static func baseSpelling(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "ß", "ẞ": "ss"
        case "æ", "Æ": "ae"
        case "œ", "Œ": "oe"
        case "ø", "Ø": "o"
        case "ł", "Ł": "l"
        case "đ", "Đ", "ð", "Ð": "d"
        case "þ", "Þ": "th"
        case "ħ", "Ħ": "h"
        case "ı": "i"
        case "ς": "σ"
        default: nil
        }
    }
}
