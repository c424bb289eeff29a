import Foundation

/// The records of one cluster level in level order, as parallel arrays.
struct LevelRecords: Sendable, Equatable {
    /// Entity references.
    var refs: [UInt32] = []
    /// The double coordinates supercluster keeps in the record (float32 values for points).
    var x: [Double] = []
    var y: [Double] = []
    /// The float32 coordinates the level's search tree stores.
    var fx: [Float] = []
    var fy: [Float] = []
    /// Points per record.
    var counts: [UInt32] = []

    var count: Int { refs.count }

    init() {}

    init(reservingCapacity n: Int) {
        refs.reserveCapacity(n)
        x.reserveCapacity(n)
        y.reserveCapacity(n)
        fx.reserveCapacity(n)
        fy.reserveCapacity(n)
        counts.reserveCapacity(n)
    }

    @inline(__always)
    mutating func append(ref: UInt32, x: Double, y: Double, fx: Float, fy: Float, count: UInt32) {
        refs.append(ref)
        self.x.append(x)
        self.y.append(y)
        self.fx.append(fx)
        self.fy.append(fy)
        counts.append(count)
    }

    /// Appends record `i` of another level unchanged.
    @inline(__always)
    mutating func append(_ other: LevelRecords, _ i: Int) {
        append(ref: other.refs[i], x: other.x[i], y: other.y[i], fx: other.fx[i], fy: other.fy[i], count: other.counts[i])
    }
}

/// For every record of a level, the records within the clustering radius of it: exactly the records
/// supercluster's `within(record.x, record.y, r)` returns (minus the record itself), found by a sweep
/// over a grid instead of one tree query per record.
///
/// Records are binned by their float32 coordinates into square cells at least as wide as the radius
/// plus the largest float32 rounding of a record (so a neighbour is never more than one cell away),
/// the cells are radix-sorted row by row, and each cell is paired with itself, its east neighbour and
/// the three cells of the next row, found by pointers that only move forward. Each candidate pair is
/// tested both ways with supercluster's exact test, `(fx_q − x_p)² + (fy_q − y_p)² ≤ r²` in double,
/// which is not symmetric for clusters (double centre, float32 tree copy).
///
/// - Complexity: O(n + m) for m candidate pairs, plus a radix sort of n 64-bit keys.
struct NeighbourTable {
    /// `targets[offsets[p] ..< offsets[p + 1]]` are the neighbours of record `p`, in no particular
    /// order.
    var offsets: [Int32]
    var targets: [UInt32]

