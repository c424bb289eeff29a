/// A sorted set kept in pages of at most ``pageCapacity`` elements: inserting or removing costs
/// O(log n + page), and a copy shares every page until one is written, so that a copied set costs
/// O(n / page) on its first write, not O(n).
///
/// The live cluster index keeps its grids in these, so that a snapshot (a copy) is O(1) to take and
/// the writer's next change copies only the pages it touches.
///
/// Every page's buffer holds exactly ``pageCapacity`` elements, whatever it holds now: a page is
/// split before an insert would take it past that, and every write first makes sure its page has
/// a buffer of that size (of its own, when a copy shares it). One size of buffer for every page
/// keeps the memory of an updated set where it was: an array's own growth would double a full
/// page's buffer on its first insert, and a copy made by a removal would be cut to the page's
/// count, to double on the next insert; and buffers of one size that copies let go are reused
/// whole by the next copies. A set of a single page (a small partition's grid) is the
/// exception: its buffer grows by doubling up to the capacity, so that a small set stays small.
struct PagedSet<Element: Comparable & Sendable>: Sendable {
    static var pageCapacity: Int { 256 }

    /// The pages, each sorted and non-empty, in order.
    private(set) var pages: [[Element]] = []
    /// The first element of each page.
    private var firsts: [Element] = []
    /// The number of elements.
    private(set) var count = 0

    /// An empty set.
    init() {}

    /// A set of sorted, distinct elements, in pages at most fifteen sixteenths full (so that a
    /// page takes 16 inserts before it splits), all of nearly one size.
    init(sorted elements: [Element]) {
        let size = Self.pageCapacity * 15 / 16
        if !elements.isEmpty && elements.count <= size {
            pages = [elements]  // a single page, as large as it is
            firsts = [elements[0]]
            count = elements.count
            return
        }
        let pageCount = (elements.count + size - 1) / size
        pages.reserveCapacity(pageCount)
        firsts.reserveCapacity(pageCount)
        for i in 0..<pageCount {
            let start = elements.count * i / pageCount
            let end = elements.count * (i + 1) / pageCount
            pages.append(Self.page(elements[start..<end]))
            firsts.append(elements[start])
        }
        count = elements.count
    }

    /// A page buffer of the full capacity holding `elements`.
    private static func page(_ elements: ArraySlice<Element>) -> [Element] {
        var page = [Element]()
        page.reserveCapacity(pageCapacity)
        page.append(contentsOf: elements)
        return page
    }

    /// Makes page `p`'s buffer its own and of the full capacity before a write, or, for a set of
    /// one page, at least one larger than its count (doubling, up to the capacity).
    @inline(__always)
    private mutating func prepare(page p: Int) {
        guard pages.count == 1 else {
            pages[p].reserveCapacity(Self.pageCapacity)
            return
        }
        let count = pages[p].count
        if pages[p].capacity <= count {
            pages[p].reserveCapacity(min(Self.pageCapacity, max(4, 2 * count)))
        }
    }

    /// The page an element belongs in: the last page whose first element is not above it (0 when
    /// it is below every page). Branch-free: the comparisons go to conditional moves.
    private func page(for element: Element) -> Int {
        firsts.withUnsafeBufferPointer { f in
            var base = 0, n = f.count
            while n > 1 {
                let half = n >> 1
                base = f[base + half] <= element ? base + half : base
                n -= half
            }
            return base
        }
    }

    /// The position of the first element of a page not below `element` (branch-free).
    private static func lowerBound(_ element: Element, in page: [Element]) -> Int {
        page.withUnsafeBufferPointer { p in
            var base = 0, n = p.count
            guard n > 0 else { return 0 }
            while n > 1 {
                let half = n >> 1
                base = p[base + half - 1] < element ? base + half : base
                n -= half
            }
            return p[base] < element ? base + 1 : base
        }
    }

