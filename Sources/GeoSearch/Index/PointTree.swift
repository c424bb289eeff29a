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

    /// An axis-aligned box in Earth-centered meters, its corners rounded outwards to `Float`, so
    /// it holds the exact positions of its members.
    struct Box: Sendable {
        var lowX, lowY, lowZ, highX, highY, highZ: Float

        init(around p: SIMD3<Double>) {
            (lowX, lowY, lowZ) = (Box.down(p.x), Box.down(p.y), Box.down(p.z))
            (highX, highY, highZ) = (Box.up(p.x), Box.up(p.y), Box.up(p.z))
        }

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
        var earthCentered = [SIMD3<Double>](repeating: .zero, count: n)
        var keys = [UInt64](repeating: 0, count: n)
        earthCentered.withUnsafeMutableBufferPointer { ecef in
            keys.withUnsafeMutableBufferPointer { keys in
                input.withUnsafeBufferPointer { input in
                    guard let ecefBase = ecef.baseAddress, let keyBase = keys.baseAddress else {
                        return
                    }
                    let ecefSlots = WorkerSlots(ecefBase)
                    let keySlots = WorkerSlots(keyBase)
                    let source = SharedView(input)
                    let chunks = n >= 65_536 ? 2 : 1
                    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                        let range = (n * chunk / chunks)..<(n * (chunk + 1) / chunks)
                        for i in range {
                            let p = WGS84.earthCentered(source[i])
                            ecefSlots.base[i] = p
                            keySlots.base[i] = PointTree.curveKey(p)
                        }
                    }
                }
            }
        }
        var order = [UInt32]()
        RadixSort.sort(&keys, order: &order, bits: 0..<35)

        // Distinct positions in curve order; equal coordinates always have equal keys, but equal
        // keys may hold different coordinates, so each run of equal keys is grouped exactly.
        records.reserveCapacity(n)
        coordinates.reserveCapacity(n)
        var runStart = 0
        var run = [Int32]()
        while runStart < n {
            var runEnd = runStart + 1
            while runEnd < n && keys[runEnd] == keys[runStart] { runEnd += 1 }
            if runEnd - runStart == 1 {
                let e = Int(order[runStart])
                appendPosition(earthCentered[e], input[e], members: CollectionOfOne(Int32(e)))
            } else {
                run.removeAll(keepingCapacity: true)
                for i in runStart..<runEnd { run.append(Int32(order[i])) }
                // Stable radix order kept the element indices ascending; group equal coordinates.
                run.sort { a, b in
                    let ca = input[Int(a)], cb = input[Int(b)]
                    if ca.latitude != cb.latitude { return ca.latitude < cb.latitude }
                    if ca.longitude != cb.longitude { return ca.longitude < cb.longitude }
                    return a < b
                }
                var g = 0
                while g < run.count {
                    var h = g + 1
                    let c = input[Int(run[g])]
                    while h < run.count && input[Int(run[h])] == c { h += 1 }
                    appendPosition(earthCentered[Int(run[g])], c, members: run[g..<h])
                    g = h
                }
            }
            runStart = runEnd
        }
        buildBoxes()
    }

    private mutating func appendPosition(
        _ p: SIMD3<Double>, _ c: Coordinate, members group: some Collection<Int32>
    ) {
        var record = Record(x: p.x, y: p.y, z: p.z, element: 0, memberCount: Int32(group.count))
        if group.count == 1, let only = group.first {
            record.element = only
        } else {
            record.element = Int32(members.count)
            members.append(contentsOf: group)
        }
        records.append(record)
        // −0.0 and 0.0 are the same coordinate; keep the first's spelling.
        coordinates.append(c)
    }

    private mutating func buildBoxes() {
        let fanout = Self.fanout
        var count = (self.count + fanout - 1) / fanout
        boxes.reserveCapacity(count + count / (fanout - 1) + 2)
        for leaf in 0..<count {
            var box = Box(around: position(leaf * fanout))
            for i in (leaf * fanout)..<min(self.count, leaf * fanout + fanout) {
                box.formUnion(Box(around: position(i)))
            }
            boxes.append(box)
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

    /// The cube face (0–5) of a direction and the Hilbert index of where it meets the face, as a
    /// 35-bit key.
    static func curveKey(_ p: SIMD3<Double>) -> UInt64 {
        let a = SIMD3(Swift.abs(p.x), Swift.abs(p.y), Swift.abs(p.z))
        let face: UInt64
        let u: Double, v: Double, major: Double
        if a.x >= a.y && a.x >= a.z {
            face = p.x >= 0 ? 0 : 1
            (u, v, major) = (p.y, p.z, a.x)
        } else if a.y >= a.z {
            face = p.y >= 0 ? 2 : 3
            (u, v, major) = (p.z, p.x, a.y)
        } else {
            face = p.z >= 0 ? 4 : 5
            (u, v, major) = (p.x, p.y, a.z)
        }
        guard major > 0 else { return 0 }
        let h = HilbertCurve.index(unitX: (u / major + 1) / 2, unitY: (v / major + 1) / 2)
        return face << 32 | UInt64(h)
    }

}
