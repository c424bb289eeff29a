import Foundation
import GeoCore

/// GeoJSON (RFC 7946) export of polylines, routes, tracks and GPX documents, as `JSONValue`
/// trees ready for `JSONEncoder`.
///
/// Positions are `[longitude, latitude]` (with the altitude third where a track has one), as
/// RFC 7946 requires. Lines that cross the 180th meridian are cut there
/// (``Polyline/splitAt180thMeridian()``) and written as a `MultiLineString`, as RFC 7946 §3.1.9
/// recommends, so that map libraries do not draw them across the whole world.
///
/// ```swift
/// let data = try JSONEncoder().encode(track.geoJSON())
/// ```
extension Polyline {
    /// The line as a GeoJSON geometry: a `LineString`, or a `MultiLineString` when it crosses the
    /// 180th meridian.
    public func geoJSON() -> JSONValue {
        let pieces = splitAt180thMeridian()
        func positions(_ line: Polyline) -> JSONValue {
            .array(line.coordinates.map { .array([.number($0.longitude), .number($0.latitude)]) })
        }
        if pieces.count == 1 {
            return ["type": "LineString", "coordinates": positions(pieces[0])]
        }
        return ["type": "MultiLineString", "coordinates": .array(pieces.map(positions))]
    }
}

extension Route {
    /// The route as a GeoJSON `Feature`: its polyline as the geometry, and `distance` (m),
    /// `expectedTravelTime` (s), `transportType` and `steps` (each with `instruction`, `distance`,
    /// `start` and `end` in meters along the route) as properties.
    public func geoJSON() -> JSONValue {
        let stepValues: [JSONValue] = steps.map {
            [
                "instruction": .string($0.instruction), "distance": .number($0.distance),
                "start": .number($0.range.lowerBound), "end": .number($0.range.upperBound),
            ]
        }
        return [
            "type": "Feature",
            "geometry": polyline.geoJSON(),
            "properties": [
                "distance": .number(distance), "expectedTravelTime": .number(expectedTravelTime),
                "transportType": .string(transportType.rawValue), "steps": .array(stepValues),
            ],
        ]
    }
}

extension Track {
    /// The track as a GeoJSON `Feature`.
    ///
    /// The geometry is a `LineString` for a track of one segment, otherwise a `MultiLineString` of
    /// its non-empty segments; positions carry the elevation when every point of the track has one.
    /// Properties: `name` (if any) and `coordTimes`, the points' ISO 8601 times in the shape of
    /// the coordinates (the convention of Mapbox's togeojson), `null` for points without a time.
    /// A segment that crosses the 180th meridian is not cut, so that the times stay aligned with
    /// the positions.
    public func geoJSON() -> JSONValue {
        let lines = segments.filter { !$0.isEmpty }
        let withAltitude =
            !lines.isEmpty && lines.allSatisfy { $0.allSatisfy { $0.elevation != nil } }
        func position(_ point: TrackPoint) -> JSONValue {
            var values: [JSONValue] = [
                .number(point.coordinate.longitude), .number(point.coordinate.latitude),
            ]
            if withAltitude, let elevation = point.elevation { values.append(.number(elevation)) }
            return .array(values)
        }
        func time(_ point: TrackPoint) -> JSONValue {
            point.time.map { .string(ISO8601Time.format($0)) } ?? .null
        }
        var properties: [String: JSONValue] = [:]
        if let name { properties["name"] = .string(name) }
        let geometry: JSONValue
        if lines.count == 1 {
            geometry = ["type": "LineString", "coordinates": .array(lines[0].map(position))]
            properties["coordTimes"] = .array(lines[0].map(time))
        } else {
            geometry = [
                "type": "MultiLineString",
                "coordinates": .array(lines.map { .array($0.map(position)) }),
            ]
            properties["coordTimes"] = .array(lines.map { .array($0.map(time)) })
        }
        return ["type": "Feature", "geometry": geometry, "properties": .object(properties)]
    }
}

extension GPXDocument {
    /// The document as a GeoJSON `FeatureCollection`: a `Point` feature per waypoint (properties
    /// `name`, `desc`, `time`, `ele` where present), a `LineString` feature per route (`name`) and
    /// each track as ``Track/geoJSON()`` gives it.
    public func geoJSON() -> JSONValue {
        var features = [JSONValue]()
        for waypoint in waypoints {
            let c = waypoint.point.coordinate
            var properties: [String: JSONValue] = [:]
            if let name = waypoint.name { properties["name"] = .string(name) }
            if let description = waypoint.description { properties["desc"] = .string(description) }
            if let time = waypoint.point.time {
                properties["time"] = .string(ISO8601Time.format(time))
            }
            if let elevation = waypoint.point.elevation { properties["ele"] = .number(elevation) }
            features.append([
                "type": "Feature",
                "geometry": [
                    "type": "Point", "coordinates": [.number(c.longitude), .number(c.latitude)],
                ],
                "properties": .object(properties),
            ])
        }
        for route in routes {
            var properties: [String: JSONValue] = [:]
            if let name = route.name { properties["name"] = .string(name) }
            let coordinates: JSONValue = .array(
                route.points.map {
                    .array([
                        .number($0.point.coordinate.longitude),
                        .number($0.point.coordinate.latitude),
                    ])
                })
            features.append([
                "type": "Feature", "geometry": ["type": "LineString", "coordinates": coordinates],
                "properties": .object(properties),
            ])
        }
        features += tracks.map { $0.geoJSON() }
        return ["type": "FeatureCollection", "features": .array(features)]
    }
}
