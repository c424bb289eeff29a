import Foundation
import GeoCore
import GeoTestSupport
import Testing

@testable import MeridianCLI

@Suite("meridian cluster --live")
struct LiveClusterCommandLineTests {
    func run(_ input: String, _ extra: [String] = []) throws -> (code: Int32, lines: [JSONValue]) {
        let console = BufferedConsole(input: input)
        let code = MeridianCommand.run(["cluster", "--live"] + extra, console: console.console)
        let lines = try console.output.split(separator: "\n").map {
            try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
        }
        return (code, lines)
    }

    @Test("a stream of batches answers each with the view's diff")
    func batches() throws {
        let input = """
            view 8.4 47.3 8.7 47.5 14
            insert bus-1 47.37 8.54
            insert bus-2 47.3701 8.5401

            move bus-2 47.38 8.55
            commit
            remove bus-1
            """
        let (code, lines) = try run(input)
        #expect(code == 0)
        #expect(lines.count == 4)
        #expect(lines[0]["features"]?.arrayValue?.isEmpty == true)
        // bus-1 and bus-2 form a cluster...
        #expect(lines[1]["applied"] == 2 && lines[1]["count"] == 2)
        let cluster = try #require(lines[1]["appeared"]?[0])
        #expect(cluster["properties"]?["point_count"] == 2)
        let id = try #require(cluster["id"]?.intValue)
        // ...which splits when bus-2 drives off: both points come from it.
        #expect(lines[2]["disappeared"]?[0]?["id"]?.intValue == id)
        #expect(lines[2]["disappeared"]?[0]?["destination"]?["key"] == "bus-1")
        let appeared = try #require(lines[2]["appeared"]?.arrayValue)
        #expect(Set(appeared.compactMap { $0["id"]?.stringValue }) == ["bus-1", "bus-2"])
        #expect(appeared.allSatisfy { $0["source"]?["cluster_id"]?.intValue == id })
        // The end of input ends the last batch.
        #expect(lines[3]["disappeared"]?[0]?["id"] == "bus-1")
        #expect(lines[3]["count"] == 1)
    }

    @Test("points carry their category, as clusters and static points do")
    func categories() throws {
        let input = """
            view 8 47 9 48 10
            insert a 47.1 8.1 bus
            insert b 47.1 8.1001 bus
            insert c 47.3 8.3

            remove a
            view 8 47 9 48 20
            """
        let (code, lines) = try run(input)
        #expect(code == 0)
        // The first batch: a bus cluster, and c without a category.
        let appeared = try #require(lines[1]["appeared"]?.arrayValue)
        #expect(appeared.count == 2)
        #expect(appeared[0]["properties"]?["category"] == "bus")
        #expect(appeared[0]["properties"]?["cluster"] == true)
        #expect(appeared[1]["properties"]?["key"] == "c")
        #expect(appeared[1]["properties"]?["category"] == nil)
        // Removing a splits the cluster: b appears as a bus point; a's point at zoom 20 is gone.
        let split = try #require(lines[2]["appeared"]?.arrayValue)
        #expect(split.map { $0["properties"]?["category"] } == ["bus"])
        #expect(split.map { $0["properties"]?["key"] } == ["b"])
        let view = try #require(lines[3]["features"]?.arrayValue)
        #expect(view.map { $0["properties"]?["category"] } == ["bus", nil])
        // A point that disappears carries the category it had.
        let gone = try run(input + "\nremove b\n").lines
        let disappeared = try #require(gone.last?["disappeared"]?.arrayValue)
        #expect(disappeared.map { $0["properties"]?["key"] } == ["b"])
        #expect(disappeared.map { $0["properties"]?["category"] } == ["bus"])
    }

