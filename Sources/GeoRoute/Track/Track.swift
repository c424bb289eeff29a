import Foundation
import GeoCore

/// A recorded trip: points in one or more segments (a segment ends where the recording paused or
/// the receiver lost its fix, as a GPX `<trkseg>`).
///
/// Lengths, durations and speeds are summed within segments, never across the gap between two of
/// them. Points are expected in time order; ``filtered(by:)`` removes the usual defects of recorded
/// positions first, and ``statistics(movingSpeed:elevationThreshold:)`` says how it treats points
/// whose times do not increase.
///
/// ```swift
/// let document = try GPX.read(contentsOf: url)
/// let track = try document.tracks[0].filtered(by: [.horizontalAccuracy(maximum: 30), .duplicateTimestamps])
/// let stats = track.statistics()
/// print(stats.length, stats.duration, stats.movingTime, stats.elevationChange.gain)
/// ```
public struct Track: Hashable, Sendable, Codable {
    /// The track's name, if it has one.
    public var name: String?
    /// The points, segment by segment, each in time order.
    public var segments: [[TrackPoint]]
    /// The filters ``filtered(by:)`` has applied to the points, in order; statistics report them.
    public var appliedFilters: [TrackFilter] = []

    /// Creates a track from segments of points.
    public init(name: String? = nil, segments: [[TrackPoint]]) {
        self.name = name
        self.segments = segments
    }

    /// Creates a track of one segment.
    public init(name: String? = nil, points: [TrackPoint]) {
        self.init(name: name, segments: [points])
    }

    /// Creates a track of one segment of position fixes.
    public init(name: String? = nil, locations: [Location]) {
        self.init(name: name, segments: [locations.map(TrackPoint.init)])
    }

    /// All points, segment after segment.
    public var points: [TrackPoint] { segments.flatMap { $0 } }

    /// Whether the track has no point.
    public var isEmpty: Bool { segments.allSatisfy(\.isEmpty) }

    /// The points of each non-empty segment as a polyline.
    ///
    /// - Throws: `GeoError.Kind.invalidCoordinate` naming the segment and
    ///   vertex of an invalid position.
    public func polylines() throws(GeoError) -> [Polyline] {
        var result = [Polyline]()
        for (s, segment) in segments.enumerated() where !segment.isEmpty {
            do throws(GeoError) {
                result.append(try Polyline(segment.map(\.coordinate)))
            } catch {
                throw GeoError(error.kind, "segment \(s): \(error.message)")
            }
        }
        return result
    }
}
