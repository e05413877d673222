import Foundation

/// One fuzz input: the bytes and their count. Returns 0 (libFuzzer's convention).
public typealias FuzzBody = (UnsafeRawPointer, Int) -> CInt

#if FUZZING
    /// libFuzzer's entry point for programs that have their own main (SwiftPM renames an
    /// executable's main, so libFuzzer's own is never linked in).
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// The harness libFuzzer calls back (a C callback cannot capture; set once before running).
    nonisolated(unsafe) private var harnessBody: FuzzBody?
#endif

/// Runs a harness: under libFuzzer (`-DFUZZING`, scripts/fuzz.sh), fuzzes `body`; otherwise
/// replays each file named on the command line through `body`, exactly as the fuzzer would,
/// which is how a crash found once becomes a regression test (Fuzz/regressions/).
public func runHarness(_ name: String, _ body: @escaping FuzzBody) -> Never {
    #if FUZZING
        harnessBody = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            runFuzzerDriver(&argc, &argv) { data, size in
                harnessBody!(UnsafeRawPointer(data) ?? UnsafeRawPointer(bitPattern: 1)!, size)
            })
    #else
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("\(path): cannot read\n".utf8))
                exit(2)
            }
            data.withUnsafeBytes { raw in _ = body(raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, raw.count) }
            count += 1
        }
        print("\(name): replayed \(count) input(s)")
        exit(0)
    #endif
}
