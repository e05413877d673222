import AASA
import AASAAudit
import ArgumentParser
import Foundation

/// The trust and policy flags shared by `verify`, `extract` (and later `check`, `convert`).
struct TrustOptions: ParsableArguments {
    @OptionGroup var anchors: AnchorOptions

    @Option(
        name: .customLong("intermediates"),
        help: ArgumentHelp("Extra untrusted intermediate certificates (PEM/DER; repeatable).", valueName: "pem"))
    var intermediateFiles: [String] = []

    @Option(
        help: ArgumentHelp(
            "The purpose the signer certificate must fit (sslserver: a TLS server certificate, as Apple's recipe used; smimesign: what openssl smime checks; any: no purpose check).",
            valueName: "purpose")
    )
    var purpose: CertificatePurpose = .sslServer

    @Option(
        help: ArgumentHelp(
            "Require the signer certificate to be valid for this host (subjectAltName, TLS wildcards).",
            valueName: "name"))
    var domain: String?

    @Option(
        name: .customLong("min-days-valid"),
        help: ArgumentHelp("Fail when a chain certificate expires within N days of the check time.", valueName: "n"))
    var minDaysValid: Int?

    @Flag(name: .customLong("partial-chain"), help: "Accept a chain that ends at a trusted intermediate.")
    var partialChain = false

    @OptionGroup var checkTime: CheckTimeOptions

    @Flag(
        name: .customLong("allow-weak-crypto"),
        help: "Forensic use only: accept MD2/MD4/MD5 and RSA/DSA keys under 1024 bits (each one still reported).")
    var allowWeakCrypto = false

    @Flag(
        name: .customLong("fetch-issuers"),
        help: ArgumentHelp(
            "When the chain lacks an issuer, fetch it from the certificate's caIssuers URL (http or https; used only as an untrusted intermediate; one line on standard error per fetch)."
        ))
    var fetchIssuers = false

    @Option(
        name: .customLong("fetch-timeout"),
        help: ArgumentHelp(
            "With --fetch-issuers: the time limit of each fetch, redirects included.",
            valueName: "seconds"))
    var fetchTimeout: Double?

    func validate() throws {
        if let fetchTimeout {
            guard fetchIssuers else { throw ValidationError("--fetch-timeout needs --fetch-issuers") }
            guard fetchTimeout > 0, fetchTimeout <= 600 else {
                throw ValidationError("--fetch-timeout must be more than 0 and at most 600 seconds")
            }
        }
        if let minDaysValid, minDaysValid < 0 { throw ValidationError("--min-days-valid must be 0 or more") }
        if let domain, domain.isEmpty || domain.contains("/") || domain.contains(" ") {
            throw ValidationError("--domain '\(domain)' is not a host name")
        }
    }

    /// Loads the trust anchors and intermediates. Unreadable files are reported with their path.
    /// `limits` apply to the files verified (`--max-certificates`, `--max-json-depth`).
    /// Every file the trust flags read (CA files, the certificates of the CA directories,
    /// intermediates files): an output may replace none of them.
    var inputFiles: [String] {
        let directoryFiles = anchors.caDirectories.flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).map {
                (directory as NSString).appendingPathComponent($0)
            }
        }
        return anchors.caFiles + directoryFiles + intermediateFiles
    }

    func makeVerifier(limits: InputLimits = .default) throws -> Verifier {
        let store: TrustStore
        do {
            store = try TrustStore(try anchors.trustConfiguration())
        } catch let error as AASAError {
            throw CLIFailure("trust store", error)
        }
        let intermediates = try intermediateFiles.flatMap {
            try AnchorOptions.certificates(in: $0, what: "intermediates file")
        }
        var options = VerificationOptions(
            purpose: purpose, time: checkTime.time, hostname: domain,
            minimumDaysValid: minDaysValid, allowPartialChain: partialChain, intermediates: intermediates,
            limits: limits)
        options.allowWeakCrypto = allowWeakCrypto
        if fetchIssuers { options.issuerSource = Self.issuerFetcher(timeout: fetchTimeout) }
        options.historical = try checkTime.store()
        if allowWeakCrypto {
            Diagnostics.emit(
                "--allow-weak-crypto", .warning,
                "the verification policy is off: MD2, MD4, MD5 and RSA/DSA keys under 1024 bits are accepted, so valid proves much less (forensic use only)"
            )
        }
        return Verifier(trust: store, options: options)
    }

}

extension TrustOptions {
    /// The fetcher behind `--fetch-issuers`: one for the whole run (so one fetch per URL for a
    /// batch), each fetch reported on standard error as one line, its URL escaped.
    static func issuerFetcher(timeout: Double?) -> AIAIssuerFetcher {
        AIAIssuerFetcher(timeout: timeout ?? AIAIssuerFetcher.defaultTimeout) { fetch in
            let severity: Diagnostics.Severity = fetch.certificates.isEmpty ? .warning : .note
            Diagnostics.emit("--fetch-issuers", severity, fetch.summary)
        }
    }
}

extension CertificatePurpose: ExpressibleByArgument {}

/// Parses `--at` values.
enum TimeArgument {
    /// The times `--at` takes, as Unix seconds: 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z,
    /// what a certificate's validity (GeneralizedTime) can say (issue #24: 9223372036854775807
    /// trapped converting to 64-bit seconds).
    static let unixSeconds = UnixSeconds.range

    /// The time `text` names, or nil when it names none or one outside ``unixSeconds``.
    static func parse(_ text: String) -> Date? {
        guard let date = parseAnyTime(text) else { return nil }
        let seconds = date.timeIntervalSince1970
        guard Double(unixSeconds.lowerBound) <= seconds, seconds < Double(unixSeconds.upperBound) + 1 else {
            return nil
        }
        return date
    }

    /// Throws the usage error for an `--at` value that ``parse(_:)`` refuses, naming the range.
    static func validate(_ text: String?, option: String = "--at") throws {
        guard let text, parse(text) == nil else { return }
        let shown = "\(option) '\(text)'"
        if parseAnyTime(text) != nil {
            throw ValidationError(
                "\(shown) is out of range: give a time from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z (Unix seconds \(unixSeconds.lowerBound) to \(unixSeconds.upperBound))"
            )
        }
        throw ValidationError(
            "\(shown) is not a time: give ISO 8601 (2025-01-01T00:00:00Z or 2025-01-01) or Unix seconds")
    }

    /// Unix seconds, or ISO 8601: a date and time (a fraction and an offset allowed) or a date.
    ///
    /// Date.ISO8601FormatStyle (FoundationEssentials, in Swift) rather than
    /// ISO8601DateFormatter, whose ICU formatter cost every `--at` run 4 ms of start-up.
    private static func parseAnyTime(_ text: String) -> Date? {
        if let seconds = Int64(text) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        let forms = [
            Date.ISO8601FormatStyle(), Date.ISO8601FormatStyle(includingFractionalSeconds: true),
            Date.ISO8601FormatStyle().year().month().day(),
        ]
        for form in forms {
            if let date = try? form.parse(text) { return date }
        }
        return nil
    }
}

extension Verifier {
    /// The verifier for a batch: every file checked at the same instant (the start of the batch,
    /// unless `--at` fixed it), and a chain cache, so that a chain shared by many files is
    /// built and checked once. Each file's signature is still checked.
    func forBatch() -> Verifier {
        var copy = self
        // In the historical mode a time means `--at` (the store of that date), so none is fixed.
        if copy.options.time == nil && copy.options.historical == nil {
            copy.options.time = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        }
        copy.chainCache = ChainCache()
        return copy
    }
}
