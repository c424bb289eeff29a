import Foundation
import GeoCore

/// The spatial half of a place index: the distinct positions of the places on the ellipsoid, in
/// Earth-centered coordinates, sorted along a space-filling curve and grouped under a static tree of
/// bounding boxes.
///
/// - Positions are keyed by the face of the cube around the Earth that their direction hits and the
///   Hilbert index of where it hits (as S2 cells are), so neighbors on the globe are neighbors in
///   memory everywhere, across the 180th meridian and around the poles too.
/// - Places at exactly the same coordinate share one position, whose members are listed in
///   ascending element order: a pile of a million duplicates is one entry, so queries stay
///   logarithmic on it, and ties between equally distant places go to the lower element index.
/// - Boxes are axis-aligned in Earth-centered meters, `fanout` children each; the point-to-box
///   distance is a lower bound of the chord to any member, and the chord of the geodesic.
@usableFromInline
struct PointTree: Sendable {
    /// Children per box.
    static let fanout = 32

    /// One distinct position: where it is and who is there, 32 bytes, so a leaf's 16 records
    /// share one memory page.
    struct Record: Sendable {
        /// Earth-centered meters.
        var x, y, z: Double
        /// The element at the position when ``memberCount`` is 1; otherwise where its members
        /// start in ``PointTree/members``.
        var element: Int32
        /// How many elements are at the position.
        var memberCount: Int32

        @inline(__always)
        var position: SIMD3<Double> { SIMD3(x, y, z) }
    }

    /// The distinct positions, in curve order.
    var records: [Record] = []
    /// The coordinate of each position.
    var coordinates: [Coordinate] = []
    /// The element indices of positions shared by several elements, ascending within each.
    var members: [Int32] = []
    /// Boxes of every level, leaves' boxes (over positions) first; the root is the last box.
    var boxes: [Box] = []
    /// Where each level starts in `boxes`, plus the end.
    var levelStart: [Int] = [0]
    /// The positions of each cell of the cube faces, for nearest queries that start where they
    /// are (`nil` for small sets).
    var grid: CellGrid?

    /// An axis-aligned box in Earth-centered meters, its corners rounded outwards to `Float`, so
    /// it holds the exact positions of its members.
    struct Box: Sendable {
        var lowX, lowY, lowZ, highX, highY, highZ: Float

        init(low: SIMD3<Double>, high: SIMD3<Double>) {
            (lowX, lowY, lowZ) = (Box.down(low.x), Box.down(low.y), Box.down(low.z))
            (highX, highY, highZ) = (Box.up(high.x), Box.up(high.y), Box.up(high.z))
        }

        static func down(_ v: Double) -> Float {
            let f = Float(v)
            return Double(f) > v ? f.nextDown : f
        }

        static func up(_ v: Double) -> Float {
            let f = Float(v)
            return Double(f) < v ? f.nextUp : f
        }

        mutating func formUnion(_ other: Box) {
            lowX = min(lowX, other.lowX)
            lowY = min(lowY, other.lowY)
            lowZ = min(lowZ, other.lowZ)
            highX = max(highX, other.highX)
            highY = max(highY, other.highY)
            highZ = max(highZ, other.highZ)
        }

        /// The squared distance from `p` to the box (0 inside): a lower bound of the squared
        /// chord from `p` to any member.
        @inline(__always)
        func distanceSquared(to p: SIMD3<Double>) -> Double {
            // Scalar code: the generic SIMD pointwiseMax is not specialized across modules.
            let gx = Swift.max(Double(lowX) - p.x, p.x - Double(highX), 0)
            let gy = Swift.max(Double(lowY) - p.y, p.y - Double(highY), 0)
            let gz = Swift.max(Double(lowZ) - p.z, p.z - Double(highZ), 0)
            return gx * gx + gy * gy + gz * gz
        }

        /// Whether the box meets the box [low, high].
        @inline(__always)
        func intersects(low: SIMD3<Double>, high: SIMD3<Double>) -> Bool {
            Double(lowX) <= high.x && Double(lowY) <= high.y && Double(lowZ) <= high.z
                && low.x <= Double(highX) && low.y <= Double(highY) && low.z <= Double(highZ)
        }
    }

