import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Show the structure of a signed file: algorithms, signed attributes, certificates, content.",
            discussion: """
                Nothing is verified: use verify for that. Plain JSON is described briefly.

                Exit status: 0 described, 2 unreadable or neither PKCS#7 nor JSON.
                """
        )

        @Argument(help: ArgumentHelp("The file ('-' for standard input).", valueName: "file"))
        var file: String

        @Option(help: "Output format: text or json.")
        var format: OutputFormat = .text

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        struct Report: Encodable {
            var path: String
            var kind: String
            var size: Int
            var contentInfoType: String?
            var encapsulatedContentType: String?
            var detached: Bool?
            var signerInfos: [SignerInfo]
            var certificates: [CertificateInfo]
            var content: Content?

            struct Content: Encodable {
                var size: Int
                var lineEndings: String
                /// True when every line end is CRLF: signed without -binary (MIME canonical text).
                var crlfCanonical: Bool
                var json: Bool
            }
        }

        func run() throws {
            try reportingFailures(path: file) {
                let limits = self.limits.values
                let data = try limits.read(file)
                let detection = FileKindDetector.detect(data, limits: limits.library)
                var report = Report(
                    path: file, kind: detection.kind.rawValue, size: data.count, signerInfos: [], certificates: [])
                if let message = detection.message {
                    report.contentInfoType = message.contentInfoType
                    report.signerInfos = message.signerInfos
                    report.certificates = message.certificates.map(\.info)
                    if message.isSignedData {
                        report.encapsulatedContentType = message.encapsulatedContentType
                        report.detached = !message.hasContent
                        if let content = try? message.unverifiedContent() { report.content = describe(content, limits: limits.library) }
                    }
                } else if detection.kind == .json {
                    report.content = describe(data, limits: limits.library)
                } else {
                    throw CLIFailure(file, "cannot inspect: \(detection.detail ?? "neither PKCS#7 nor JSON")")
                }
                switch format {
                case .json: try JSONOutput.print(report)
                case .text: printOut(text(report))
                }
            }
        }

        private func describe(_ content: Data, limits: InputLimits) -> Report.Content {
            let style = LineEndingStyle.of(content)
            return Report.Content(
                size: content.count, lineEndings: style.rawValue, crlfCanonical: style == .crlf,
                json: FileKindDetector.detect(content, limits: limits).kind == .json)
        }

        private func text(_ report: Report) -> String {
            var lines = ["\(Diagnostics.displayName(report.path)): \(report.kind), \(report.size) bytes"]
            if let type = report.contentInfoType { lines.append("  content info type: \(type)") }
            if let inner = report.encapsulatedContentType {
                lines.append("  signed content:    \(inner)\(report.detached == true ? " (detached: not embedded)" : "")")
            }
            for (index, info) in report.signerInfos.enumerated() {
                lines.append("  signer \(index):")
                lines.append("    digest:            \(info.digestAlgorithm)")
                lines.append("    signature:         \(info.signatureAlgorithm)")
                lines.append("    signed attributes: \(info.hasSignedAttributes ? "present" : "none")")
                lines.append("    certificate:       issuer \(info.issuer), serial \(info.serialNumber)")
            }
            if report.contentInfoType != nil {
                lines.append("  certificates (\(report.certificates.count), in file order):")
                for (index, info) in report.certificates.enumerated() {
                    lines.append("    [\(index)]")
                    lines += TextReport.certificate(info, indent: "      ")
                    lines.append("      SHA-1:    \(info.sha1Fingerprint)")
                }
            }
            if let content = report.content {
                let signed = report.contentInfoType != nil
                let canonical = content.crlfCanonical && signed ? " (CRLF-canonicalised: signed as MIME text, without -binary)" : ""
                lines.append("  content: \(content.size) bytes, \(content.json ? "JSON" : "not JSON"), line ends: \(content.lineEndings)\(canonical)")
            }
            return lines.joined(separator: "\n")
        }
    }
}
