import Foundation
import GeoCore
import GeoRender
import GeoTestSupport

/// `meridian-bench render`: an SVG map of `--n` points (default 100,000, seeded, spread over
/// Europe) on the country outlines, 1,200 × 800 points, against a naive writer of the same circles
/// with `String(format:)` in the same run.
enum RenderBenchmark {
    static func run(_ options: [String: String]) {
        let n = Int(options["n"] ?? "") ?? 100_000
        let runs = max(1, Int(options["runs"] ?? "") ?? 5)
        var rng = SplitMix64(seed: 42)
        let features = (0..<n).map { _ in
            Feature(
                geometry: .point(Position(x: rng.uniform(-10, 30), y: rng.uniform(36, 60))),
                properties: .null)
        }
        let size = MapSize(width: 1_200, height: 800)
        guard var map = try? SVGMap(fitting: features, size: size) else {
            FileHandle.standardError.write(Data("meridian-bench render: cannot fit\n".utf8))
            exit(1)
        }
        try? map.addBasemap()
        map.addLayer(features, name: "points")
        var bytes = 0
        let times = Bench.measure(runs: runs) { bytes = (try? map.render())?.utf8.count ?? 0 }
        // Baseline: the same circles, projected the same way, formatted with String(format:).
        let viewport = map.camera.viewport(size: size)
        var baselineBytes = 0
        let baseline = Bench.measure(runs: runs) {
            var text = "<svg>"
            for f in features {
                guard case .point(let p?) = f.geometry,
                    let v = viewport.point(for: MapPoint(Coordinate(latitude: p.y, longitude: p.x)))
                else { continue }
                text += String(
                    format: "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"6\" fill=\"#0072b2\"/>\n", v.x, v.y
                )
            }
            text += "</svg>"
            baselineBytes = text.utf8.count
        }
        Bench.emit([
            "schema": "meridian-bench/1", "name": "render", "n": .integer(n),
            "iterations": .integer(runs),
            "workload": .string("\(n) points over Europe on Natural Earth's countries, 1200 × 800"),
            "render": Bench.summary(times), "median_ns": .number(Bench.median(times)),
            "svg_bytes": .integer(bytes),
            "baseline": [
                "name": "the circles alone, written with String(format:)",
                "render": Bench.summary(baseline), "svg_bytes": .integer(baselineBytes),
            ],
            "peak_rss": .integer(Bench.peakRSS()),
        ])
    }
}
