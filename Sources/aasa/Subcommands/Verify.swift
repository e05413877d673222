import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify a signed AASA file: the signature over its content and the signer's chain.",
            discussion: """
                The signer must chain to a trust anchor (the system bundle unless --no-system-roots, \
                plus --ca-file/--ca-dir), fit the purpose (sslserver by default: AASA files were signed \
                with TLS server certificates), and be valid at --at (default now). The certificates \
                inside the file are only untrusted intermediates.

                Exit status: 0 valid, 1 not valid (the reason is printed), 2 unreadable input.
                """
        )

        @Argument(help: ArgumentHelp("The signed file ('-' for standard input).", valueName: "file"))
        var file: String

        @OptionGroup(title: "Trust")
        var trust: TrustOptions

        @Option(help: "Output format: text or json.")
        var format: OutputFormat = .text

        func run() throws {
            try reportingFailures(path: file) {
                let verifier = try trust.makeVerifier()
                let data = try InputFile.read(file)
                let result = verifier.verify(data)
                switch format {
                case .json: try JSONOutput.print(VerificationReport(path: file, result: result, options: verifier.options))
                case .text: printOut(TextReport.verification(path: file, result: result))
                }
                if !result.isValid {
                    throw CLIFailure(file, result.verdict.reason ?? "not valid", status: ExitStatus.checkFailed, code: result.verdict.code)
                }
            }
        }
    }
}
