import Foundation

/// Angles in degrees and radians, and the one longitude wrap every module uses.
@usableFromInline
package enum Angle {
    /// Degrees to radians.
    @inlinable package static func radians(_ degrees: Double) -> Double { degrees * (.pi / 180) }

    /// Radians to degrees.
    @inlinable package static func degrees(_ radians: Double) -> Double { radians * (180 / .pi) }

    /// A longitude wrapped into [-180, 180], as GeographicLib's `AngNormalize` does: values already in
    /// range are returned unchanged (so ±180 keep their sign), others are reduced exactly by whole turns
    /// (540 → 180, -540 → -180). NaN and infinities give NaN.
    package static func normalizedLongitude(_ longitude: Double) -> Double {
        guard longitude.isFinite else { return .nan }
        if longitude >= -180 && longitude <= 180 { return longitude }
        // Exact, in [-180, 180].
        let x = longitude.remainder(dividingBy: 360)
        return abs(x) == 180 ? (longitude < 0 ? -180 : 180) : x
    }

    /// A bearing wrapped into [0, 360).
    package static func normalizedBearing(_ bearing: Double) -> Double {
        guard bearing.isFinite else { return .nan }
        var x = bearing.truncatingRemainder(dividingBy: 360)
        if x < 0 { x += 360 }
        if x >= 360 { x -= 360 }
        return x == 0 ? 0 : x
    }

    /// The signed difference `to - from` in degrees, wrapped into [-180, 180]: the short way round.
    package static func longitudeDifference(from: Double, to: Double) -> Double {
        normalizedLongitude(to - from)
    }
}
