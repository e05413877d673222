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
                Each SignerInfo and certificate gets a warning: line for what the verification
                policy warns about (SHA-1, RSA or DSA keys under 2048 bits) and a refused: line
                for what it refuses (MD5, keys under 1024 bits).

                Exit status: 0 described, 2 unreadable or neither PKCS#7 nor JSON.
                """
        )

        @Argument(help: ArgumentHelp("The file ('-' for standard input).", valueName: "file"))
        var file: String

        @Option(help: "Output format: text or json.")
        var format: TextOrJSONFormat = .text

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        struct Report: Encodable {
            var path: String
            var kind: String
            var size: Int
            var contentInfoType: String?
            var encapsulatedContentType: String?
            var detached: Bool?
            var signerInfos: [Described<SignerInfo>]
            var certificates: [Described<CertificateInfo>]
            var content: Content?

            /// A SignerInfo or certificate as the library encodes it, plus `policy`: what the
            /// verification policy says about it (docs/cli.md#inspect---format-json).
            struct Described<Value: Encodable>: Encodable {
                var value: Value
                var policy: [Finding]

                enum CodingKeys: String, CodingKey { case policy }

                func encode(to encoder: any Encoder) throws {
                    try value.encode(to: encoder)
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(policy, forKey: .policy)
                }
            }

            /// One ``PolicyFinding``: a warning, or a refusal (`refused`) that makes verify fail.
            struct Finding: Encodable {
                var subject: String
                var algorithm: String
                /// The key size, for `key-size`; null otherwise.
                var bits: Int?
                var refused: Bool
                var message: String

                init(_ finding: PolicyFinding) {
                    subject = finding.subject.rawValue
                    algorithm = finding.algorithm
                    bits = finding.bits
                    refused = finding.refused
                    message = finding.message
                }

                enum CodingKeys: String, CodingKey { case subject, algorithm, bits, refused, message }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(subject, forKey: .subject)
                    try container.encode(algorithm, forKey: .algorithm)
                    try container.encode(bits, forKey: .bits)  // explicit null for digests
                    try container.encode(refused, forKey: .refused)
                    try container.encode(message, forKey: .message)
                }
            }

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
                let aasaFile = AASAFile.read(data, limits: limits.library)
                let detection = aasaFile.detection
                var report = Report(
                    path: file, kind: detection.kind.rawValue, size: data.count, signerInfos: [], certificates: [])
                if let message = detection.message {
                    report.contentInfoType = message.contentInfoType
                    let policy = message.policyFindings()
                    report.signerInfos = zip(message.signerInfos, policy.signerInfos).map {
                        Report.Described(value: $0, policy: $1.map(Report.Finding.init))
                    }
                    report.certificates = zip(message.certificates, policy.certificates).map {
                        Report.Described(value: $0.info, policy: $1.map(Report.Finding.init))
                    }
                    if message.isSignedData {
                        report.encapsulatedContentType = message.encapsulatedContentType
                        report.detached = !message.hasContent
                        if let content = aasaFile.content {
                            report.content = describe(content, isJSON: aasaFile.root != nil)
                        }
                    }
                } else if detection.kind == .json {
                    report.content = describe(data, isJSON: true)
                } else {
                    throw CLIFailure(file, "cannot inspect: \(detection.detail ?? "neither PKCS#7 nor JSON")")
                }
                switch format {
                case .json: try JSONOutput.print(report)
                case .text: StandardStreams.out(lines: text(report))
                }
            }
        }

        private func describe(_ content: Data, isJSON: Bool) -> Report.Content {
            let style = LineEndingStyle.of(content)
            return Report.Content(
                size: content.count, lineEndings: style.rawValue, crlfCanonical: style == .crlf, json: isJSON)
        }

        /// One `warning:` or `refused:` line per policy finding, its label padded to `width` like
        /// the other labels of its block.
        private func policyLines(_ findings: [Report.Finding], indent: String, width: Int) -> [String] {
            findings.map { finding in
                let label = (finding.refused ? "refused:" : "warning:")
                return indent + label.padding(toLength: max(width, label.count + 1), withPad: " ", startingAt: 0)
                    + finding.message
            }
        }

        private func text(_ report: Report) -> [String] {
            var lines = ["\(Diagnostics.displayName(report.path)): \(report.kind), \(report.size) bytes"]
            if let type = report.contentInfoType { lines.append("  content info type: \(type)") }
            if let inner = report.encapsulatedContentType {
                lines.append(
                    "  signed content:    \(inner)\(report.detached == true ? " (detached: not embedded)" : "")")
            }
            for (index, signer) in report.signerInfos.enumerated() {
                let info = signer.value
                lines.append("  signer \(index):")
                lines.append("    digest:            \(info.digestAlgorithm)")
                lines.append("    signature:         \(info.signatureAlgorithm)")
                lines.append("    signed attributes: \(info.hasSignedAttributes ? "present" : "none")")
                lines.append("    certificate:       issuer \(info.issuer), serial \(info.serialNumber)")
                lines += policyLines(signer.policy, indent: "    ", width: 19)
            }
            if report.contentInfoType != nil {
                lines.append("  certificates (\(report.certificates.count), in file order):")
                for (index, certificate) in report.certificates.enumerated() {
                    let info = certificate.value
                    lines.append("    [\(index)]")
                    lines += TextReport.certificate(info, indent: "      ")
                    lines.append("      SHA-1:    \(info.sha1Fingerprint)")
                    lines += policyLines(certificate.policy, indent: "      ", width: 10)
                }
            }
            if let content = report.content {
                let signed = report.contentInfoType != nil
                let canonical =
                    content.crlfCanonical && signed ? " (CRLF-canonicalised: signed as MIME text, without -binary)" : ""
                lines.append(
                    "  content: \(content.size) bytes, \(content.json ? "JSON" : "not JSON"), line ends: \(content.lineEndings)\(canonical)"
                )
            }
            return lines
        }
    }
}
