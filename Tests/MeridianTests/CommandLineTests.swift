import Foundation
import GeoCore
import Testing

@testable import MeridianCLI

/// Runs the tool in-process and returns its exit code, standard output and standard error.
func meridian(
    _ arguments: String..., input: String = ""
) -> (code: Int32, output: String, error: String) {
    let console = BufferedConsole(input: input)
    let code = MeridianCommand.run(arguments, console: console.console)
    return (code, console.output, console.errorOutput)
}

@Suite("meridian command-line tool")
struct CommandLineTests {
    /// JFK → LHR on WGS84: 5 554 908.79 m (GeographicLib 2.1 `Inverse(40.6413, -73.7781, 51.47, -0.4543)`).
    @Test func distanceAsJSON() throws {
        let result = meridian("distance", "40.6413", "-73.7781", "51.4700", "-0.4543", "--json")
        #expect(result.code == 0 && result.error.isEmpty)
        let object = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        let distance = try #require(object["distance"]?.doubleValue)
        #expect(abs(distance - 5_554_908.79) < 0.01)
        #expect(
            object["initialAzimuth"]?.doubleValue != nil
                && object["finalAzimuth"]?.doubleValue != nil)
    }

    @Test func haversineModel() {
        let geodesic = meridian("distance", "0", "0", "0", "1")
        let haversine = meridian("distance", "0", "0", "0", "1", "--model", "haversine")
        #expect(geodesic.output.hasPrefix("111319.491 m"))
        #expect(haversine.output.hasPrefix("111195.080 m"))
        #expect(meridian("distance", "0", "0", "0", "1", "--model", "flat").code == 64)
    }

    /// Standard input: one job per line, answers in order, bad lines named on standard error with
    /// their line number and value, exit code 2.
    @Test func batchFromStandardInput() {
        let input = "0 0 0 1\n\n95,0,1,1\n# comment\n0, 0, 1, 0\nabc 1 2 3\n"
        let result = meridian("distance", input: input)
        #expect(result.code == 2)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("111319.491 m") == true)
        #expect(lines.last?.hasPrefix("110574.389 m") == true)
        #expect(result.error.contains("line 3: latitude 95.0 is outside [-90, 90]"))
        #expect(result.error.contains("line 6: latitude 'abc' is not a finite number"))
    }

    @Test func direct() throws {
        let result = meridian("direct", "0", "0", "90", "111319.4907932736", "--json")
        let object = try JSONDecoder().decode(JSONValue.self, from: Data(result.output.utf8))
        #expect(abs(object["latitude"]?.doubleValue ?? 1) < 1e-12)
        #expect(abs((object["longitude"]?.doubleValue ?? 0) - 1) < 1e-12)
        #expect(abs((object["finalAzimuth"]?.doubleValue ?? 0) - 90) < 1e-12)
    }

    @Test func tile() {
        let result = meridian("tile", "51.4700", "-0.4543", "12")
        #expect(result.output.hasPrefix("12/2042/1362 tms 2733 quadkey 031313131030"))
        #expect(meridian("tile", "51.47", "-0.45", "31").code == 2)
    }

    @Test func helpVersionAndUsage() {
        #expect(meridian("--help").output.contains("distance"))
        #expect(meridian("distance", "--help").output.contains("Usage: meridian distance"))
        #expect(meridian("--version").output.contains("PROJ 9"))
        #expect(meridian("nonsense").code == 64)
        #expect(meridian().code == 64)
        #expect(meridian("distance", "--frobnicate").code == 64)
    }
}
