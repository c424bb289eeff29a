import Foundation
import GeoCore

/// The `meridian` command-line tool.
@main
enum MeridianCommand {
    /// The version of Meridian.
    static let version = "0.1.0"

    /// Every subcommand, in the order the overview lists them.
    static let subcommands: [any Subcommand.Type] = [
        DistanceCommand.self,
        DirectCommand.self,
        TileCommand.self,
        TransformCommand.self,
        GeometryCommand.self,
        RouteCommand.self,
        ClusterCommand.self,
        FenceCommand.self,
        RenderCommand.self,
        NearestCommand.self,
        ReverseCommand.self,
        SearchCommand.self,
    ]

    static func main() {
        exit(run(Array(CommandLine.arguments.dropFirst()), console: .standard))
    }

    /// Runs the tool with arguments (without the program name) and returns its exit code.
    static func run(_ raw: [String], console: Console) -> Int32 {
        guard let first = raw.first else {
            console.writeError(overview)
            return ExitCode.usage
        }
        switch first {
        case "--help", "-h", "help":
            console.write(overview)
            return ExitCode.success
        case "--version":
            console.print(
                "meridian \(version) (PROJ \(NativeLibraries.projVersion), GEOS \(NativeLibraries.geosVersion))"
            )
            do {
                try NativeLibraries.checkVersions()
                return ExitCode.success
            } catch {
                console.printError("meridian: \(error.message)")
                return ExitCode.failure
            }
        default:
            break
        }
        guard let command = subcommands.first(where: { $0.name == first }) else {
            console.printError("meridian: unknown command \(GeoError.quoted(first))")
            console.writeError(overview)
            return ExitCode.usage
        }
        let rest = Array(raw.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.write(command.help)
            return ExitCode.success
        }
        do {
            var arguments = try Arguments(rest, valueOptions: command.valueOptions)
            let code = try command.run(&arguments, console: console)
            // Input that could not be read is not input that ended: what was read was answered,
            // and the failure is reported (unless the command reported it itself).
            if let failure = console.readFailure() {
                console.printError(
                    "meridian \(command.name): cannot read standard input: \(failure)")
                return ExitCode.failure
            }
            return code
        } catch {
            console.printError("meridian \(command.name): \(error.message)")
            console.writeError(command.help)
            return ExitCode.usage
        }
    }

    static var overview: String {
        var text = """
            meridian \(version): geodesy, projections, geometry, routes, geofences and clustering.

            Usage: meridian <command> [arguments] [options]

            Commands:

            """
        for command in subcommands {
            text +=
                "  " + command.name.padding(toLength: 12, withPad: " ", startingAt: 0)
                + command.summary + "\n"
        }
        text += """

            Run 'meridian <command> --help' for a command's arguments and options.
            'meridian --version' prints the versions of Meridian, PROJ and GEOS.

            Commands that read standard input line by line (distance, direct, tile, transform,
            route, geometry, nearest, reverse, search) write exactly one output line per input
            line, in order: the answer, an error record in place of a bad line ("error: line N:
            ..." or, with --json, {"line":N,"error":...,"kind":...}), or an empty line for a
            blank or # comment line. A line that is not UTF-8 text, or (except for geometry,
            which reads its whole input) longer than 1 MiB, is a bad line.

            \(ExitCode.table)

            """
        return text
    }
}
