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

    /// One word in sorted order with everything a match needs to rank its place: the scan of a
    /// prefix's words reads consecutive entries (one cache line each) and nothing else.
    struct Entry: Sendable {
        /// The place's Earth-centered position (meters).
        var x, y, z: Double
        /// The place's coordinate, for the region test.
        var latitude, longitude: Double
        /// The word's id.
        var word: Int32
        /// The place it belongs to.
        var place: Int32
        /// The place's name group: places whose folded names are equal share a number.
        var group: Int32
        /// The longest common prefix (UTF-8 bytes, at most 65,535) of the word and any earlier word
        /// of the same name: a query word of at most that many bytes that begins this word begins
        /// an earlier one too, which reports the place instead.
        var shared: UInt16
        /// The word's length in bytes (at most 65,535) when it is the name's only word, else 0.
        var onlyLength: UInt16
        /// Whether it is the name's first word.
        var isFirst: Bool
    }

    /// The folded words' UTF-8 bytes, back to back.
    private var bytes: [UInt8] = []
    /// Word w is `bytes[wordStart[w] ..< wordStart[w + 1]]`.
    private var wordStart: [Int32] = [0]
    /// Place p's words, in name order, are `placeWordStart[p] ..< placeWordStart[p + 1]`.
    private(set) var placeWordStart: [Int32] = [0]
    /// The words sorted by their bytes (then by id, so by place).
    private(set) var entries: [Entry] = []
    /// Each place's name as given.
    let names: [String]
    /// How many places each name group has. A query matches a name by its words alone, so it
    /// matches every place of a group or none.
    private(set) var groupSizes: [Int32] = []

    /// The most query words considered; further words are ignored.
    static let maximumQueryWords = 16

    /// - Complexity: O(b log b) for b bytes of names (the words' sort).
    init(_ names: [String], coordinates: [Coordinate]) {
        self.names = names
        var wordPlace = [Int32]()
        var groups = [Int32]()
        groups.reserveCapacity(names.count)
        var shared = [UInt16]()
        var groupOf = [String: Int32]()
        for (p, name) in names.enumerated() {
            let words = SearchFolding.words(name)
            let first = bytes.count
            for word in words {
                bytes.append(contentsOf: word.utf8)
                wordStart.append(Int32(truncatingIfNeeded: bytes.count))
                wordPlace.append(Int32(p))
            }
            shared.append(contentsOf: Self.sharedWithEarlier(words, bytes: bytes[first...]))
            placeWordStart.append(Int32(wordPlace.count))
            let folded = words.joined(separator: " ")
            let group: Int32
            if let g = groupOf[folded] {
                group = g
                groupSizes[Int(g)] += 1
            } else {
                group = Int32(groupOf.count)
                groupOf[folded] = group
                groupSizes.append(1)
            }
            groups.append(group)
        }
        var order = [Int32](0..<Int32(wordPlace.count))
        bytes.withUnsafeBufferPointer { bytes in
            let starts = wordStart
            order.sort { a, b in
                let c = Self.compare(bytes, starts, Int(a), Int(b))
                return c < 0 || (c == 0 && a < b)
            }
        }
        entries = order.map { w in
            let w = Int(w), p = Int(wordPlace[w])
            let first = Int(placeWordStart[p]), end = Int(placeWordStart[p + 1])
            let length = Int(wordStart[w + 1] - wordStart[w])
            let c = coordinates[p], position = WGS84.earthCentered(c)
            return Entry(
                x: position.x, y: position.y, z: position.z, latitude: c.latitude,
                longitude: c.longitude, word: Int32(w), place: Int32(p), group: groups[p],
                shared: shared[w],
                onlyLength: end - first == 1 ? UInt16(min(length, Int(UInt16.max))) : 0,
                isFirst: w == first)
        }
    }

    /// For each word of a name, the longest common prefix with any earlier word of the name
    /// (capped at 65,535 bytes).
    ///
    /// The words are sorted; the earlier word sharing most with a word is, in that order, the
    /// nearest earlier one on its left or on its right (a common prefix only shrinks with sorted
    /// distance), found for all words with a stack, as in the "previous smaller element" problem.
    ///
    /// - Complexity: O(b log k) for a name of k words and b bytes.
    static func sharedWithEarlier(_ words: [String], bytes: ArraySlice<UInt8>) -> [UInt16] {
        let k = words.count
        guard k > 1 else { return [UInt16](repeating: 0, count: k) }
        var start = [Int](), offset = bytes.startIndex
        for word in words {
            start.append(offset)
            offset += word.utf8.count
        }
        start.append(offset)
        func common(_ a: Int, _ b: Int) -> Int {
            let sa = start[a], sb = start[b]
            let n = min(start[a + 1] - sa, start[b + 1] - sb)
            var i = 0
            while i < n && bytes[sa + i] == bytes[sb + i] { i += 1 }
            return i
        }
        let sorted = (0..<k).sorted { a, b in
            let n = common(a, b)
            let la = start[a + 1] - start[a], lb = start[b + 1] - start[b]
            if n < la && n < lb { return bytes[start[a] + n] < bytes[start[b] + n] }
            return la != lb ? la < lb : a < b
        }
        // adjacent[t]: common prefix of sorted[t - 1] and sorted[t].
        var adjacent = [Int](repeating: 0, count: k)
        for t in 1..<k { adjacent[t] = common(sorted[t - 1], sorted[t]) }
        var best = [Int](repeating: 0, count: k)
        // One pass from the left, one from the right: the stack holds positions whose words come
        // earlier in the name than every later position on it, each with the smallest adjacent
        // prefix between it and the position below it. `link(t)` is the prefix that position t
        // shares with the position visited before it.
        var stack = [(word: Int, link: Int)]()
        func pass(_ positions: some Sequence<Int>, link: (Int) -> Int) {
            stack.removeAll(keepingCapacity: true)
            for t in positions {
                var run = link(t)
                while let top = stack.last, top.word > sorted[t] {
                    run = min(run, top.link)
                    stack.removeLast()
                }
                if !stack.isEmpty { best[sorted[t]] = max(best[sorted[t]], run) }
                stack.append((sorted[t], run))
            }
        }
        pass(0..<k) { t in t > 0 ? adjacent[t] : 0 }
        pass(stride(from: k - 1, through: 0, by: -1)) { t in t < k - 1 ? adjacent[t + 1] : 0 }
        return best.map { UInt16(min($0, Int(UInt16.max))) }
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
    /// word of the name), with one of its word entries (for its place, position and group) and
    /// how well it matches.
    ///
    /// - Complexity: O(m) for a one-word query and O(m · w) otherwise, for the m words (of all
    ///   names) that begin with the query's most selective word and w words per name; O(log W) to
    ///   find them among W words. A one-word query reads only those m sorted entries.
    func forEachMatch(_ query: String, _ body: (Entry, Quality) -> Void) {
        bytes.withUnsafeBufferPointer { bytes in
            wordStart.withUnsafeBufferPointer { wordStart in
                entries.withUnsafeBufferPointer { entries in
                    Matcher(bytes: bytes, wordStart: wordStart, entries: entries)
                        .forEachMatch(query, in: self, body)
                }
            }
        }
    }

    /// The scan of ``forEachMatch(_:_:)`` over the raw buffers.
    private struct Matcher {
        let bytes: UnsafeBufferPointer<UInt8>
        let wordStart: UnsafeBufferPointer<Int32>
        let entries: UnsafeBufferPointer<Entry>

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

        /// The entries whose words begin with `prefix`.
        func range(of prefix: [UInt8]) -> Range<Int> {
            var low = 0, high = entries.count
            while low < high {
                let mid = (low + high) / 2
                if comparePrefix(Int(entries[mid].word), prefix) < 0 {
                    low = mid + 1
                } else {
                    high = mid
                }
            }
            let first = low
            high = entries.count
            while low < high {
                let mid = (low + high) / 2
                if comparePrefix(Int(entries[mid].word), prefix) <= 0 {
                    low = mid + 1
                } else {
                    high = mid
                }
            }
            return first..<low
        }

        func forEachMatch(_ query: String, in index: TextIndex, _ body: (Entry, Quality) -> Void) {
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
            // `shared` and `onlyLength` hold lengths below 65,535 exactly.
            let key = words[chosen].count
            let known = key < Int(UInt16.max)
            if words.count == 1 && known {
                // The place's rank is in the entry: the earliest word of the name that begins with
                // the query reports it, and whether that is the name's first (or only) word
                // decides the match.
                for entry in chosenRange {
                    let e = entries[entry]
                    if Int(e.shared) >= key { continue }
                    let quality: Quality =
                        e.isFirst ? (Int(e.onlyLength) == key ? .exact : .prefix) : .words
                    body(e, quality)
                }
                return
            }
            let placeWordStart = index.placeWordStart
            for entry in chosenRange {
                let w = Int(entries[entry].word)
                let p = Int(entries[entry].place)
                let first = Int(placeWordStart[p]), end = Int(placeWordStart[p + 1])
                // Only the name's first word that begins with the chosen query word reports it.
                if known {
                    if Int(entries[entry].shared) >= key { continue }
                } else if (first..<w).contains(where: { comparePrefix($0, words[chosen]) == 0 }) {
                    continue
                }
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
                body(entries[entry], quality)
            }
        }
    }

}