    init(level: LevelRecords, radius r: Double) {
        let n = level.count
        offsets = [Int32](repeating: 0, count: n + 1)
        targets = []
        guard n > 1 else { return }

        // Cell size: a power of two no smaller than r plus the largest float32 rounding.
        var rounding = 0.0
        for i in 0..<n {
            rounding = max(rounding, abs(Double(level.fx[i]) - level.x[i]), abs(Double(level.fy[i]) - level.y[i]))
        }
        let reach = r + rounding
        var shift = reach > 0 ? Int((-log2(reach)).rounded(.down)) : 30
        shift = max(-30, min(30, shift))
        // Guard against a rounding of log2 that would make the cell smaller than the reach.
        while shift > -30 && Double(sign: .plus, exponent: -shift, significand: 1) < reach { shift -= 1 }
        let scale = Double(sign: .plus, exponent: shift, significand: 1)

        // Cell coordinates, clamped so that they fit in 31 bits whatever the input.
        var cellX = [Int64](repeating: 0, count: n)
        var cellY = [Int64](repeating: 0, count: n)
        var minX = Int64.max, maxX = Int64.min, minY = Int64.max, maxY = Int64.min
        let limit = Double(1 << 30)
        for i in 0..<n {
            let cx = Int64(max(-limit, min(limit, (Double(level.fx[i]) * scale).rounded(.down))))
            let cy = Int64(max(-limit, min(limit, (Double(level.fy[i]) * scale).rounded(.down))))
            cellX[i] = cx
            cellY[i] = cy
            minX = min(minX, cx)
            maxX = max(maxX, cx)
            minY = min(minY, cy)
            maxY = max(maxY, cy)
        }
        // Key = row << xBits | (column + 1): the +1 and the spare bit keep column ± 1 inside the row.
        let xBits = 64 - UInt64(maxX - minX + 2).leadingZeroBitCount
        let rowStep = UInt64(1) << UInt64(xBits)
        var keys = [UInt64](repeating: 0, count: n)
        for i in 0..<n {
            keys[i] = UInt64(cellY[i] - minY) << UInt64(xBits) | UInt64(cellX[i] - minX + 1)
        }
        let keyBits = xBits + (64 - UInt64(maxY - minY).leadingZeroBitCount)
        var order = [UInt32](repeating: 0, count: n)
        RadixSort.sort(keys: &keys, payload: &order, bits: keyBits)

        // Sweep: candidate pairs (a, b) from a cell and its half neighbourhood.
        let r2 = r * r
        var sources = [UInt32]()
        var destinations = [UInt32]()
        level.x.withUnsafeBufferPointer { x in
            level.y.withUnsafeBufferPointer { y in
                level.fx.withUnsafeBufferPointer { fx in
                    level.fy.withUnsafeBufferPointer { fy in
                        keys.withUnsafeBufferPointer { keys in
                            order.withUnsafeBufferPointer { order in
                                @inline(__always)
                                func test(_ a: Int, _ b: Int) {
                                    var dx = Double(fx[b]) - x[a]
                                    var dy = Double(fy[b]) - y[a]
                                    if dx * dx + dy * dy <= r2 {
                                        sources.append(UInt32(a))
                                        destinations.append(UInt32(b))
                                    }
                                    dx = Double(fx[a]) - x[b]
                                    dy = Double(fy[a]) - y[b]
                                    if dx * dx + dy * dy <= r2 {
                                        sources.append(UInt32(b))
                                        destinations.append(UInt32(a))
                                    }
                                }
                                var start = 0
                                var up = 0  // first entry whose key may be in the next row's window
                                while start < n {
                                    let key = keys[start]
                                    var end = start + 1
                                    while end < n && keys[end] == key { end += 1 }
                                    // Pairs inside the cell.
                                    if end - start > 1 {
                                        for i in start..<(end - 1) {
                                            let a = Int(order[i])
                                            for j in (i + 1)..<end { test(a, Int(order[j])) }
                                        }
                                    }
                                    // The cell to the east: the next run, if its key is key + 1.
                                    if end < n && keys[end] == key + 1 {
                                        var eastEnd = end + 1
                                        while eastEnd < n && keys[eastEnd] == key + 1 { eastEnd += 1 }
                                        for i in start..<end {
                                            let a = Int(order[i])
                                            for j in end..<eastEnd { test(a, Int(order[j])) }
                                        }
                                    }
                                    // The three cells of the next row.
                                    let low = key + rowStep - 1, high = key + rowStep + 1
                                    if up < end { up = end }
                                    while up < n && keys[up] < low { up += 1 }
                                    var j = up
                                    while j < n && keys[j] <= high {
                                        let b = Int(order[j])
                                        for i in start..<end { test(Int(order[i]), b) }
                                        j += 1
                                    }
                                    start = end
                                }
                            }
                        }
                    }
                }
            }
        }

        // Group the pairs by source (counting sort).
        for s in sources { offsets[Int(s) + 1] &+= 1 }
        for i in 0..<n { offsets[i + 1] &+= offsets[i] }
        targets = [UInt32](repeating: 0, count: sources.count)
        var fill = offsets
        for (s, d) in zip(sources, destinations) {
            targets[Int(fill[Int(s)])] = d
            fill[Int(s)] &+= 1
        }
    }
}

/// Least-significant-digit radix sort of 64-bit keys with a payload of original positions.
enum RadixSort {
    /// Sorts `keys` ascending (stable) and sets `payload[i]` to the original position of the i-th key.
    ///
    /// - Parameter bits: How many low bits of the keys can be non-zero.
    static func sort(keys: inout [UInt64], payload: inout [UInt32], bits: Int) {
        let n = keys.count
        payload = (0..<n).map { UInt32($0) }
        guard n > 1, bits > 0 else { return }
        let digitBits = 11
        let passes = (bits + digitBits - 1) / digitBits
        let radix = 1 << digitBits
        let mask = UInt64(radix - 1)
        var counts = [Int](repeating: 0, count: radix * passes)
        for key in keys {
            for pass in 0..<passes {
                counts[pass * radix + Int((key >> UInt64(pass * digitBits)) & mask)] &+= 1
            }
        }
        var scratchKeys = [UInt64](repeating: 0, count: n)
        var scratchPayload = [UInt32](repeating: 0, count: n)
        for pass in 0..<passes {
            let base = pass * radix
            // Skip a pass whose digit is the same for every key.
            if counts[base ..< base + radix].contains(n) { continue }
            var sum = 0
            for d in 0..<radix {
                let c = counts[base + d]
                counts[base + d] = sum
                sum += c
            }
            let shift = UInt64(pass * digitBits)
            keys.withUnsafeBufferPointer { keys in
                payload.withUnsafeBufferPointer { payload in
                    scratchKeys.withUnsafeMutableBufferPointer { outKeys in
                        scratchPayload.withUnsafeMutableBufferPointer { outPayload in
                            counts.withUnsafeMutableBufferPointer { counts in
                                for i in 0..<n {
                                    let key = keys[i]
                                    let d = base + Int((key >> shift) & mask)
                                    let to = counts[d]
                                    counts[d] = to + 1
                                    outKeys[to] = key
                                    outPayload[to] = payload[i]
                                }
                            }
                        }
                    }
                }
            }
            swap(&keys, &scratchKeys)
            swap(&payload, &scratchPayload)
        }
    }
}
