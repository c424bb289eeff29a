import GeoCore

/// `meridian distance LAT1 LON1 LAT2 LON2`: the distance and azimuths between two points.
enum DistanceCommand: Subcommand {
    static let name = "distance"
    static let summary = "distance and azimuths between two points"
    static let valueOptions: Set<String> = ["model"]
    static let help = """
        Usage: meridian distance LAT1 LON1 LAT2 LON2 [--model geodesic|haversine] [--json]

        Prints the distance in meters between two points and the azimuths (degrees clockwise from
        north, −180 to 180) at the start and at the end, on the WGS84 ellipsoid (Karney's geodesic, accurate to
        15 nm) or, with --model haversine, on a sphere of radius 6 371 008.8 m (within 0.57 %).
        Latitudes are degrees in [−90, 90], longitudes in [−180, 180]: a value outside (a
        longitude of 539, say) is an error (a bad line in batch mode), not wrapped.

        \(batchHelp(fields: "four numbers"))

        Options:
          --model M   geodesic (default) or haversine
          --json      one JSON object per line: distance, initialAzimuth, finalAzimuth, model, line

        Example:
          meridian distance 40.6413 -73.7781 51.4700 -0.4543    # JFK to Heathrow

        \(ExitCode.table)

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let json = arguments.flag("json")
        let model = arguments.option("model") ?? "geodesic"
        guard model == "geodesic" || model == "haversine" else {
            throw UsageError("unknown model \(GeoError.quoted(model)) (use geodesic or haversine)")
        }
        try arguments.rejectUnknown()
        return try Batch.run(name, positional: arguments.positional, json: json, console: console) {
            (fields) throws(GeoError) in
            try expectFields(fields, ["LAT1", "LON1", "LAT2", "LON2"])
            let a = try parseCoordinate(fields[0], fields[1], column: 1)
            let b = try parseCoordinate(fields[2], fields[3], column: 3)
            let distance: Double, initial: Double, final: Double
            if model == "haversine" {
                distance = Haversine.distance(from: a, to: b)
                // In the geodesic's range, (−180, 180], so a field means the same in both models.
                initial = Self.signedAzimuth(Haversine.initialBearing(from: a, to: b))
                final = Self.signedAzimuth(Haversine.finalBearing(from: a, to: b))
            } else {
                let line = Geodesic.wgs84.inverse(from: a, to: b)
                (distance, initial, final) = (line.distance, line.initialAzimuth, line.finalAzimuth)
            }
            return Answer(
                text:
                    "\(format(distance, decimals: 3)) m, initial azimuth \(format(initial, decimals: 8))°, final azimuth \(format(final, decimals: 8))°",
                json: [
                    "distance": .number(distance), "initialAzimuth": .number(initial),
                    "finalAzimuth": .number(final), "model": .string(model),
                ])
        }
    }
}

extension DistanceCommand {
    /// A bearing in [0, 360) as an azimuth in (−180, 180].
    static func signedAzimuth(_ bearing: Double) -> Double {
        bearing > 180 ? bearing - 360 : bearing
    }
}

/// The help paragraph every batch command shares.
func batchHelp(fields: String) -> String {
    """
    Without positional arguments, reads one job per line from standard input: \(fields)
    separated by spaces or tabs, or by one comma or semicolon (an empty value, as in "10,,20", is
    an error); CRLF, CR and a byte-order mark are fine.
    Every input line gets exactly one output line, in order: the answer; for a bad line an error
    record in its place ("error: line N: ..." as text, {"line":N,"error":...,"kind":...} as
    JSON), with the same message on standard error; for a blank or # line an empty line
    ({"line":N,"skipped":true} as JSON). JSON answers carry their "line".
    """
}
