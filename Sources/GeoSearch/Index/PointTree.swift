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
    static let fanout = 16

    /// Earth-centered positions (meters), in curve order.
    var positions: [SIMD3<Double>] = []
    /// The coordinate of each position.
    var coordinates: [Coordinate] = []
    /// `memberStart[i]..<memberStart[i + 1]` are position i's members in `members`.
    var memberStart: [Int32] = [0]
    /// Element indices, ascending within each position.
    var members: [Int32] = []
    /// Boxes of every level, leaves' boxes (over positions) first; the root is the last box.
    var boxes: [Box] = []
    /// Where each level starts in `boxes`, plus the end.
    var levelStart: [Int] = [0]

    /// An axis-aligned box in Earth-centered meters.
    struct Box: Sendable {
        var low: SIMD3<Double>
        var high: SIMD3<Double>

        /// The squared distance from `p` to the box (0 inside).
        @inline(__always)
        func distanceSquared(to p: SIMD3<Double>) -> Double {
            let below = low - p
            let above = p - high
            let gap = pointwiseMax(pointwiseMax(below, above), .zero)
            return (gap * gap).sum()
        }

        /// Whether the box meets another.
        @inline(__always)
        func intersects(_ other: Box) -> Bool {
            all(low .<= other.high) && all(other.low .<= high)
        }
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
        positions.reserveCapacity(n)
        coordinates.reserveCapacity(n)
        memberStart.reserveCapacity(n + 1)
        members.reserveCapacity(n)
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
        positions.append(p)
        // −0.0 and 0.0 are the same coordinate; keep the first's spelling.
        coordinates.append(c)
        members.append(contentsOf: group)
        memberStart.append(Int32(members.count))
    }

    private mutating func buildBoxes() {
        let fanout = Self.fanout
        var count = (positions.count + fanout - 1) / fanout
        boxes.reserveCapacity(count + count / (fanout - 1) + 2)
        for leaf in 0..<count {
            var box = Box(low: positions[leaf * fanout], high: positions[leaf * fanout])
            for i in (leaf * fanout)..<min(positions.count, leaf * fanout + fanout) {
                box.low = pointwiseMin(box.low, positions[i])
                box.high = pointwiseMax(box.high, positions[i])
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
                    box.low = pointwiseMin(box.low, boxes[below + child].low)
                    box.high = pointwiseMax(box.high, boxes[below + child].high)
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

    /// The members of position `i`.
    @inline(__always)
    func memberRange(_ i: Int) -> Range<Int> {
        Int(memberStart[i])..<Int(memberStart[i + 1])
    }
}
