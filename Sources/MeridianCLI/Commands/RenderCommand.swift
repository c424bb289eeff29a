import Foundation
import GeoCore
import GeoRender

/// `meridian render [FILE...]`: draws GeoJSON as an SVG map.
enum RenderCommand: Subcommand {
    static let name = "render"
    static let summary = "draw GeoJSON as an SVG map (basemap, graticule, legend, scale bar)"
    static let valueOptions: Set<String> = [
        "output", "width", "height", "padding", "center", "zoom", "heading", "pitch", "title",
        "size-by", "color-by",
    ]
    static let help = """
        Usage: meridian render [FILE...] [--output map.svg] [--width W --height H] [--padding P]
                               [--center LAT,LON --zoom Z | --fit] [--heading H] [--pitch P]
                               [--basemap] [--graticule] [--title T] [--size-by PROP]
                               [--color-by PROP]

        Draws GeoJSON on a Web-Mercator map as SVG 1.1. Each FILE (or standard input, without files
        or for -) is one layer, named after the file in the legend; a file may hold one GeoJSON
        document or one per line, so the other commands' GeoJSON can be piped in:

          meridian cluster --input places.geojson --zoom 3 | meridian render --basemap --output map.svg

        The batch commands' records of skipped and bad lines ({"line":N,"skipped":true},
        {"line":N,"error":...}) are left out, with a note on standard error.

        Features are styled by their simplestyle properties (marker-color, marker-size, stroke,
        stroke-width, stroke-opacity, fill, fill-opacity, title). Points with cluster: true and
        point_count are drawn as cluster bubbles with their counts; points with a numeric radius
        property (meters) as their true geodesic circles; lines with "direction": true get
        arrowheads. Geometry across the 180th meridian is drawn continuous, in every copy of the
        world in view; what lies outside the view is clipped. A position that is not a longitude/latitude (not finite, a latitude beyond ±90°,
        a longitude beyond ±1e15°) is refused, naming its file and feature (exit code 2).

        Options:
          --output PATH           where to write the SVG (default: standard output)
          --width W, --height H   the picture in points (default 800 × 500)
          --padding P             points kept free around fitted content (default 24)
          --fit                   show all features (the default without --center)
          --center LAT,LON        the view's center, with --zoom Z (Web-Mercator zoom level,
                                  0 to 30)
          --heading H             degrees clockwise from north at the top (default 0)
          --pitch P               degrees of tilt from straight down (0 to 70, default 0)
          --basemap               Natural Earth's country outlines underneath
          --graticule             meridians and parallels
          --title T               a title at the top left
          --size-by PROP          size points by a numeric property (area proportional to
                                  the value; the largest gets radius 14, none below 3)
          --color-by PROP         color points by a property's values (eight colors; with
                                  more values, seven and gray for the rest; points without
                                  the property in light gray)

        \(ExitCode.table)

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let output = arguments.option("output")
        let width = try arguments.number("width") ?? 800
        let height = try arguments.number("height") ?? 500
        let padding = try arguments.number("padding") ?? 24
        let zoom = try arguments.number("zoom")
        let heading = try arguments.number("heading") ?? 0
        let pitch = try arguments.number("pitch") ?? 0
        let center = arguments.option("center")
        let fit = arguments.flag("fit")
        let basemap = arguments.flag("basemap"), graticule = arguments.flag("graticule")
        let title = arguments.option("title")
        let sizeBy = arguments.option("size-by"), colorBy = arguments.option("color-by")
        _ = arguments.flag("json")
        try arguments.rejectUnknown()
        guard width >= 16, height >= 16, width <= 20_000, height <= 20_000 else {
            throw UsageError("the picture must be 16 to 20000 points wide and tall")
        }
        guard padding >= 0, padding * 2 < min(width, height) else {
            throw UsageError("padding \(padding) leaves no room in a \(width) × \(height) picture")
        }
        guard pitch >= 0, pitch <= MapCamera.maximumPitch else {
            throw UsageError("--pitch must be 0 to 70 degrees, got \(pitch)")
        }
        guard (center == nil) == (zoom == nil) else {
            throw UsageError("--center and --zoom go together")
        }
        if let zoom, !(0...30).contains(zoom) {
            throw UsageError("--zoom must be 0 to 30, got \(NumberText.shortest(zoom))")
        }
        if fit && center != nil { throw UsageError("--fit and --center exclude each other") }
        var centerCoordinate: Coordinate?
        if let center {
            let parts = center.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw UsageError("--center needs LAT,LON, got \(GeoError.quoted(center))")
            }
            do {
                centerCoordinate = try parseCoordinate(String(parts[0]), String(parts[1]))
            } catch {
                throw UsageError("option --center: \(error.message)")
            }
        }

        // The layers.
        var layers = [(name: String, features: [Feature])]()
        let files = arguments.positional.isEmpty ? ["-"] : arguments.positional
        for file in files {
            do throws(GeoError) {
                let data = try readInput(file, console: console)
                let read = try GeoJSON.documentsOfBatchOutput(in: data)
                let features = read.documents.flatMap(\.features)
                try SVGMap.checkCoordinates(features)
                let name = file == "-" ? "input" : (file as NSString).lastPathComponent
                if let first = read.recordLines.first {
                    let place = file == "-" ? "standard input" : GeoError.quoted(file)
                    console.printError(
                        "meridian render: \(place): left out \(read.recordLines.count) record"
                            + (read.recordLines.count == 1 ? "" : "s")
                            + " of skipped or bad lines (the first on line \(first))")
                }
                layers.append((name, features))
            } catch {
                // A read failure's message names what could not be read.
                let place = file == "-" ? "standard input" : GeoError.quoted(file)
                console.printError(
                    error.kind == .io
                        ? "meridian render: \(error.message)"
                        : "meridian render: \(place): \(error.message)")
                return error.kind == .io ? ExitCode.failure : ExitCode.badInput
            }
        }
        let size = MapSize(width: width, height: height)
        var map: SVGMap
        do throws(GeoError) {
            if let coordinate = centerCoordinate, let zoom {
                map = SVGMap(
                    size: size,
                    camera: MapCamera(
                        centerCoordinate: coordinate,
                        distance: MapCamera.distance(
                            forZoom: zoom, atLatitude: coordinate.latitude, viewHeight: height),
                        heading: heading, pitch: pitch))
            } else {
                let all = layers.flatMap(\.features)
                // Fitted to the positions there are; features without any (null or empty
                // geometries, or none at all) leave the whole world in view.
                let hasPosition = all.contains { feature in
                    feature.geometry?.positions.contains { $0.x.isFinite && $0.y.isFinite } == true
                }
                if hasPosition {
                    map = try SVGMap(
                        fitting: all, size: size, padding: MapEdgePadding(all: padding),
                        heading: heading, pitch: pitch)
                } else {
                    map = try SVGMap(
                        size: size,
                        camera: MapCamera(
                            fitting: MapRect.world, viewSize: size,
                            edgePadding: MapEdgePadding(all: padding), heading: heading))
                }
                map.camera.pitch = pitch
            }
            map.title = title
            if basemap { try map.addBasemap() }
            if graticule { map.addGraticule() }
            let scale =
                sizeBy != nil || colorBy != nil
                ? SVGMap.PointScale(sizeProperty: sizeBy, colorProperty: colorBy) : nil
            for layer in layers {
                map.addLayer(layer.features, name: layer.name, pointScale: scale)
            }
            if let output, output != "-" {
                try map.write(to: URL(fileURLWithPath: output))
                console.printError("meridian render: wrote \(GeoError.quoted(output, limit: .max))")
            } else {
                console.write(try map.render())
            }
        } catch {
            console.printError("meridian render: \(error.message)")
            return error.kind == .io ? ExitCode.failure : ExitCode.badInput
        }
        return ExitCode.success
    }
}
