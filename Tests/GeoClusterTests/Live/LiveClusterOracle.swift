import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

/// An element as the tests' model of a live index keeps it: what a fresh rebuild is made from.
struct ModelElement: Sendable {
    var serial: Int
    var key: String
    var coordinate: Coordinate
    var category: String?
    var value: JSONValue
}

/// A test's record of what a live index should hold: the current elements in insertion order,
/// with the serials the index gives them.
struct LiveModel {
    var elements: [ModelElement] = []
    var nextSerial = 0

    mutating func apply(_ change: LiveClusterChange<String>) {
        switch change {
        case .insert(let key, let c, let category, let value):
            elements.append(
                ModelElement(
                    serial: nextSerial, key: key, coordinate: c, category: category, value: value))
            nextSerial += 1
        case .remove(let key):
            elements.removeAll { $0.key == key }
        case .move(let key, let c):
            if let i = elements.firstIndex(where: { $0.key == key }) { elements[i].coordinate = c }
        }
    }

    var keys: [String] { elements.map(\.key) }
}

/// One feature as the comparison sees it: points by key; clusters by their first element, count,
/// the bits of their center, aggregate, identifier and sorted member keys.
struct FeatureFingerprint: Hashable, CustomStringConvertible {
    var first: String
    var count: Int
    var latitudeBits: UInt64
    var longitudeBits: UInt64
    var aggregate: JSONValue?
    var identifier: String?
    var members: [String]

    var description: String {
        "\(first) ×\(count) at \(Double(bitPattern: latitudeBits)),\(Double(bitPattern: longitudeBits)) \(aggregate.map { "\($0)" } ?? "") [\(identifier ?? "-")]"
    }
}

enum LiveOracle {
    static let reduceSum: @Sendable (inout JSONValue, JSONValue) -> Void = { total, next in
        total = .number((total.doubleValue ?? 0) + (next.doubleValue ?? 0))
    }

    /// A fresh static index over the model's elements, with insertion member order.
    static func rebuild(
        _ model: LiveModel, options: ClusterOptions, categories: Bool, aggregates: Bool
    ) throws -> ClusterIndex<ModelElement> {
        var options = options
        options.memberOrder = .insertion
        return try ClusterIndex(
            model.elements, options: options, coordinate: { $0.coordinate },
            clusteringIdentifier: categories ? { $0.category ?? "" } : nil,
            aggregation: aggregates
                ? ClusterAggregation(map: { $0.value }, reduce: { reduceSum(&$0, $1) }) : nil)
    }

    static func fingerprints(
        _ index: ClusterIndex<ModelElement>, zoom: Int, categories: Bool
    ) throws -> [FeatureFingerprint] {
        try index.clusters(
            in: BoundingBox(west: -180, south: -90, east: 180, north: 90), zoom: Double(zoom)
        )
        .map { feature in
            switch feature {
            case .point(let p):
                return FeatureFingerprint(
                    first: p.element.key, count: 1,
                    latitudeBits: p.coordinate.latitude.bitPattern,
                    longitudeBits: p.coordinate.longitude.bitPattern,
                    aggregate: nil,
                    identifier: categories ? p.element.category ?? "" : nil,
                    members: [p.element.key])
            case .cluster(let c):
                let leaves = try index.leaves(of: c.id, limit: .max)
                let first = leaves.min { $0.index < $1.index }
                return FeatureFingerprint(
                    first: first?.element.key ?? "?", count: c.pointCount,
                    latitudeBits: c.coordinate.latitude.bitPattern,
                    longitudeBits: c.coordinate.longitude.bitPattern,
                    aggregate: c.aggregate, identifier: c.clusteringIdentifier,
                    members: leaves.map(\.element.key).sorted())
            }
        }.sorted { $0.first < $1.first }
    }

    static func fingerprints(
        _ snapshot: LiveClusterSnapshot<String>, zoom: Int, categories: Bool,
        model: LiveModel
    ) throws -> [FeatureFingerprint] {
        let category = Dictionary(
            uniqueKeysWithValues: model.elements.map { ($0.key, $0.category) })
        return try snapshot.clusters(
            in: BoundingBox(west: -180, south: -90, east: 180, north: 90), zoom: Double(zoom)
        ).map { feature in
            switch feature {
            case .point(let p):
                return FeatureFingerprint(
                    first: p.element, count: 1,
                    latitudeBits: p.coordinate.latitude.bitPattern,
                    longitudeBits: p.coordinate.longitude.bitPattern,
                    aggregate: nil,
                    identifier: categories ? (category[p.element] ?? nil) ?? "" : nil,
                    members: [p.element])
            case .cluster(let c):
                let leaves = try snapshot.leaves(of: c.id, limit: .max)
                // The id names the first element and the zoom the cluster was formed at.
                #expect(leaves.first.map { $0.index << 5 } == c.id & ~31)
                return FeatureFingerprint(
                    first: leaves.first?.element ?? "?", count: c.pointCount,
                    latitudeBits: c.coordinate.latitude.bitPattern,
                    longitudeBits: c.coordinate.longitude.bitPattern,
                    aggregate: c.aggregate,
                    identifier: categories ? c.clusteringIdentifier ?? "" : nil,
                    members: leaves.map(\.element).sorted())
            }
        }.sorted { $0.first < $1.first }
    }

    /// Checks every zoom of a live snapshot against a fresh rebuild; returns the number of zooms
    /// that differ (after recording the first difference).
    @discardableResult
    static func compare(
        _ snapshot: LiveClusterSnapshot<String>, _ model: LiveModel, options: ClusterOptions,
        categories: Bool = false, aggregates: Bool = false, context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int {
        let index = try rebuild(
            model, options: options, categories: categories, aggregates: aggregates)
        var differing = 0
        for zoom in options.minZoom...(options.maxZoom + 1) {
            let expected = try fingerprints(index, zoom: zoom, categories: categories)
            let actual = try fingerprints(
                snapshot, zoom: zoom, categories: categories, model: model)
            if expected != actual {
                differing += 1
                if differing == 1 {
                    let missing = Set(expected).subtracting(actual).sorted { $0.first < $1.first }
                    let extra = Set(actual).subtracting(expected).sorted { $0.first < $1.first }
                    Issue.record(
                        "\(context), zoom \(zoom): rebuild has \(missing.prefix(4)) that the live index lacks; live has \(extra.prefix(4))",
                        sourceLocation: sourceLocation)
                }
            }
        }
        return differing
    }
}
