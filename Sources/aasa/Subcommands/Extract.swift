import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Extract: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the JSON embedded in a signed AASA file, after verifying it.",
            discussion: """
                The signature and chain are verified first (same options as verify); if that fails, \
                nothing is written. --no-verify extracts anyway and says so on stderr. The bytes come \
                out exactly as signed: a file signed without -binary has CRLF line ends; --lf turns \
                them back into LF.

                Exit status: 0 written, 1 verification failed, 2 unreadable or not a signed file.
                """
        )

        @Argument(help: ArgumentHelp("The signed file ('-' for standard input).", valueName: "file"))
        var file: String

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Where to write the JSON ('-' for standard output).", valueName: "out"))
        var output: String = "-"

        @Flag(name: .customLong("no-verify"), help: "Extract without verifying (the content is then unverified).")
        var noVerify = false

        @Flag(help: "Turn CRLF line ends (from MIME canonicalisation) back into LF.")
        var lf = false

        @OptionGroup(title: "Trust")
        var trust: TrustOptions

        func run() throws {
            try reportingFailures(path: file) {
                try OutputFile.ensureDistinct(output: output, from: [file] + trust.caFiles + trust.intermediateFiles)
                let data = try InputFile.read(file)
                var content: Data
                if noVerify {
                    let detection = FileKindDetector.detect(data)
                    guard let message = detection.message, detection.kind.isSigned else {
                        throw CLIFailure(file, "nothing to extract: \(describe(detection))")
                    }
                    guard !message.signerInfos.isEmpty else {
                        throw CLIFailure(file, "nothing to extract: a certificates-only PKCS#7 (no signer, no content)")
                    }
                    content = try message.unverifiedContent()
                    Diagnostics.emit(file, .warning, "the content is UNVERIFIED (--no-verify): its signature and signer were not checked")
                } else {
                    let result = try trust.makeVerifier().verify(data)
                    guard let verified = result.content else {
                        switch result.verdict {
                        case .notSigned where result.kind == .json:
                            throw CLIFailure(file, "nothing to extract: the file is already plain JSON")
                        case .notSigned(let detail), .malformed(let detail):
                            // Not a usable signed file at all: wrong input, not a failed check.
                            throw CLIFailure(file, "nothing to extract: \(detail)", code: result.verdict.code)
                        default: break
                        }
                        throw CLIFailure(
                            file, "not extracted: \(result.verdict.reason ?? "not valid")", status: ExitStatus.checkFailed,
                            code: result.verdict.code)
                    }
                    content = verified
                }
                if lf { content = LineEndingStyle.crlfToLF(content) }
                try OutputFile.write(content, to: output)
            }
        }

        private func describe(_ detection: Detection) -> String {
            switch detection.kind {
            case .json: return "the file is already plain JSON"
            default: return "the file is \(detection.kind.rawValue)" + (detection.detail.map { " (\($0))" } ?? "")
            }
        }
    }
}
