import CBaselines
import Foundation
import GeoCluster
import GeoCore

/// The per-phase profile of a cluster build, and the memory bandwidth the phases are held against.
enum Profile {
    /// The bytes a phase must move per item and level at the least (read and written once each),
    /// by the layout of its buffers; a lower bound of its time at the copy bandwidth.
    static func bytesPerItemLevel(_ phase: ClusterBuildProfile.Phase, points: Int) -> Double {
        switch phase {
        // Coordinate (16 B) in, float32 pair (8 B) out.
        case .projection: 24
        // Entries (12 B) and keys (8 B) read and written, and each entry's new position gathered
        // (4 B read, 4 B written, 4 B read back).
        case .cellIndex: 52
        // Entries and keys read (20 B); each record's neighbor list offset written and read (8 B).
        case .neighborSearch: 28
        // Records read (16 B) and written (16 B), offsets (4 B), processed flags (1 B) and new
        // positions (4 B).
        case .greedyPass: 41
        // Each of the tree's levels reads and writes every 12-byte item once; the rank walk reads
        // the items (12 B) and the level (16 B) and writes ranks and refs (8 B).
        case .treeLayout:
            24 * max(1, (log2(Double(max(points, 2)) / 64)).rounded(.up)) + 36
        case .aggregates, .treeQueries: 0
        }
    }

    /// Per phase: wall time in ns per item per level, the CPU time each lane spent on it, and the
    /// bandwidth limit; per zoom: each phase's wall time.
    static func summary(_ profile: ClusterBuildProfile, points: Int) -> JSONValue {
        let bandwidth = measuredCopyBandwidth
        var phases = [String: JSONValue]()
        var buildLaneWall: UInt64 = 0
        for phase in ClusterBuildProfile.Phase.allCases {
            let spans = profile.spans.filter { $0.phase == phase }
            let whole = spans.filter { $0.lane != .part }
            guard !whole.isEmpty else { continue }
            let wall = whole.reduce(0) { $0 + $1.nanoseconds }
            let items = whole.reduce(0) { $0 + $1.items }
            var cpu: [ClusterBuildProfile.Lane: UInt64] = [:]
            for span in spans where !span.isSplit {
                cpu[span.lane, default: 0] += span.cpuNanoseconds
            }
            let totalCPU = cpu.values.reduce(0, +)
            buildLaneWall += whole.filter { $0.lane == .build }.reduce(0) { $0 + $1.nanoseconds }
            let perItem = items > 0 ? Double(wall) / Double(items) : 0
            let bytes = bytesPerItemLevel(phase, points: points)
            var entry: [String: JSONValue] = [
                "wall_ns": .integer(Int(wall)),
                "item_levels": .integer(items),
                "ns_per_item_level": .number(perItem),
                "cpu_ns": .integer(Int(totalCPU)),
                "cpu_share": .object(
                    Dictionary(
                        uniqueKeysWithValues: cpu.map { lane, ns in
                            (
                                lane.rawValue,
                                JSONValue.number(totalCPU > 0 ? Double(ns) / Double(totalCPU) : 0)
                            )
                        })),
                "lane": .string(whole.contains { $0.lane == .tree } ? "tree" : "build"),
            ]
            if bytes > 0, bandwidth > 0 {
                let limit = bytes / bandwidth * 1e9
                entry["bytes_per_item_level"] = .number(bytes)
                entry["bandwidth_limit_ns_per_item_level"] = .number(limit)
                entry["times_the_limit"] = .number(perItem / limit)
            }
            phases[phase.rawValue] = .object(entry)
        }
        phases["other"] = [
            "wall_ns": .integer(Int(profile.nanoseconds) - Int(buildLaneWall)),
            "note": "time of the build thread in no phase: waiting for trees, bookkeeping",
        ]
        var zooms = [Int: [String: JSONValue]]()
        for span in profile.spans where span.lane != .part && span.zoom >= 0 {
            var entry = zooms[span.zoom] ?? ["z": .integer(span.zoom)]
            let key = span.phase.rawValue + "_ns"
            entry[key] = .integer((entry[key]?.intValue ?? 0) + Int(span.nanoseconds))
            if span.phase == .greedyPass || span.phase == .projection {
                entry["items"] = .integer(span.items)
            }
            zooms[span.zoom] = entry
        }
        return [
            "total_ns": .integer(Int(profile.nanoseconds)),
            "phases": .object(phases),
            "by_zoom": .array(
                zooms.keys.sorted(by: >).compactMap { zooms[$0].map(JSONValue.object) }),
        ]
    }

    /// Writes a build's spans, one tab-separated line each in the order they started: start and
    /// length in ms from the first span's start, phase, zoom, lane and the thread's CPU ms.
    static func writeTimeline(_ profile: ClusterBuildProfile, to path: String) {
        let spans = profile.spans.sorted { $0.startNanoseconds < $1.startNanoseconds }
        let origin = spans.first?.startNanoseconds ?? 0
        var text = "start_ms\tlength_ms\tphase\tzoom\tlane\tcpu_ms\n"
        for span in spans {
            let start = Double(span.startNanoseconds &- origin) / 1e6
            let fields = [
                String(format: "%.2f", start),
                String(format: "%.2f", Double(span.nanoseconds) / 1e6),
                span.phase.rawValue, String(span.zoom),
                span.lane.rawValue + (span.isSplit ? "*" : ""),
                String(format: "%.2f", Double(span.cpuNanoseconds) / 1e6),
            ]
            text += fields.joined(separator: "\t") + "\n"
        }
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    /// The copy bandwidth (bytes read plus written per second) measured once per run.
    nonisolated(unsafe) static var measuredCopyBandwidth: Double = {
        var read = 0.0, write = 0.0, copy = 0.0
        guard bench_memory_bandwidth(256 << 20, 5, &read, &write, &copy) == 0 else { return 0 }
        bandwidthFigures = (read, write, copy)
        return copy
    }()

    nonisolated(unsafe) static var bandwidthFigures = (read: 0.0, write: 0.0, copy: 0.0)

    /// The measured bandwidths, in bytes per second.
    static func bandwidth() -> JSONValue {
        _ = measuredCopyBandwidth
        let f = bandwidthFigures
        return [
            "buffer_bytes": .integer(256 << 20),
            "read_bytes_per_s": .number(f.read), "write_bytes_per_s": .number(f.write),
            "copy_bytes_per_s": .number(f.copy),
            "note": "best of 5 passes over 256 MB buffers; copy counts bytes read plus written",
        ]
    }
}