    /// The number of distinct positions.
    var count: Int { records.count }

    /// The Earth-centered position i.
    @inline(__always)
    func position(_ i: Int) -> SIMD3<Double> { records[i].position }

    /// Calls `body` with the elements at a position in ascending order until it returns false.
    @inline(__always)
    func forEachMember(of record: Record, _ body: (Int32) -> Bool) {
        if record.memberCount == 1 {
            _ = body(record.element)
            return
        }
        let start = Int(record.element)
        for m in start..<(start + Int(record.memberCount)) where !body(members[m]) { return }
    }

    /// The number of levels of boxes.
    var levelCount: Int { levelStart.count - 1 }

    /// Builds the tree over coordinates that are already valid.
    ///
    /// - Complexity: O(n) time (a radix sort) and memory.
    init(_ input: [Coordinate]) {
        let n = input.count
        guard n > 0 else { return }
        // Each element's record in input order (its position, itself as its only member), and
        // its key, on two threads for large inputs. A key is the curve key above the element's
        // index, so one array of 64-bit words sorts; beyond 2²⁹ elements the curve's finest
        // levels give way to the index's bits.
        let (indexBits, curveBits) = Self.keyLayout(count: n)
        let dropped = UInt64(Self.curveKeyBits - curveBits), shift = UInt64(indexBits)
        var unsorted = [Record]()
        var keys = [UInt64]()
        input.withUnsafeBufferPointer { input in
            let source = SharedView(input)
            let chunks = Self.chunkCount(n)
            unsorted = [Record](unsafeUninitializedCapacity: n) { records, initialized in
                keys = [UInt64](unsafeUninitializedCapacity: n) { keyBuffer, keysInitialized in
                    guard let recordBase = records.baseAddress, let keyBase = keyBuffer.baseAddress
                    else { return }
                    defer { (initialized, keysInitialized) = (n, n) }
                    // Tens of MB written once: faulted in 2 MB at a time where Linux allows.
                    HugePages.advise(recordBase, count: 0, capacity: n)
                    HugePages.advise(keyBase, count: 0, capacity: n)
                    let recordSlots = WorkerSlots(recordBase)
                    let keySlots = WorkerSlots(keyBase)
                    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                        // The view's buffer, read directly: its generic subscript is not
                        // specialized across modules.
                        let input = source.buffer
                        for i in (n * chunk / chunks)..<(n * (chunk + 1) / chunks) {
                            let p = WGS84.earthCentered(input[i])
                            (recordSlots.base + i).initialize(
                                to: Record(
                                    x: p.x, y: p.y, z: p.z, element: Int32(truncatingIfNeeded: i),
                                    memberCount: 1))
                            (keySlots.base + i).initialize(
                                to: (PointTree.curveKey(p) >> dropped) << shift | UInt64(i))
                        }
                    }
                }
            }
        }
        RadixSort.sort(
            &keys, bits: indexBits..<(indexBits + curveBits), parts: Self.chunkCount(n))

