import Foundation

/// A next step of the library's guidance (`aasa check`'s and `aasa audit`'s reports) with
/// `FILE` filled in, so that its commands run as printed.
///
/// Only the backquoted `aasa …` commands are filled: prose such as "give it with
/// `--intermediates FILE`" names a file the user must get, not the checked one.
enum NextStepText {
    static let servedName = "apple-app-site-association"

    /// `step` with `file` (shell-quoted) for `FILE` in its backquoted `aasa` commands.
    /// - `trust`: the options the file verified with in this run (a private PKI's `--ca-file`),
    ///   which then replace `--historical` (Mozilla's store of the time), so that the step
    ///   verifies the file as `verifier` (`check`, `audit`) did;
    /// - a `file` that is the served name in the working directory gets `convert … --in-place`
    ///   for `-o apple-app-site-association`, which would name the input as the output;
    /// - `output`, when given, replaces that `-o apple-app-site-association` (`audit --save`
    ///   writes each domain's JSON beside its saved file, not all of them to one name).
    static func filledIn(
        _ step: String, file: String, trust: [String] = [], output: String? = nil, verifier: String
    ) -> String {
        var step = step
        if !trust.isEmpty {
            step = step.replacingOccurrences(of: " FILE --historical", with: " FILE " + trust.joined(separator: " "))
                .replacingOccurrences(
                    of: ": verified as it was when signed, which a file valid today also passes",
                    with: ": verified as this \(verifier) verified it")
        }
        guard file != "-" else { return step }
        let served =
            URL(fileURLWithPath: file).standardizedFileURL == URL(fileURLWithPath: servedName).standardizedFileURL
        return mapCommands(step) { command in
            var command = command.replacingOccurrences(of: " FILE", with: " " + ShellWord.quoted(file))
            let servedOutput = " -o \(servedName)"
            if let output, command.hasSuffix(servedOutput) {
                command = command.dropLast(servedOutput.count) + " -o " + ShellWord.quoted(output)
            } else if served && command.hasSuffix(servedOutput) {
                command = command.dropLast(servedOutput.count) + " --in-place"
            }
            return command
        }
    }

    /// Whether `step` has a backquoted `aasa` command that names `FILE`.
    static func namesFile(_ step: String) -> Bool {
        step.split(separator: "`", omittingEmptySubsequences: false).enumerated().contains {
            $0.offset % 2 == 1 && isFileCommand(String($0.element))
        }
    }

    private static func isFileCommand(_ text: String) -> Bool {
        text.hasPrefix("aasa ") && text.split(separator: " ").contains("FILE")
    }

    /// `step` with each backquoted `aasa` command that names `FILE` passed through `transform`.
    private static func mapCommands(_ step: String, _ transform: (String) -> String) -> String {
        step.split(separator: "`", omittingEmptySubsequences: false).enumerated().map { part in
            let text = String(part.element)
            return part.offset % 2 == 1 && isFileCommand(text) ? transform(text) : text
        }.joined(separator: "`")
    }
}
