// fleet-fences: a geofencing server's core loop.
//
//     swift run -c release fleet-fences [--fences N] [--devices D] [--updates U]
//
// Builds one GeofenceIndex of N delivery zones around a city (immutable: a real server shares it
// between request handlers), then feeds a GeofenceEvaluator a seeded stream of U location updates
// from D vans driving between zones, in batches of 1,000 as they would arrive from a message queue.
// It prints the first transitions and the throughput.

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

do {
    let fenceCount = value("fences", default: 20_000)
    let deviceCount = value("devices", default: 2_000)
    let updateCount = value("updates", default: 200_000)
    var rng = SplitMix64(seed: 11)
    let city = Coordinate(latitude: 47.3769, longitude: 8.5417)  // Zürich

    // Delivery zones: circles of 50–500 m within 30 km of the city.
    let centers = (0..<fenceCount).map { _ in
        city.coordinate(
            atDistance: 30_000 * rng.nextUnit().squareRoot(), bearing: rng.uniform(0, 360))
    }
    let zones = try centers.enumerated().map { i, center throws(GeoError) in
        GeofenceIndex.Fence(
            identifier: "zone-\(i)",
            condition: .circle(
                try CircularGeographicCondition(center: center, radius: rng.uniform(50, 500))))
    }
    let built = Date()
    let index = try GeofenceIndex(zones)
    print("indexed \(fenceCount) zones in \(Int(Date().timeIntervalSince(built) * 1000)) ms")

    // Vans start at random zones and drive toward others, reporting every 10 s.
    struct Van {
        var position: Coordinate
        var target: Coordinate
    }
    var vans = (0..<deviceCount).map { _ in
        Van(
            position: centers[Int(rng.next() % UInt64(fenceCount))],
            target: centers[Int(rng.next() % UInt64(fenceCount))])
    }
    var evaluator = try GeofenceEvaluator(index: index)
    var clock = Date(timeIntervalSince1970: 1_800_000_000)
    var printed = 0, transitions = 0
    let started = Date()
    var sent = 0
    while sent < updateCount {
        var batch = [GeofenceUpdate]()
        for _ in 0..<min(1_000, updateCount - sent) {
            let v = Int(rng.next() % UInt64(deviceCount))
            let step = Geodesic.wgs84.inverse(from: vans[v].position, to: vans[v].target)
            if step.distance < 150 {
                vans[v].target = centers[Int(rng.next() % UInt64(fenceCount))]
            } else {
                vans[v].position = vans[v].position.coordinate(
                    atDistance: min(step.distance, 140), bearing: step.initialAzimuth)
            }
            batch.append(
                GeofenceUpdate(
                    device: "van-\(v)",
                    location: Location(
                        coordinate: vans[v].position, horizontalAccuracy: rng.uniform(3, 20),
                        timestamp: clock)))
            clock += 0.01
        }
        sent += batch.count
        let evaluation = evaluator.evaluate(batch, now: clock)
        transitions += evaluation.transitions.count
        for t in evaluation.transitions.prefix(max(0, 8 - printed)) {
            print("\(t.device) \(t.event.state.rawValue) \(t.event.identifier)")
            printed += 1
        }
    }
    let seconds = Date().timeIntervalSince(started)
    print(
        "\(sent) updates from \(deviceCount) vans: \(transitions) transitions in \(String(format: "%.2f", seconds)) s (\(Int(Double(sent) / seconds)) updates per second)"
    )
} catch {
    FileHandle.standardError.write(Data("fleet-fences: \(error)\n".utf8))
    exit(1)
}
