import GeoCore

/// `meridian tile LAT LON ZOOM`: the slippy-map tile containing a point.
enum TileCommand: Subcommand {
    static let name = "tile"
    static let summary = "the map tile containing a point (z/x/y, quadkey, bounds)"
    static let valueOptions: Set<String> = []
    static let help = """
        Usage: meridian tile LAT LON ZOOM [--json]

        Prints the XYZ (slippy-map) tile containing (LAT, LON) at ZOOM (0-30) as z/x/y, its TMS row,
        its Bing quadkey and its bounds west, south, east, north in degrees.

        \(batchHelp(fields: "three numbers"))

        Options:
          --json      one JSON object per line: zoom, x, y, tmsY, quadkey, west, south, east,
                      north, line

        Example:
          meridian tile 51.4700 -0.4543 12

        \(ExitCode.table)

        """

    static func run(_ arguments: inout Arguments, console: Console) throws(UsageError) -> Int32 {
        let json = arguments.flag("json")
        try arguments.rejectUnknown()
        return try Batch.run(name, positional: arguments.positional, json: json, console: console) {
            (fields) throws(GeoError) in
            try expectFields(fields, ["LAT", "LON", "ZOOM"])
            let coordinate = try parseCoordinate(fields[0], fields[1])
            let zoom = try parseInteger(fields[2], name: "zoom", column: 3)
            let tile: TileID
            do throws(GeoError) {
                tile = try TileID(containing: coordinate, zoom: zoom)
            } catch {
                // The only thing left to refuse is the zoom: say where it was.
                var located = error
                located.column = 3
                throw located
            }
            let b = tile.bounds
            return Answer(
                text:
                    "\(tile) tms \(tile.tmsY) quadkey \(tile.quadkey.isEmpty ? "-" : tile.quadkey) bounds \(b.west),\(b.south),\(b.east),\(b.north)",
                json: [
                    "zoom": .integer(tile.zoom), "x": .integer(tile.x), "y": .integer(tile.y),
                    "tmsY": .integer(tile.tmsY), "quadkey": .string(tile.quadkey),
                    "west": .number(b.west), "south": .number(b.south), "east": .number(b.east),
                    "north": .number(b.north),
                ])
        }
    }
}
