import AASA
import ArgumentParser

extension AASACommand {
    /// `aasa rules`: the rule registry, as `aasa lint --list-rules` prints it.
    struct Rules: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rules",
            _superCommandName: AASACommand.name,
            abstract: "List every rule: severity, category, the version that added it, the command that fixes it.",
            discussion: """
                The same list as 'aasa lint --list-rules': the lint rules, then the findings check and audit \
                add, in the order of docs/rules.md. --format json adds each rule's full description and \
                documentation URL. Turn rules off or change their severity with --disable and --severity, or \
                in .aasa.json (docs/configuration.md).
                """
        )

        @Option(help: "Output format: \(BatchFormatOption<PerFileFormats>.listed) (jsonl: one rule per line).")
        var format = BatchFormatOption<PerFileFormats>(.text)

        func run() throws { try RuleList.print(format.value) }
    }
}
