import AASA
import AASAReports
import ArgumentParser
import Foundation

extension AASACommand {
    struct Inspect: AASASubcommand {
        static let name = "inspect"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract: "Show the structure of a signed file: algorithms, signed attributes, certificates, content.",
            usage: "aasa inspect [<options>] <file>",
            discussion: """
                Nothing is verified: use verify for that (except with --historical, which adds the
                embedded chain checked against Mozilla's root store through time: valid-then with its
                window and root, or why not). Plain JSON is described briefly.
                Each SignerInfo and certificate gets a warning: line for what the verification
                policy warns about (SHA-1, RSA or DSA keys under 2048 bits) and a refused: line
                for what it refuses (MD5, keys under 1024 bits). A certificate the file includes
                more than once (the same DER) gets a warning: line saying how many times.

                Exit status: 0 described, 2 unreadable or neither PKCS#7 nor JSON.

                EXAMPLES (at the root of a clone of the repository):
                  aasa inspect examples/apple-app-site-association.p7m
                """
        )

        @Argument(help: ArgumentHelp("The file ('-' for standard input).", valueName: "file"))
        var file: String

        @Option(
            help:
                "Output format (pem: the certificates the file embeds, as PEM, in the order text lists them)."
        )
        var format: InspectFormat = .text

        @Option(
            help: ArgumentHelp(
                "With --format pem: only the certificate at this index of the list (from 0), e.g. the issuer verify names.",
                valueName: "n"))
        var certificate: Int?

        @OptionGroup(title: "Legacy signed files")
        var checkTime: CheckTimeOptions

        @OptionGroup(title: "Display")
        var display: DisplayOptions

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
            /// `--historical`: the embedded chain against Mozilla's root store through time
            /// (trusting nothing today), `{verdict, reason}`; omitted without it.
            var historical: Historical?

            struct Historical: Encodable {
                var verdict: String
                var reason: String?
                var lines: [String]

                enum CodingKeys: String, CodingKey { case verdict, reason }
            }

            /// A SignerInfo or certificate as the library encodes it, plus `policy`: what the
            /// verification policy says about it, and for a certificate `occurrences`: how many
            /// times the file includes it (docs/cli.md#inspect---format-json).
            struct Described<Value: Encodable>: Encodable {
                var value: Value
                var policy: [Finding]
                /// Certificates only: how many entries of the file's certificate set are this
                /// certificate (the same DER), itself included; 1 unless it is repeated.
                var occurrences: Int?

                enum CodingKeys: String, CodingKey { case policy, occurrences }

