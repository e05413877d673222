import AASA
import ArgumentParser
import Foundation

/// `--baseline FILE` and `--write-baseline FILE` of lint: accepted findings (``Baseline``),
/// recorded once and then left out, so that a run reports and fails only on new ones
/// (docs/cli.md#baselines).
struct BaselineOptions: ParsableArguments {
    @Option(
        name: .customLong("baseline"),
        help: ArgumentHelp(
            "Leave out the findings FILE records (written by --write-baseline); report the ones that no longer occur.",
            valueName: "file"))
    var baseline: String?

    @Option(
        name: .customLong("write-baseline"),
        help: ArgumentHelp(
            "Record this run's findings (after --disable and --severity) in FILE, replacing it atomically.",
            valueName: "file"))
    var writeBaseline: String?

    func validate() throws {
        if writeBaseline == "-" || baseline == "-" {
            throw ValidationError("a baseline is a file: give its name, not '-'")
        }
    }

    /// The largest baseline file read (a baseline of a very large repository stays far below).
    static let sizeLimit = 64 << 20

    /// Reads the baseline at `path`.
    /// - Throws: ``CLIFailure`` (status 2) naming the file and, for a malformed one, the place.
    static func read(_ path: String) throws -> Baseline {
        let data = try InputFile.read(path, what: "baseline", limit: sizeLimit)
        do {
            return try Baseline(json: data)
        } catch {
            throw CLIFailure(path, "not an aasa baseline: \(error.message)")
        }
    }

    /// Writes `baseline` to `path` atomically (``OutputFile``).
    static func write(_ baseline: Baseline, to path: String) throws {
        let data: Data
        do {
            data = try baseline.encoded()
        } catch {
            throw CLIFailure(path, "cannot encode the baseline: \(error)")
        }
        try OutputFile.write(data, to: path)
    }
}
