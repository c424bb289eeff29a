import Foundation

/// Space kept free at the edges of a view, in points (`UIEdgeInsets` as MapKit's fitting calls take
/// it).
public struct MapEdgePadding: Hashable, Sendable, Codable {
    /// Points kept free at the top.
    public var top: Double
    /// Points kept free at the left.
    public var left: Double
    /// Points kept free at the bottom.
    public var bottom: Double
    /// Points kept free at the right.
    public var right: Double

    /// Padding for each edge.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same padding on every edge.
    public init(all padding: Double) {
        self.init(top: padding, left: padding, bottom: padding, right: padding)
    }

    /// No padding.
    public static let zero = MapEdgePadding()
}

/// A virtual camera above the map, as MapKit's `MapCamera` (`MKMapCamera`) defines it: where it
/// looks, from how far, facing which way and how tilted.
///
/// The camera looks at MapKit's flat Web-Mercator map (the plane of ``MapPoint``s), taking the
/// map's scale at ``centerCoordinate`` as the ground's: at `pitch` 0 and `heading` 0 the view shows
/// exactly the map rectangle a top-down map of that zoom shows. The lens has a vertical field of
/// view of ``verticalFieldOfView`` (30°); MapKit does not publish its own, so distances here match
/// MapKit's only in proportion.
///
/// ```swift
/// let camera = MapCamera(centerCoordinate: paris, distance: 5_000, heading: 30, pitch: 45)
/// let viewport = camera.viewport(size: MapSize(width: 600, height: 400))
/// viewport.footprint          // the four map points at the view's corners: a rotated trapezoid
/// viewport.visibleRegion      // the region that holds them
/// let fitted = try MapCamera(fitting: stops, viewSize: size, edgePadding: MapEdgePadding(all: 20))
/// ```
public struct MapCamera: Hashable, Sendable, Codable {
    /// The coordinate at the center of the view.
    public var centerCoordinate: Coordinate
    /// Meters from the eye to ``centerCoordinate``.
    public var distance: Double
    /// Degrees clockwise from north of the view's up direction; 90 puts east at the top.
    public var heading: Double
    /// Degrees from looking straight down; clamped to ``maximumPitch`` when the camera is used.
    public var pitch: Double

    /// The lens's vertical field of view in degrees.
    public static let verticalFieldOfView = 30.0
    /// The largest pitch a view uses: beyond it the top of the view would reach toward the horizon.
    public static let maximumPitch = 70.0

    /// A camera.
    ///
    /// - Parameters:
    ///   - centerCoordinate: Where it looks.
    ///   - distance: Meters from the eye to the center.
    ///   - heading: Degrees clockwise from north at the top of the view.
    ///   - pitch: Degrees from looking straight down.
    public init(
        centerCoordinate: Coordinate, distance: Double, heading: Double = 0, pitch: Double = 0
    ) {
        self.centerCoordinate = centerCoordinate
        self.distance = distance
        self.heading = heading
        self.pitch = pitch
    }

    /// The distance at which a top-down camera over a latitude shows a Web-Mercator zoom level in a
    /// view `viewHeight` points tall (a world `tileSize · 2^zoom` points wide).
    ///
    /// - Parameters:
    ///   - zoom: The zoom level; fractional zooms are fine.
    ///   - latitude: Degrees; the map's scale is the one at this latitude.
    ///   - viewHeight: Points.
    ///   - tileSize: 256 for MapKit and raster maps (default), 512 for vector-tile maps.
    public static func distance(
        forZoom zoom: Double, atLatitude latitude: Double, viewHeight: Double,
        tileSize: Double = 256
    ) -> Double {
        let mapPointsPerPoint = MapSize.world.width / (tileSize * exp2(zoom))
        let metersPerPoint = mapPointsPerPoint * MapPoint.metersPerMapPoint(atLatitude: latitude)
        return viewHeight * metersPerPoint / (2 * tan(Angle.radians(verticalFieldOfView) / 2))
    }

