import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Convert: AASASubcommand {
        static let name = "convert"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract: "Convert signed AASA files to plain JSON (verified first), and normalise plain ones.",
            discussion: """
                A signed file is verified (same trust options as verify), its JSON extracted and its \
                canonical CRLF line ends turned back into LF; plain JSON goes through the same checks. The \
                JSON is checked strictly and written pretty-printed (or --compact), keys in their original \
                order; a key given twice keeps its last value, as Apple's parser does, and is reported. \
                --preserve-format writes the JSON bytes as they were instead (CRLF → LF for signed content).

                One input goes to standard output or -o; several inputs or a directory need --out-dir \
                (names relative to each directory kept, a .p7m extension dropped) or --in-place. The input is never overwritten \
                without --in-place, and then only by an atomic rename once the new file is complete. \
                A failure on one file does not stop the others and leaves no partial file. See \
                \(InstalledDocs.page("convert-and-migrate.md")).

                Exit status: 0 every file converted, 1 some file failed verification (nothing written for \
                it), 2 some input unreadable or not JSON, or some output unwritable, 64 usage error.

                EXAMPLES (at the root of a clone of the repository):
                  aasa convert Tests/Fixtures/corpus/real-signed/artsy*-a.p7m --historical
                """
        )

        @Argument(help: ArgumentHelp("Files or directories to convert ('-' for standard input).", valueName: "in"))
        var inputs: [String] = []

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp("Where to write the JSON of a single input ('-' for standard output).", valueName: "out")
        )
        var output: String?

        @Option(
            name: .customLong("out-dir"),
            help: ArgumentHelp(
                "Write each converted file here, under its name (relative to the directory it was found in; without a .p7m extension).",
                valueName: "dir"))
        var outDirectory: String?

        @Flag(
            name: .customLong("in-place"),
            help: "Replace each input with its JSON (atomically, only once the new file is complete).")
        var inPlace = false

        @Flag(help: "Write the JSON without white space.")
        var compact = false

        @Flag(
            name: .customLong("preserve-format"),
            help: "Write the JSON bytes as they were (CRLF turned into LF for signed content), not re-formatted.")
        var preserveFormat = false

        @Flag(
            name: .customLong("no-verify"),
            help: "Convert signed files without verifying them (the result is marked unverified).")
        var noVerify = false

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
            if !batch.hasInputs(inputs) {
                throw ValidationError("give at least one file or directory to convert ('-' for standard input)")
            }
            let destinations = [output != nil, outDirectory != nil, inPlace].filter { $0 }.count
            if destinations > 1 { throw ValidationError("give only one of -o, --out-dir and --in-place") }
            if inPlace && clobber.noClobber {
                throw ValidationError("--in-place replaces the inputs; --no-clobber forbids that: give one of them")
            }
            if compact && preserveFormat { throw ValidationError("--compact and --preserve-format cannot be combined") }
            if inputs.filter({ $0 == "-" }).count > 1 {
                throw ValidationError("standard input ('-') can be read only once")
            }
            if inputs.contains("-") && (inPlace || outDirectory != nil) {
                throw ValidationError("standard input ('-') has no name: give -o for it, not --out-dir or --in-place")
            }
            try batch.refuseListOnStandardInput(inputs)
            let hasDirectory = batch.filesFrom != nil || inputs.contains { isDirectory($0) }
            if output != nil && (inputs.count > 1 || hasDirectory) {
                throw ValidationError(
                    "-o takes a single input file; use --out-dir DIR for several files or a directory")
            }
            if (inputs.count > 1 || hasDirectory) && outDirectory == nil && !inPlace {
                throw ValidationError("several inputs or a directory need --out-dir DIR or --in-place")
            }
        }

        /// One file to convert.
        struct Job: Sendable {
            var input: String
            var output: String
            /// The name under `--out-dir` (``convertedName(_:)`` of the input's relative name).
            var outputRelative: String
            /// Named on the command line (as opposed to found in a directory).
            var explicit: Bool
            /// The file as the batch found it: its directories are opened without following
            /// links, and `--out-dir` keeps its relative name.
            var item: BatchInput
        }

        /// How one file ended.
        enum Outcome {
            case converted(unverified: Bool)
            case unchanged
            case skipped
            case failed(ExitCode)
        }

        func run() throws {
            var outcomes: [Outcome] = []
            var jobs: [Job] = []
            // 1. The files, and where each goes.
            let expansion = batch.expand(inputs, what: "convert", emptyIsFailure: false)
            let items = expansion.items
            // Convert keeps its own outcomes (its summary counts them); the status is the worst.
            var frontend = BatchFrontend("convert", expansion, failureOutcome: nil)
            outcomes += expansion.failures.map { _ in Outcome.failed(ExitStatus.badInput) }
            for item in items {
                let relative = Self.convertedName(item.relative)
                jobs.append(
                    Job(
                        input: item.path, output: destination(for: item.path, relative: relative),
                        outputRelative: relative, explicit: item.explicit, item: item))
            }
            // 2. Refuse, before doing anything, to overwrite an input or write two files to one place.
            try reportingFailures(path: batch.firstInput(inputs)) {
                let identities = OutputFile.FileIdentities(jobs.map(\.input) + trust.inputFiles)
                var seen: [String: String] = [:]
                for job in jobs where job.output != "-" {
                    let key = URL(fileURLWithPath: job.output).standardizedFileURL.path
                    if let other = seen[key] {
                        throw CLIFailure(
                            job.output, "both \(other) and \(job.input) would be written here; convert them separately",
                            status: ExitStatus.usage)
                    }
                    seen[key] = job.input
                    if !inPlace {
                        do {
                            try OutputFile.ensureDistinct(output: job.output, from: identities)
                        } catch var failure as CLIFailure {
                            failure.message += " (--in-place replaces the inputs)"
                            throw failure
                        }
                    }
                }
            }
            // 3. The trust store, once (an unreadable --ca-file stops everything here); a batch
            // checks every file at the same time, so each chain is checked once.
            var verifier: Verifier?
            if !noVerify {
                try reportingFailures(path: batch.firstInput(inputs)) {
                    verifier = try trust.makeVerifier(limits: limits.values.library)
                }
                if jobs.count > 1 { verifier = verifier?.forBatch() }
            }
            // 4. Convert each file on its own, `--jobs` at a time, printed in input order.
            let shared = verifier
            let settings = Settings(
                noVerify: noVerify, preserveFormat: preserveFormat, compact: compact, inPlace: inPlace,
                announce: inPlace || outDirectory != nil, durable: jobs.count == 1 || inPlace,
                noClobber: clobber.noClobber, outDirectory: outDirectory, limits: limits.values,
                fetchIssuers: trust.fetchIssuers)
            frontend.run(
                jobs, threads: batch.workerCount, output: { $0 },
                work: { job in
                    var output = BatchOutput()
                    do {
                        output.outcome = try Self.convert(job, verifier: shared, settings: settings, into: &output)
                    } catch {
                        output.fail(CLIFailure(job.input, describing: error), outcome: "failed")
                    }
                    return output
                },
                then: { _, output, printed in
                    var status = output.status
                    if !printed { status = ExitStatus.worst(status, ExitStatus.badInput) }
                    switch output.outcome {
                    case _ where status != ExitStatus.success: outcomes.append(.failed(status))
                    case "converted": outcomes.append(.converted(unverified: false))
                    case "converted-unverified": outcomes.append(.converted(unverified: true))
                    case "unchanged": outcomes.append(.unchanged)
                    default: outcomes.append(.skipped)
                    }
                })
            frontend.finishOutput()
            if frontend.printer.stdoutFailed { outcomes.append(.failed(ExitStatus.badInput)) }
            if !settings.durable { OutputFile.flush(jobs.map(\.output)) }
            if jobs.count > 1 || batch.filesFrom != nil || inputs.contains(where: isDirectory) {
                summarise(outcomes, leftOut: frontend.leftOutNote)
            }
            try ExitStatus.throwing(
                ExitStatus.worst(of: outcomes.compactMap { if case .failed(let status) = $0 { status } else { nil } }))
        }

        /// The options one conversion needs, captured for the worker threads.
        struct Settings: Sendable {
            var noVerify: Bool
            var preserveFormat: Bool
            var compact: Bool
            var inPlace: Bool
            /// Say where each file went (a note on standard error).
            var announce: Bool
            /// Flush each file to disk before it replaces anything (one file, or --in-place: the
            /// originals are the user's); a batch to new files flushes once at the end.
            var durable: Bool
            /// Never replace an existing output (`--no-clobber`).
            var noClobber: Bool
            /// Where the outputs go, under their relative names (`--out-dir`).
            var outDirectory: String?
            var limits: LimitOptions.Values
            /// `--fetch-issuers` was on (the hint of a missing issuer says so).
            var fetchIssuers = false
        }

        /// The name a converted file gets under `--out-dir`: its relative name without a `.p7m`
        /// extension when it has one (`shop.p7m` → `shop`), since what is written is JSON, not
        /// PKCS#7; any other name as it is. Two inputs that would then share a name (`a` and
        /// `a.p7m`) are refused before anything is written, as any two inputs for one output are.
        static func convertedName(_ relative: String) -> String {
            let name = (relative as NSString).lastPathComponent
            guard name.count > 4, name.lowercased().hasSuffix(".p7m") else { return relative }
            return String(relative.dropLast(4))
        }

        private func destination(for input: String, relative: String) -> String {
            if inPlace { return input }
            if let outDirectory { return (outDirectory as NSString).appendingPathComponent(relative) }
            return output ?? "-"
        }

        /// Converts one file; its diagnostics and any standard output go to `output`. Returns
        /// the outcome for the summary: converted, converted-unverified, unchanged or skipped.
        private static func convert(_ job: Job, verifier: Verifier?, settings: Settings, into output: inout BatchOutput)
            throws -> String
        {
            func emit(_ severity: Diagnostics.Severity, _ message: String) {
                output.emit(job.input, severity, message)
            }
            let limits = settings.limits
            // A file a walk found is read relative to its directory's descriptor, and with
            // --in-place written back into that same directory, only if it is still the file
            // that was read (issue #24).
            let data: Data
            var readFrom: (directory: DirectoryHandle, name: String, identity: FileIdentity)?
            if job.item.root != nil {
                let (directory, name) = try job.item.location()
                let read = try limits.read(name, in: directory, path: job.input)
                data = read.data
                readFrom = (directory, name, FileIdentity(read.info))
            } else {
                data = try limits.read(job.input)
            }
            let converter = Converter(
                options: Converter.Options(
                    verifier: settings.noVerify ? nil : verifier, preserveFormat: settings.preserveFormat,
                    compact: settings.compact, limits: limits.library))
            let outcome: Converter.Outcome
            do {
                outcome = try converter.convert(data, named: job.explicit)
            } catch {
                throw CLIFailure(
                    job.input,
                    RemedyHint.adding(
                        to: error.message, remedy: error.remedy, code: error.code, fetching: settings.fetchIssuers),
                    status: error.isVerificationFailure ? ExitStatus.checkFailed : ExitStatus.badInput,
                    code: error.code)
            }
            guard case .converted(let conversion) = outcome else {
                if case .skipped(let reason) = outcome { emit(.note, "skipped: \(reason)") }
                return "skipped"
            }
            for note in conversion.notes { emit(note.level == .warning ? .warning : .note, note.message) }
            let converted = conversion.json, what = conversion.source, unverified = !conversion.verified
            let inPlace = settings.inPlace

            if inPlace && converted == data {
                emit(.note, "unchanged: already in this format")
                return "unchanged"
            }
            let policy = OutputFile.Policy(durable: settings.durable, noClobber: settings.noClobber)
            if job.output == "-" {
                output.write(converted)
            } else if inPlace, let readFrom {
                var replacing = policy
                replacing.replacing = readFrom.identity
                try OutputFile.write(
                    converted, in: readFrom.directory, name: readFrom.name, path: job.output, policy: replacing)
            } else if let outDirectory = settings.outDirectory {
                try OutputFile.write(
                    converted, under: outDirectory, relative: job.outputRelative, path: job.output, policy: policy)
            } else {
                let directory = (job.output as NSString).deletingLastPathComponent
                if !directory.isEmpty {
                    do {
                        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    } catch {
                        throw CLIFailure(job.output, "cannot write output: cannot create the directory \(directory)")
                    }
                }
                try OutputFile.write(
                    converted, to: job.output, durable: settings.durable, noClobber: settings.noClobber)
            }
            if settings.announce {
                emit(.note, "converted (\(what)) → \(job.output)")
            }
            return unverified ? "converted-unverified" : "converted"
        }

        private func summarise(_ outcomes: [Outcome], leftOut: String?) {
            var converted = 0, unverified = 0, unchanged = 0, skipped = 0, verification = 0, unreadable = 0
            for outcome in outcomes {
                switch outcome {
                case .converted(let isUnverified):
                    converted += 1
                    if isUnverified { unverified += 1 }
                case .unchanged: unchanged += 1
                case .skipped: skipped += 1
                case .failed(let status):
                    if status == ExitStatus.checkFailed { verification += 1 } else { unreadable += 1 }
                }
            }
            let considered = outcomes.count - skipped
            var parts = [
                "\(converted) of \(considered) \(considered == 1 ? "file" : "files") converted"
                    + (unverified > 0 ? " (\(unverified) unverified)" : "")
            ]
            if unchanged > 0 { parts.append("\(unchanged) already converted") }
            if verification > 0 {
                parts.append(
                    "\(verification) failed verification (nothing written for \(verification == 1 ? "it" : "them"))")
            }
            if unreadable > 0 { parts.append("\(unreadable) unreadable, not JSON or not writable") }
            if skipped > 0 { parts.append("\(skipped) skipped (not AASA files)") }
            if let leftOut { parts.append(leftOut) }
            StandardStreams.err("convert: " + parts.joined(separator: "; ") + "\n")
        }
    }
}
