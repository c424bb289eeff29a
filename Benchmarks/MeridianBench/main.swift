import Foundation

// meridian-bench: release-mode benchmarks of Meridian's hot paths. Each prints one JSON object.
// Run: swift run -c release meridian-bench <name> [--option value ...]

let benchmarks: [String: ([String: String]) -> Void] = [
    "geodesic": GeodesicBenchmark.run,
    "transform": TransformBenchmark.run,
    "geometry": GeometryBenchmark.run,
    "route": RouteBenchmark.run,
    "cluster": ClusterBenchmark.run,
    "fence": FenceBenchmark.run,
    "render": RenderBenchmark.run,
    "places": PlacesBenchmark.run,
]

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let benchmark = benchmarks[name] else {
    let names = benchmarks.keys.sorted().joined(separator: ", ")
    FileHandle.standardError.write(
        Data("usage: meridian-bench <\(names)> [--option value ...]\n".utf8))
    exit(64)
}
benchmark(Bench.options(arguments.dropFirst()))