    /// The Web-Mercator zoom level this camera shows in a view `viewHeight` points tall (taken
    /// top-down: the scale at the center of the view); the inverse of
    /// ``distance(forZoom:atLatitude:viewHeight:tileSize:)``.
    public func zoom(viewHeight: Double, tileSize: Double = 256) -> Double {
        let metersPerPoint =
            2 * distance * tan(Angle.radians(Self.verticalFieldOfView) / 2)
            / viewHeight
        let mapPointsPerPoint =
            metersPerPoint / MapPoint.metersPerMapPoint(atLatitude: centerCoordinate.latitude)
        return log2(MapSize.world.width / (tileSize * mapPointsPerPoint))
    }

    /// The view of this camera in a view of a size, for converting between map and view points.
    public func viewport(size: MapSize) -> MapViewport {
        MapViewport(camera: self, size: size)
    }

    // MARK: - Fitting

    /// The top-down camera that shows a map rectangle in a view of a size, as large as fits inside
    /// the padding (`MKMapView.setVisibleMapRect(_:edgePadding:animated:)`, `MapCameraPosition.rect`).
    ///
    /// The rectangle is centered in the padded area and touches its edges on one axis. A
    /// rectangle reaching past the world's east or west edge (one across the 180th meridian) is
    /// shown whole.
    ///
    /// - Parameters:
    ///   - rect: What to show; a rectangle of zero width and height is widened to `minimumMeters`.
    ///   - viewSize: The view in points.
    ///   - edgePadding: Points kept free at each edge.
    ///   - heading: The camera's heading; the rectangle's rotated corners are fitted.
    ///   - minimumMeters: The extent shown around content without any (a single point): default
    ///     1,000 m.
    /// - Throws: `GeoError.Kind.invalidArgument` for a null rectangle, a view without area, or
    ///   padding that leaves none.
    public init(
        fitting rect: MapRect, viewSize: MapSize, edgePadding: MapEdgePadding = .zero,
        heading: Double = 0, minimumMeters: Double = 1_000
    ) throws(GeoError) {
        guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite,
            rect.height.isFinite
        else { throw GeoError(.invalidArgument, "cannot fit a null or infinite map rectangle") }
        try self.init(
            fittingMapPoints: [
                MapPoint(x: rect.minX, y: rect.minY), MapPoint(x: rect.maxX, y: rect.minY),
                MapPoint(x: rect.maxX, y: rect.maxY), MapPoint(x: rect.minX, y: rect.maxY),
            ], viewSize: viewSize, edgePadding: edgePadding, heading: heading,
            minimumMeters: minimumMeters)
    }

