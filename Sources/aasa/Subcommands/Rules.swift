import AASA
import ArgumentParser

extension AASACommand {
    /// `aasa rules [RULE…]`: the rule registry, as `aasa lint --list-rules` prints it, or the
    /// whole documentation of the rules named, for reading offline (as `ruff rule` does).
    struct Rules: AASASubcommand {
        static let name = "rules"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract: "List every rule, or show the whole documentation of the rules named.",
            usage: "aasa rules [<options>] [<rule> ...]",
            discussion: """
                Without a rule: the same list as 'aasa lint --list-rules' (severity, category, the version \
                that added the rule, the command that fixes it), the lint rules, then the findings check and \
                audit add, in the order of \(InstalledDocs.page("rules.md")). With rule IDs: each rule's documentation, as \
                rules.md gives it (what fires it, who it concerns, the next step). --format json gives \
                the records of the same rules. Turn rules off or change their severity with --disable and \
                --severity, or in .aasa.json.

                Exit status: 0 the rules were shown; 64 usage error (a rule that does not exist).

                EXAMPLES:
                  aasa rules
                  aasa rules invalid-json signer-expired
                  aasa rules --format json
                """
        )

        @Argument(
            help: ArgumentHelp(
                "Rules to show in full (all rules listed in one line each when none).", valueName: "rule"))
        var ids: [String] = []

        @Option(help: "Output format (jsonl: one rule per line).")
        var format = BatchFormatOption<PerFileFormats>(.text)

        @OptionGroup(title: "Report options")
        var report: ReportOptions

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        func run() throws {
            guard !ids.isEmpty else { return try RuleList.print(format.value, base: report.base) }
            let selected = try ids.map { id in
                guard let rule = RuleList.rule(id) else {
                    _ = try RuleSelectionOptions.rule(id, option: "aasa rules")  // throws with a suggestion
                    throw ValidationError("aasa rules: no such rule")
                }
                return rule
            }
            try RuleList.printDocumentation(of: selected, format: format.value, base: report.base)
        }
    }
}
