import Foundation

/// One record of a cluster level (supercluster's stride-6 record, less the zoom and parent slots,
/// which the greedy pass keeps elsewhere).
struct LevelRecord: Sendable, Equatable {
    /// The double coordinates supercluster keeps in the record (float32 values for points).
    var x: Double
    var y: Double
    /// The entity reference.
    var ref: UInt32
    /// Points in the record.
    var count: UInt32

    /// The float32 coordinates the level's search tree stores (exactly `x`, `y` for points).
    @inline(__always) var fx: Float { Float(x) }
    @inline(__always) var fy: Float { Float(y) }
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

    init(level: [LevelRecord], radius r: Double) {
        let n = level.count
        offsets = [Int32](repeating: 0, count: n + 1)
        targets = []
        guard n > 1 else { return }
        var keys = [UInt64](repeating: 0, count: n)
        var keyBits = 0
        var rowStep: UInt64 = 0
        level.withUnsafeBufferPointer { level in
            keys.withUnsafeMutableBufferPointer { keys in
                (keyBits, rowStep) = NeighbourTable.cellKeys(level, reach: r, into: keys)
            }
        }
        var order = [UInt32](repeating: 0, count: n)
        RadixSort.sort(keys: &keys, payload: &order, bits: keyBits)
        var pairs = [(UInt32, UInt32)]()
        level.withUnsafeBufferPointer { level in
            keys.withUnsafeBufferPointer { keys in
                order.withUnsafeBufferPointer { order in
                    pairs = NeighbourTable.sweep(level, keys: keys, order: order, rowStep: rowStep, radius: r)
                }
            }
        }
        // Group the pairs by source (counting sort).
        var targets = [UInt32](repeating: 0, count: pairs.count)
        offsets.withUnsafeMutableBufferPointer { offsets in
            for (s, _) in pairs { offsets[Int(s) + 1] &+= 1 }
            for i in 0..<n { offsets[i + 1] &+= offsets[i] }
            var fill = [Int32](offsets[0..<n])
            targets.withUnsafeMutableBufferPointer { targets in
                for (s, d) in pairs {
                    targets[Int(fill[Int(s)])] = d
                    fill[Int(s)] &+= 1
                }
            }
        }
        self.targets = targets
    }

    /// Row-major cell keys of the records; returns the number of key bits and the key step of one row.
    private static func cellKeys(
        _ level: UnsafeBufferPointer<LevelRecord>, reach r: Double, into keys: UnsafeMutableBufferPointer<UInt64>
    ) -> (Int, UInt64) {
        let n = level.count
        // Cell size: a power of two no smaller than r plus the largest float32 rounding.
        var rounding = 0.0
        for record in level {
            rounding = max(rounding, abs(Double(record.fx) - record.x), abs(Double(record.fy) - record.y))
        }
        let reach = r + rounding
        var shift = reach > 0 && reach.isFinite ? Int(max(-40, min(40, (-log2(reach)).rounded(.down)))) : 30
        shift = max(-30, min(30, shift))
        // Guard against a rounding of log2 that would make the cell smaller than the reach.
        while shift > -30 && Double(sign: .plus, exponent: -shift, significand: 1) < reach { shift -= 1 }
        let scale = Double(sign: .plus, exponent: shift, significand: 1)
        // Cell coordinates, clamped so that they fit in 31 bits whatever the input.
        let limit = Double(1 << 30)
        var minX = Int64.max, maxX = Int64.min, minY = Int64.max, maxY = Int64.min
        for i in 0..<n {
            let cx = Int64(max(-limit, min(limit, (Double(level[i].fx) * scale).rounded(.down))))
            let cy = Int64(max(-limit, min(limit, (Double(level[i].fy) * scale).rounded(.down))))
            minX = min(minX, cx)
            maxX = max(maxX, cx)
            minY = min(minY, cy)
            maxY = max(maxY, cy)
            // Stash the cells; the key needs the minima first.
            keys[i] = UInt64(UInt32(truncatingIfNeeded: cx + (1 << 31))) << 32 | UInt64(UInt32(truncatingIfNeeded: cy + (1 << 31)))
        }
        // Key = row << xBits | (column + 1): the +1 and the spare bit keep column ± 1 inside the row.
        let xBits = 64 - UInt64(maxX - minX + 2).leadingZeroBitCount
        let yBits = 64 - UInt64(maxY - minY).leadingZeroBitCount
        let offsetX = UInt64(minX + (1 << 31)), offsetY = UInt64(minY + (1 << 31))
        for i in 0..<n {
            let cx = keys[i] >> 32, cy = keys[i] & 0xFFFF_FFFF
            keys[i] = (cy &- offsetY) << UInt64(xBits) | (cx &- offsetX &+ 1)
        }
        return (xBits + yBits, UInt64(1) << UInt64(xBits))
    }

    /// Candidate pairs from each cell and its half neighbourhood (itself, east, and the three cells of
    /// the next row), tested both ways.
    private static func sweep(
        _ level: UnsafeBufferPointer<LevelRecord>, keys: UnsafeBufferPointer<UInt64>,
        order: UnsafeBufferPointer<UInt32>, rowStep: UInt64, radius r: Double
    ) -> [(UInt32, UInt32)] {
        let n = level.count
        let r2 = r * r
        var pairs = [(UInt32, UInt32)]()
        // The records in cell order, so that the sweep reads memory in order.
        let sorted = order.map { level[Int($0)] }
        @inline(__always)
        func test(_ i: Int, _ j: Int) {
            let p = sorted[i], q = sorted[j]
            var dx = Double(q.fx) - p.x
            var dy = Double(q.fy) - p.y
            if dx * dx + dy * dy <= r2 { pairs.append((order[i], order[j])) }
            dx = Double(p.fx) - q.x
            dy = Double(p.fy) - q.y
            if dx * dx + dy * dy <= r2 { pairs.append((order[j], order[i])) }
        }
        var start = 0
        var up = 0  // the first entry whose key may lie in the next row's window
        while start < n {
            let key = keys[start]
            var end = start + 1
            while end < n && keys[end] == key { end += 1 }
            // Pairs inside the cell.
            if end - start > 1 {
                for i in start..<(end - 1) {
                    for j in (i + 1)..<end { test(i, j) }
                }
            }
            // The cell to the east: the next run, if its key is key + 1.
            if end < n && keys[end] == key + 1 {
                var eastEnd = end + 1
                while eastEnd < n && keys[eastEnd] == key + 1 { eastEnd += 1 }
                for i in start..<end {
                    for j in end..<eastEnd { test(i, j) }
                }
            }
            // The three cells of the next row.
            let low = key + rowStep - 1, high = key + rowStep + 1
            if up < end { up = end }
            while up < n && keys[up] < low { up += 1 }
            var j = up
            while j < n && keys[j] <= high {
                for i in start..<end { test(i, j) }
                j += 1
            }
            start = end
        }
        return pairs
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