    /// The top-down camera that shows map points (their x continuous, not wrapped) inside the
    /// padding: their extent along the view's axes, turned by the heading, sets the scale.
    private init(
        fittingMapPoints points: [MapPoint], viewSize: MapSize, edgePadding: MapEdgePadding,
        heading: Double, minimumMeters: Double
    ) throws(GeoError) {
        let width = viewSize.width - edgePadding.left - edgePadding.right
        let height = viewSize.height - edgePadding.top - edgePadding.bottom
        guard width > 0, height > 0, viewSize.width.isFinite, viewSize.height.isFinite else {
            throw GeoError(
                .invalidArgument,
                "a \(viewSize.width) × \(viewSize.height) view with padding \(edgePadding) leaves no room"
            )
        }
        // The view's right and down directions in map points (x east, y south).
        let theta = Angle.radians(heading)
        let right = (x: cos(theta), y: sin(theta)), down = (x: -sin(theta), y: cos(theta))
        var minA = Double.infinity, maxA = -Double.infinity
        var minD = Double.infinity, maxD = -Double.infinity
        for p in points {
            let a = p.x * right.x + p.y * right.y, d = p.x * down.x + p.y * down.y
            minA = min(minA, a)
            maxA = max(maxA, a)
            minD = min(minD, d)
            maxD = max(maxD, d)
        }
        guard minA.isFinite, maxA.isFinite, minD.isFinite, maxD.isFinite else {
            throw GeoError(.invalidArgument, "cannot fit no points or infinite ones")
        }
        let midA = (minA + maxA) / 2, midD = (minD + maxD) / 2
        let middle = MapPoint(
            x: midA * right.x + midD * down.x, y: midA * right.y + midD * down.y)
        // Only content without extent (one point, or points on one spot) takes the minimum.
        var across = maxA - minA, along = maxD - minD
        if across <= 0 && along <= 0 {
            let minimum =
                minimumMeters * MapPoint.mapPointsPerMeter(atLatitude: middle.coordinate.latitude)
            (across, along) = (minimum, minimum)
        }
        let mapPointsPerPoint = max(across / width, along / height)
        // The padded area's center, in points from the view's center, back to the map plane.
        let dx = (edgePadding.left - edgePadding.right) / 2 * mapPointsPerPoint
        let dy = (edgePadding.top - edgePadding.bottom) / 2 * mapPointsPerPoint
        let center = MapPoint(
            x: middle.x - (dx * right.x + dy * down.x), y: middle.y - (dx * right.y + dy * down.y))
        var coordinate = center.coordinate
        coordinate.longitude = Angle.normalizedLongitude(coordinate.longitude)
        let metersPerPoint =
            mapPointsPerPoint * MapPoint.metersPerMapPoint(atLatitude: coordinate.latitude)
        self.init(
            centerCoordinate: coordinate,
            distance: viewSize.height * metersPerPoint
                / (2 * tan(Angle.radians(Self.verticalFieldOfView) / 2)),
            heading: heading, pitch: 0)
    }

    /// The top-down camera that shows a coordinate region (`MapCameraPosition.region`); see
    /// ``init(fitting:viewSize:edgePadding:heading:minimumMeters:)-(MapRect,_,_,_,_)``.
    public init(
        fitting region: CoordinateRegion, viewSize: MapSize, edgePadding: MapEdgePadding = .zero,
        heading: Double = 0
    ) throws(GeoError) {
        try self.init(
            fitting: MapRect(region), viewSize: viewSize, edgePadding: edgePadding,
            heading: heading)
    }

    /// The top-down camera that shows every coordinate (`MapCameraPosition.automatic` for
    /// content): the smallest rectangle holding them, across the 180th meridian when that is
    /// narrower (Fiji and Samoa fit a narrow view, not the world).
    ///
    /// - Throws: `GeoError.Kind.notFound` for no coordinates,
    ///   `GeoError.Kind.invalidCoordinate` naming an invalid one, or the errors of fitting a
    ///   rectangle.
    public init(
        fitting coordinates: some Sequence<Coordinate>, viewSize: MapSize,
        edgePadding: MapEdgePadding = .zero, heading: Double = 0, minimumMeters: Double = 1_000
    ) throws(GeoError) {
        let points = Array(coordinates)
        let rect = try MapRect(fitting: points)
        let world = MapSize.world.width
        // Each point on the copy of the world that starts at the rectangle's west edge.
        let mapPoints = points.map { c in
            var p = MapPoint(c)
            while p.x < rect.minX - 1e-6 { p.x += world }
            while p.x >= rect.minX + world { p.x -= world }
            return p
        }
        try self.init(
            fittingMapPoints: mapPoints, viewSize: viewSize, edgePadding: edgePadding,
            heading: heading, minimumMeters: minimumMeters)
    }
}

