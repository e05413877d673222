import AASA
import AASAReports
import ArgumentParser
import Foundation

extension AASACommand {
    struct Verify: AASASubcommand {
        static let name = "verify"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract: "Verify a signed AASA file: the signature over its content and the signer's chain.",
            discussion: """
                The signer must chain to a trust anchor (the system bundle unless --no-system-roots, \
                plus --ca-file/--ca-dir), fit the purpose (sslserver by default: AASA files were signed \
                with TLS server certificates), and be valid at --at (default now). The certificates \
                inside the file are only untrusted intermediates.

                Several files or a directory make a batch: the trust store is loaded once, every file \
                is checked at the same time (the start of the batch, unless --at), a chain shared by many \
                files is built once, --jobs files are checked at a time, and each file gets one line \
                (PATH: verdict), in input order, then a summary on standard error; --format json gives \
                an array of reports. See \(InstalledDocs.page("performance.md")).

                --historical (legacy files): a chain that fails today only for its roots or dates is \
                checked as it was when signed, against Mozilla's root store of the time; the verdict is \
                valid-then (with the window, the root and what fails today), never valid.

                Exit status: 0 valid (or valid-then, which only --historical gives), 1 not valid (the \
                reason is printed), 2 unreadable input; for a batch, the worst of its files.

                EXAMPLES (at the root of a clone of the repository):
                  aasa verify examples/apple-app-site-association.p7m \\
                    --ca-file certs/ca-bundle.pem --no-system-roots --domain example.com
                  aasa verify Tests/Fixtures/corpus/real-signed/ --include 'artsy*' \\
                    --historical --at 2015-09-15
                """
        )

        @Argument(
            help: ArgumentHelp("The signed files, or directories of them ('-' for standard input).", valueName: "file"))
        var files: [String] = []

        @OptionGroup(title: "Trust")
        var trust: TrustOptions

        @Option(
            help:
                "Output format (jsonl: one report per line; sarif: SARIF 2.1.0, junit: a test case per file, gitlab: GitLab Code Quality, markdown: a summary, each one document at the end)."
        )
        var format = BatchFormatOption<VerifyFormats>(.text)

        @OptionGroup(title: "Reports")
        var report: ReportOptions

        @OptionGroup(title: "Batch")
        var batch: BatchOptions

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        func validate() throws {
            if !batch.hasInputs(files) {
                throw ValidationError("give a signed file to verify ('-' for standard input), several, or a directory")
            }
            if files.filter({ $0 == "-" }).count > 1 {
                throw ValidationError("standard input ('-') can be read only once")
            }
            try batch.refuseListOnStandardInput(files)
        }

        /// One road for one file and for many (swift-format's Frontend): one verifier (for a
        /// batch with a fixed time and a chain cache), each file's work given to ``BatchFrontend``, `--jobs` at a time, in
        /// input order. A single file (in text) gets the whole report; a batch, a line per file and
        /// a summary. The end-of-run reports take a batch's form for any number of files.
        func run() throws {
            let single = !batch.isBatch(files) && !format.value.isReport
            var verifier: Verifier?
            let limits = self.limits.values
            try reportingFailures(path: batch.firstInput(files)) {
                let made = try trust.makeVerifier(limits: limits.library)
                // One file has no chain to share: the cache would only cost it time.
                verifier = batch.isBatch(files) ? made.forBatch() : made
            }
            guard let verifier else { throw ExitStatus.badInput }
            let expansion = batch.expand(files, what: "verify", streaming: true)
            var frontend = BatchFrontend("verify", expansion)
            let records = frontend.startOutput(format.value, .verify, single: single, layout: .document)
            var reports = ReportCollector(format.value, scope: .verify, rules: report, failOn: .error)
            expansion.failures.forEach { reports.unreadable($0) }
            let collects = reports.collects
            let fetching = trust.fetchIssuers
            frontend.run(
                threads: batch.workerCount, output: \.output,
                work: { item -> (output: BatchOutput, subject: ReportSubject?) in
                    var output = BatchOutput()
                    var subject: ReportSubject?
                    do {
                        let result = verifier.verify(try limits.read(item))
                        if collects { subject = ReportSubject(path: item.path, verification: result) }
                        output.write(
                            try records.render(
                                VerificationReport(path: item.path, result: result, options: verifier.options),
                                text: single
                                    ? TextReport.verification(path: item.path, result: result)
                                    : ["\(Diagnostics.displayName(item.path)): \(result.verdict.code)"]))
                        output.outcome = result.verdict.code
                        if !result.isAccepted {
                            output.fail(
                                CLIFailure(
                                    item.path,
                                    RemedyHint.adding(
                                        to: result.verdict.reason ?? "not valid", remedy: result.remedy,
                                        code: result.verdict.code, fetching: fetching),
                                    status: ExitStatus.checkFailed, code: result.verdict.code))
                        }
                    } catch {
                        output.fail(CLIFailure(item.path, describing: error), outcome: "unreadable")
                    }
                    return (output, subject)
                },
                then: { _, result, _ in
                    if let subject = result.subject { reports.add(subject) }
                    if result.output.outcome == "unreadable", let failure = result.output.failure {
                        reports.unreadable(failure)
                    }
                }, failed: { reports.unreadable($0) })
            frontend.finishOutput()
            try reports.finish()
            guard !single else { return try frontend.exit() }
            let tally = frontend.tally
            let invalid = tally.list(except: ["valid", "valid-then", "unreadable"])
            let validThen = tally.count("valid-then")
            let unreadable = tally.count("unreadable")
            frontend.summarize([
                "\(tally.count("valid")) of \(Counted.files(tally.total)) valid",
                validThen == 0 ? "" : "\(validThen) valid-then (valid when signed, with --historical)",
                invalid.isEmpty ? "" : "not valid: \(invalid)",
                unreadable == 0 ? "" : "\(unreadable) unreadable",
            ])
            try frontend.exit()
        }
    }
}