    /// Inserts an element; returns `false` (and changes nothing) when it is already there.
    @discardableResult
    mutating func insert(_ element: Element) -> Bool {
        guard !pages.isEmpty else {
            pages = [[element]]
            firsts = [element]
            count = 1
            return true
        }
        var p = page(for: element)
        var at = Self.lowerBound(element, in: pages[p])
        if at < pages[p].count && pages[p][at] == element { return false }
        if pages[p].count == Self.pageCapacity {
            // Full: split it in halves first, so that no buffer grows past the capacity.
            let half = Self.pageCapacity / 2
            let upper = Self.page(pages[p][half...])
            prepare(page: p)
            pages[p].removeLast(half)
            pages.insert(upper, at: p + 1)
            firsts.insert(upper[0], at: p + 1)
            if at > half {
                p += 1
                at -= half
            }
        }
        prepare(page: p)
        pages[p].insert(element, at: at)
        count += 1
        if at == 0 { firsts[p] = element }
        return true
    }

    /// Removes an element; returns `false` when it is not there.
    @discardableResult
    mutating func remove(_ element: Element) -> Bool {
        guard !pages.isEmpty else { return false }
        let p = page(for: element)
        let at = Self.lowerBound(element, in: pages[p])
        guard at < pages[p].count && pages[p][at] == element else { return false }
        count -= 1
        if pages[p].count == 1 {
            pages.remove(at: p)
            firsts.remove(at: p)
            return true
        }
        prepare(page: p)
        pages[p].remove(at: at)
        if at == 0 { firsts[p] = pages[p][0] }
        if pages[p].count < Self.pageCapacity / 4 && pages.count > 1 { rebalance(p) }
        return true
    }

    /// Keeps every page of a set of several at least a quarter full: a page that fell below
    /// merges with its neighbour (the next one, or the one before the last page) when both fit
    /// in one, and otherwise takes entries from it until the two are even (at least 128 each,
    /// since the neighbour holds more than three quarters then).
    private mutating func rebalance(_ p: Int) {
        let (a, b) = p + 1 < pages.count ? (p, p + 1) : (p - 1, p)
        prepare(page: a)
        if pages[a].count + pages[b].count <= Self.pageCapacity {
            let next = pages.remove(at: b)
            firsts.remove(at: b)
            pages[a].append(contentsOf: next)
            return
        }
        prepare(page: b)
        let keep = (pages[a].count + pages[b].count) / 2
        if pages[a].count < keep {
            let n = keep - pages[a].count
            pages[a].append(contentsOf: pages[b][..<n])
            pages[b].removeFirst(n)
        } else {
            let n = pages[a].count - keep
            pages[b].insert(contentsOf: pages[a][(pages[a].count - n)...], at: 0)
            pages[a].removeLast(n)
        }
        firsts[b] = pages[b][0]
    }

    /// Calls `body` with each element from the first not below `start`, in order, until `body`
    /// returns `false`.
    func forEach(from start: Element, _ body: (Element) -> Bool) {
        guard !pages.isEmpty else { return }
        var p = page(for: start)
        var at = Self.lowerBound(start, in: pages[p])
        while p < pages.count {
            let page = pages[p]
            while at < page.count {
                if !body(page[at]) { return }
                at += 1
            }
            p += 1
            at = 0
        }
    }

    /// The first element not below `start`, if any.
    func first(from start: Element) -> Element? {
        var result: Element?
        forEach(from: start) {
            result = $0
            return false
        }
        return result
    }
}

/// An array indexed from 0 kept in chunks of 1024: a copy shares every chunk until one is written,
/// so that the first write to a copy costs O(n / 1024), not O(n).
@usableFromInline
struct ChunkedArray<Element: Sendable>: Sendable {
    @usableFromInline var chunks: [[Element]] = []
    /// The number of elements.
    @usableFromInline private(set) var count = 0

    /// Appends an element.
    mutating func append(_ element: Element) {
        if count & 1023 == 0 {
            var chunk = [Element]()
            chunk.reserveCapacity(1024)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// The element at a position in `0..<count`.
    @inlinable
    subscript(i: Int) -> Element {
        get { chunks[i >> 10][i & 1023] }
        _modify { yield &chunks[i >> 10][i & 1023] }
    }
}
