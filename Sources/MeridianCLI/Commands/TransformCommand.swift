import Foundation
import GeoCore

/// `meridian transform --from CRS --to CRS` or `--pipeline STRING`: coordinates through PROJ.
enum TransformCommand: Subcommand {
    static let name = "transform"
    static let summary = "transform coordinates between CRSs or through a PROJ pipeline"
    static let valueOptions: Set<String> = ["from", "to", "pipeline", "decimals"]
    static let help = """
        Usage: meridian transform --from CRS --to CRS [--inverse] [--decimals N] [--json] [X Y [Z [T]]]
               meridian transform --pipeline STRING [--inverse] [--decimals N] [--json] [X Y [Z [T]]]

        Transforms coordinates with PROJ. A CRS is an AUTHORITY:CODE (EPSG:4326,
        ESRI:54009), an OGC URN, a compound AUTHORITY:CODE+CODE (EPSG:4326+5773: a
        horizontal CRS with heights in a vertical one), WKT, PROJJSON, a PROJ string, or the
        exact name or alias of a CRS ("WGS 84 / UTM zone 33N", "wgs84", any case; a name
        several CRSs of one datum share, such as GDA2020, means the latitude-longitude one,
        as PROJ reads it); anything else is refused with the closest names, never guessed.
        Between two CRSs, coordinates are always "x y": longitude first for geographic CRSs
        ("lon lat"), easting first for projected ones ("E N"), whatever the CRS's official
        axis order (EPSG:3035 and 2193 are officially northing first; PROJ's normalized
        order, pyproj's always_xy). A vertical target CRS (EPSG:5773) has only the height:
        PROJ 9.1.1 passes the position through latitude first there (as pyproj does).
        A --pipeline is a PROJ operation or pipeline string and keeps its own axis order (a
        CRS there is refused: use --from/--to). Angles are in degrees (as PROJ's cct takes
        them; a CRS whose axes are in grads gives grads), lengths in the CRS's units.

        Points are "x y", "x y z" or "x y z t" (t an epoch in decimal years, for
        time-dependent operations such as plate-motion models, as cct reads it); z is 0 when
        missing. Output has as many decimals as the axis unit needs (9 for degrees, about
        0.1 mm; 4 for meters and feet, as cct prints them; 9 for a pipeline that takes no
        angles, which may pass degrees through) unless --decimals says otherwise, and z
        whenever the input had one or the target CRS has three axes (EPSG:4978, EPSG:4979, a
        compound CRS such as EPSG:4326+5773), t when the input had one. A --pipeline has no
        target CRS to tell: its z is written when the input had one, so give z (0) for a 3D
        result such as +proj=cart.

        \(batchHelp(fields: "two to four numbers"))

        Options:
          --from CRS        source CRS
          --to CRS          target CRS
          --pipeline STR    a PROJ operation instead of --from/--to
          --inverse         transform from target to source
          --decimals N      decimals written, 0-17
          --json            one JSON object per line: x, y and z and t where written, line

        Examples:
          echo "12.5 55.7" | meridian transform --from EPSG:4326 --to EPSG:32633
          meridian transform --from EPSG:4326 --to EPSG:3857 -- -0.4543 51.47
          echo "500000 6100000" | meridian transform --from EPSG:4326 --to EPSG:32633 --inverse
          echo "12 55" | meridian transform --pipeline "+proj=utm +zone=32 +ellps=GRS80"
          echo "12 55 0 2020.5" | meridian transform --from EPSG:7912 --to EPSG:7931   # ITRF2014 -> ETRF2000 at epoch 2020.5

        \(ExitCode.table)

        """

    /// One input line, read before the batch goes through PROJ.
    private enum Job {
        case skip
        case bad(GeoError)
        /// A position, and its values as typed (for its error).
        case point(x: Double, y: Double, z: Double?, t: Double?, typed: [String])
    }

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let from = arguments.option("from"), to = arguments.option("to")
        let pipeline = arguments.option("pipeline")
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
        // An operation that cannot run backwards fails the setup, not every line.
        guard transformer.canTransform(direction) else {
            console.printError("meridian transform: \(definition) has no inverse operation")
            return ExitCode.failure
        }

