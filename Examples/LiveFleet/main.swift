// live-fleet: a live vehicle map's core loop.
//
//     swift run -c release live-fleet [--vehicles N] [--ticks T]
//
// N vehicles (default 10,000) drive seeded routes through a city; a third of them wait in six
// depots. Each tick every moving vehicle drives on and its moves go into a LiveClusterIndex as
// one batch; a map view follows vehicle 1 (vehicle 0 is parked) at zoom 13 and gets, per tick,
// what appeared (and from which cluster it
// split off), what disappeared (and which cluster it joined) and what moved or changed count,
// instead of redrawing. Cluster ids stay while a cluster's first vehicle and zoom stay, so a map
// can animate them.

import Foundation
import GeoTestSupport
import Meridian

func value(_ name: String, default fallback: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let i = arguments.firstIndex(of: "--\(name)"), i + 1 < arguments.count,
        let v = Int(arguments[i + 1]), v > 0
    else { return fallback }
    return v
}

/// A vehicle: where it is and where its route goes next.
struct Vehicle {
    var position: Coordinate
    var heading: Double  // degrees from north
    var speed: Double  // meters per tick
}

do {
    let count = value("vehicles", default: 10_000)
    let ticks = value("ticks", default: 10)
    var rng = SplitMix64(seed: 2026)
    let city = Coordinate(latitude: 47.3769, longitude: 8.5417)  // Zürich
    var fleet = (0..<count).map { _ in
        Vehicle(
            position: city.coordinate(
                atDistance: 12_000 * rng.nextUnit().squareRoot(), bearing: 360 * rng.nextUnit()),
            heading: 360 * rng.nextUnit(), speed: 50 + 250 * rng.nextUnit())
    }
    // The depots: a third of the fleet waits in six yards, where clusters stay big.
    for i in stride(from: 0, to: count, by: 3) {
        fleet[i].position = city.coordinate(atDistance: 6_000, bearing: Double(i % 6) * 60)
        fleet[i].speed = 0
    }

    var index = try LiveClusterIndex<Int>(
        Array(0..<count), key: { $0 }, coordinate: { fleet[$0].position })
    print("\(count) vehicles loaded into a live cluster index")
    var before = index.snapshot
    for tick in 1...ticks {
        // Every moving vehicle drives on; now and then one turns.
        var changes = [LiveClusterChange<Int>]()
        for i in fleet.indices where fleet[i].speed > 0 {
            if rng.nextUnit() < 0.1 { fleet[i].heading += 90 * (rng.nextUnit() - 0.5) }
            var next = fleet[i].position.coordinate(
                atDistance: fleet[i].speed, bearing: fleet[i].heading)
            if Geodesic.wgs84.inverse(from: city, to: next).distance > 15_000 {
                fleet[i].heading += 180  // back towards town
                next = fleet[i].position
            }
            fleet[i].position = next
            changes.append(.move(i, next))
        }
        let start = DispatchTime.now().uptimeNanoseconds
        try index.apply(changes)
        let applied = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let after = index.snapshot

        // The map follows vehicle 1 with a view about 4 km wide.
        let here = fleet[1].position
        let view = BoundingBox(
            west: here.longitude - 0.027, south: here.latitude - 0.018,
            east: here.longitude + 0.027, north: here.latitude + 0.018)
        let diff = LiveClusterSnapshot.diff(from: before, to: after, in: view, zoom: 13)
        let splits = diff.appeared.filter { $0.source?.cluster != nil }.count
        let joins = diff.disappeared.filter { $0.destination?.cluster != nil }.count
        let shown = after.clusters(in: view, zoom: 13)
        let biggest = shown.compactMap(\.cluster).max { $0.pointCount < $1.pointCount }
        print(
            "tick \(tick): \(changes.count) moves in \(String(format: "%.1f", applied)) ms;"
                + " view \(shown.count) features: \(diff.appeared.count) appeared (\(splits) split off a cluster),"
                + " \(diff.disappeared.count) disappeared (\(joins) joined one), \(diff.changed.count) changed;"
                + " biggest cluster \(biggest.map { "#\($0.id) of \($0.pointCount)" } ?? "none")")
        before = after
    }
} catch {
    print("live-fleet: \(error)")
    exit(1)
}
