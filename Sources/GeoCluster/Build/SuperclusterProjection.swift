import Foundation
import GeoCore

/// supercluster's spherical Mercator projection onto the unit square (x east from −180°, y south
/// from the north edge): the kernel's projection, whose operation order is supercluster's, clamped
/// as supercluster clamps it.
@usableFromInline
enum SuperclusterProjection {
    /// `lng / 360 + 0.5`, not wrapped.
    @inlinable
    static func x(longitude: Double) -> Double {
        WGS84.unitSquareX(longitude: longitude)
    }

    /// `0.5 − ln((1 + sin φ) / (1 − sin φ)) / (4π)`, clamped to [0, 1] (the poles map to 0 and 1).
    @inlinable
    static func y(latitude: Double) -> Double {
        let y = WGS84.unitSquareY(latitude: latitude)
        return y < 0 ? 0 : (y > 1 ? 1 : y)
    }

    /// The longitude of an x.
    @inlinable
    static func longitude(x: Double) -> Double {
        (x - 0.5) * 360
    }

    /// The latitude of a y, by supercluster's own inverse formula in its operation order (not the
    /// kernel's), with JavaScript's `Math.atan` and `Math.exp` (``JavaScriptMath``), so that
    /// output coordinates match supercluster's to the last bit.
    @inlinable
    static func latitude(y: Double) -> Double {
        let y2 = (180 - y * 360) * Double.pi / 180
        return 360 * JavaScriptMath.atan(JavaScriptMath.exp(y2)) / Double.pi - 90
    }

    /// JavaScript's `Math.round` (halves round up), as an integer clamped to ±2^62 so that no input
    /// traps; NaN gives 0.
    @inline(__always)
    static func jsRound(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        let f = value.rounded(.down)
        let r = f + (value - f >= 0.5 ? 1 : 0)
        let limit = 0x1p62
        return Int(max(-limit, min(limit, r)))
    }
}
