import Foundation
import GeoCore

/// Timing, memory and output helpers shared by the benchmarks.
enum Bench {
    /// Nanoseconds of a monotonic clock.
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Runs `body` `runs` times (after one warm-up) and returns the wall time of each run in
    /// nanoseconds.
    static func measure(runs: Int, warmUp: Bool = true, _ body: () -> Void) -> [Double] {
        if warmUp { body() }
        var times = [Double]()
        for _ in 0..<runs {
            let start = now()
            body()
            times.append(Double(now() - start))
        }
        return times
    }

    /// Median, 90th percentile, minimum and maximum of some samples, as a JSON object; optionally
    /// divided by a count (per-element figures).
    static func summary(_ samples: [Double], per count: Int = 1) -> JSONValue {
        let sorted = samples.sorted().map { $0 / Double(count) }
        guard !sorted.isEmpty else { return .null }
        let median =
            sorted.count % 2 == 1
            ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        let p90 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
        return .object([
            "median_ns": .number(median), "p90_ns": .number(p90),
            "min_ns": .number(sorted[0]), "max_ns": .number(sorted[sorted.count - 1]),
        ])
    }

    /// The median of some samples.
    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The peak resident set size of this process in bytes (`VmHWM` of /proc/self/status), or 0 where
    /// that is not available.
    static func peakRSS() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return 0
        }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kilobytes * 1024
        }
        return 0
    }

    /// The current resident set size of this process in bytes (`VmRSS`), or 0.
    static func currentRSS() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return 0
        }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (line.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
        }
        return 0
    }

    /// Prints one JSON object, keys sorted, on one line.
    static func emit(_ object: [String: JSONValue]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(JSONValue.object(object))) ?? Data("{}".utf8)
        print(String(decoding: data, as: UTF8.self))
    }

    /// Parses `--name value` options.
    static func options(_ arguments: ArraySlice<String>) -> [String: String] {
        var result = [String: String]()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2))
                if index + 1 < arguments.endIndex, !arguments[index + 1].hasPrefix("--") {
                    result[name] = arguments[index + 1]
                    index += 2
                    continue
                }
                result[name] = ""
            }
            index += 1
        }
        return result
    }
}
