import AASA
import AASAReports
import ArgumentParser
import Foundation

extension AASACommand {
    struct Check: AASASubcommand {
        static let name = "check"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract: "The full report for one AASA file: what is legacy, who still needs it, and what to do next.",
            discussion: """
                Detects the file, verifies it when signed (trust options as in verify), extracts and lints \
                its JSON, and compares it with Apple's current guidance: unsigned JSON served as \
                application/json at /.well-known/apple-app-site-association over HTTPS with no redirect, \
                at most 128 KB, with appIDs and components.

                Exit status: 0 nothing at or above --fail-on (default error), 1 findings at that level \
                (a signature that does not verify is an error), 2 unreadable input, 64 usage error.

                EXAMPLES (at the root of a clone of the repository):
                  aasa check examples/apple-app-site-association.p7m \\
                    --ca-file certs/ca-bundle.pem --no-system-roots
                  aasa check Tests/Fixtures/corpus/real-signed/artsy*-a.p7m --historical
                """
        )

        @Argument(help: ArgumentHelp("The AASA file ('-' for standard input).", valueName: "file"))
        var file: String

        @OptionGroup(title: "Trust (for signed files)")
        var trust: TrustOptions

        @OptionGroup
        var failOn: FailOnOption

        @Option(
            help:
                "Output format (sarif: SARIF 2.1.0, for code scanning; gitlab: GitLab Code Quality; markdown: a summary)."
        )
        var format = BatchFormatOption<CheckFormats>(.text)

        @OptionGroup(title: "Reports")
        var report: ReportOptions

        @OptionGroup(title: "Rules")
        var rules: RuleSelectionOptions

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        struct Document: Encodable {
            var path: String
            var report: DeprecationReport
            /// Findings of rules that --disable or the configuration turned off.
            var suppressed: Int
        }

        func run() throws {
            var resolved = RuleSelectionOptions.Resolved()
            try reportingFailures(path: "check") { resolved = try rules.resolve() }
            let threshold = failOn.level ?? resolved.config?.failOn ?? .error
            try reportingFailures(path: file) {
                let limits = self.limits.values
                let data = try limits.read(file)
                let aasaFile = AASAFile.read(data, limits: limits.library)  // the signed data parsed once
                let lint = Linter.lint(aasaFile, size: data.count, options: LintOptions(limits: limits.library))
                let verification =
                    lint.kind.isSigned
                    ? try trust.makeVerifier(limits: limits.library).verify(aasaFile.detection) : nil
                let (report, suppressed) = DeprecationReport(lint: lint, verification: verification)
                    .selecting(resolved.selection)
                switch format.value {
                case .json, .jsonl:
                    try JSONOutput.print(Document(path: file, report: report, suppressed: suppressed), stamped: .check)
                case .text: StandardStreams.out(lines: text(report, suppressed: suppressed))
                case .sarif, .gitlab, .markdown, .junit:
                    var reports = ReportCollector(format.value, scope: .check, rules: self.report, failOn: threshold)
                    var subject = ReportSubject(path: file, lint: lint, diagnostics: report.diagnostics)
                    subject.verdict = report.verdict.rawValue
                    reports.add(subject)
                    try reports.finish()
                }
                if report.diagnostics.contains(where: { $0.severity >= threshold }) { throw ExitStatus.checkFailed }
            }
        }

        /// Whether a finding's message says only what its title says (case and the final full
        /// stop aside).
        static func sameSentence(_ message: String, _ title: String) -> Bool {
            func plain(_ text: String) -> String {
                (text.hasSuffix(".") ? String(text.dropLast()) : text).lowercased()
            }
            return plain(message) == plain(title)
        }

