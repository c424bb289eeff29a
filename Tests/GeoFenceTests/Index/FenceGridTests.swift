import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import GeoFence

/// The grid behind ``GeofenceIndex``: every fence that contains a point is listed in the point's
/// cell (or kept outside the grid, among the large fences), and every fence a cell lists as
/// interior really contains every point of the cell; columns wrap across the frame's seam.
@Suite("FenceGrid")
struct FenceGridTests {
    @Test(arguments: [false, true])
    func cellsListEveryContainingFence(acrossTheAntimeridian: Bool) throws {
        var rng = SplitMix64(seed: acrossTheAntimeridian ? 8 : 7)
        let centerLongitude = acrossTheAntimeridian ? 180.0 : 8.0
        func longitude(_ offset: Double) -> Double {
            var lon = centerLongitude + offset
            if lon > 180 { lon -= 360 }
            return lon
        }
        var fences = [GeofenceIndex.Fence]()
        for i in 0..<3_000 {
            let center = Coordinate(
                latitude: rng.uniform(45, 46), longitude: longitude(rng.uniform(-0.7, 0.7)))
            let radius = exp(rng.uniform(log(50), log(i % 50 == 0 ? 60_000 : 5_000)))
            fences.append(
                GeofenceIndex.Fence(
                    identifier: "\(i)",
                    condition: .circle(
                        try CircularGeographicCondition(center: center, radius: radius))))
        }
        let index = try GeofenceIndex(fences)
        let grid = index.grid
        #expect(grid.rows > 0 && grid.cols > 0)
        for _ in 0..<800 {
            let p = Coordinate(
                latitude: rng.uniform(44.9, 46.1), longitude: longitude(rng.uniform(-0.8, 0.8)))
            let containing = index.conditions.indices.filter {
                index.conditions[$0].signedDistance(from: p) <= 0
            }
            guard let row = grid.row(of: p.latitude),
                let column = grid.column(ofFrameX: grid.frameX(p.longitude))
            else {
                // Outside the grid only large fences can contain it.
                #expect(containing.allSatisfy { Int(index.slotOfFence[$0]) >= index.gridCount })
                continue
            }
            let cell = row * grid.cols + column
            let listed = Set(
                (Int(grid.cellStart[cell])..<Int(grid.cellStart[cell + 1])).map {
                    Int(index.fenceOfSlot[Int(grid.entries[$0])])
                })
            for fence in containing where Int(index.slotOfFence[fence]) < index.gridCount {
                #expect(listed.contains(fence), "fence \(fence) contains \(p) but is not listed")
            }
            for e in Int(grid.cellStart[cell])..<Int(grid.interiorEnd[cell]) {
                let fence = Int(index.fenceOfSlot[Int(grid.entries[e])])
                #expect(index.conditions[fence].signedDistance(from: p) <= 0)
            }
        }
    }

    @Test func columnsAcrossTheSeam() {
        // A box starting 10° before the frame's end and 20° wide wraps to the first columns.
        let layout = FenceGrid.Layout(
            origin: 0, wraps: true, south: 0, rows: 1, cols: 36, cellHeight: 10, cellWidth: 10)
        let grid = FenceGrid(layout: layout, boxes: []) { _, _, _ in nil }
        #expect(grid.columns(west: 350, span: 20) == [35...35, 0...1])
        #expect(grid.columns(west: 0, span: 360) == [0...35])
        #expect(grid.columns(west: 355, span: 359) == [0...35])
        #expect(FenceGrid.frameX(-10, origin: 170) == 180)
        #expect(FenceGrid.frameX(170, origin: 170) == 0)
        #expect(grid.row(of: .nan) == nil && grid.row(of: -1) == nil && grid.row(of: 5) == 0)
    }
}