        let places = Self.decimals(transformer, direction: direction, override: decimals)
        let threeAxes = (transformer.outputAxes(direction)?.count ?? 2) >= 3
        var batch = Batch(
            command: name, json: json, console: console,
            fromArguments: !arguments.positional.isEmpty)
        if !arguments.positional.isEmpty {
            let given = job(arguments.positional.joined(separator: " "))
            // Too few or too many arguments is a mistake in the call, not in data.
            if case .bad(let error) = given, error.isFieldCount {
                throw UsageError(error.message)
            }
            if case .skip = given {
                throw UsageError("expected 2 to 4 values (x y [z [t]]) as arguments, found none")
            }
            guard
                Self.answer(
                    [(1, given)], transformer, direction, places: places, threeAxes: threeAxes,
                    into: &batch)
            else { return ExitCode.failure }
            return batch.exitCode
        }
        // The lines that have arrived go through PROJ together, and are answered before the
        // tool waits for more: a pipe of many lines is transformed in large batches, a live
        // stream (tail -f) line by line.
        var jobs = [(line: Int, job: Job)]()
        var number = 0
        while true {
            if !jobs.isEmpty && !console.lineReady() {
                guard
                    Self.answer(
                        jobs, transformer, direction, places: places, threeAxes: threeAxes,
                        into: &batch)
                else { return ExitCode.failure }
                jobs.removeAll(keepingCapacity: true)
            }
            guard let line = console.readLine() else { break }
            number += 1
            if let problem = console.lineProblem() {
                jobs.append((number, .bad(GeoError(.malformedInput, problem))))
                continue
            }
            jobs.append((number, job(line)))
        }
        guard
            Self.answer(
                jobs, transformer, direction, places: places, threeAxes: threeAxes, into: &batch)
        else { return ExitCode.failure }
        return batch.exitCode
    }

    /// Transforms a batch of jobs in one call to PROJ and writes each one's answer or error
    /// record, in order; `false` (after reporting it) when PROJ could not run at all.
    private static func answer(
        _ jobs: [(line: Int, job: Job)], _ transformer: CoordinateTransformer,
        _ direction: CoordinateTransformer.Direction, places: (x: Int, y: Int, z: Int, t: Int),
        threeAxes: Bool, into batch: inout Batch
    ) -> Bool {
        var xs = [Double](), ys = [Double](), zs = [Double](), ts = [Double]()
        var slot = [Int?](repeating: nil, count: jobs.count)
        for (i, entry) in jobs.enumerated() {
            guard case .point(let x, let y, let z, let t, _) = entry.job else { continue }
            slot[i] = xs.count
            xs.append(x)
            ys.append(y)
            zs.append(z ?? 0)
            // PROJ's "no time": the point is taken at the operation's own epoch.
            ts.append(t ?? .infinity)
        }
        var heights: [Double]? = zs
        let failures: [CoordinateTransformer.PointFailure]
        do {
            failures = try transformer.transform(
                x: &xs, y: &ys, z: &heights, t: &ts, direction: direction)
        } catch {
            batch.console.printError("meridian transform: \(error.message)")
            return false
        }
        let failed = Dictionary(failures.map { ($0.index, $0.error) }) { first, _ in first }
        for (i, entry) in jobs.enumerated() {
            switch entry.job {
            case .skip:
                batch.skip(line: entry.line)
            case .bad(let error):
                batch.emit(line: entry.line, .failure(error))
            case .point(let x, let y, let z, let t, let typed):
                guard let k = slot[i] else { continue }
                if let error = failed[k] {
                    // PROJ's reason, naming the position as typed rather than as parsed.
                    let parsed = "(\(x), \(y)) "
                    let reason =
                        error.message.hasPrefix(parsed)
                        ? String(error.message.dropFirst(parsed.count)) : error.message
                    let position = typed.map { GeoError.quoted($0) }.joined(separator: " ")
                    batch.emit(
                        line: entry.line,
                        .failure(
                            GeoError(error.kind, "position \(position) \(reason)", code: error.code)
                        ))
                    continue
                }
                var text =
                    "\(format(xs[k], decimals: places.x)) \(format(ys[k], decimals: places.y))"
                var object: [String: JSONValue] = ["x": .number(xs[k]), "y": .number(ys[k])]
                if z != nil || threeAxes, let h = heights?[k] {
                    text += " \(format(h, decimals: places.z))"
                    object["z"] = .number(h)
                }
                if t != nil {
                    text += " \(format(ts[k], decimals: places.t))"
                    object["t"] = .number(ts[k])
                }
                batch.emit(line: entry.line, .success(Answer(text: text, json: object)))
            }
        }
        return true
    }

    /// One line as a job.
    private static func job(_ line: String) -> Job {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return .skip }
        do throws(GeoError) {
            let fields = try splitJob(trimmed)
            guard (2...4).contains(fields.count) else {
                throw GeoError(
                    .malformedInput, "expected 2 to 4 values (x y [z [t]]), \(foundValues(fields))")
            }
            let names = ["x", "y", "z", "t"]
            var values = [Double]()
            for (i, field) in fields.enumerated() {
                values.append(try parseNumber(field, name: names[i], column: i + 1))
            }
            return .point(
                x: values[0], y: values[1], z: values.count > 2 ? values[2] : nil,
                t: values.count > 3 ? values[3] : nil, typed: fields)
        } catch {
            return .bad(error)
        }
    }

    /// Decimals per output coordinate: 9 for an angle (1e-9° is 0.1 mm on the ground), 4 for a
    /// length (0.1 mm in meters), as PROJ's cct prints them; 4 for times.
    private static func decimals(
        _ transformer: CoordinateTransformer, direction: CoordinateTransformer.Direction,
        override: Int?
    ) -> (x: Int, y: Int, z: Int, t: Int) {
        if let override { return (override, override, override, override) }
        func places(_ axis: CRSAxis?) -> Int {
            guard let axis else { return 4 }
            let unit = axis.unitName.lowercased()
            return unit.contains("degree") || unit.contains("radian") || unit.contains("grad")
                ? 9 : 4
        }
        let output = transformer.outputAxes(direction)
        if let axes = output, axes.count >= 2 {
            return (places(axes[0]), places(axes[1]), places(axes.count > 2 ? axes[2] : nil), 4)
        }
        // A vertical target (EPSG:5773) has only its height: the position passes through in the
        // source's units.
        let opposite: CoordinateTransformer.Direction = direction == .forward ? .inverse : .forward
        if let axes = output, axes.count == 1, let source = transformer.outputAxes(opposite),
            source.count >= 2
        {
            return (places(source[0]), places(source[1]), places(axes[0]), 4)
        }
        // Without axes to tell (a pipeline), an angle gets 9 decimals, and so does what may be
        // one: an operation that reports angles neither in nor out (a no-op such as EPSG:1149,
        // an axis swap, a Helmert shift) may be passing degrees through, which cct's 4 would
        // round to 11 m. A projection (angles in, lengths out) gets 4.
        let angular =
            transformer.givesAngles(direction) || !transformer.takesAngles(direction)
        return (angular ? 9 : 4, angular ? 9 : 4, 4, 4)
    }
}
