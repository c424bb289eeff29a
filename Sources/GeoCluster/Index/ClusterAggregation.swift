import GeoCore

/// Per-cluster values folded from the clusters' elements, as supercluster's `map`/`reduce` options
/// compute them, but typed.
///
/// ```swift
/// let population = index.aggregates(map: { $0.population }, reduce: { $0 += $1 })
/// for case .cluster(let c) in index.clusters(in: box, zoom: 4) { print(c.id, population[c] ?? 0) }
/// ```
public struct ClusterAggregates<Value> {
    private(set) var values: [Int: Value]

    init(values: [Int: Value]) { self.values = values }

    /// The value of the cluster with an id, or `nil` for an id no cluster of the index has.
    public subscript(id: Int) -> Value? { values[id] }

    /// The value of a cluster of the index the aggregates were computed from.
    public subscript(cluster: Cluster) -> Value? { values[cluster.id] }

    /// The number of clusters with a value.
    public var count: Int { values.count }
}

extension ClusterAggregates: Sendable where Value: Sendable {}

extension ClusterIndex {
    /// Folds element properties into one value per cluster, exactly as supercluster's `map` and
    /// `reduce` options do: a cluster's value starts as a copy of its origin's value (`map` of the
    /// element, or the sub-cluster's value) and takes `reduce` of each other member in turn, in the
    /// index's ``ClusterOptions/memberOrder`` (by default the order supercluster visits them).
    ///
    /// - Parameters:
    ///   - map: The value of one element (called once per element of a cluster).
    ///   - reduce: Merges a member's value into the accumulated one.
    /// - Complexity: O(c √n) for c clusters.
    public func aggregates<Value>(
        map: (Element) -> Value, reduce: (inout Value, Value) -> Void
    ) -> ClusterAggregates<Value> {
        var result = [Int: Value]()
        for partition in partitions {
            let h = partition.hierarchy
            var values = [Value?](repeating: nil, count: h.clusterID.count)
            func mapped(_ ref: UInt32) -> Value? {
                h.isCluster(ref)
                    ? values[h.clusterIndex(ref)] : map(elements[partition.inputIndex(Int(ref))])
            }
            // Sub-clusters are formed before (at higher zooms than) the clusters that absorb them.
            for c in 0..<h.clusterID.count {
                let origin = h.clusterOrigin[c]
                guard var accumulated = mapped(origin),
                    var members = try? h.children(ofCluster: h.clusterID[c])
                else { continue }
                if options.memberOrder == .insertion {
                    members.sort { h.originElement($0) < h.originElement($1) }
                }
                for member in members where member != origin {
                    if let value = mapped(member) { reduce(&accumulated, value) }
                }
                values[c] = accumulated
                result[h.clusterID[c] + partition.idOffset] = accumulated
            }
        }
        return ClusterAggregates(values: result)
    }
}

/// How a ``ClusterIndex`` folds each cluster's ``Cluster/aggregate`` from its elements while it is
/// built: supercluster's `map` and `reduce` options, over JSON values so that clusters stay one
/// concrete, `Codable` type.
///
/// ```swift
/// let index = try ClusterIndex(bikes, coordinate: { $0.coordinate }, aggregation: .sum { $0.riders })
/// for case .cluster(let c) in index.clusters(in: .world, zoom: 3) { print(c.aggregate ?? 0) }   // 42.0
/// ```
public struct ClusterAggregation<Element> {
    /// The value of one element.
    public var map: (Element) -> JSONValue
    /// Merges a member's value into the accumulated one.
    public var reduce: (inout JSONValue, JSONValue) -> Void

    /// An aggregation from a `map` and a `reduce` closure, applied as in ``ClusterIndex/aggregates(map:reduce:)``.
    public init(
        map: @escaping (Element) -> JSONValue,
        reduce: @escaping (inout JSONValue, JSONValue) -> Void
    ) {
        self.map = map
        self.reduce = reduce
    }

    /// The sum of a numeric property over the cluster's elements, as a JSON number.
    public static func sum(_ value: @escaping (Element) -> Double) -> ClusterAggregation {
        ClusterAggregation(
            map: { .number(value($0)) },
            reduce: { total, next in
                total = .number((total.doubleValue ?? 0) + (next.doubleValue ?? 0))
            })
    }

