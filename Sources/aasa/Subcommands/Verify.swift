import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
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
                an array of reports. See docs/performance.md.

                Exit status: 0 valid, 1 not valid (the reason is printed), 2 unreadable input; for a \
                batch, the worst of its files.
                """
        )

        @Argument(
            help: ArgumentHelp("The signed files, or directories of them ('-' for standard input).", valueName: "file"))
        var files: [String] = []

        @OptionGroup(title: "Trust")
        var trust: TrustOptions

        @Option(help: "Output format: \(BatchFormatOption<PerFileFormats>.listed) (jsonl: one report per line).")
        var format = BatchFormatOption<PerFileFormats>(.text)

        @OptionGroup(title: "Batch")
        var batch: BatchOptions

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

        func run() throws {
            if batch.isBatch(files) {
                try runBatch()
            } else {
                try runSingle(files[0])
            }
        }

        private func runSingle(_ file: String) throws {
            try reportingFailures(path: file) {
                let limits = self.limits.values
                let verifier = try trust.makeVerifier(limits: limits.library)
                let data = try limits.read(file)
                let result = verifier.verify(data)
                let report = VerificationReport(path: file, result: result, options: verifier.options)
                let records = RecordPrinter(format: format.value, array: nil)
                StandardStreams.out(
                    try records.render(report, text: TextReport.verification(path: file, result: result)))
                if !result.isValid {
                    throw CLIFailure(
                        file, result.verdict.reason ?? "not valid", status: ExitStatus.checkFailed,
                        code: result.verdict.code)
                }
            }
        }

        /// Many files: one verifier (fixed time, chain cache), `--jobs` at a time, in input order.
        private func runBatch() throws {
            var verifier: Verifier?
            let limits = self.limits.values
            try reportingFailures(path: batch.firstInput(files)) {
                verifier = try trust.makeVerifier(limits: limits.library).forBatch()
            }
            guard let verifier else { throw ExitStatus.badInput }
            let expansion = batch.expand(files, what: "verify", streaming: true)
            var frontend = BatchFrontend("verify", expansion)
            let records = frontend.startOutput(format.value, single: false, layout: .document)
            frontend.run(threads: batch.workerCount) { item in
                var output = BatchOutput()
                do {
                    let result = verifier.verify(try limits.read(item.path))
                    output.write(
                        try records.render(
                            VerificationReport(path: item.path, result: result, options: verifier.options),
                            text: ["\(Diagnostics.displayName(item.path)): \(result.verdict.code)"]))
                    output.outcome = result.verdict.code
                    if !result.isValid {
                        output.fail(
                            CLIFailure(
                                item.path, result.verdict.reason ?? "not valid", status: ExitStatus.checkFailed,
                                code: result.verdict.code))
                    }
                } catch {
                    output.fail(CLIFailure(item.path, describing: error), outcome: "unreadable")
                }
                return output
            }
            frontend.finishOutput()
            let tally = frontend.tally
            let invalid = tally.list(except: ["valid", "unreadable"])
            let unreadable = tally.count("unreadable")
            frontend.summarize([
                "\(tally.count("valid")) of \(BatchTally.files(tally.total)) valid",
                invalid.isEmpty ? "" : "not valid: \(invalid)",
                unreadable == 0 ? "" : "\(unreadable) unreadable",
            ])
            try frontend.exit()
        }
    }
}
