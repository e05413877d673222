import ArgumentParser
import Foundation

/// The flags of every command that takes many files: how many at once, and which files a
/// directory contributes.
struct BatchOptions: ParsableArguments {
    @Option(
        name: [.short, .customLong("jobs")],
        help: ArgumentHelp(
            "Files processed at once (default: the number of cores). Output stays in input order.", valueName: "n"))
    var jobs: Int?

    @Option(
        name: .customLong("include"),
        help: ArgumentHelp(
            "In directories, take only files whose name matches this glob, e.g. '*.p7m' (repeatable; files named on the command line are always taken).",
            valueName: "glob"))
    var include: [String] = []

    @Flag(
        name: .customLong("no-recurse"),
        help: "In directories, take only the files directly inside, not those in subdirectories.")
    var noRecurse = false

    /// More workers than this only add contention.
    static let maximumJobs = 256

    func validate() throws {
        if let jobs, jobs < 1 || jobs > Self.maximumJobs {
            throw ValidationError("--jobs must be between 1 and \(Self.maximumJobs)")
        }
        for glob in include where glob.isEmpty || glob.contains("/") {
            throw ValidationError("--include '\(glob)' must be a file-name pattern without '/', such as '*.p7m'")
        }
    }

    /// The number of worker threads.
    var workerCount: Int { jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Whether these inputs make a batch: more than one, or a directory.
    static func isBatch(_ inputs: [String]) -> Bool {
        inputs.count > 1 || inputs.contains(where: isDirectory)
    }

    /// The files the inputs name: each file as given, each directory's regular files (sorted,
    /// filtered by ``include``, recursing unless ``noRecurse``). A directory that cannot be read
    /// or (when `emptyIsFailure`) holds no file to take is reported in `failures`.
    func expand(_ inputs: [String], what: String, emptyIsFailure: Bool = true) -> BatchExpansion {
        var expansion = BatchExpansion()
        for input in inputs {
            guard isDirectory(input) else {
                expansion.items.append(
                    BatchInput(path: input, relative: (input as NSString).lastPathComponent, explicit: true))
                continue
            }
            do {
                let (found, unreadable, leftOut) = try BatchInput.files(
                    under: input, recursive: !noRecurse, include: include)
                expansion.failures += unreadable
                expansion.leftOut += leftOut
                if found.isEmpty && unreadable.isEmpty && emptyIsFailure {
                    let filter = include.isEmpty ? "" : " matching \(include.joined(separator: " or "))"
                    expansion.failures.append(CLIFailure(input, "no file\(filter) to \(what) in this directory"))
                }
                for relative in found {
                    expansion.items.append(
                        BatchInput(
                            path: (input as NSString).appendingPathComponent(relative), relative: relative,
                            explicit: false))
                }
            } catch let failure as CLIFailure {
                expansion.failures.append(failure)
            } catch {
                expansion.failures.append(CLIFailure(input, "cannot read the directory: \(error.localizedDescription)"))
            }
        }
        return expansion
    }
}
