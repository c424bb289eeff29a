import Foundation
import GeoCore

/// A path of WGS84 geodesic segments: the line a route, a track or a drawn path follows.
///
/// Each segment is the shortest path on the ellipsoid between two consecutive vertices (Karney's
/// geodesic, `Geodesic`), so lengths, positions along the line and nearest points are
/// ellipsoidal, never straight lines in degrees. The cumulative distances and a spatial index of
/// the segments are computed once, when the polyline is created; after that, positions along the
/// line cost O(log n) and nearest-point queries are sublinear.
///
/// ```swift
/// let line = try Polyline([
///     Coordinate(latitude: 48.8566, longitude: 2.3522),   // Paris
///     Coordinate(latitude: 50.8503, longitude: 4.3517),   // Brussels
///     Coordinate(latitude: 52.3676, longitude: 4.9041),   // Amsterdam
/// ])
/// line.length                                   // meters on WGS84
/// line.coordinate(atDistance: 100_000)          // 100 km from Paris
/// line.closestPoint(to: lille).distanceAlong    // where Lille is along the line
/// ```
///
/// A polyline has at least one vertex; a single vertex is a line of length 0. Consecutive equal
/// vertices are allowed and give segments of length 0. Equality compares the vertices exactly.
public struct Polyline: Sendable {
    /// The vertices, in order.
    public let coordinates: [Coordinate]
    /// The distance in meters along the line from the first vertex to each vertex; the first is 0 and
    /// the last is ``length``.
    public let cumulativeDistances: [Double]
    /// The initial azimuth of each segment in degrees, as the inverse geodesic problem gives it
    /// (`segmentAzimuths[i]` belongs to the segment from vertex `i` to vertex `i + 1`).
    let segmentAzimuths: [Double]
    /// The forward azimuth of each segment at its end, in degrees.
    let segmentFinalAzimuths: [Double]
    /// The segments nearest-point searches look at, with their spatial index, built once.
    let search: SearchLine

    /// Creates a polyline from untrusted vertices.
    ///
    /// - Parameter coordinates: The vertices in order; at least one.
    /// - Throws: `GeoError.Kind.notFound` for an empty array;
    ///   `GeoError.Kind.invalidCoordinate` naming the first invalid vertex and
    ///   its index.
    /// - Complexity: O(n): one inverse geodesic per segment (about 1 µs each) and the segment index.
    public init(_ coordinates: [Coordinate]) throws(GeoError) {
        guard !coordinates.isEmpty else {
            throw GeoError(.notFound, "a polyline needs at least one coordinate")
        }
        for (i, c) in coordinates.enumerated() where !c.isValid {
            do throws(GeoError) { _ = try c.validated() } catch {
                throw GeoError(.invalidCoordinate, "vertex \(i): \(error.message)")
            }
        }
        self.init(unchecked: coordinates)
    }

    /// Creates a polyline from vertices already known to be valid and non-empty.
    init(unchecked coordinates: [Coordinate]) {
        let geodesic = Geodesic.wgs84
        var distances = [Double]()
        distances.reserveCapacity(coordinates.count)
        var azimuths = [Double]()
        azimuths.reserveCapacity(max(0, coordinates.count - 1))
        var finalAzimuths = [Double]()
        finalAzimuths.reserveCapacity(max(0, coordinates.count - 1))
        var total = 0.0
        distances.append(0)
        for i in coordinates.indices.dropFirst() {
            let inverse = geodesic.inverse(from: coordinates[i - 1], to: coordinates[i])
            total += inverse.distance
            distances.append(total)
            azimuths.append(inverse.initialAzimuth)
            finalAzimuths.append(inverse.finalAzimuth)
        }
        self.coordinates = coordinates
        self.cumulativeDistances = distances
        self.segmentAzimuths = azimuths
        self.segmentFinalAzimuths = finalAzimuths
        self.search = SearchLine(
            coordinates: coordinates, cumulativeDistances: distances, azimuths: azimuths)
    }

    /// The total length in meters along the WGS84 geodesics between the vertices.
    public var length: Double { cumulativeDistances[cumulativeDistances.count - 1] }

    /// The number of segments: one less than the number of vertices.
    public var segmentCount: Int { coordinates.count - 1 }

    /// The first vertex.
    public var start: Coordinate { coordinates[0] }

    /// The last vertex.
    public var end: Coordinate { coordinates[coordinates.count - 1] }
}

// MARK: - Positions along the line