    @Test("bad lines are named and change nothing; the rest of their batch applies")
    func badLines() throws {
        let input =
            "insert a 1 2\ninsert a 3 4\nmove b 1 1\nmove a 91 0\nfly\ninsert c 1\ninsert d 5 6\n"
        let (code, lines) = try run(input)
        #expect(code == 2)
        let errors = lines.filter { $0["error"] != nil }
        // In line order, lines that cannot be read among changes that cannot be applied.
        #expect(errors.compactMap { $0["line"]?.intValue } == [2, 3, 4, 5, 6])
        #expect(errors.first { $0["line"] == 3 }?["kind"] == "notFound")
        #expect(errors.first { $0["line"] == 4 }?["kind"] == "invalidCoordinate")
        let batch = try #require(lines.last)
        #expect(batch["applied"] == 2 && batch["count"] == 2)
        // The rest of the batch applies as one batch, as if the bad lines were not there: a key
        // inserted and removed in it takes no serial, so the cluster keeps the id it has without
        // them.
        let good = "view 8 47 9 48 10\ninsert a 47.1 8.1\nremove a\ninsert b 47.3 8.3\n"
        let clean = try run(good + "insert c 47.30001 8.30001\n")
        let spoilt = try run(good + "remove nokey\ninsert c 47.30001 8.30001\nmove a 91 0\n")
        let id = try #require(clean.lines.last?["appeared"]?[0]?["id"]?.intValue)
        #expect(id == 17)
        #expect(spoilt.lines.last?["appeared"]?[0]?["id"]?.intValue == id)
        #expect(spoilt.lines.filter { $0["error"] != nil }.map { $0["line"] } == [5, 7])
        // Lines the library refuses are named by their own line, after one that cannot be read.
        let mixed = try run("fly\ninsert a 1 2\ninsert a 1 2\nremove b\n")
        #expect(mixed.lines.filter { $0["error"] != nil }.map { $0["line"] } == [1, 3, 4])
        #expect(mixed.lines.last?["applied"] == 1)
        // A batch of lines that cannot be read still ends with its record.
        let unreadable = try run("insert a 1 2\ncommit\nfly\ninsert b nan 0\ncommit\n")
        #expect(unreadable.lines.map { $0["line"]?.intValue } == [2, 3, 4, 5])
        #expect(unreadable.lines.last?["batch"] == 2 && unreadable.lines.last?["applied"] == 0)
        // A line that is not UTF-8 is a bad change of its batch, not a blank line ending it.
        let console = BufferedConsole(
            data: Data("insert a 1 2\ninsert b".utf8 + [0xFF] + " 1 2\ninsert c 1 2\n".utf8))
        let notText = MeridianCommand.run(["cluster", "--live"], console: console.console)
        let records = console.output.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
        }
        #expect(notText == 2)
        #expect(records.map { $0["line"]?.intValue } == [2, 3], "\(console.output)")
        #expect(records.last?["batch"] == 1 && records.last?["applied"] == 2)
        // A malformed view or commit ends its batch as a good one would, opens none, and keeps
        // the view: the error follows the batch's record, and the next batch has the old view.
        let input2 =
            "view 8.4 47.3 8.7 47.5 14\ninsert a 47.4 8.5\nview 8.4 47.3 8.7\ninsert b 47.41 8.51\nCOMMIT now\n"
        let malformed = try run(input2)
        #expect(malformed.code == 2)
        #expect(malformed.lines.map { $0["line"]?.intValue } == [1, 3, 3, 5, 5])
        #expect(malformed.lines[1]["batch"] == 1 && malformed.lines[1]["applied"] == 1)
        #expect(malformed.lines[1]["appeared"]?[0]?["id"] == "a")
        #expect(malformed.lines[2]["kind"] == "malformedInput")
        #expect(
            malformed.lines[3]["batch"] == 2 && malformed.lines[3]["appeared"]?[0]?["id"] == "b")
        #expect(malformed.lines[4]["error"] != nil)
        #expect(try run("view 1 2\n").lines.map { $0["line"]?.intValue } == [1])
    }

    @Test("options a live index cannot keep are usage errors")
    func usage() throws {
        #expect(try run("", ["--min-points", "3"]).code == 64)
        #expect(try run("", ["--radius", "-1"]).code == 64)
        for option in [["--sum", "n"], ["--count", "kind"], ["--generate-id"]] {
            let console = BufferedConsole(input: "")
            let code = MeridianCommand.run(
                ["cluster", "--live"] + option, console: console.console)
            #expect(
                code == 64 && console.errorOutput.contains("\(option[0]) is for --input files"),
                "\(console.errorOutput)")
        }
    }
}
