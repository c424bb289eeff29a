/// A binary min-heap: the smallest element first, ties in any order. The one heap the feature
/// modules share (Visvalingam–Whyatt's areas, the live clustering engine's serials).
package struct MinHeap<Element: Comparable> {
    @usableFromInline var items: [Element] = []

    /// An empty heap.
    package init() {}

    /// Whether the heap is empty.
    @inlinable
    package var isEmpty: Bool { items.isEmpty }

    /// Adds an element.
    /// - Complexity: O(log n).
    @inlinable
    package mutating func push(_ element: Element) {
        items.append(element)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i] < items[parent] else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    /// Removes and returns the smallest element, `nil` when the heap is empty.
    /// - Complexity: O(log n).
    @inlinable
    package mutating func pop() -> Element? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return last }
        let top = items[0]
        items[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var smallest = i
            if l < items.count && items[l] < items[smallest] { smallest = l }
            if r < items.count && items[r] < items[smallest] { smallest = r }
            if smallest == i { break }
            items.swapAt(i, smallest)
            i = smallest
        }
        return top
    }
}
