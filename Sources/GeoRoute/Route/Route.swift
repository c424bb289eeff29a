import Foundation
import GeoCore

/// How a route is traveled (`MKDirectionsTransportType`, with cycling).
public enum TransportType: String, Hashable, Sendable, Codable, CaseIterable {
    /// By car or other road vehicle.
    case automobile
    /// On foot.
    case walking
    /// By bicycle.
    case cycling
    /// By public transport.
    case transit
}

/// One manoeuvre of a route: what to do, and the stretch of the route it covers.
public struct RouteStep: Hashable, Sendable, Codable {
    /// The instruction shown or spoken, such as "Turn left onto Rue de Rivoli".
    public var instruction: String
    /// The step's length in meters as the directions service reports it (usually the length of
    /// ``range``).
    public var distance: Double
    /// Where the step lies on the route: meters along the route's polyline from its start.
    public var range: ClosedRange<Double>

    /// Creates a step.
    ///
    /// - Parameters:
    ///   - instruction: What to do.
    ///   - distance: Meters; by default the length of `range`.
    ///   - range: Meters along the route's polyline.
    public init(instruction: String, distance: Double? = nil, range: ClosedRange<Double>) {
        self.instruction = instruction
        self.distance = distance ?? (range.upperBound - range.lowerBound)
        self.range = range
    }
}

/// A route to follow: its line, its steps, how it is traveled and how long that is expected to take
/// (`MKRoute`).
///
/// ```swift
/// let route = try Route(
///     polyline: try Polyline(encoded: overviewPolyline),
///     steps: steps, transportType: .automobile, expectedTravelTime: 1_260)
/// var progress = RouteProgress(route: route)
/// progress.update(with: fix)
/// ```
public struct Route: Hashable, Sendable, Codable {
    /// The line to follow.
    public let polyline: Polyline
    /// The manoeuvres, in order along the route; may be empty.
    public let steps: [RouteStep]
    /// How the route is traveled.
    public let transportType: TransportType
    /// The expected travel time for the whole route in seconds.
    public let expectedTravelTime: TimeInterval

    /// Creates a route, checking that its parts fit together.
    ///
    /// - Parameters:
    ///   - polyline: The line to follow.
    ///   - steps: The manoeuvres, ordered along the route; their ranges must lie within the
    ///     polyline (a meter of slack is allowed at either end for rounding in service responses).
    ///   - transportType: How the route is traveled.
    ///   - expectedTravelTime: Seconds; finite and not negative.
    /// - Throws: `GeoError.Kind.invalidArgument` naming the step or value
    ///   that does not fit: a NaN or out-of-range step range, steps out of order, a negative or NaN
    ///   step distance, or a bad travel time.
    public init(
        polyline: Polyline, steps: [RouteStep] = [], transportType: TransportType = .automobile,
        expectedTravelTime: TimeInterval
    ) throws(GeoError) {
        guard expectedTravelTime.isFinite && expectedTravelTime >= 0 else {
            throw GeoError(
                .invalidArgument,
                "expected travel time \(expectedTravelTime) s must be finite and not negative")
        }
        let slack = 1.0
        var previousStart = -Double.infinity
        for (i, step) in steps.enumerated() {
            let r = step.range
            guard
                r.lowerBound.isFinite && r.upperBound.isFinite && r.lowerBound >= -slack
                    && r.upperBound <= polyline.length + slack
            else {
                throw GeoError(
                    .invalidArgument,
                    "step \(i) (\(GeoError.quoted(step.instruction))) covers \(r.lowerBound)...\(r.upperBound) m, outside the route's 0...\(polyline.length) m"
                )
            }
            guard r.lowerBound >= previousStart else {
                throw GeoError(
                    .invalidArgument,
                    "step \(i) (\(GeoError.quoted(step.instruction))) starts at \(r.lowerBound) m, before the step ahead of it"
                )
            }
            guard step.distance >= 0 && step.distance.isFinite else {
                throw GeoError(
                    .invalidArgument,
                    "step \(i) (\(GeoError.quoted(step.instruction))) has distance \(step.distance) m"
                )
            }
            previousStart = r.lowerBound
        }
        self.polyline = polyline
        self.steps = steps
        self.transportType = transportType
        self.expectedTravelTime = expectedTravelTime
    }

    private enum CodingKeys: String, CodingKey {
        case polyline, steps, transportType, expectedTravelTime
    }

    /// Decodes a route and checks it as ``init(polyline:steps:transportType:expectedTravelTime:)``
    /// does.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with the `GeoError` message when the parts
    ///   do not fit together.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let polyline = try container.decode(Polyline.self, forKey: .polyline)
        let steps = try container.decodeIfPresent([RouteStep].self, forKey: .steps) ?? []
        let transportType =
            try container.decodeIfPresent(TransportType.self, forKey: .transportType) ?? .automobile
        let time = try container.decode(TimeInterval.self, forKey: .expectedTravelTime)
        do {
            try self.init(
                polyline: polyline, steps: steps, transportType: transportType,
                expectedTravelTime: time)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: container.codingPath, debugDescription: error.message))
        }
    }

    /// The route's length in meters along its polyline.
    public var distance: Double { polyline.length }

    /// The route's own average speed in meters per second: its ``distance`` over its
    /// ``expectedTravelTime``; `nil` for a route expected to take no time.
    public var averageSpeed: Double? {
        expectedTravelTime > 0 ? distance / expectedTravelTime : nil
    }

    /// The index of the step that holds a distance along the route: the last step that starts at or
    /// before it. `nil` if there are no steps or the distance is before the first.
    /// - Complexity: O(log s) for s steps.
    public func stepIndex(atDistance distance: Double) -> Int? {
        guard let first = steps.first, distance >= first.range.lowerBound else { return nil }
        var low = 0, high = steps.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if steps[mid].range.lowerBound <= distance { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The expected time in seconds to travel from a distance along the route to its end, at the
    /// route's own average speed (the remaining fraction of ``expectedTravelTime``).
    public func expectedTravelTime(fromDistance distance: Double) -> TimeInterval {
        guard self.distance > 0 else { return 0 }
        let remaining = min(max(self.distance - distance, 0), self.distance)
        return expectedTravelTime * remaining / self.distance
    }
}
