import Foundation
import GeoCluster
import GeoCore
import GeoTestSupport
import Testing

/// Where a scenario puts its points.
enum Scatter: String, CaseIterable, Sendable {
    /// A city: clusters at many zooms.
    case city
    /// Piles: a few places, many elements at each, exactly the same coordinate.
    case piles
    /// Both sides of the 180th meridian near Fiji.
    case antimeridian
    /// Near both poles, including the poles themselves.
    case poles
    /// The whole globe.
    case world

    func coordinate(_ rng: inout SplitMix64) -> Coordinate {
        switch self {
        case .city:
            return Coordinate(
                latitude: 47.3 + rng.nextUnit() * 0.2, longitude: 8.4 + rng.nextUnit() * 0.3)
        case .piles:
            let spots = [(47.37, 8.54), (47.371, 8.541), (-33.9, 151.2), (0, 0)]
            let (lat, lon) = spots[Int(rng.next() % UInt64(spots.count))]
            return Coordinate(latitude: lat, longitude: lon)
        case .antimeridian:
            let lon =
                rng.nextUnit() < 0.5 ? 180 - rng.nextUnit() * 0.5 : -180 + rng.nextUnit() * 0.5
            return Coordinate(
                latitude: -17 - rng.nextUnit(), longitude: rng.next() % 17 == 0 ? 180 : lon)
        case .poles:
            let north = rng.nextUnit() < 0.5
            let lat = rng.next() % 13 == 0 ? 90 : 89.5 + rng.nextUnit() * 0.5
            return Coordinate(latitude: north ? lat : -lat, longitude: -180 + rng.nextUnit() * 360)
        case .world:
            return Coordinate(
                latitude: -85 + rng.nextUnit() * 170, longitude: -180 + rng.nextUnit() * 360)
        }
    }
}

/// A random change to a live index and its model: inserts, removes (often of a cluster's first
/// element) and moves.
func randomChange(
    _ rng: inout SplitMix64, model: LiveModel, scatter: Scatter, categories: Bool,
    counter: inout Int
) -> LiveClusterChange<String> {
    let roll = rng.nextUnit()
    if model.elements.isEmpty || roll < 0.45 {
        counter += 1
        let category = categories ? ["bus", "tram", "bike"][Int(rng.next() % 3)] : nil
        return .insert(
            "k\(counter)", scatter.coordinate(&rng), clusteringIdentifier: category,
            value: .number(Double(rng.next() % 1000) / 7))
    }
    // Early elements are the first elements of most clusters: pick them often.
    let n = model.elements.count
    let i = rng.nextUnit() < 0.3 ? Int(rng.next() % UInt64(min(n, 4))) : Int(rng.next() % UInt64(n))
    let key = model.elements[i].key
    if roll < 0.7 { return .remove(key) }
    if rng.nextUnit() < 0.3 {
        // A short hop: the element stays in or near its cluster.
        let c = model.elements[i].coordinate
        return .move(
            key,
            Coordinate(
                latitude: max(-90, min(90, c.latitude + (rng.nextUnit() - 0.5) * 0.001)),
                longitude: max(-180, min(180, c.longitude + (rng.nextUnit() - 0.5) * 0.001))))
    }
    return .move(key, scatter.coordinate(&rng))
}

@Suite("Live clustering equals a rebuild")
struct LiveClusterExactnessTests {
    @Test("after every change, on small sets", arguments: Scatter.allCases)
    func everyStep(scatter: Scatter) throws {
        var rng = SplitMix64(seed: 0x11FE + UInt64(Scatter.allCases.firstIndex(of: scatter) ?? 0))
        let options = ClusterOptions(radius: 60, maxZoom: 18)
        var index = try LiveClusterIndex<String>(options: options)
        var model = LiveModel()
        var counter = 0
        for step in 0..<TestScale.steps(160, minimum: 40) {
            let change = randomChange(
                &rng, model: model, scatter: scatter, categories: false, counter: &counter)
            try index.apply([change])
            model.apply(change)
            #expect(index.count == model.elements.count)
            let problems = index.consistencyProblems + index.greedyProblems
            #expect(problems.isEmpty, "\(scatter) step \(step) (\(change)): \(problems.prefix(5))")
            if !problems.isEmpty { return }
            let differing = try LiveOracle.compare(
                index.snapshot, model, options: options,
                context: "\(scatter) step \(step) (\(change))")
            if differing > 0 { return }
        }
    }

    @Test(
        "with categories and an aggregate, after every change", arguments: [Scatter.city, .piles])
    func categoriesAndAggregates(scatter: Scatter) throws {
        var rng = SplitMix64(seed: 0xCA7 + UInt64(Scatter.allCases.firstIndex(of: scatter) ?? 0))
        let options = ClusterOptions(maxZoom: 16)
        var index = try LiveClusterIndex<String>(options: options, reduce: LiveOracle.reduceSum)
        var model = LiveModel()
        var counter = 0
        for step in 0..<TestScale.steps(120, minimum: 30) {
            let change = randomChange(
                &rng, model: model, scatter: scatter, categories: true, counter: &counter)
            try index.apply([change])
            model.apply(change)
            let differing = try LiveOracle.compare(
                index.snapshot, model, options: options, categories: true, aggregates: true,
                context: "\(scatter) step \(step) (\(change))")
            if differing > 0 { return }
        }
    }

    @Test("after every batch, on larger sets", arguments: [Scatter.city, .world, .piles])
    func batches(scatter: Scatter) throws {
        var rng = SplitMix64(seed: 0xBA7C + UInt64(Scatter.allCases.firstIndex(of: scatter) ?? 0))
        let options = ClusterOptions(minZoom: 2, maxZoom: 15)
        var index = try LiveClusterIndex<String>(options: options)
        var model = LiveModel()
        // Every batch goes down the zooms change by change (large batches would rebuild).
        index.rebuildFraction = .max
        var rebuilding = try LiveClusterIndex<String>(options: options)
        var counter = 0
        var initial = [LiveClusterChange<String>]()
        for _ in 0..<TestScale.steps(3000, minimum: 750) {
            counter += 1
            initial.append(.insert("k\(counter)", scatter.coordinate(&rng)))
        }
        try index.apply(initial)
        try rebuilding.apply(initial)
        for change in initial { model.apply(change) }
        try LiveOracle.compare(index.snapshot, model, options: options, context: "\(scatter) load")
        for batch in 0..<TestScale.steps(4, minimum: 2) {
            var changes = [LiveClusterChange<String>]()
            var shadow = model
            for _ in 0..<400 {
                let change = randomChange(
                    &rng, model: shadow, scatter: scatter, categories: false, counter: &counter)
                shadow.apply(change)
                changes.append(change)
            }
            try index.apply(changes)
            try rebuilding.apply(changes)
            model = shadow
            // A rebuilding batch gives the same index (ids included).
            for zoom in [2, 9, 16] {
                #expect(
                    index.snapshot.clusters(in: BoundingBox.world, zoom: Double(zoom))
                        == rebuilding.snapshot.clusters(in: BoundingBox.world, zoom: Double(zoom)))
            }
            #expect(rebuilding.consistencyProblems.isEmpty)
            let problems = index.consistencyProblems
            #expect(problems.isEmpty, "\(scatter) batch \(batch): \(problems.prefix(5))")
            if !problems.isEmpty { return }
            let differing = try LiveOracle.compare(
                index.snapshot, model, options: options, context: "\(scatter) batch \(batch)")
            if differing > 0 { return }
        }
    }
}
