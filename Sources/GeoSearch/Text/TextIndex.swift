import Foundation
import GeoCore

/// The text half of a place index: every folded word of every name (``SearchFolding``), sorted, so
/// that the places with a word starting with a prefix are one binary search away.
struct TextIndex: Sendable {
    /// How well a name matches a query, best first.
    enum Quality: Int, Sendable, Comparable {
        /// The name's words are the query's words.
        case exact = 0
        /// The name starts with the query: its first words are the query's, the last one begun.
        case prefix = 1
        /// Every query word begins some word of the name.
        case words = 2

        static func < (a: Quality, b: Quality) -> Bool { a.rawValue < b.rawValue }
    }

    /// The folded words' UTF-8 bytes, back to back.
    private var bytes: [UInt8] = []
    /// Word w is `bytes[wordStart[w] ..< wordStart[w + 1]]`.
    private var wordStart: [Int32] = [0]
    /// Place p's words, in name order, are `placeWordStart[p] ..< placeWordStart[p + 1]`.
    private(set) var placeWordStart: [Int32] = [0]
    /// The place each word belongs to.
    private(set) var wordPlace: [Int32] = []
    /// Word ids sorted by their bytes (then by id, so by place).
    private(set) var sorted: [Int32] = []
    /// Each place's name as given.
    let names: [String]
    /// Each place's Earth-centered position (meters), for ranking by distance.
    let positions: [SIMD3<Double>]
    /// Each place's name group: places whose folded names are equal share a number.
    private(set) var groups: [Int32] = []
    /// How many places each name group has. A query matches a name by its words alone, so it
    /// matches every place of a group or none.
    private(set) var groupSizes: [Int32] = []

    /// The most query words considered; further words are ignored.
    static let maximumQueryWords = 16

    init(_ names: [String], coordinates: [Coordinate]) {
        self.names = names
        self.positions = coordinates.map { WGS84.earthCentered($0) }
        groups.reserveCapacity(names.count)
        var groupOf = [String: Int32]()
        for (p, name) in names.enumerated() {
            let words = SearchFolding.words(name)
            for word in words {
                bytes.append(contentsOf: word.utf8)
                wordStart.append(Int32(truncatingIfNeeded: bytes.count))
                wordPlace.append(Int32(p))
            }
            placeWordStart.append(Int32(wordPlace.count))
            let folded = words.joined(separator: " ")
            if let g = groupOf[folded] {
                groups.append(g)
                groupSizes[Int(g)] += 1
            } else {
                let g = Int32(groupOf.count)
                groupOf[folded] = g
                groups.append(g)
                groupSizes.append(1)
            }
        }
        var order = [Int32](0..<Int32(wordPlace.count))
        bytes.withUnsafeBufferPointer { bytes in
            let starts = wordStart
            order.sort { a, b in
                let c = Self.compare(bytes, starts, Int(a), Int(b))
                return c < 0 || (c == 0 && a < b)
            }
        }
        sorted = order
    }

    private static func compare(
        _ bytes: UnsafeBufferPointer<UInt8>, _ starts: [Int32], _ a: Int, _ b: Int
    ) -> Int {
        let sa = Int(starts[a]), ea = Int(starts[a + 1])
        let sb = Int(starts[b]), eb = Int(starts[b + 1])
        let n = min(ea - sa, eb - sb)
        for i in 0..<n where bytes[sa + i] != bytes[sb + i] {
            return bytes[sa + i] < bytes[sb + i] ? -1 : 1
        }
        return (ea - sa) - (eb - sb)
    }

    /// Calls `body` once for every place whose name matches the query (each query word begins a
    /// word of the name), with how well it matches.
    ///
    /// - Complexity: O(m · w) for the m places that have a word beginning with the query's most
    ///   selective word, and w words per name; O(log W) to find them among W words.
    func forEachMatch(_ query: String, _ body: (Int, Quality) -> Void) {
        bytes.withUnsafeBufferPointer { bytes in
            wordStart.withUnsafeBufferPointer { wordStart in
                Matcher(bytes: bytes, wordStart: wordStart).forEachMatch(query, in: self, body)
            }
        }
    }

    /// The scan of ``forEachMatch(_:_:)`` over the raw buffers.
    private struct Matcher {
        let bytes: UnsafeBufferPointer<UInt8>
        let wordStart: UnsafeBufferPointer<Int32>

        /// Compares word `w` cut to the prefix's length with the prefix: <0, 0 (w begins with
        /// it), >0.
        @inline(__always)
        func comparePrefix(_ w: Int, _ prefix: [UInt8]) -> Int {
            let s = Int(wordStart[w]), e = Int(wordStart[w + 1])
            let n = min(e - s, prefix.count)
            for i in 0..<n where bytes[s + i] != prefix[i] {
                return bytes[s + i] < prefix[i] ? -1 : 1
            }
            return e - s < prefix.count ? -1 : 0
        }

        func wordEquals(_ w: Int, _ query: [UInt8]) -> Bool {
            Int(wordStart[w + 1] - wordStart[w]) == query.count && comparePrefix(w, query) == 0
        }

        func forEachMatch(_ query: String, in index: TextIndex, _ body: (Int, Quality) -> Void) {
            let sorted = index.sorted, wordPlace = index.wordPlace
            let placeWordStart = index.placeWordStart
            func range(of prefix: [UInt8]) -> Range<Int> {
                var low = 0, high = sorted.count
                while low < high {
                    let mid = (low + high) / 2
                    if comparePrefix(Int(sorted[mid]), prefix) < 0 {
                        low = mid + 1
                    } else {
                        high = mid
                    }
                }
                let first = low
                high = sorted.count
                while low < high {
                    let mid = (low + high) / 2
                    if comparePrefix(Int(sorted[mid]), prefix) <= 0 {
                        low = mid + 1
                    } else {
                        high = mid
                    }
                }
                return first..<low
            }
            let words = SearchFolding.words(query).prefix(TextIndex.maximumQueryWords).map {
                Array($0.utf8)
            }
            guard !words.isEmpty else { return }
            var chosen = 0
            var chosenRange = range(of: words[0])
            for j in 1..<words.count {
                let r = range(of: words[j])
                if r.count < chosenRange.count {
                    chosen = j
                    chosenRange = r
                }
            }
            for entry in chosenRange {
                let w = Int(sorted[entry])
                let p = Int(wordPlace[w])
                let first = Int(placeWordStart[p]), end = Int(placeWordStart[p + 1])
                // Only the name's first word that begins with the chosen query word reports it.
                var earlier = false
                for v in first..<w where comparePrefix(v, words[chosen]) == 0 {
                    earlier = true
                    break
                }
                if earlier { continue }
                var all = true
                for (j, q) in words.enumerated() where j != chosen {
                    var found = false
                    for v in first..<end where comparePrefix(v, q) == 0 {
                        found = true
                        break
                    }
                    if !found {
                        all = false
                        break
                    }
                }
                guard all else { continue }
                var quality = Quality.words
                if end - first >= words.count {
                    var leading = true
                    for (j, q) in words.enumerated() {
                        let v = first + j
                        let ok = j == words.count - 1 ? comparePrefix(v, q) == 0 : wordEquals(v, q)
                        if !ok {
                            leading = false
                            break
                        }
                    }
                    if leading {
                        quality =
                            end - first == words.count
                                && wordEquals(end - 1, words[words.count - 1])
                            ? .exact : .prefix
                    }
                }
                body(p, quality)
            }
        }
    }

}
