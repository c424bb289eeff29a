import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Synchronization

/// A GeoJSON feature of supercluster's `places.json` fixture.
struct Place: Hashable, Sendable {
    var coordinate: Coordinate?
    var properties: JSONValue
    var id: JSONValue?
}

enum Fixtures {
    static let directory = "points/supercluster/"

    /// The 163 features of `places.json` (one without geometry), read once.
    static func places() throws -> [Place] {
        if let cached = placesCache { return cached }
        return try readPlaces()
    }

    private static let placesCache: [Place]? = try? readPlaces()

    /// A reference file, parsed once per process.
    static func reference(_ name: String) throws -> JSONValue {
        if let cached = referenceCache.withLock({ $0[name] }) { return cached }
        let value = try ReferenceData.json(directory + name)
        referenceCache.withLock { $0[name] = value }
        return value
    }

    private static let referenceCache = Mutex<[String: JSONValue]>([:])

    private static func readPlaces() throws -> [Place] {
        let json = try ReferenceData.json(directory + "places.json")
        return (json["features"]?.arrayValue ?? []).map { feature in
            var coordinate: Coordinate?
            if let c = feature["geometry"]?["coordinates"], let lon = c[0]?.doubleValue,
                let lat = c[1]?.doubleValue
            {
                coordinate = Coordinate(latitude: lat, longitude: lon)
            }
            return Place(
                coordinate: coordinate, properties: feature["properties"] ?? .null,
                id: feature["id"])
        }
    }

    static func placesIndex(_ options: ClusterOptions = .default) throws -> ClusterIndex<Place> {
        try ClusterIndex(places(), options: options, coordinate: { $0.coordinate })
    }

    /// A `lon,lat` CSV without header.
    static func csvPoints(_ name: String) throws -> [Coordinate] {
        try ReferenceData.text(directory + name).split(whereSeparator: \.isNewline).compactMap {
            line in
            let parts = line.split(separator: ",")
            guard parts.count == 2, let lon = Double(parts[0]), let lat = Double(parts[1]) else {
                return nil
            }
            return Coordinate(latitude: lat, longitude: lon)
        }
    }

    /// Coordinates from `[[lon, lat], ...]`.
    static func lonLatList(_ value: JSONValue?) -> [Coordinate] {
        (value?.arrayValue ?? []).compactMap { pair in
            guard let lon = pair[0]?.doubleValue, let lat = pair[1]?.doubleValue else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
    }

    static func options(_ value: JSONValue?) -> ClusterOptions {
        var options = ClusterOptions()
        if let v = value?["radius"]?.doubleValue { options.radius = v }
        if let v = value?["extent"]?.doubleValue { options.extent = v }
        if let v = value?["minZoom"]?.intValue { options.minZoom = v }
        if let v = value?["maxZoom"]?.intValue { options.maxZoom = v }
        if let v = value?["minPoints"]?.intValue { options.minPoints = v }
        if let v = value?["nodeSize"]?.intValue { options.nodeSize = v }
        return options
    }
}

extension ClusterFeature {
    /// supercluster's reference notation: `cN` for cluster id N, `pN` for input point N.
    var tag: String {
        switch self {
        case .cluster(let c): "c\(c.id)"
        case .point(let p): "p\(p.index)"
        }
    }
}

/// Per-zoom statistics as the reference files give them.
struct ZoomCounts: Equatable, CustomStringConvertible {
    var features = 0, clusters = 0, points = 0, sumPointCount = 0
    var description: String {
        "features \(features) clusters \(clusters) points \(points) sum \(sumPointCount)"
    }

    init(features: Int = 0, clusters: Int = 0, points: Int = 0, sumPointCount: Int = 0) {
        (self.features, self.clusters, self.points, self.sumPointCount) = (
            features, clusters, points, sumPointCount
        )
    }

    init(_ json: JSONValue) {
        self.init(
            features: json["features"]?.intValue ?? -1, clusters: json["clusters"]?.intValue ?? -1,
            points: json["points"]?.intValue ?? -1,
            sumPointCount: json["sum_point_count"]?.intValue ?? -1)
    }

    init<E>(_ features: [ClusterFeature<E>]) {
        self.features = features.count
        for f in features {
            if let c = f.cluster {
                clusters += 1
                sumPointCount += c.pointCount
            } else {
                points += 1
                sumPointCount += 1
            }
        }
    }
}

/// supercluster's `Math.round(v * 1e6) / 1e6`.
func round6(_ v: Double) -> Double {
    let s = v * 1e6
    let f = s.rounded(.down)
    return (f + (s - f >= 0.5 ? 1 : 0)) / 1e6
}

/// Cluster centers of one zoom as `[lon, lat, count]`, rounded to 1e-6 and sorted as the reference.
func sortedCenters<E>(_ features: [ClusterFeature<E>]) -> [[Double]] {
    features.compactMap(\.cluster)
        .map {
            [
                round6($0.coordinate.longitude), round6($0.coordinate.latitude),
                Double($0.pointCount),
            ]
        }
        .sorted { a, b in a.lexicographicallyPrecedes(b) }
}

func referenceCenters(_ value: JSONValue?) -> [[Double]] {
    (value?.arrayValue ?? []).map { ($0.arrayValue ?? []).compactMap(\.doubleValue) }
}

/// Whether two sorted center lists agree: same counts, coordinates within `tolerance` degrees.
func centersMatch(_ a: [[Double]], _ b: [[Double]], tolerance: Double) -> Bool {
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) {
        guard x.count == 3, y.count == 3, x[2] == y[2], abs(x[0] - y[0]) <= tolerance,
            abs(x[1] - y[1]) <= tolerance
        else { return false }
    }
    return true
}
