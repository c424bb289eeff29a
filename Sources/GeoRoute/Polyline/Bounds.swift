import Foundation
import GeoCore

extension Polyline {
    /// The smallest longitude/latitude box that contains the whole line, geodesic segments included.
    ///
    /// A geodesic between two points bulges towards the pole (Paris to Vancouver passes north of both),
    /// so the box is not just the box of the vertices: a segment that turns from heading north to
    /// heading south reaches its vertex latitude (from Clairaut's relation, cos β₀ = |sin α₁ cos β₁|
    /// on the reduced latitude β) inside the segment, and that latitude bounds the box. The longitude
    /// range is the one the line actually travels, unrolled from vertex to vertex, so a line that
    /// crosses the 180th meridian gives a box with `west > east`; a line that goes round the Earth
    /// gives the full range −180…180.
    ///
    /// - Complexity: O(n).
    public var boundingBox: BoundingBox {
        var south = Double.infinity, north = -Double.infinity
        var unrolled = coordinates[0].longitude
        var west = unrolled, east = unrolled
        // The extremes are always vertices (longitude is monotonic along a geodesic): keep their own
        // longitudes, free of the rounding of the unrolled sum.
        var westLongitude = unrolled, eastLongitude = unrolled
        let f = WGS84.flattening
        for (i, c) in coordinates.enumerated() {
            south = min(south, c.latitude)
            north = max(north, c.latitude)
            guard i + 1 < coordinates.count else { break }
            let alpha1 = segmentAzimuths[i] * (.pi / 180),
                alpha2 = segmentFinalAzimuths[i] * (.pi / 180)
            let headingNorth = cos(alpha1) > 0, headingSouthAtEnd = cos(alpha2) < 0
            if headingNorth == headingSouthAtEnd && cos(alpha1) != 0 && cos(alpha2) != 0 {
                // The segment passes its vertex: the latitude where the azimuth is ±90°.
                let beta1 = atan((1 - f) * tan(c.latitude * (.pi / 180)))
                let cosBeta0 = min(1, abs(sin(alpha1) * cos(beta1)))
                let beta0 = acos(cosBeta0)
                let phi0 = atan(tan(beta0) / (1 - f)) * (180 / .pi)
                if headingNorth { north = max(north, phi0) } else { south = min(south, -phi0) }
            }
            var step = Angle.longitudeDifference(
                from: c.longitude, to: coordinates[i + 1].longitude)
            // Half-way round the Earth the short way is ambiguous: the geodesic's azimuth decides.
            if abs(step) == 180 { step = sin(alpha1) < 0 ? -180 : 180 }
            unrolled += step
            if unrolled < west { (west, westLongitude) = (unrolled, coordinates[i + 1].longitude) }
            if unrolled > east { (east, eastLongitude) = (unrolled, coordinates[i + 1].longitude) }
        }
        if east - west >= 360 {
            return BoundingBox(west: -180, south: south, east: 180, north: north)
        }
        var westEdge = westLongitude, eastEdge = eastLongitude
        if east - west > 0 {
            if westEdge == 180 { westEdge = -180 }
            if eastEdge == -180 { eastEdge = 180 }
        }
        return BoundingBox(west: westEdge, south: south, east: eastEdge, north: north)
    }

    /// The smallest region that contains the whole line, geodesic segments included (see
    /// ``boundingBox``); centered on the 180th meridian side for lines that cross it.
    /// - Complexity: O(n).
    public var boundingRegion: CoordinateRegion {
        let box = boundingBox
        return CoordinateRegion(
            center: box.center,
            span: CoordinateSpan(
                latitudeDelta: box.north - box.south, longitudeDelta: box.longitudeSpan))
    }

    /// The map rectangle that contains the whole line (`MKPolyline.boundingMapRect`), from
    /// ``boundingBox``.
    ///
    /// Its west edge lies in [0, 2²⁸); for a line that crosses the 180th meridian it extends past the
    /// world's east edge (`MapRect.spans180thMeridian` is `true`) rather than covering the
    /// whole world. Latitudes are clamped to Web Mercator's ±85.05°.
    /// - Complexity: O(n).
    public var boundingMapRect: MapRect {
        let box = boundingBox
        let world = MapSize.world.width
        let northY = MapPoint(Coordinate(latitude: box.north, longitude: 0)).y
        let southY = MapPoint(Coordinate(latitude: box.south, longitude: 0)).y
        var west = box.west
        if west == 180 { west = -180 }
        let x = (west + 180) / 360 * world
        return MapRect(
            x: x, y: northY, width: box.longitudeSpan / 360 * world, height: southY - northY)
    }
}
