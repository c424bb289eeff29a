// Conversions to and from Apple's Core Location and MapKit types, where they exist.
// Meridian never typealiases Apple's types or adds conformances to them; it converts.

#if canImport(CoreLocation)
import CoreLocation

extension Coordinate {
    /// A coordinate with the latitude and longitude of a Core Location coordinate.
    public init(_ coordinate: CLLocationCoordinate2D) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }
}

extension CLLocationCoordinate2D {
    /// A Core Location coordinate with the latitude and longitude of a Meridian coordinate.
    public init(_ coordinate: Coordinate) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }
}

extension Location {
    /// A fix with every field of a Core Location fix (ellipsoidal altitude is not carried over).
    public init(_ location: CLLocation) {
        self.init(
            coordinate: Coordinate(location.coordinate),
            altitude: location.altitude,
            horizontalAccuracy: location.horizontalAccuracy,
            verticalAccuracy: location.verticalAccuracy,
            course: location.course,
            courseAccuracy: location.courseAccuracy,
            speed: location.speed,
            speedAccuracy: location.speedAccuracy,
            timestamp: location.timestamp)
    }
}

extension CLLocation {
    /// A Core Location fix with every field of a Meridian fix.
    public convenience init(_ location: Location) {
        self.init(
            coordinate: CLLocationCoordinate2D(location.coordinate),
            altitude: location.altitude,
            horizontalAccuracy: location.horizontalAccuracy,
            verticalAccuracy: location.verticalAccuracy,
            course: location.course,
            courseAccuracy: location.courseAccuracy,
            speed: location.speed,
            speedAccuracy: location.speedAccuracy,
            timestamp: location.timestamp)
    }
}
#endif

#if canImport(MapKit)
import MapKit

extension MapPoint {
    /// The same map point as a MapKit map point (both use 2²⁸ map points for the world).
    public init(_ point: MKMapPoint) { self.init(x: point.x, y: point.y) }
}

extension MKMapPoint {
    /// The same map point as a Meridian map point.
    public init(_ point: MapPoint) { self.init(x: point.x, y: point.y) }
}

extension MapRect {
    /// The same rectangle as a MapKit map rect.
    public init(_ rect: MKMapRect) {
        self.init(
            x: rect.origin.x, y: rect.origin.y, width: rect.size.width, height: rect.size.height)
    }
}

extension MKMapRect {
    /// The same rectangle as a Meridian map rect.
    public init(_ rect: MapRect) {
        self.init(
            x: rect.origin.x, y: rect.origin.y, width: rect.size.width, height: rect.size.height)
    }
}

extension CoordinateRegion {
    /// The same region as a MapKit coordinate region.
    public init(_ region: MKCoordinateRegion) {
        self.init(
            center: Coordinate(region.center),
            span: CoordinateSpan(
                latitudeDelta: region.span.latitudeDelta, longitudeDelta: region.span.longitudeDelta
            ))
    }
}

extension MKCoordinateRegion {
    /// The same region as a Meridian coordinate region.
    public init(_ region: CoordinateRegion) {
        self.init(
            center: CLLocationCoordinate2D(region.center),
            span: MKCoordinateSpan(
                latitudeDelta: region.span.latitudeDelta, longitudeDelta: region.span.longitudeDelta
            ))
    }
}
#endif