extension MapRect {
    /// The smallest map rectangle holding coordinates, taking the shorter way across the 180th
    /// meridian: its west edge lies in [0, 2²⁸) and it may reach past the world's east edge.
    ///
    /// - Throws: `GeoError.Kind.notFound` for no coordinates,
    ///   `GeoError.Kind.invalidCoordinate` naming the first invalid one.
    /// - Complexity: O(n log n).
    public init(fitting coordinates: some Sequence<Coordinate>) throws(GeoError) {
        let points = Array(coordinates)
        let region = try CoordinateRegion(fitting: points)
        let world = MapSize.world.width
        var west = Angle.normalizedLongitude(
            region.center.longitude - region.span.longitudeDelta / 2)
        if west == 180 { west = -180 }
        let westX = (west + 180) / 360 * world
        var minX = Double.infinity, maxX = -Double.infinity
        var minY = Double.infinity, maxY = -Double.infinity
        for c in points {
            let p = MapPoint(c)
            // Each x on the copy of the world that starts at the west edge.
            var x = p.x
            while x < westX - 1e-6 { x += world }
            while x >= westX + world { x -= world }
            minX = min(minX, x)
            maxX = max(maxX, x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        // A west edge rounded to a hair below 180° puts points on ±180° at x = 2²⁸: the same
        // places on the world's first copy.
        if minX >= world {
            minX -= world
            maxX -= world
        }
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The rectangle with a view's aspect ratio that holds this one inside the padding
    /// (`MKMapView.mapRectThatFits(_:edgePadding:)`): this rectangle centered in the padded area,
    /// widened on one axis; the padding is added around it at the same scale.
    ///
    /// - Returns: ``null`` for a null rectangle or a view without room inside the padding.
    public func fitted(to viewSize: MapSize, edgePadding: MapEdgePadding = .zero) -> MapRect {
        let width = viewSize.width - edgePadding.left - edgePadding.right
        let height = viewSize.height - edgePadding.top - edgePadding.bottom
        guard !isNull, width > 0, height > 0 else { return .null }
        let scale = max(self.width / width, self.height / height)  // map points per point
        let x = midX - (edgePadding.left + width / 2) * scale
        let y = midY - (edgePadding.top + height / 2) * scale
        return MapRect(x: x, y: y, width: viewSize.width * scale, height: viewSize.height * scale)
    }
}

/// Where a map view's camera is, as MapKit's `MapCameraPosition` names it: a camera, or what the
/// view should show, resolved against a view size.
public enum MapCameraPosition: Hashable, Sendable {
    /// This camera.
    case camera(MapCamera)
    /// Top-down, showing a map rectangle.
    case rect(MapRect)
    /// Top-down, showing a region.
    case region(CoordinateRegion)
    /// Top-down, showing the content (the coordinates given when it is resolved).
    case automatic

    /// The camera for a view.
    ///
    /// - Parameters:
    ///   - viewSize: The view in points.
    ///   - edgePadding: Points kept free at each edge when fitting.
    ///   - content: What ``automatic`` shows; the whole world when empty.
    /// - Throws: The errors of fitting.
    public func camera(
        viewSize: MapSize, edgePadding: MapEdgePadding = .zero, content: [Coordinate] = []
    ) throws(GeoError) -> MapCamera {
        switch self {
        case .camera(let camera): return camera
        case .rect(let rect):
            return try MapCamera(fitting: rect, viewSize: viewSize, edgePadding: edgePadding)
        case .region(let region):
            return try MapCamera(fitting: region, viewSize: viewSize, edgePadding: edgePadding)
        case .automatic:
            guard !content.isEmpty else {
                return try MapCamera(
                    fitting: MapRect.world, viewSize: viewSize, edgePadding: edgePadding)
            }
            return try MapCamera(fitting: content, viewSize: viewSize, edgePadding: edgePadding)
        }
    }
}

/// A camera looking at the map through a view of a given size: conversions between map points and
/// view points (`MKMapView.convert(_:toPointTo:)`), and what the view shows.
///
/// View points have their origin at the top left, x to the right and y down, like SwiftUI's. The
/// projection is the camera's perspective onto the map plane (see ``MapCamera``); it maps straight
/// lines of the map to straight lines of the view.
public struct MapViewport: Hashable, Sendable {
    /// The camera, its pitch clamped to ``MapCamera/maximumPitch``.
    public let camera: MapCamera
    /// The view in points.
    public let size: MapSize
    /// The camera's center as a map point (x in [0, 2²⁸)).
    public let center: MapPoint

    /// The camera's axes and eye in the map plane's local frame (east, north, up), in map points.
    private let eye: SIMD3<Double>
    private let forward: SIMD3<Double>
    private let right: SIMD3<Double>
    private let up: SIMD3<Double>
    /// The focal length in points.
    private let focal: Double

    /// The viewport of a camera in a view of a size.
    public init(camera: MapCamera, size: MapSize) {
        var camera = camera
        camera.pitch = max(0, min(MapCamera.maximumPitch, camera.pitch.isFinite ? camera.pitch : 0))
        self.camera = camera
        self.size = size
        var center = MapPoint(camera.centerCoordinate.normalized)
        // Longitude 180° maps to the world's east edge, which is its west edge.
        if center.x >= MapSize.world.width { center.x -= MapSize.world.width }
        self.center = center
        let scale = MapPoint.mapPointsPerMeter(atLatitude: camera.centerCoordinate.latitude)
        let d = camera.distance * scale
        let p = Angle.radians(camera.pitch), h = Angle.radians(camera.heading)
        forward = SIMD3(sin(p) * sin(h), sin(p) * cos(h), -cos(p))
        right = SIMD3(cos(h), -sin(h), 0)
        up = SIMD3(
            right.y * forward.z - right.z * forward.y, right.z * forward.x - right.x * forward.z,
            right.x * forward.y - right.y * forward.x)
        eye = -d * forward
        focal = size.height / 2 / tan(Angle.radians(MapCamera.verticalFieldOfView) / 2)
    }

    /// Map points per view point at the center of the view.
    public var mapPointsPerPoint: Double { (eye * eye).sum().squareRoot() / focal }

    /// The view point of a map point, or `nil` when it lies behind the camera or beyond the
    /// horizon. The map point's x is taken on the copy of the world nearest the view's center, so
    /// points on both sides of the 180th meridian land side by side.
    public func point(for mapPoint: MapPoint) -> (x: Double, y: Double)? {
        let world = MapSize.world.width
        var dx = mapPoint.x - center.x
        dx -= (dx / world).rounded() * world
        return point(east: dx, north: center.y - mapPoint.y)
    }

    /// The view point of a map point at `east`, `north` map points from the center (no wrapping).
    public func point(east: Double, north: Double) -> (x: Double, y: Double)? {
        let v = SIMD3(east, north, 0) - eye
        let depth = (v * forward).sum()
        guard depth > 1e-9 * abs(eye.z) else { return nil }
        let x = (v * right).sum(), y = (v * up).sum()
        return (size.width / 2 + focal * x / depth, size.height / 2 - focal * y / depth)
    }

    /// The map point seen at a view point, or `nil` when the view point sees no map (above the
    /// horizon). Its x is not wrapped into the world.
    public func mapPoint(atViewPoint x: Double, _ y: Double) -> MapPoint? {
        let direction = focal * forward + (x - size.width / 2) * right + (size.height / 2 - y) * up
        guard direction.z < -1e-12 else { return nil }
        let t = -eye.z / direction.z
        let ground = eye + t * direction
        return MapPoint(x: center.x + ground.x, y: center.y - ground.y)
    }

    /// The map points at the view's corners: top left, top right, bottom right, bottom left. A
    /// rotated rectangle at pitch 0, a trapezoid wider at the top when pitched.
    public var footprint: [MapPoint] {
        [(0, 0), (size.width, 0), (size.width, size.height), (0, size.height)].compactMap {
            mapPoint(atViewPoint: $0.0, $0.1)
        }
    }

    /// The smallest map rectangle holding what the view shows (its x may reach past the world's
    /// edges near the 180th meridian).
    public var visibleMapRect: MapRect {
        let corners = footprint
        guard !corners.isEmpty else { return .null }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min() ?? center.x, maxX = xs.max() ?? center.x
        let minY = max(0, ys.min() ?? center.y),
            maxY = min(MapSize.world.height, ys.max() ?? center.y)
        return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The coordinate region holding what the view shows.
    public var visibleRegion: CoordinateRegion { CoordinateRegion(visibleMapRect) }
}
