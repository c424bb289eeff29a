import Foundation

// Two ways in:
// - built with `-sanitize=fuzzer,address -DFUZZING` (Scripts/fuzz.sh), libFuzzer's driver calls
//   the target named by MERIDIAN_FUZZ_TARGET with each input, and `meridian-fuzz leaks [CYCLES]`
//   runs the leak check under the leak checker;
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
/// The callback libFuzzer's own objects refer to by name (its `main`, which ours replaces).
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

/// The executable's entry point (SwiftPM links `main` to `<target>_main`): libFuzzer's loop, or
/// with `leaks [CYCLES]` the leak check, here under AddressSanitizer's leak checker.
@_cdecl("MeridianFuzz_main")
public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    let words = (0..<Int(argc)).map { argv?[$0].map { String(cString: $0) } ?? "" }
    if words.count >= 2 && words[1] == "leaks" {
        let cycles = words.count >= 3 ? Int(words[2]) ?? 100_000 : 100_000
        let finished = DispatchSemaphore(value: 0)
        Task {
            await LeakCheck.main(cycles: max(1, cycles))
            finished.signal()
        }
        finished.wait()
        return 0
    }
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
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
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map
                {
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
