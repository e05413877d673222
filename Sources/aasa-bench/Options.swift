// aasa-bench: its command line.
import Foundation

struct Options {
    var quick = false
    var aasa: String?
    var output = "benchmark-results.json"
    var keep = false
    var build = true
    var scratch: String?
    var startUpOnly = false
    var argumentsOnly = false
    var scalingOnly = false
    var files = 20_000

    static let usage = """
        usage: aasa-bench [--quick] [--aasa PATH] [--output FILE] [--scratch DIR] [--keep] [--no-build]
          --quick        fewer files, runs and seconds (under about 2 minutes)
          --aasa PATH    the aasa binary to measure (default: the release one beside aasa-bench,
                         built first with `swift build -c release --product aasa`)
          --output FILE  where to write the results as JSON (default: benchmark-results.json)
          --scratch DIR  where to generate the inputs (default: /dev/shm when it exists, so that
                         the disk is not measured; else the temporary directory)
          --keep         keep the generated inputs (their directory is printed)
          --no-build     do not build aasa first
          --startup      only the single-file, whole-process figures (start-up; 60 rounds)
          --arguments    only the time before the first file is read with 10,000 file names,
                         on the command line and through --files-from - --null (20 rounds)
          --scaling      only the many-core curve: sign, verify and lint at --jobs 1, 2, 4, … up to
                         the cores present, beside openssl speed -multi N, and one process with
                         --jobs N against N processes with --jobs 1 (best of 3 rounds)
          --files N      files for --scaling (default 20,000; 2,000 with --quick)
        """

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--keep": keep = true
            case "--no-build": build = false
            case "--startup": startUpOnly = true
            case "--arguments": argumentsOnly = true
            case "--scaling": scalingOnly = true
            case "--files":
                guard let count = rest.popFirst().flatMap(Int.init), count > 0 else {
                    say("--files needs a number of files above 0\n\(Options.usage)")
                    exit(64)
                }
                files = count
            case "--aasa": aasa = rest.popFirst()
            case "--output": output = rest.popFirst() ?? output
            case "--scratch": scratch = rest.popFirst()
            case "-h", "--help":
                print(Options.usage)
                exit(0)
            default:
                say("unknown argument \(argument)\n\(Options.usage)")
                exit(64)
            }
        }
    }
}

/// Prints a progress line to standard error.
func say(_ text: String) {
    // The throwing write: a closed or full stderr loses the progress line instead of trapping
    // (FileHandle.write(_:) traps); there is nowhere left to report that failure.
    try? FileHandle.standardError.write(contentsOf: Data("aasa-bench: \(text)\n".utf8))
}
