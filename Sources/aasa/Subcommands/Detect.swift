import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Detect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tell what each file is from its bytes: pkcs7-der, pkcs7-pem, pkcs7-smime, pkcs7-other, json or unknown.",
            discussion: """
                The name and any served content type are ignored. PKCS#7 is confirmed by parsing it, \
                JSON by parsing it; damaged files are 'unknown' with the reason.

                Exit status: 0 every file was read, 2 some file could not be read.
                """
        )

        @Argument(help: ArgumentHelp("Files to examine ('-' for standard input).", valueName: "file"))
        var files: [String]

        @Option(help: "Output format: text or json (one object, or an array for several files).")
        var format: OutputFormat = .text

        func validate() throws {
            if files.isEmpty { throw ValidationError("give at least one file to detect ('-' for standard input)") }
        }

        struct Entry: Encodable {
            var path: String
            var kind: String
            var detail: String?
            var byteOrderMark: Bool
        }

        func run() throws {
            var entries: [Entry] = []
            var failed = false
            for file in files {
                do {
                    let detection = FileKindDetector.detect(try InputFile.read(file))
                    entries.append(
                        Entry(path: file, kind: detection.kind.rawValue, detail: detection.detail, byteOrderMark: detection.hasByteOrderMark))
                    if format == .text {
                        printOut("\(Diagnostics.displayName(file)): \(detection.kind.rawValue)" + (detection.detail.map { " (\($0))" } ?? ""))
                    }
                } catch let failure as CLIFailure {
                    Diagnostics.emit(failure.path, .error, failure.message)
                    failed = true
                }
            }
            if format == .json {
                if files.count == 1 {
                    if let only = entries.first { try JSONOutput.print(only) }
                } else {
                    try JSONOutput.print(entries)
                }
            }
            if failed { throw ExitStatus.badInput }
        }
    }
}
