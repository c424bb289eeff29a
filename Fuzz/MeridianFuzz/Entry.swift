import Foundation

// Two ways in:
// - built with `-sanitize=fuzzer,address -DFUZZING` (Scripts/fuzz.sh), libFuzzer calls
//   `LLVMFuzzerTestOneInput` with each input, for the target named by MERIDIAN_FUZZ_TARGET;
// - built normally, `meridian-fuzz TARGET FILE...` replays inputs (a corpus, or a finding kept
//   as a regression test), `meridian-fuzz leaks [CYCLES]` runs the leak check (LeakCheck) and
//   `meridian-fuzz store-writer DIRECTORY STEPS` is the writer the store crash test kills.

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

/// libFuzzer's driver, which parses its options and runs the loop.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The executable's entry point (SwiftPM links `main` to `<target>_main`): libFuzzer's loop.
@_cdecl("MeridianFuzz_main")
public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { bytes, count in
        selectedTarget(Data(bytes: bytes, count: count))
        return 0
    }
}
#else
@main
enum Replay {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "leaks" {
            let cycles = arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000
            await LeakCheck.main(cycles: max(1, cycles))
            return
        }
        if arguments.first == "store-writer" {
            let rest = Array(arguments.dropFirst())
            guard rest.count == 2, let steps = Int(rest[1]) else {
                FileHandle.standardError.write(
                    Data("usage: meridian-fuzz store-writer DIRECTORY STEPS\n".utf8))
                exit(64)
            }
            do {
                try await StoreWriter.run(directory: URL(fileURLWithPath: rest[0]), steps: steps)
            } catch {
                FileHandle.standardError.write(Data("meridian-fuzz store-writer: \(error)\n".utf8))
                exit(1)
            }
            return
        }
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