extension Polyline {
    /// The index of the segment holding a distance along the line: the last segment whose start is at
    /// or before it. Distances are clamped to [0, length]; a polyline of one vertex gives 0.
    /// - Complexity: O(log n).
    func segment(containing distance: Double) -> Int {
        let last = coordinates.count - 2
        guard last >= 0 else { return 0 }
        if !(distance > 0) { return 0 }
        if distance >= length {
            // The last segment of non-zero length that ends at the end.
            return last
        }
        // Binary search for the last i with cumulativeDistances[i] <= distance, i <= last.
        var low = 0, high = last
        while low < high {
            let mid = (low + high + 1) / 2
            if cumulativeDistances[mid] <= distance { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The point a distance along the line from its start, and the forward azimuth of the line there.
    ///
    /// Distances below 0 give the start and beyond ``length`` the end; NaN gives NaN.
    func position(atDistance distance: Double) -> (coordinate: Coordinate, azimuth: Double) {
        guard !distance.isNaN else {
            return (Coordinate(latitude: .nan, longitude: .nan), .nan)
        }
        guard coordinates.count > 1 else { return (coordinates[0], .nan) }
        let i = segment(containing: distance)
        let offset = min(max(distance, 0), length) - cumulativeDistances[i]
        let segmentLength = cumulativeDistances[i + 1] - cumulativeDistances[i]
        if offset <= 0 {
            return (coordinates[i], segmentAzimuths[i])
        }
        let direct = Geodesic.wgs84.direct(
            from: coordinates[i], azimuth: segmentAzimuths[i], distance: offset)
        if offset >= segmentLength {
            // Land exactly on the vertex rather than a few nanometers beside it.
            return (coordinates[i + 1], direct.finalAzimuth)
        }
        return (direct.coordinate, direct.finalAzimuth)
    }

    /// The point a distance along the line from its start.
    ///
    /// - Parameter distance: Meters from the first vertex; values below 0 give the first vertex and
    ///   values beyond ``length`` the last. NaN gives a coordinate of NaNs.
    /// - Returns: The point on the geodesic segment that holds the distance; a vertex exactly at a
    ///   vertex's cumulative distance.
    /// - Complexity: O(log n) to find the segment, then one direct geodesic (under 1 µs).
    public func coordinate(atDistance distance: Double) -> Coordinate {
        position(atDistance: distance).coordinate
    }

    /// The direction of travel a distance along the line, in degrees clockwise from true north, in
    /// [0, 360).
    ///
    /// The azimuth of a geodesic changes along it; this is its value at that point. At a vertex the
    /// outgoing segment counts (the incoming one at the last vertex). Distances are clamped to
    /// [0, ``length``]. A polyline with no segment of non-zero length, or a NaN distance, gives NaN.
    /// - Complexity: O(log n) plus one direct geodesic.
    public func bearing(atDistance distance: Double) -> Double {
        guard !distance.isNaN, length > 0 else { return .nan }
        var d = min(max(distance, 0), length)
        var i = segment(containing: d)
        // Skip zero-length segments: their azimuth says nothing about the direction of travel.
        while i < segmentCount - 1 && cumulativeDistances[i + 1] - cumulativeDistances[i] <= 0 {
            i += 1
        }
        while i > 0 && cumulativeDistances[i + 1] - cumulativeDistances[i] <= 0 { i -= 1 }
        d = min(max(d, cumulativeDistances[i]), cumulativeDistances[i + 1])
        let offset = d - cumulativeDistances[i]
        if offset <= 0 { return Angle.normalizedBearing(segmentAzimuths[i]) }
        let direct = Geodesic.wgs84.direct(
            from: coordinates[i], azimuth: segmentAzimuths[i], distance: offset)
        return Angle.normalizedBearing(direct.finalAzimuth)
    }
}

// MARK: - Conformances

extension Polyline: Hashable {
    /// Whether two polylines have exactly the same vertices.
    public static func == (lhs: Polyline, rhs: Polyline) -> Bool {
        lhs.coordinates == rhs.coordinates
    }

    /// Hashes the vertices.
    public func hash(into hasher: inout Hasher) { hasher.combine(coordinates) }
}

extension Polyline: Codable {
    /// Decodes a polyline from an array of coordinates (`[{"latitude": …, "longitude": …}, …]`).
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the array is empty or a coordinate is invalid; its
    ///   description is the `GeoError` message.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let coordinates = try container.decode([Coordinate].self)
        do {
            try self.init(coordinates)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Encodes the vertices as an array of coordinates.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(coordinates)
    }
}

extension Polyline: CustomStringConvertible {
    /// A short summary: the vertex count and the length.
    public var description: String {
        "Polyline(\(coordinates.count) vertices, \(String(format: "%.3f", length)) m)"
    }
}
