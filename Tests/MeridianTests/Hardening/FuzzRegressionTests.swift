import Foundation
import Testing

@testable import MeridianFuzz

/// Every fuzz target's seed corpus and every input a fuzzer ever found (kept in
/// `Fuzz/Regressions/TARGET/`) replayed through the target, in the ordinary test run: none may
/// crash, hang or fail a round-trip check.
@Suite("Fuzz corpora and regressions")
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(_ folder: String, _ target: String) -> [URL] {
        let directory = root.appendingPathComponent(folder).appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test(arguments: Targets.all.keys.sorted())
    func replays(target: String) throws {
        let run = try #require(Targets.all[target])
        let files = Self.inputs("Corpus", target) + Self.inputs("Regressions", target)
        #expect(!files.isEmpty, "no seed corpus for \(target)")
        for file in files {
            run(try Data(contentsOf: file))
        }
    }
}
