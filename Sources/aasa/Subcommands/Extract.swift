import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Extract: AASASubcommand {
        static let name = "extract"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract: "Write the JSON embedded in a signed AASA file, after verifying it.",
            discussion: """
                The signature and chain are verified first (same options as verify); if that fails, \
                nothing is written. --no-verify extracts anyway and says so on stderr. The bytes come \
                out exactly as signed: a file signed without -binary has CRLF line ends; --lf turns \
                them back into LF.

                Several files or a directory make a batch, written under --out-dir (each file under \
                its name, relative to the directory it was found in): the trust store is loaded once, \
                a chain shared by many files is checked once, --jobs files at a time; a failure on one \
                file writes nothing for it and does not stop the others; a summary ends on standard \
                error. See \(InstalledDocs.page("performance.md")).

                Exit status: 0 written, 1 verification failed, 2 unreadable or not a signed file; for a \
                batch, the worst of its files.

                EXAMPLES (at the root of a clone of the repository):
                  aasa extract examples/apple-app-site-association.p7m \\
                    --ca-file certs/ca-bundle.pem --no-system-roots --lf
                """
        )

        @Argument(
            help: ArgumentHelp("The signed files, or directories of them ('-' for standard input).", valueName: "file"))
        var files: [String] = []

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp("Where to write the JSON of a single file ('-' for standard output).", valueName: "out"))
        var output: String = "-"

        @Option(
            name: .customLong("out-dir"),
            help: ArgumentHelp(
                "Write the JSON of each file here, under its name (for several files or a directory).", valueName: "dir"
            ))
        var outDirectory: String?

        @Flag(name: .customLong("no-verify"), help: "Extract without verifying (the content is then unverified).")
        var noVerify = false

        @Flag(help: "Turn CRLF line ends (from MIME canonicalisation) back into LF.")
        var lf = false

        @OptionGroup
        var clobber: ClobberOptions

        @OptionGroup(title: "Trust")
        var trust: TrustOptions

        @OptionGroup(title: "Batch")
        var batch: BatchOptions

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        func validate() throws {
            if !batch.hasInputs(files) {
                throw ValidationError("give a signed file to extract ('-' for standard input), several, or a directory")
            }
            if files.filter({ $0 == "-" }).count > 1 {
                throw ValidationError("standard input ('-') can be read only once")
            }
            try batch.refuseListOnStandardInput(files)
            if outDirectory != nil && output != "-" {
                throw ValidationError("give either -o (one file) or --out-dir (several), not both")
            }
            if outDirectory == nil && batch.isBatch(files) {
                if output != "-" {
                    throw ValidationError(
                        "-o takes a single input file; use --out-dir DIR for several files or a directory")
                }
                throw ValidationError(
                    "several files or a directory need --out-dir DIR (one JSON file each, under its name)")
            }
            if outDirectory != nil && files.contains("-") {
                throw ValidationError("standard input ('-') has no name: extract it alone, with -o")
            }
        }

        /// One road for one file and for many (swift-format's Frontend): the trust store loaded
        /// once, each file's work given to ``BatchFrontend``. A single file's JSON goes to `-o`
        /// (standard output by default); a batch's, under `--out-dir`, with a note per file and
        /// a summary.
        func run() throws {
            var verifier: Verifier?
            var destinations: [String] = []
            let expansion = batch.expand(files, what: "extract")
            let items = expansion.items
            let limits = self.limits.values
            try reportingFailures(path: batch.firstInput(files)) {
                if let outDirectory {
                    destinations = try BatchInput.destinations(
                        for: items, in: outDirectory, otherInputs: trust.inputFiles)
                } else {
                    try OutputFile.ensureDistinct(output: output, from: files + trust.inputFiles)
                    destinations = items.map { _ in output }
                }
                if !noVerify {
                    let made = try trust.makeVerifier(limits: limits.library)
                    // One file has no chain to share: the cache would only cost it time.
                    verifier = batch.isBatch(files) ? made.forBatch() : made
                }
            }
            var frontend = BatchFrontend("extract", expansion)
            let (lf, shared, noClobber, fetching) = (lf, verifier, clobber.noClobber, trust.fetchIssuers)
            let directory = outDirectory
            frontend.run(Array(zip(items, destinations)), threads: batch.workerCount) { item, destination in
                var output = BatchOutput()
                do {
                    let data = try limits.read(item)
                    var content: Data
                    if let verifier = shared {
                        let (verified, note) = try Self.content(
                            of: verifier.verify(data), path: item.path, fetching: fetching)
                        content = verified
                        if let note { output.emit(item.path, .note, note) }
                    } else {
                        content = try Self.unverifiedContent(of: data, path: item.path, limits: limits.library)
                        output.emit(
                            item.path, .warning,
                            "the content is UNVERIFIED (--no-verify): its signature and signer were not checked")
                    }
                    if lf { content = LineEndingStyle.crlfToLF(content) }
                    guard let directory else {
                        try output.write(content, to: destination, noClobber: noClobber)
                        output.outcome = "extracted"
                        return output
                    }
                    try OutputFile.write(
                        content, under: directory, relative: item.relative, path: destination,
                        policy: OutputFile.Policy(durable: false, noClobber: noClobber))
                    output.emit(
                        item.path, .note, "extracted (\(shared == nil ? "unverified" : "verified")) → \(destination)")
                    output.outcome = "extracted"
                } catch {
                    let failure = CLIFailure(item.path, describing: error)
                    output.fail(
                        failure,
                        outcome: failure.status == ExitStatus.checkFailed ? "failed verification" : "unreadable")
                }
                return output
            }
            frontend.finishOutput()
            if outDirectory != nil {
                OutputFile.flush(destinations)
                let tally = frontend.tally
                let failed = tally.count("failed verification"), unreadable = tally.count("unreadable")
                frontend.summarize([
                    "\(tally.count("extracted")) of \(Counted.files(tally.total)) extracted",
                    failed == 0
                        ? "" : "\(failed) failed verification (nothing written for \(failed == 1 ? "it" : "them"))",
                    unreadable == 0 ? "" : "\(unreadable) unreadable or not signed",
                ])
            }
            try frontend.exit()
        }

        /// The verified content of `result` and its note, or the failure to report: the
        /// library's decision (``VerificationResult/contentDecision``) in extract's words.
        private static func content(
            of result: VerificationResult, path: String, fetching: Bool
        ) throws -> (Data, note: String?) {
            switch result.contentDecision {
            case .content(let content, let note):
                return (content, note)
            case .nothingToTake(let reason, let alreadyPlainJSON):
                // Not a usable signed file at all: wrong input, not a failed check.
                throw CLIFailure(
                    path, "nothing to extract: \(reason)", code: alreadyPlainJSON ? nil : result.verdict.code)
            case .refused(let reason):
                throw CLIFailure(
                    path,
                    RemedyHint.adding(
                        to: "not extracted: \(reason)", remedy: result.remedy, code: result.verdict.code,
                        fetching: fetching),
                    status: ExitStatus.checkFailed, code: result.verdict.code)
            }
        }

        /// The content of a signed file without verifying it (`--no-verify`).
        private static func unverifiedContent(of data: Data, path: String, limits: InputLimits) throws -> Data {
            let detection = FileKindDetector.detect(data, limits: limits)
            guard let message = detection.message, detection.kind.isSigned else {
                throw CLIFailure(path, "nothing to extract: \(describe(detection))")
            }
            guard !message.signerInfos.isEmpty else {
                throw CLIFailure(path, "nothing to extract: a certificates-only PKCS#7 (no signer, no content)")
            }
            return try message.unverifiedContent()
        }

        private static func describe(_ detection: Detection) -> String {
            switch detection.kind {
            case .json: return "the file is already plain JSON"
            default: return "the file is \(detection.kind.rawValue)" + (detection.detail.map { " (\($0))" } ?? "")
            }
        }
    }
}