        // Distinct positions in curve order: every element gathered as a position of its own
        // (on two threads), then each run of equal keys grouped exactly, since equal coordinates
        // always have equal keys but equal keys may hold different coordinates.
        (records, coordinates) = Self.gather(unsorted, input, keys, indexBits: indexBits)
        groupEqualCoordinates(keys, indexBits: indexBits)
        buildBoxes()
        grid = CellGrid(records)
    }

    /// The parts a pass over n elements is split into for the threads: two from 65,536 elements.
    private static func chunkCount(_ n: Int) -> Int { n >= 65_536 ? 2 : 1 }

    /// The records and coordinates of the elements in the order of their sorted keys (each
    /// element's index in the keys' low `indexBits`), one position per element, gathered on two
    /// threads for large inputs.
    private static func gather(
        _ unsorted: [Record], _ input: [Coordinate], _ order: [UInt64], indexBits: Int
    ) -> ([Record], [Coordinate]) {
        let n = order.count
        let mask = UInt64.max >> UInt64(UInt64.bitWidth - indexBits)
        let chunks = Self.chunkCount(n)
        var coordinates = [Coordinate]()
        let records = unsorted.withUnsafeBufferPointer { unsorted in
            input.withUnsafeBufferPointer { input in
                order.withUnsafeBufferPointer { order in
                    let (from, at, sorted) = (
                        SharedView(unsorted), SharedView(input), SharedView(order)
                    )
                    return [Record](unsafeUninitializedCapacity: n) { records, initialized in
                        coordinates = [Coordinate](unsafeUninitializedCapacity: n) {
                            coordinateBuffer, coordinatesInitialized in
                            guard let recordBase = records.baseAddress,
                                let coordinateBase = coordinateBuffer.baseAddress
                            else { return }
                            defer { (initialized, coordinatesInitialized) = (n, n) }
                            HugePages.advise(recordBase, count: 0, capacity: n)
                            HugePages.advise(coordinateBase, count: 0, capacity: n)
                            let recordSlots = WorkerSlots(recordBase)
                            let coordinateSlots = WorkerSlots(coordinateBase)
                            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                                let (from, at, sorted) = (from.buffer, at.buffer, sorted.buffer)
                                for i in (n * chunk / chunks)..<(n * (chunk + 1) / chunks) {
                                    let e = Int(sorted[i] & mask)
                                    (recordSlots.base + i).initialize(to: from[e])
                                    (coordinateSlots.base + i).initialize(to: at[e])
                                }
                            }
                        }
                    }
                }
            }
        }
        return (records, coordinates)
    }

    /// Sorts each run of equal keys by coordinate and element, and merges the elements at one
    /// coordinate into one position with its members ascending, moving later positions down.
    private mutating func groupEqualCoordinates(_ keys: [UInt64], indexBits: Int) {
        let n = records.count
        let shift = UInt64(indexBits)
        // Moved out of `self` while they are rewritten, so that no copy is made.
        var records = [Record](), coordinates = [Coordinate](), members = [Int32]()
        swap(&records, &self.records)
        swap(&coordinates, &self.coordinates)
        swap(&members, &self.members)
        let kept = keys.withUnsafeBufferPointer { keys in
            records.withUnsafeMutableBufferPointer { records in
                coordinates.withUnsafeMutableBufferPointer { coordinates in
                    var w = 0
                    var i = 0
                    while i < n {
                        let key = keys[i] >> shift
                        var j = i + 1
                        while j < n && keys[j] >> shift == key { j += 1 }
                        if j - i == 1 {
                            if w < i {
                                records[w] = records[i]
                                coordinates[w] = coordinates[i]
                            }
                            w += 1
                            i = j
                            continue
                        }
                        // Stable radix order kept the element indices ascending; sort by
                        // coordinate.
                        var run = (i..<j).map { (records[$0], coordinates[$0]) }
                        run.sort { a, b in
                            if a.1.latitude != b.1.latitude { return a.1.latitude < b.1.latitude }
                            if a.1.longitude != b.1.longitude {
                                return a.1.longitude < b.1.longitude
                            }
                            return a.0.element < b.0.element
                        }
                        var g = 0
                        while g < run.count {
                            var h = g + 1
                            while h < run.count && run[h].1 == run[g].1 { h += 1 }
                            var record = run[g].0
                            if h - g > 1 {
                                record.element = Int32(members.count)
                                record.memberCount = Int32(h - g)
                                for m in g..<h { members.append(run[m].0.element) }
                            }
                            records[w] = record
                            // −0.0 and 0.0 are the same coordinate; keep the first's spelling.
                            coordinates[w] = run[g].1
                            w += 1
                            g = h
                        }
                        i = j
                    }
                    return w
                }
            }
        }
        records.removeSubrange(kept...)
        coordinates.removeSubrange(kept...)
        (self.records, self.coordinates, self.members) = (records, coordinates, members)
    }

    private mutating func buildBoxes() {
        let fanout = Self.fanout
        var count = (self.count + fanout - 1) / fanout
        // Rounding outwards is monotone, so rounding the leaf's extremes once gives the union of
        // its positions' rounded boxes. The leaves on two threads for large inputs.
        let leaves = count
        let parts = Self.chunkCount(self.count)
        boxes = records.withUnsafeBufferPointer { records in
            let source = SharedView(records)
            return [Box](unsafeUninitializedCapacity: leaves + leaves / (fanout - 1) + 2) {
                buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                let slots = WorkerSlots(base)
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    let records = source.buffer
                    for leaf in (leaves * part / parts)..<(leaves * (part + 1) / parts) {
                        let first = records[leaf * fanout]
                        var (lowX, lowY, lowZ) = (first.x, first.y, first.z)
                        var (highX, highY, highZ) = (first.x, first.y, first.z)
                        for r in leaf * fanout..<min(records.count, leaf * fanout + fanout) {
                            let r = records[r]
                            (lowX, lowY, lowZ) = (min(lowX, r.x), min(lowY, r.y), min(lowZ, r.z))
                            (highX, highY, highZ) = (
                                max(highX, r.x), max(highY, r.y), max(highZ, r.z)
                            )
                        }
                        (slots.base + leaf).initialize(
                            to: Box(low: SIMD3(lowX, lowY, lowZ), high: SIMD3(highX, highY, highZ)))
                    }
                }
                initialized = leaves
            }
        }
        levelStart.append(boxes.count)
        while count > 1 {
            let below = levelStart[levelStart.count - 2]
            let belowCount = count
            count = (belowCount + fanout - 1) / fanout
            for node in 0..<count {
                var box = boxes[below + node * fanout]
                for child in (node * fanout)..<min(belowCount, node * fanout + fanout) {
                    box.formUnion(boxes[below + child])
                }
                boxes.append(box)
            }
            levelStart.append(boxes.count)
        }
    }

    /// How a sort key of `count` (≥ 1) elements splits its 64 bits: the element's index in the
    /// low `indexBits`, the top `curveBits` of ``curveKey(_:)`` above them (all 35 up to 2²⁹
    /// elements).
    static func keyLayout(count: Int) -> (indexBits: Int, curveBits: Int) {
        let indexBits = Swift.max(1, UInt64.bitWidth - UInt64(count - 1).leadingZeroBitCount)
        return (indexBits, Swift.min(curveKeyBits, UInt64.bitWidth - indexBits))
    }

    /// The bits of ``curveKey(_:)``.
    static let curveKeyBits = 35

    /// The cube face (0–5) of a direction and the Hilbert index of where it meets the face, as a
    /// 35-bit key.
    static func curveKey(_ p: SIMD3<Double>) -> UInt64 {
        let (face, u, v, major) = faceCoordinates(p)
        guard major > 0 else { return 0 }
        let h = HilbertCurve.index(unitX: (u / major + 1) / 2, unitY: (v / major + 1) / 2)
        return UInt64(face) << 32 | UInt64(h)
    }

    /// The cube face (0–5) a direction hits (+x, −x, +y, −y, +z, −z; ties to the earlier axis),
    /// and its two other coordinates u, v and the absolute value of its own, `major`: it meets the
    /// face at (u / major, v / major) ∈ [−1, 1]².
    @inline(__always)
    static func faceCoordinates(
        _ p: SIMD3<Double>
    ) -> (
        face: Int, u: Double, v: Double, major: Double
    ) {
        let a = SIMD3(Swift.abs(p.x), Swift.abs(p.y), Swift.abs(p.z))
        if a.x >= a.y && a.x >= a.z { return (p.x >= 0 ? 0 : 1, p.y, p.z, a.x) }
        if a.y >= a.z { return (p.y >= 0 ? 2 : 3, p.z, p.x, a.y) }
        return (p.z >= 0 ? 4 : 5, p.x, p.y, a.z)
    }

}
