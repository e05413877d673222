import Foundation

#if FUZZING
/// libFuzzer's entry point for programs that have their own main (SwiftPM renames an
/// executable's main, so libFuzzer's is never linked in).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main
enum FuzzDriver {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv) { data, size in
            fuzzOneInput(UnsafeRawPointer(data) ?? UnsafeRawPointer(bitPattern: 1)!, size)
        })
    }
}
#else
/// Without libFuzzer (a normal build), the harness replays the files named on its command
/// line: each is one input, run exactly as the fuzzer would run it.
@main
enum Replay {
    static func main() {
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("\(path): cannot read\n".utf8))
                exit(2)
            }
            data.withUnsafeBytes { raw in
                _ = fuzzOneInput(raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, raw.count)
            }
            count += 1
        }
        print("FuzzDocument: replayed \(count) input(s)")
    }
}
#endif
