import Foundation

/// Angles in degrees and radians, and the one longitude wrap every module uses.
@usableFromInline
package enum Angle {
    /// Degrees to radians.
    @inlinable package static func radians(_ degrees: Double) -> Double { degrees * (.pi / 180) }

    /// Radians to degrees.
    @inlinable package static func degrees(_ radians: Double) -> Double { radians * (180 / .pi) }

    /// The largest longitude magnitude (degrees) the geometry operations reduce to [-180, 180]:
    /// beyond 10¹⁵ a double holds no fraction of a degree, and sums of such values lose whole
    /// turns or overflow, so larger ones are refused by name.
    package static let largestReducibleLongitude = 1e15

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

    /// The sine and cosine of an angle in degrees, reduced exactly to [-45°, 45°] first (as
    /// GeographicLib's `sincosd`): exact at multiples of 90°, so 180° and −180° give the same point
    /// (sine ±0, cosine −1) and a pole's cosine is 0. NaN and infinities give NaN.
    /// - Complexity: O(1); a division, one sine and one cosine.
    @inlinable
    package static func sinCos(degrees x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        // Exact, in [-360, 360]; most angles already are.
        let turn = abs(x) <= 360 ? x : x.truncatingRemainder(dividingBy: 360)
        // The nearest multiple of 90 (within ±4 quarters) and what is left, about [-45, 45]:
        // exact by Sterbenz's lemma (for q ≠ 0, turn is within a factor 2 of 90q).
        let q = (turn / 90).rounded()
        let r = turn - 90 * q
        let quadrant = Int(q) & 3
        let s = sin(r * (.pi / 180)), c = cos(r * (.pi / 180))
        switch quadrant {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
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