        private func text(_ report: DeprecationReport, suppressed: Int) -> [String] {
            // The headline says what the file does (DocumentEffect), then what the verdict means.
            let (verdict, meaning): (String, String)
            switch report.verdict {
            case .current: (verdict, meaning) = ("current", "follows Apple's current guidance")
            case .legacy: (verdict, meaning) = ("legacy", "legacy parts to retire")
            case .needsAttention: (verdict, meaning) = ("needs attention", "warnings to look at")
            case .broken: (verdict, meaning) = ("broken", "errors: iOS rejects or ignores all or part of it")
            }
            let does = report.effect.map { "\($0.summary); " } ?? ""
            var lines = ["\(Diagnostics.displayName(file)): \(verdict): \(does)\(meaning)"]
            // --quiet: the headline, the problems and the count; not what the file does, its
            // legacy parts or the guidance it meets.
            let quiet = Display.quiet
            if !quiet { lines += description(report) }
            let legacy = report.items.filter { $0.severity == .deprecation }
            let problems = report.items.filter { $0.severity != .deprecation }
            // Legacy parts say who still needs them; problems say what they do.
            for (title, items, label) in [
                ("Problems", problems, "effect:      "), ("Legacy parts", quiet ? [] : legacy, "who needs it:"),
            ]
            where !items.isEmpty {
                lines.append("")
                lines.append("\(title):")
                // One block per rule, with every place it applies.
                var order: [RuleID] = []
                var byRule: [RuleID: [DeprecationReport.Item]] = [:]
                for item in items {
                    if byRule[item.rule] == nil { order.append(item.rule) }
                    byRule[item.rule, default: []].append(item)
                }
                for rule in order {
                    let group = byRule[rule] ?? []
                    let first = group[0]
                    lines.append("  - [\(rule.rawValue)] \(first.title)")
                    // Every place and every value the finding covers, each with its own message
                    // when that says more than the title (an app ID, a path).
                    for item in group {
                        let place = item.location == "$" ? "" : "at \(item.location)"
                        let says = Self.sameSentence(item.message, first.title) ? "" : item.message
                        let line = [place, says].filter { !$0.isEmpty }.joined(separator: ": ")
                        if !line.isEmpty { lines.append("      " + line) }
                    }
                    lines.append("      \(label) \(first.neededBy)")
                    lines.append(
                        "      next step:    \(NextStepText.filledIn(first.nextStep, file: file, trust: trustWords(report), verifier: "check"))"
                    )
                }
            }
            if !quiet { lines += guidance(report) }
            var counts: [Severity: Int] = [:]
            for diagnostic in report.diagnostics { counts[diagnostic.severity, default: 0] += 1 }
            let summary = Severity.allCases.reversed().map { severity -> String in
                let count = counts[severity] ?? 0
                return "\(count) \(severity == .info || count == 1 ? severity.rawValue : severity.rawValue + "s")"
            }.joined(separator: ", ")
            lines.append("")
            let dropped = suppressed == 0 ? "" : "; \(suppressed) suppressed (rule selection)"
            lines.append("Findings: \(summary)\(dropped) (all of them: aasa lint \(file == "-" ? "-" : file))")
            return lines
        }

        /// This run's trust options, for the next steps, when the file verified with them.
        private func trustWords(_ report: DeprecationReport) -> [String] {
            guard let verdict = report.signature?.verdict, ["valid", "valid-then"].contains(verdict) else { return [] }
            return trust.commandLineWords
        }

        /// What the file is and does: its kind, its apps, its signature.
        private func description(_ report: DeprecationReport) -> [String] {
            var lines: [String] = []
            lines.append("  kind: \(report.kind.rawValue)")
            if let effect = report.effect {
                for app in effect.universalLinks {
                    lines.append(
                        "  universal links: \(app.appID): "
                            + (app.exampleURL.map { "opens URLs such as \($0)" } ?? "no URL opens it"))
                }
                for (service, apps) in [
                    ("shared web credentials", effect.webCredentials), ("Handoff", effect.activityContinuation),
                    ("App Clips", effect.appClips),
                ] where !apps.isEmpty {
                    lines.append("  \(service): \(apps.joined(separator: ", "))")
                }
                if !effect.unusableAppIDs.isEmpty {
                    lines.append(
                        "  unusable app identifiers: \(effect.unusableAppIDs.map { "\"\($0)\"" }.joined(separator: ", "))"
                    )
                }
            }
            if let signature = report.signature {
                lines.append("  signature: \(signature.verdict)" + (signature.reason.map { " (\($0))" } ?? ""))
                if let signer = signature.signer { lines.append("  signer: \(signer)") }
            }
            return lines
        }

        /// The file against Apple's current guidance, a mark per point.
        private func guidance(_ report: DeprecationReport) -> [String] {
            var lines: [String] = []
            lines.append("")
            lines.append("Apple's current guidance:")
            for point in report.guidance {
                let mark: String
                switch point.status {
                case .met: mark = "[ok]  "
                case .notMet: mark = "[no]  "
                case .notCheckable: mark = "[n/a] "
                }
                lines.append("  \(mark)\(point.guidance)" + (point.detail.map { ": \($0)" } ?? ""))
            }
            return lines
        }
    }
}
