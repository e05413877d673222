import AASA
import AASAReports
import ArgumentParser
import Foundation

extension AASACommand {
    struct Detect: AASASubcommand {
        static let name = "detect"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract:
                "Tell what each file is from its bytes: pkcs7-der, pkcs7-pem, pkcs7-smime, pkcs7-other, json or unknown.",
            discussion: """
                The name and any served content type are ignored. PKCS#7 is confirmed by parsing it, \
                JSON by parsing it; damaged files are 'unknown' with the reason.

                Directories are examined file by file (see --include), --jobs files at a time, the \
                output in input order.

                Exit status: 0 every file was read, 2 some file could not be read.

                EXAMPLES (at the root of a clone of the repository):
                  aasa detect examples/apple-app-site-association.p7m \\
                    examples/apple-app-site-association.json
                """
        )

        @Argument(help: ArgumentHelp("Files or directories to examine ('-' for standard input).", valueName: "file"))
        var files: [String] = []

        @Option(
            help:
                "Output format (json: one object, or an array for several files; jsonl: one object per line)."
        )
        var format = BatchFormatOption<PerFileFormats>(.text)

        @OptionGroup(title: "Batch")
        var batch: BatchOptions

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        func validate() throws {
            if !batch.hasInputs(files) {
                throw ValidationError("give at least one file to detect ('-' for standard input)")
            }
            try batch.refuseListOnStandardInput(files)
        }

        struct Entry: Encodable {
            var path: String
            var kind: String
            var detail: String?
            var byteOrderMark: Bool
        }

        func run() throws {
            let single = !batch.isBatch(files)
            let expansion = batch.expand(files, what: "detect", streaming: true)
            // Every failure, whatever its kind, is an unreadable file here; detect counts no outcome for it.
            var frontend = BatchFrontend("detect", expansion, failureOutcome: nil)
            let limits = self.limits.values
            let records = frontend.startOutput(format.value, .detect, single: single, layout: .document)
            frontend.run(threads: batch.workerCount) { item in
                var output = BatchOutput()
                do {
                    let detection = FileKindDetector.detect(try limits.read(item), limits: limits.library)
                    let entry = Entry(
                        path: item.path, kind: detection.kind.rawValue, detail: detection.detail,
                        byteOrderMark: detection.hasByteOrderMark)
                    output.write(
                        try records.render(
                            entry,
                            text: [
                                "\(Diagnostics.displayName(item.path)): \(detection.kind.rawValue)"
                                    + (detection.detail.map { " (\($0))" } ?? "")
                            ]))
                    output.outcome = detection.kind.rawValue
                } catch {
                    output.fail(CLIFailure(item.path, describing: error), outcome: "unreadable")
                }
                return output
            }
            frontend.finishOutput()
            // A directory walked: say what was found (files named one by one need no summary).
            if batch.filesFrom != nil || files.contains(where: isDirectory) {
                frontend.summarize(["\(Counted.files(frontend.tally.total)): \(frontend.tally.list())"])
            }
            if frontend.worst != ExitStatus.success { throw ExitStatus.badInput }
        }
    }
}
