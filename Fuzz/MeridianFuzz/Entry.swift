import Foundation

// Two ways in:
// - built with `-sanitize=fuzzer,address -DFUZZING` (Scripts/fuzz.sh), libFuzzer calls
//   `LLVMFuzzerTestOneInput` with each input, for the target named by MERIDIAN_FUZZ_TARGET;
// - built normally, `meridian-fuzz TARGET FILE...` replays inputs (a corpus, or a finding kept
//   as a regression test).

/// The target selected by the environment, found once.
let selectedTarget: @Sendable (Data) -> Void = {
    let name = ProcessInfo.processInfo.environment["MERIDIAN_FUZZ_TARGET"] ?? ""
    guard let target = Targets.all[name] else {
        let names = Targets.all.keys.sorted().joined(separator: ", ")
        FileHandle.standardError.write(
            Data("meridian-fuzz: set MERIDIAN_FUZZ_TARGET to one of \(names)\n".utf8))
        exit(64)
    }
    return target
}()

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    selectedTarget(Data(bytes: bytes, count: count))
    return 0
}
#else
@main
enum Replay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = Targets.all[name] else {
            let names = Targets.all.keys.sorted().joined(separator: ", ")
            FileHandle.standardError.write(
                Data("usage: meridian-fuzz <\(names)> FILE|DIRECTORY...\n".utf8))
            exit(64)
        }
        var count = 0
        for path in arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                continue
            }
            let files =
                isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
                    path + "/" + $0
                } : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                target(data)
                count += 1
            }
        }
        print("meridian-fuzz \(name): \(count) inputs replayed")
    }
}
#endif
