import GeoCore

/// `meridian direct LAT LON AZIMUTH DISTANCE`: where a geodesic ends.
enum DirectCommand: Subcommand {
    static let name = "direct"
    static let summary = "destination from a start, azimuth and distance"
    static let valueOptions: Set<String> = []
    static let help = """
        Usage: meridian direct LAT LON AZIMUTH DISTANCE [--json]

        Prints where the WGS84 geodesic that leaves (LAT, LON) at AZIMUTH (degrees clockwise from
        north) ends after DISTANCE meters, and its azimuth there.

        Without positional arguments, reads one job per line from standard input: four numbers
        separated by spaces or commas. Bad lines are reported on standard error with their line
        number and the exit code is 2; the other lines are still answered.

        Options:
          --json      one JSON object per result: latitude, longitude, finalAzimuth

        Example:
          meridian direct 40.6413 -73.7781 51.36 5554540

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let json = arguments.flag("json")
        try arguments.rejectUnknown()
        return runJobs(positional: arguments.positional, console: console) {
            (fields) throws(GeoError) in
            try expectFields(fields, ["LAT", "LON", "AZIMUTH", "DISTANCE"])
            let start = try parseCoordinate(fields[0], fields[1])
            let azimuth = try parseNumber(fields[2], name: "azimuth")
            let distance = try parseNumber(fields[3], name: "distance")
            let end = Geodesic.wgs84.direct(from: start, azimuth: azimuth, distance: distance)
            if json {
                return jsonLine([
                    "latitude": .number(end.coordinate.latitude),
                    "longitude": .number(end.coordinate.longitude),
                    "finalAzimuth": .number(end.finalAzimuth),
                ])
            }
            return
                "\(format(end.coordinate.latitude, decimals: 9)), \(format(end.coordinate.longitude, decimals: 9)), final azimuth \(format(end.finalAzimuth, decimals: 8))°"
        }
    }
}
