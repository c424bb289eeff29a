import GeoCore

/// How ``Polyline/simplified(tolerance:method:)`` chooses the vertices to drop.
///
/// A struct with static members rather than an enum, so that methods can be added without breaking
/// code that switches over them.
public struct SimplificationMethod: Hashable, Sendable, CustomStringConvertible {
    enum Algorithm: Hashable, Sendable {
        case douglasPeucker
        case visvalingamWhyatt
        case topologyPreserving
    }

    let algorithm: Algorithm

    /// Douglas–Peucker: every dropped vertex lies within the tolerance (meters) of the geodesic
    /// segment that replaces it. Keeps sharp corners; the classic choice for routes and tracks.
    public static let douglasPeucker = SimplificationMethod(algorithm: .douglasPeucker)

    /// Visvalingam–Whyatt: repeatedly drops the vertex whose triangle with its two neighbors has the
    /// smallest area, while that area is below the square of the tolerance (a tolerance of 10 m drops
    /// triangles under 100 m²). Smooths gently; good for display at lower zoom levels.
    public static let visvalingamWhyatt = SimplificationMethod(algorithm: .visvalingamWhyatt)

    /// Topology-preserving Douglas–Peucker through GEOS (`GEOSTopologyPreserveSimplify_r`): every
    /// dropped vertex lies within the tolerance (meters) of the result, and the result never crosses
    /// itself where the original did not. Computed in a local azimuthal equidistant plane centered on
    /// the line (scale error (ρ/R)²/6: 0.004 % within 100 km of the center); the kept vertices are the
    /// original coordinates, unchanged. Slower than ``douglasPeucker``; use it when the simplified
    /// line is drawn as a shape or tested for crossings. GEOS 3.11 checks each candidate segment
    /// against a quadtree of the line's segments, and on long tracks those checks grow with the
    /// track: time up to O(n²) (a GPS track of 100,000 points 2 s, 200,000 points 8 s, where
    /// ``douglasPeucker`` takes a few milliseconds).
    public static let topologyPreserving = SimplificationMethod(algorithm: .topologyPreserving)

    /// The method's name, such as "Douglas-Peucker".
    public var description: String {
        switch algorithm {
        case .douglasPeucker: "Douglas-Peucker"
        case .visvalingamWhyatt: "Visvalingam-Whyatt"
        case .topologyPreserving: "topology-preserving Douglas-Peucker"
        }
    }
}

extension Polyline {
    /// The indices of the vertices a simplification keeps, in increasing order; the first and the
    /// last vertex are always kept.
    ///
    /// - Parameters:
    ///   - tolerance: Meters on the WGS84 ellipsoid, not negative; see ``SimplificationMethod`` for
    ///     what it bounds.
    ///   - method: ``SimplificationMethod/douglasPeucker`` by default.
    ///   - maximumThreads: How many threads Douglas–Peucker may use on lines of 20 000 vertices or
    ///     more (independent stretches are finished in parallel); the result does not depend on it.
    /// - Throws: `GeoError.Kind.invalidArgument` for a negative or NaN
    ///   tolerance; for ``SimplificationMethod/topologyPreserving``, an error from GEOS.
    /// - Complexity: Douglas–Peucker O(n log n) typically (O(n²) worst case); Visvalingam–Whyatt
    ///   O(n log n); topology-preserving O(n log n) on short lines and up to O(n²) on long tracks
    ///   (see ``SimplificationMethod/topologyPreserving``), plus n geodesic projections.
    public func simplifiedIndices(
        tolerance: Double, method: SimplificationMethod = .douglasPeucker, maximumThreads: Int = 2
    ) throws(GeoError) -> [Int] {
        guard tolerance >= 0 else {
            throw GeoError(
                .invalidArgument,
                "simplification tolerance \(tolerance) m must not be negative or NaN")
        }
        switch method.algorithm {
        case .douglasPeucker:
            return DouglasPeucker.keptIndices(
                coordinates, tolerance: tolerance, maximumWorkers: maximumThreads)
        case .visvalingamWhyatt:
            return VisvalingamWhyatt.keptIndices(coordinates, tolerance: tolerance)
        case .topologyPreserving: return try topologyPreservingIndices(tolerance: tolerance)
        }
    }

    /// The vertices GEOS's topology-preserving simplifier keeps, matched back to their indices (the
    /// metric simplification returns original coordinates bit for bit, in order).
    private func topologyPreservingIndices(tolerance: Double) throws(GeoError) -> [Int] {
        guard coordinates.count > 2 else { return Array(coordinates.indices) }
        let line = Geometry.lineString(coordinates: coordinates)
        guard
            case .lineString(let kept) = try line.simplified(
                meters: tolerance, preservingTopology: true)
        else {
            return Array(coordinates.indices)
        }
        var indices = [Int]()
        indices.reserveCapacity(kept.count)
        var next = 0
        for position in kept {
            while next < coordinates.count
                && (coordinates[next].longitude != position.x
                    || coordinates[next].latitude != position.y)
            {
                next += 1
            }
            guard next < coordinates.count else { break }
            indices.append(next)
            next += 1
        }
        // The ends always stay, as for the other methods.
        if indices.first != 0 { indices.insert(0, at: 0) }
        if indices.last != coordinates.count - 1 { indices.append(coordinates.count - 1) }
        return indices
    }

    /// A simpler line that stays within a tolerance in meters of this one.
    ///
    /// ```swift
    /// let display = try track.simplified(tolerance: 10)                           // Douglas–Peucker
    /// let smooth = try track.simplified(tolerance: 10, method: .visvalingamWhyatt)
    /// ```
    ///
    /// - Parameters:
    ///   - tolerance: Meters on the WGS84 ellipsoid, not negative.
    ///   - method: ``SimplificationMethod/douglasPeucker`` by default.
    /// - Returns: A polyline of a subset of the vertices, first and last included.
    /// - Throws: `GeoError.Kind.invalidArgument` for a negative or NaN
    ///   tolerance; for ``SimplificationMethod/topologyPreserving``, an error from GEOS.
    /// - Complexity: That of ``simplifiedIndices(tolerance:method:maximumThreads:)`` plus one inverse geodesic per
    ///   kept segment.
    public func simplified(
        tolerance: Double, method: SimplificationMethod = .douglasPeucker
    ) throws(GeoError) -> Polyline {
        let kept = try simplifiedIndices(tolerance: tolerance, method: method)
        if kept.count == coordinates.count { return self }
        return Polyline(unchecked: kept.map { coordinates[$0] })
    }

    /// Simplifies this line in place; see ``simplified(tolerance:method:)``.
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` for a negative or NaN
    ///   tolerance.
    public mutating func simplify(
        tolerance: Double, method: SimplificationMethod = .douglasPeucker
    ) throws(GeoError) {
        self = try simplified(tolerance: tolerance, method: method)
    }
}
