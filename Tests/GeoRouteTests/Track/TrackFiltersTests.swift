import Foundation
import GeoCore
import Testing

@testable import GeoRoute

@Suite("Track filters")
struct TrackFiltersTests {
    private func fix(_ lon: Double, _ t: Double, accuracy: Double = 5) -> Location {
        Location(
            coordinate: Coordinate(latitude: 0, longitude: lon), horizontalAccuracy: accuracy,
            timestamp: Date(timeIntervalSince1970: t))
    }

    @Test func accuracy() throws {
        let track = Track(locations: [
            fix(0, 0), fix(0.001, 1, accuracy: 80), fix(0.002, 2, accuracy: -1), fix(0.003, 3),
        ])
        let kept = try track.filtered(by: [.horizontalAccuracy(maximum: 50)])
        #expect(kept.points.map(\.coordinate.longitude) == [0, 0.003])
    }

    @Test func stalenessAndDuplicates() throws {
        let track = Track(locations: [
            fix(0, 10), fix(0.001, 20), fix(0.0005, 5), fix(0.002, 18), fix(0.003, 30),
            fix(0.004, 30),
        ])
        #expect(
            try track.filtered(by: [.staleness(maximumAge: 0)]).points.compactMap(
                \.time?.timeIntervalSince1970) == [10, 20, 30, 30])
        #expect(try track.filtered(by: [.staleness(maximumAge: 5)]).points.count == 5)
        #expect(
            try track.filtered(by: [.staleness(maximumAge: 0), .duplicateTimestamps]).points
                .compactMap(\.time?.timeIntervalSince1970) == [10, 20, 30])
    }

    /// A single bad fix 1 km off a walk at 1.1 m/s is dropped; a genuine jump (the walk goes on from
    /// the new place) is kept; a first and a last bad fix are dropped.
    @Test func speedOutliers() throws {
        let step = 0.00001  // about 1.1 m of longitude at the equator
        var walk = (0..<10).map { fix(Double($0) * step, Double($0)) }
        walk[4] = fix(0.01, 4)  // spike
        let spike = try Track(locations: walk).filtered(by: [.speedOutliers(maximumSpeed: 10)])
        #expect(
            spike.points.count == 9
                && !spike.points.contains { $0.coordinate.longitude == 0.01 })

        var jump = (0..<5).map { fix(Double($0) * step, Double($0)) }
        jump += (5..<10).map { fix(0.01 + Double($0) * step, Double($0)) }
        #expect(
            try Track(locations: jump).filtered(by: [.speedOutliers(maximumSpeed: 10)]).points
                .count == 10)

        var ends = (0..<10).map { fix(Double($0) * step, Double($0)) }
        ends[0] = fix(-0.01, 0)
        ends[9] = fix(0.02, 9)
        let trimmed = try Track(locations: ends).filtered(by: [.speedOutliers(maximumSpeed: 10)])
        #expect(
            trimmed.points.compactMap(\.time?.timeIntervalSince1970)
                == Array(1...8).map(Double.init))
    }

    @Test func badThresholdsThrow() throws {
        let track = Track(locations: [fix(0, 0)])
        #expect(throws: GeoError.self) {
            try track.filtered(by: [.horizontalAccuracy(maximum: .nan)])
        }
        #expect(throws: GeoError.self) { try track.filtered(by: [.staleness(maximumAge: -1)]) }
        #expect(throws: GeoError.self) {
            try track.filtered(by: [.speedOutliers(maximumSpeed: -2)])
        }
        #expect(try track.filtered(by: []).points.count == 1)
    }
}
