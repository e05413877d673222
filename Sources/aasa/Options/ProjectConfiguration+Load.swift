import AASA
import AASAReports
import Foundation

extension ProjectConfiguration {
    /// The configuration of this run: `--config FILE`, else `.aasa.json` in the working
    /// directory when it exists (unless `ignoreWorkingDirectory`), else none; every rule `aasa`
    /// knows may be named (``RuleList/knownRuleIDs``).
    /// - Throws: ``CLIFailure`` (status 2) naming the file and the key (escaped for the
    ///   terminal by ``Diagnostics``).
    static func load(explicit: String?, ignoreWorkingDirectory: Bool) throws -> ProjectConfiguration? {
        let path: String
        if let explicit {
            path = explicit
        } else {
            guard !ignoreWorkingDirectory, FileManager.default.fileExists(atPath: defaultName) else { return nil }
            path = defaultName
        }
        let data = try InputFile.read(path, what: "configuration", limit: 1 << 20)
        do {
            return try parse(data, path: path, known: RuleList.knownRuleIDs)
        } catch {
            throw CLIFailure(path, error.message)
        }
    }
}
