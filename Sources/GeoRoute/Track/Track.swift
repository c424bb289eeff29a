import Foundation
import GeoCore

/// A recorded trip: timestamped position fixes in one or more segments (a segment ends where the
/// recording paused or the receiver lost its fix, as a GPX `<trkseg>`).
///
/// Lengths, durations and speeds are summed within segments, never across the gap between two of
/// them. Fixes are expected in time order; ``filtered(by:)`` removes the usual defects of recorded
/// positions first.
///
/// ```swift
/// let document = try GPX.read(contentsOf: url)
/// let track = try document.tracks[0].filtered(by: [.horizontalAccuracy(maximum: 30), .duplicateTimestamps])
/// print(track.length, track.duration, track.movingTime(), track.elevationChange().gain)
/// ```
///
/// Fixes read from GPX without a `<time>` have the timestamp `Date.distantPast`
/// (``GPX/missingTime``); such a track has no duration and no speeds.
public struct Track: Hashable, Sendable, Codable {
    /// The track's name, if it has one.
    public var name: String?
    /// The fixes, segment by segment, each in time order.
    public var segments: [[Location]]

    /// Creates a track from segments of fixes.
    public init(name: String? = nil, segments: [[Location]]) {
        self.name = name
        self.segments = segments
    }

    /// Creates a track of one segment.
    public init(name: String? = nil, locations: [Location]) {
        self.init(name: name, segments: [locations])
    }

    /// All fixes, segment after segment.
    public var locations: [Location] { segments.flatMap { $0 } }

    /// Whether the track has no fix.
    public var isEmpty: Bool { segments.allSatisfy(\.isEmpty) }

    /// The fixes of each non-empty segment as a polyline.
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