                func encode(to encoder: any Encoder) throws {
                    try value.encode(to: encoder)
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(policy, forKey: .policy)
                    try container.encodeIfPresent(occurrences, forKey: .occurrences)
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

        func validate() throws {
            if certificate != nil && format != .pem { throw ValidationError("--certificate goes with --format pem") }
            if let certificate, certificate < 0 { throw ValidationError("--certificate counts from 0") }
            if checkTime.atTime != nil && !checkTime.historical {
                throw ValidationError("--at goes with --historical here: inspect checks no chain otherwise")
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
                if format == .pem {
                    // The certificates, for trusting one of them (`verify`'s next step) or for openssl.
                    guard let certificates = detection.message?.certificates, !certificates.isEmpty else {
                        throw CLIFailure(
                            file, "no certificate to write: the file embeds none (\(detection.kind.rawValue))")
                    }
                    if let certificate, certificate >= certificates.count {
                        throw CLIFailure(
                            file,
                            "no certificate \(certificate): the file embeds \(certificates.count) (0 to \(certificates.count - 1))"
                        )
                    }
                    let chosen = certificate.map { [certificates[$0]] } ?? certificates
                    StandardStreams.out(Data(try chosen.map { try $0.pemRepresentation }.joined().utf8))
                    return
                }
                if let message = detection.message {
                    report.contentInfoType = message.contentInfoType
                    let policy = message.policyFindings()
                    report.signerInfos = zip(message.signerInfos, policy.signerInfos).map {
                        Report.Described(value: $0, policy: $1.map(Report.Finding.init))
                    }
                    let copies = Self.copies(message.certificates.map(\.info))
                    report.certificates = zip(message.certificates, policy.certificates).enumerated().map {
                        index, pair in
                        Report.Described(
                            value: pair.0.info, policy: pair.1.map(Report.Finding.init),
                            occurrences: copies[index].count)
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
                if let store = try checkTime.store(), detection.message?.isSignedData == true {
                    // Nothing trusted today, so the chain is always checked as of its signing
                    // (or at --at, against the store of that date).
                    var options = VerificationOptions(time: checkTime.time, limits: limits.library)
                    options.historical = store
                    let verifier = Verifier(
                        trust: try TrustStore(TrustConfiguration(useSystemRoots: false)), options: options)
                    let result = verifier.verify(detection)
                    var lines: [String] = []
                    if case .validThen(let validity) = result.verdict { lines = TextReport.historical(validity) }
                    report.historical = Report.Historical(
                        verdict: result.verdict.code, reason: result.verdict.reason, lines: lines)
                }
                switch format {
                case .json: try JSONOutput.print(report, stamped: .inspect)
                case .text, .pem: StandardStreams.out(lines: text(report))
                }
            }
        }

        private func describe(_ content: Data, isJSON: Bool) -> Report.Content {
            let style = LineEndingStyle.of(content)
            return Report.Content(
                size: content.count, lineEndings: style.rawValue, crlfCanonical: style == .crlf, json: isJSON)
        }

        /// For each certificate, the indices of every entry that is the same certificate (itself
        /// included), in file order. The same DER is the same SHA-256 fingerprint.
        static func copies(_ certificates: [CertificateInfo]) -> [[Int]] {
            var byFingerprint: [String: [Int]] = [:]
            for (index, certificate) in certificates.enumerated() {
                byFingerprint[certificate.sha256Fingerprint, default: []].append(index)
            }
            return certificates.map { byFingerprint[$0.sha256Fingerprint] ?? [] }
        }

        /// `label` padded to `width`, like the other labels of its block, then `message`.
        private func labelled(_ label: String, _ message: String, indent: String, width: Int) -> String {
            indent + label.padding(toLength: max(width, label.count + 1), withPad: " ", startingAt: 0) + message
        }

        /// One `warning:` or `refused:` line per policy finding.
        private func policyLines(_ findings: [Report.Finding], indent: String, width: Int) -> [String] {
            findings.map { labelled($0.refused ? "refused:" : "warning:", $0.message, indent: indent, width: width) }
        }

        /// The `warning:` line of a certificate the file includes more than once (`places`, from
        /// ``copies(_:)``): on its first entry, its subject and every place; on the others,
        /// which entry they repeat.
        private func repeatLines(_ certificate: CertificateInfo, at index: Int, places: [Int]) -> [String] {
            guard places.count > 1, let first = places.first else { return [] }
            let message =
                first == index
                ? "certificate \"\(certificate.subject)\" appears \(places.count) times in the file "
                    + "(\(places.map { "[\($0)]" }.joined(separator: ", "))): the same DER, included more than once"
                : "the same certificate (the same DER) as [\(first)], included again"
            return [labelled("warning:", message, indent: "      ", width: 10)]
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
                let copies = Self.copies(report.certificates.map(\.value))
                for (index, certificate) in report.certificates.enumerated() {
                    let info = certificate.value
                    lines.append("    [\(index)]")
                    lines += TextReport.certificate(info, indent: "      ")
                    lines.append("      SHA-1:    \(info.sha1Fingerprint)")
                    lines += policyLines(certificate.policy, indent: "      ", width: 10)
                    lines += repeatLines(info, at: index, places: copies[index])
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
            if let historical = report.historical {
                lines.append(
                    "  historical (--historical, against Mozilla's root store through time): \(historical.verdict)")
                if historical.lines.isEmpty, let reason = historical.reason { lines.append("  reason:     \(reason)") }
                lines += historical.lines
            }
            return lines
        }
    }
}
