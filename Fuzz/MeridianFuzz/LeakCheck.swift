import Foundation
import GeoCluster
import GeoCore
import GeoFence

/// Create, use and drop the types that own C handles or large buffers, many times over, and
/// measure the process's resident memory before and after (`meridian-fuzz leaks [CYCLES]`).
///
/// Each workload first runs a warm-up (caches, PROJ's database connection, the allocator's pools),
/// then the resident set size is read, the cycles run, and it is read again: a leak of even a few
/// bytes per cycle shows over 100,000 cycles as growth beyond ``allowedGrowth``. Under
/// AddressSanitizer the leak checker looks at the same cycles object by object.
enum LeakCheck {
    /// The growth of the resident set allowed over all cycles of one workload: the allocator's
    /// noise, about 60 bytes per cycle over 100,000 cycles.
    static let allowedGrowth = 6 << 20

    /// One workload's figures.
    struct Result: Sendable {
        var name: String
        var cycles: Int
        var before: Int
        var after: Int
        var seconds: Double

        var growth: Int { after - before }
        var json: String {
            """
            {"workload": "\(name)", "cycles": \(cycles), "rss_before_bytes": \(before), \
            "rss_after_bytes": \(after), "growth_bytes": \(growth), "seconds": \(seconds)}
            """
        }
    }

    /// The workloads, by name, with the share of the cycles each runs: each cycle creates its
    /// objects, uses them and lets them go. Transformers run a tenth of the cycles: creating one
    /// costs PROJ about 3 ms of database lookups (100,000 would take five minutes).
    static let workloads: [(name: String, share: Int, cycle: @Sendable () async throws -> Void)] = [
        ("geometry", 1, geometry), ("prepared-geometry", 1, preparedGeometry),
        ("transformer", 10, transformer), ("cluster-index", 1, clusterIndex),
        ("fence-index", 1, fenceIndex), ("monitor", 1, monitor),
    ]

    static func geometry() throws {
        let polygon = try Geometry(wkt: "POLYGON ((13 45, 14 45, 14 46, 13 46, 13 45))")
        let buffered = try polygon.buffer(distance: 0.01)
        _ = try buffered.intersection(polygon).wkb()
        _ = try polygon.geodesicArea()
    }

    static func preparedGeometry() throws {
        let polygon = try Geometry(wkt: "POLYGON ((13 45, 14 45, 14 46, 13 46, 13 45))")
        let prepared = try PreparedGeometry(polygon)
        _ = try prepared.contains(Position(x: 13.5, y: 45.5))
        _ = try prepared.contains(Geometry(wkt: "LINESTRING (13.2 45.2, 13.8 45.8)"))
    }

    static func transformer() throws {
        let transformer = try CoordinateTransformer(source: "EPSG:4326", target: "EPSG:3857")
        _ = try transformer.transform(Position(x: 45.5, y: 13.7))
    }

    static func clusterIndex() throws {
        let points = (0..<50).map { i in
            Coordinate(
                latitude: 45 + Double(i % 10) * 0.01, longitude: 13 + Double(i / 10) * 0.01)
        }
        let index = try ClusterIndex(points, coordinate: { $0 })
        _ = index.clusters(in: BoundingBox.world, zoom: 8)
    }

    static func fenceIndex() throws {
        let circles = try (0..<20).map { i in
            try CircularGeographicCondition(
                center: Coordinate(latitude: 45 + Double(i) * 0.001, longitude: 13.7), radius: 80)
        }
        let index = try GeofenceIndex(circles: circles)
        _ = index.fences(containing: Coordinate(latitude: 45.01, longitude: 13.7))
    }

    static func monitor() async throws {
        let monitor = try GeofenceMonitor(name: "leaks", storage: .inMemory)
        try await monitor.add(
            CircularGeographicCondition(
                center: Coordinate(latitude: 45.5, longitude: 13.7), radius: 100),
            identifier: "site")
        _ = try await monitor.process(Location(latitude: 45.5, longitude: 13.7))
        await monitor.close()
    }

    /// The resident set size of this process, in bytes (0 where the system does not say).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
            return 0
        }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Runs one workload: a warm-up of a tenth of the cycles (at least 100), then the cycles.
    static func run(
        _ name: String, cycles: Int, _ cycle: @Sendable () async throws -> Void
    ) async throws -> Result {
        for _ in 0..<max(100, cycles / 10) { try await cycle() }
        let before = residentBytes()
        let start = Date()
        for _ in 0..<cycles { try await cycle() }
        let seconds = Date().timeIntervalSince(start)
        return Result(
            name: name, cycles: cycles, before: before, after: residentBytes(), seconds: seconds)
    }

    /// Runs every workload and prints one JSON object per workload; exits 1 if any grew too much.
    ///
    /// Under AddressSanitizer (`MERIDIAN_LEAK_CHECKER` set) the allocator's own bookkeeping makes
    /// the resident set meaningless, so only the leak checker's verdict at exit counts.
    static func main(cycles: Int) async {
        let bounded = ProcessInfo.processInfo.environment["MERIDIAN_LEAK_CHECKER"] == nil
        var failed = false
        for (name, share, cycle) in workloads {
            do {
                let result = try await run(name, cycles: max(1, cycles / share), cycle)
                print(result.json)
                if bounded && result.growth > allowedGrowth { failed = true }
            } catch {
                print("{\"workload\": \"\(name)\", \"error\": \"\(error)\"}")
                failed = true
            }
        }
        if failed {
            FileHandle.standardError.write(
                Data("meridian-fuzz leaks: memory grew by more than \(allowedGrowth) bytes\n".utf8))
            exit(1)
        }
    }
}