    /// How many of the cluster's elements there are of each kind, as a JSON object `{kind: count}`.
    public static func counts(by kind: @escaping (Element) -> String) -> ClusterAggregation {
        ClusterAggregation(
            map: { .object([kind($0): .integer(1)]) },
            reduce: { counts, next in
                var merged = counts.objectValue ?? [:]
                for (key, value) in next.objectValue ?? [:] {
                    merged[key] = .integer((merged[key]?.intValue ?? 0) + (value.intValue ?? 0))
                }
                counts = .object(merged)
            })
    }

    /// The smallest value of a numeric property over the cluster's elements, as a JSON number;
    /// elements whose value is NaN do not count.
    public static func minimum(_ value: @escaping (Element) -> Double) -> ClusterAggregation {
        extreme(value, keep: { $0 < $1 })
    }

    /// The largest value of a numeric property over the cluster's elements, as a JSON number;
    /// elements whose value is NaN do not count.
    public static func maximum(_ value: @escaping (Element) -> Double) -> ClusterAggregation {
        extreme(value, keep: { $0 > $1 })
    }

    private static func extreme(
        _ value: @escaping (Element) -> Double, keep: @escaping (Double, Double) -> Bool
    ) -> ClusterAggregation {
        ClusterAggregation(
            map: { element in
                let v = value(element)
                return v.isNaN ? .null : .number(v)
            },
            reduce: { best, next in
                guard let candidate = next.doubleValue else { return }
                if let current = best.doubleValue, !keep(candidate, current) { return }
                best = .number(candidate)
            })
    }

    /// The mean of a numeric property over the cluster's elements, as a JSON object
    /// `{"mean": m, "count": n, "sum": s}`: n counts the elements whose value is not NaN, s is their
    /// sum (added in the order ``sum(_:)`` adds), and m is s / n, correctly
    /// rounded from s (1,000 values 0…9 in turn give 4.5, not a running mean's 4.500000000000002);
    /// where s overflows, m is the count-weighted mean of the sub-clusters' means and s is
    /// infinite (`null` in JSON text). The mean and sum are `null` when n is 0.
    public static func mean(_ value: @escaping (Element) -> Double) -> ClusterAggregation {
        ClusterAggregation(
            map: { element in
                let v = value(element)
                return v.isNaN
                    ? ["mean": .null, "count": 0, "sum": .null]
                    : ["mean": .number(v), "count": 1, "sum": .number(v)]
            },
            reduce: { total, next in
                let n1 = total["count"]?.intValue ?? 0, n2 = next["count"]?.intValue ?? 0
                guard n2 > 0 else { return }
                guard n1 > 0 else {
                    total = next
                    return
                }
                let m1 = total["mean"]?.doubleValue ?? 0, m2 = next["mean"]?.doubleValue ?? 0
                let sum = (total["sum"]?.doubleValue ?? 0) + (next["sum"]?.doubleValue ?? 0)
                let n = n1 + n2
                let mean: Double
                if sum.isFinite || !m1.isFinite || !m2.isFinite {
                    mean = sum / Double(n)
                } else {
                    // The sum overflowed: the weighted means, whose terms cannot.
                    let w = Double(n2) / Double(n), d = m2 - m1
                    mean = d.isFinite ? m1 + d * w : m1 * (1 - w) + m2 * w
                }
                total = ["mean": .number(mean), "count": .integer(n), "sum": .number(sum)]
            })
    }

    /// Several aggregations at once, as a JSON object with one member per name.
    ///
    /// ```swift
    /// let stats = ClusterAggregation<Station>.combined([
    ///     ("riders", .sum { $0.riders }), ("oldest", .minimum { $0.built }),
    /// ])
    /// ```
    public static func combined(_ parts: [(String, ClusterAggregation)]) -> ClusterAggregation {
        ClusterAggregation(
            map: { element in
                .object(Dictionary(parts.map { ($0.0, $0.1.map(element)) }) { a, _ in a })
            },
            reduce: { total, next in
                var merged = total.objectValue ?? [:]
                for (name, part) in parts {
                    var value = merged[name] ?? .null
                    part.reduce(&value, next[name] ?? .null)
                    merged[name] = value
                }
                total = .object(merged)
            })
    }
}
