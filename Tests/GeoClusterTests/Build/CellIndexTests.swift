import GeoCore
import GeoTestSupport
import Testing

@testable import GeoCluster

/// Moving the cell index to the next zoom in place gives the order a stable sort by the new cells
/// gives: the survivors in their old order, then the new clusters in level order, within a cell.
@Suite("Cell index")
struct CellIndexTests {
    /// Records of points (their float32 coordinates are their centers) on a few rows, so that rows
    /// are long and pairs of rows merge, with repeated positions.
    static func level(_ n: Int, rows: Int, rng: inout SplitMix64) -> [LevelRecord] {
        (0..<n).map { i in
            let row = Float(rng.next() % UInt64(rows)) / 4096 + 0.25
            let x: Float = i % 7 == 0 ? 0.5 : Float(rng.uniform(0.2, 0.3))
            return LevelRecord(fx: x, fy: row, ref: UInt32(i), count: 1)
        }
    }

    /// The cell key of a record at a scale: row << 32 | (column + 2³¹).
    static func key(_ e: CellEntry, scale: Double) -> Int64 {
        Int64((Double(e.fy) * scale).rounded(.down)) << 32
            | (Int64((Double(e.fx) * scale).rounded(.down)) + (1 << 31))
    }

    @Test(arguments: [
        (n: 3000, rows: 40, dropped: 0.0, clusters: 0, shrinking: false),
        (n: 3000, rows: 40, dropped: 0.0, clusters: 500, shrinking: false),
        (n: 3000, rows: 3, dropped: 0.1, clusters: 1500, shrinking: false),
        (n: 3000, rows: 40, dropped: 0.9, clusters: 200, shrinking: false),
        (n: 3000, rows: 1, dropped: 0.5, clusters: 1, shrinking: false),
        (n: 3000, rows: 200, dropped: 1.0, clusters: 700, shrinking: false),
        (n: 1, rows: 1, dropped: 0.0, clusters: 1, shrinking: false),
        // The entries moved to buffers of the new level's size first.
        (n: 3000, rows: 40, dropped: 0.6, clusters: 600, shrinking: true),
        (n: 3000, rows: 2, dropped: 0.5, clusters: 1400, shrinking: true),
        (n: 3000, rows: 200, dropped: 1.0, clusters: 700, shrinking: true),
    ])
    func advanceEqualsAStableSort(
        n: Int, rows: Int, dropped: Double, clusters: Int, shrinking: Bool
    ) {
        var rng = SplitMix64(seed: UInt64(n * 31 + rows * 7 + clusters) &+ UInt64(dropped * 10))
        let old = Self.level(n, rows: rows, rng: &rng)
        let inputCount = n + clusters
        let centers = RecordCenters(
            inputCount: inputCount, x: SharedView(UnsafeBufferPointer(start: nil, count: 0)),
            y: SharedView(UnsafeBufferPointer(start: nil, count: 0)))
        let radius = 1.0 / 4096
        var index = CellIndex(level: old, radius: radius, centers: centers)
        let before = index.entries
        // Drop a share of the records, keep the rest in a shuffled new level, and add clusters
        // (records with fresh points' refs, so their centers are their float32 coordinates).
        var newPosition = [UInt32](repeating: .max, count: n)
        var level = [LevelRecord]()
        for p in (0..<n).shuffled(using: &rng) where rng.uniform(0, 1) >= dropped {
            newPosition[p] = UInt32(level.count)
            level.append(old[p])
        }
        var added = [UInt32]()
        for (i, record) in Self.level(clusters, rows: rows, rng: &rng).enumerated() {
            let at = Int(rng.next() % UInt64(level.count + 1))
            for p in newPosition.indices where newPosition[p] != .max && newPosition[p] >= at {
                newPosition[p] += 1
            }
            for j in added.indices where added[j] >= at { added[j] += 1 }
            level.insert(
                LevelRecord(fx: record.fx, fy: record.fy, ref: UInt32(n + i), count: 2), at: at)
            added.append(UInt32(at))
        }
        let shift = index.shift
        index.advance(
            to: level, newPosition: newPosition, clusters: added.sorted(), radius: 2 * radius,
            centers: centers, shrinking: shrinking)
        #expect(index.shift == shift - 1)
        let scale = Double(sign: .plus, exponent: index.shift, significand: 1)
        let survivors = before.compactMap { e -> CellEntry? in
            let p = newPosition[Int(e.position)]
            return p == .max ? nil : CellEntry(fx: e.fx, fy: e.fy, flaggedPosition: p)
        }
        let clustersInOrder = added.sorted().map { p in
            CellEntry(level[Int(p)], position: p, centers: centers)
        }
        let expected = (survivors + clustersInOrder).enumerated()
            .sorted {
                let (a, b) = (
                    Self.key($0.element, scale: scale), Self.key($1.element, scale: scale)
                )
                return a != b ? a < b : $0.offset < $1.offset
            }
            .map(\.element)
        #expect(index.entries == expected)
        #expect(index.keys == expected.map { Self.key($0, scale: scale) })
        #expect(index.entries.count == level.count)
        if shrinking {
            // Moved to buffers of the new level's size, not kept in the old level's.
            #expect(index.entries.capacity < n && index.keys.capacity < n)
        }
    }
}
