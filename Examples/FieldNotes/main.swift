// field-notes: a notebook app whose study sites notice when you are back.
//
//     swift run field-notes [STORAGE-DIRECTORY]
//
// Core Location's CLMonitor allows 20 conditions per app; a field researcher has more study sites
// than that. This example keeps them in a persistent GeofenceMonitor: the first session walks past
// two sites and lingers at one (a dwell event), the app "quits", and the second session reopens the
// monitor from disk, finds every site's state where it was left, and notices the return to a site.

import Foundation
import Meridian

func describe(_ event: GeofenceEvent) -> String {
    let time = ISO8601DateFormatter().string(from: event.date)
    switch event.reason {
    case .fix(let distance, let accuracy):
        return
            "\(time) \(event.identifier): \(event.state.rawValue) (fix \(Int(distance.rounded())) m from the edge, ±\(Int(accuracy)) m)"
    case .crossing(_, _, let deepest):
        return
            "\(time) \(event.identifier): \(event.state.rawValue) (crossed between two fixes, \(Int((-deepest).rounded())) m deep)"
    case .dwell(let since):
        return
            "\(time) \(event.identifier): dwelling since \(ISO8601DateFormatter().string(from: since))"
    @unknown default:
        return "\(time) \(event.identifier): \(event.state.rawValue)"
    }
}

// A directory given on the command line keeps the notebook between runs (each run walks a day
// after the last one stored); without one the notebook lives in a temporary directory, removed
// at the end.
let given = CommandLine.arguments.dropFirst().first.map { URL(fileURLWithPath: $0) }
let directory =
    given
    ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "field-notes-\(ProcessInfo.processInfo.processIdentifier)")
defer { if given == nil { try? FileManager.default.removeItem(at: directory) } }
let storage = GeofenceStorage.directory(directory)
let configuration = GeofenceConfiguration(hysteresis: 10, dwellTime: 15 * 60)

// Thirty study sites along a valley (more than CLMonitor's 20), plus a meadow drawn as a polygon.
let valley = Coordinate(latitude: 46.4300, longitude: 13.7400)
let sites = (0..<30).map { i in
    (name: "site-\(i + 1)", center: valley.coordinate(atDistance: Double(i) * 400, bearing: 60))
}
let meadow = [(46.4325, 13.7440), (46.4330, 13.7475), (46.4312, 13.7482), (46.4306, 13.7449)]
    .map { Coordinate(latitude: $0.0, longitude: $0.1) }

do {
    // Session 1: set up the notebook and walk up the valley.
    var start = Date(timeIntervalSince1970: 1_790_000_000)
    do {
        let monitor = try GeofenceMonitor(
            name: "field-notes", storage: storage, configuration: configuration)
        for site in sites where await monitor.record(for: site.name) == nil {
            try await monitor.add(
                try CircularGeographicCondition(center: site.center, radius: 60),
                identifier: site.name)
        }
        if await monitor.record(for: "meadow") == nil {
            try await monitor.add(
                try PolygonGeographicCondition(exterior: meadow), identifier: "meadow")
        }
        // A notebook kept from an earlier run has processed fixes up to some time; this run's
        // walk comes a day after, since a monitor refuses fixes older than its last.
        if let last = await monitor.lastProcessedFix?.timestamp, last >= start {
            start = last.addingTimeInterval(86_400)
        }
        print("Session 1: \(await monitor.identifiers.count) sites in \(directory.path)")
        var here = valley.coordinate(atDistance: 300, bearing: 240)
        for minute in stride(from: 0, through: 40, by: 2) {
            // Walk 150 m every two minutes, but stop for a while from minute 10 to minute 30.
            if minute < 10 || minute > 30 { here = here.coordinate(atDistance: 150, bearing: 60) }
            let fix = Location(
                coordinate: here, horizontalAccuracy: 8,
                timestamp: start.addingTimeInterval(Double(minute) * 60))
            let events =
                try await monitor.process(fix) + (try await monitor.advance(to: fix.timestamp))
            if minute == 0 {
                // The first fix decides every site; report the decisions in one line.
                let outside = events.filter { $0.state == .unsatisfied }.count
                print("  first fix: \(outside) of \(events.count) sites decided outside")
                continue
            }
            for event in events { print("  " + describe(event)) }
        }
        start = start.addingTimeInterval(3600)
        await monitor.close()
    }

    // Session 2: the app starts again; the state comes back from disk.
    let monitor = try GeofenceMonitor(
        name: "field-notes", storage: storage, configuration: configuration)
    var satisfied = [String]()
    for name in await monitor.identifiers {
        if await monitor.record(for: name)?.state == .satisfied { satisfied.append(name) }
    }
    print(
        "Session 2: reopened with \(await monitor.identifiers.count) sites; inside \(satisfied.isEmpty ? "none" : satisfied.joined(separator: ", "))"
    )
    if let last = await monitor.record(for: "site-3")?.lastEvent {
        print("  site-3's last event: " + describe(last))
    }
    // The next morning: walking back down the valley from where the last session ended.
    var walk = await monitor.lastProcessedFix?.coordinate ?? sites[3].center
    let morning = start.addingTimeInterval(16 * 3600)
    for step in 0...12 {
        let fix = Location(
            coordinate: walk, horizontalAccuracy: 6,
            timestamp: morning.addingTimeInterval(Double(step) * 120))
        for event in try await monitor.process(fix) { print("  " + describe(event)) }
        if sites[0].center.distance(to: walk) < 30 { break }
        let toFirst = walk.bearing(to: sites[0].center)
        walk = walk.coordinate(
            atDistance: min(150, walk.distance(to: sites[0].center) - 10), bearing: toFirst)
    }
    await monitor.close()
} catch {
    FileHandle.standardError.write(Data("field-notes: \(error)\n".utf8))
    exit(1)
}
