import Foundation
import GeoCore

/// `meridian transform --from CRS --to CRS` or `--pipeline STRING`: coordinates through PROJ.
enum TransformCommand: Subcommand {
    static let name = "transform"
    static let summary = "transform coordinates between CRSs or through a PROJ pipeline"
    static let valueOptions: Set<String> = ["from", "to", "pipeline", "decimals"]
    static let help = """
        Usage: meridian transform --from CRS --to CRS [--inverse] [--decimals N] [--json] [X Y [Z]]
               meridian transform --pipeline STRING [--inverse] [--decimals N] [--json] [X Y [Z]]

        Transforms coordinates with PROJ. CRSs are anything PROJ understands: EPSG:4326, an OGC URN,
        WKT, PROJJSON or a PROJ string. Between two CRSs, geographic coordinates are always
        longitude first ("x y" = "lon lat"), whatever the CRS's official axis order. A --pipeline is a
        PROJ operation or pipeline string and keeps its own axis order. Angles are in degrees (as
        PROJ's cct takes them), lengths in the CRS's units.

        Without positional arguments, reads one point per line from standard input: "x y" or
        "x y z", separated by spaces, tabs or commas; blank lines and lines starting with # are
        skipped. Transformed points are written in the same order. A point that cannot be transformed
        is reported on standard error with its line number and PROJ's reason, the others are still
        written, and the exit code is 2.

        Options:
          --from CRS        source CRS
          --to CRS          target CRS
          --pipeline STR    a PROJ operation instead of --from/--to
          --inverse         transform from target to source
          --decimals N      decimals written (default 9 for degrees, 4 for meters)
          --json            one JSON object per point: x, y and z if given

        Examples:
          echo "12.5 55.7" | meridian transform --from EPSG:4326 --to EPSG:32633
          meridian transform --from EPSG:4326 --to EPSG:3857 -- -0.4543 51.47
          echo "500000 6100000" | meridian transform --from EPSG:4326 --to EPSG:32633 --inverse
          echo "12 55" | meridian transform --pipeline "+proj=utm +zone=32 +ellps=GRS80"

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let from = arguments.option("from"), to = arguments.option("to"),
            pipeline = arguments.option("pipeline")
        let inverse = arguments.flag("inverse")
        let json = arguments.flag("json")
        let decimals = try arguments.integer("decimals")
        try arguments.rejectUnknown()
        if let decimals, !(0...17).contains(decimals) {
            throw UsageError("--decimals \(decimals) is outside 0...17")
        }
        let definition: CoordinateTransformer.Definition
        switch (from, to, pipeline) {
        case (let from?, let to?, nil): definition = .crsToCRS(source: from, target: to)
        case (nil, nil, let pipeline?): definition = .pipeline(pipeline)
        default: throw UsageError("give either --from and --to, or --pipeline")
        }
        let transformer: CoordinateTransformer
        do {
            transformer = try CoordinateTransformer(definition: definition)
        } catch {
            console.printError("meridian transform: \(error.message)")
            return ExitCode.failure
        }
        let direction: CoordinateTransformer.Direction = inverse ? .inverse : .forward
        let angular = transformer.givesAngles(direction)

        // Read every point first, so that PROJ transforms them in one batch.
        var lines = [(number: Int, fields: [Substring])]()
        if !arguments.positional.isEmpty {
            lines.append((1, fields(of: arguments.positional.joined(separator: " "))))
        } else {
            var number = 0
            while let line = console.readLine() {
                number += 1
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                lines.append((number, fields(of: trimmed)))
            }
        }
        var failed = false
        var xs = [Double](), ys = [Double](), zs = [Double](), hasZ = [Bool](),
            lineNumbers = [Int]()
        for (number, fields) in lines {
            do throws(GeoError) {
                guard fields.count == 2 || fields.count == 3 else {
                    throw GeoError(
                        .malformedInput,
                        "expected 2 or 3 numbers (x y [z]), got \(fields.count): '\(fields.joined(separator: " "))'"
                    )
                }
                let x = try parseNumber(fields[0], name: "x"),
                    y = try parseNumber(fields[1], name: "y")
                let z = fields.count == 3 ? try parseNumber(fields[2], name: "z") : 0
                xs.append(x); ys.append(y); zs.append(z); hasZ.append(fields.count == 3);
                lineNumbers.append(number)
            } catch {
                console.printError("meridian: line \(number): \(error.message)")
                failed = true
            }
        }
        var heights: [Double]? = zs
        let failures: [CoordinateTransformer.PointFailure]
        do {
            failures = try transformer.transform(x: &xs, y: &ys, z: &heights, direction: direction)
        } catch {
            console.printError("meridian transform: \(error.message)")
            return ExitCode.failure
        }
        var failedIndices = Set<Int>()
        for failure in failures {
            failedIndices.insert(failure.index)
            console.printError(
                "meridian: line \(lineNumbers[failure.index]): \(failure.error.message)")
            failed = true
        }
        let places = decimals ?? (angular ? 9 : 4)
        for i in xs.indices where !failedIndices.contains(i) {
            let z = hasZ[i] ? heights?[i] : nil
            if json {
                var object: [String: JSONValue] = ["x": .number(xs[i]), "y": .number(ys[i])]
                if let z { object["z"] = .number(z) }
                console.print(jsonLine(object))
            } else {
                var text = "\(format(xs[i], decimals: places)) \(format(ys[i], decimals: places))"
                if let z { text += " \(format(z, decimals: decimals ?? 4))" }
                console.print(text)
            }
        }
        return failed ? ExitCode.partialFailure : ExitCode.success
    }
}
