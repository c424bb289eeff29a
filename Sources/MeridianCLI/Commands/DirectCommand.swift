import GeoCore

/// `meridian direct LAT LON AZIMUTH DISTANCE`: where a geodesic ends.
enum DirectCommand: Subcommand {
    static let name = "direct"
    static let summary = "destination from a start, azimuth and distance"
    static let valueOptions: Set<String> = []
    static let help = """
        Usage: meridian direct LAT LON AZIMUTH DISTANCE [--json]

        Prints where the WGS84 geodesic that leaves (LAT, LON) at AZIMUTH (degrees clockwise from
        north) ends after DISTANCE meters, and its azimuth there. LAT is in [−90, 90] and LON in
        [−180, 180] (a value outside is an error, not wrapped); AZIMUTH may be any finite angle,
        DISTANCE negative (backwards).

        \(batchHelp(fields: "four numbers"))

        Options:
          --json      one JSON object per line: latitude, longitude, finalAzimuth, line

        Example:
          meridian direct 40.6413 -73.7781 51.3816 5554909

        \(ExitCode.table)

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let json = arguments.flag("json")
        try arguments.rejectUnknown()
        return try Batch.run(name, positional: arguments.positional, json: json, console: console) {
            (fields) throws(GeoError) in
            try expectFields(fields, ["LAT", "LON", "AZIMUTH", "DISTANCE"])
            let start = try parseCoordinate(fields[0], fields[1])
            let azimuth = try parseNumber(fields[2], name: "azimuth", column: 3)
            let distance = try parseNumber(fields[3], name: "distance", column: 4)
            let end = Geodesic.wgs84.direct(from: start, azimuth: azimuth, distance: distance)
            return Answer(
                text:
                    "\(format(end.coordinate.latitude, decimals: 9)), \(format(end.coordinate.longitude, decimals: 9)), final azimuth \(format(end.finalAzimuth, decimals: 8))°",
                json: [
                    "latitude": .number(end.coordinate.latitude),
                    "longitude": .number(end.coordinate.longitude),
                    "finalAzimuth": .number(end.finalAzimuth),
                ])
        }
    }
}
