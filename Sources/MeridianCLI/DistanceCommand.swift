import GeoCore

/// `meridian distance LAT1 LON1 LAT2 LON2`: the distance and azimuths between two points.
enum DistanceCommand: Subcommand {
    static let name = "distance"
    static let summary = "distance and azimuths between two points"
    static let valueOptions: Set<String> = ["model"]
    static let help = """
        Usage: meridian distance LAT1 LON1 LAT2 LON2 [--model geodesic|haversine] [--json]

        Prints the distance in meters between two points and the azimuths (degrees clockwise from
        north) at the start and at the end, on the WGS84 ellipsoid (Karney's geodesic, accurate to
        15 nm) or, with --model haversine, on a sphere of radius 6 371 008.8 m (within 0.57 %).

        Without positional arguments, reads one job per line from standard input: four numbers
        separated by spaces or commas. Bad lines are reported on standard error with their line
        number and the exit code is 2; the other lines are still answered.

        Options:
          --model M   geodesic (default) or haversine
          --json      one JSON object per result: distance, initialAzimuth, finalAzimuth, model

        Example:
          meridian distance 40.6413 -73.7781 51.4700 -0.4543    # JFK to Heathrow

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let json = arguments.flag("json")
        let model = arguments.option("model") ?? "geodesic"
        guard model == "geodesic" || model == "haversine" else {
            throw UsageError("unknown model '\(model)' (use geodesic or haversine)")
        }
        try arguments.rejectUnknown()
        return runJobs(positional: arguments.positional, console: console) {
            (fields) throws(GeoError) in
            try expectFields(fields, ["LAT1", "LON1", "LAT2", "LON2"])
            let a = try parseCoordinate(fields[0], fields[1])
            let b = try parseCoordinate(fields[2], fields[3])
            let distance: Double, initial: Double, final: Double
            if model == "haversine" {
                distance = Haversine.distance(from: a, to: b)
                initial = Haversine.initialBearing(from: a, to: b)
                final = Haversine.finalBearing(from: a, to: b)
            } else {
                let line = Geodesic.wgs84.inverse(from: a, to: b)
                (distance, initial, final) = (line.distance, line.initialAzimuth, line.finalAzimuth)
            }
            if json {
                return jsonLine([
                    "distance": .number(distance), "initialAzimuth": .number(initial),
                    "finalAzimuth": .number(final), "model": .string(model),
                ])
            }
            return
                "\(format(distance, decimals: 3)) m, initial azimuth \(format(initial, decimals: 8))°, final azimuth \(format(final, decimals: 8))°"
        }
    }
}
