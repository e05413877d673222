import AASA
import Foundation

/// The in-process baselines: our own C module through the AASA library, one file at a time,
/// the way a naive tool would call it (everything loaded afresh for each file, no cache, one
/// thread), and the in-process figures for lint and match.
enum InProcess {
    /// The test PKI files the benchmark signs and verifies with.
    struct PKI {
        var caFile: String
        var rsaKey: String
        var rsaCert: String
        var chain: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// A fresh verifier: the CA file read and a trust store built, as a per-file tool would.
    private static func freshVerifier(_ pki: PKI) throws -> Verifier {
        let anchors = try X509Certificate.load(from: read(pki.caFile))
        let store = try TrustStore(TrustConfiguration(useSystemRoots: false, anchors: anchors))
        return Verifier(trust: store, options: VerificationOptions())
    }

    /// Verifies each file with a fresh verifier. Returns the seconds taken.
    static func naiveVerify(_ files: [String], pki: PKI) throws -> Double {
        let start = Stats.now()
        for file in files {
            let result = try freshVerifier(pki).verify(read(file))
            guard result.isValid else { throw Failure(description: "\(file): \(result.verdict.code)") }
        }
        return Stats.now() - start
    }

    /// Verifies each file with one verifier and (optionally) a chain cache, on one thread.
    static func sharedVerify(_ files: [String], pki: PKI, cache: ChainCache?) throws -> Double {
        var verifier = try freshVerifier(pki)
        verifier.options.time = Date()
        verifier.chainCache = cache
        let start = Stats.now()
        for file in files {
            let result = verifier.verify(try read(file))
            guard result.isValid else { throw Failure(description: "\(file): \(result.verdict.code)") }
        }
        return Stats.now() - start
    }

    /// Verifies each file with a fresh verifier and writes its content into `directory`.
    static func naiveExtract(_ files: [String], pki: PKI, into directory: URL) throws -> Double {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let start = Stats.now()
        for file in files {
            let result = try freshVerifier(pki).verify(read(file))
            guard let content = result.content else { throw Failure(description: "\(file): \(result.verdict.code)") }
            try content.write(to: directory.appendingPathComponent((file as NSString).lastPathComponent))
        }
        return Stats.now() - start
    }

    /// Signs each file with the key, certificate and chain loaded afresh, and writes it.
    static func naiveSign(_ files: [String], pki: PKI, into directory: URL) throws -> Double {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let start = Stats.now()
        for file in files {
            let identity = try SigningIdentity(
                key: PrivateKey(data: read(pki.rsaKey)), certificate: X509Certificate.load(from: read(pki.rsaCert))[0],
                chain: X509Certificate.load(from: read(pki.chain)))
            let signed = try identity.sign(read(file))
            try signed.write(to: directory.appendingPathComponent((file as NSString).lastPathComponent))
        }
        return Stats.now() - start
    }

    /// Lints each file, one after the other.
    static func lint(_ files: [String]) throws -> Double {
        let start = Stats.now()
        for file in files { _ = Linter.lint(try read(file)) }
        return Stats.now() - start
    }

    /// The median time to lint `data` in process, in seconds, over `iterations` runs (after one
    /// warm-up), and the number of findings.
    static func lintOnce(_ data: Data, iterations: Int) -> (seconds: Double, findings: Int) {
        var findings = Linter.lint(data).diagnostics.count
        let seconds = Stats.time(iterations) { findings = Linter.lint(data).diagnostics.count }
        return (seconds, findings)
    }

    /// URL decisions per second of the matcher alone, on one thread.
    /// URL decisions per second of `URLMatcher.evaluate(_:)` (a full result per URL) or, with
    /// `verdictsOnly`, of `verdicts(for:into:)` (what `aasa match` prints as text).
    static func matchRate(rules: Data, urls: [String], rounds: Int, verdictsOnly: Bool = false) throws -> (
        perSecond: Double, matched: Int
    ) {
        let matcher = URLMatcher(document: try AASADocument(json: rules))
        var verdicts: [AppVerdict.Verdict] = []
        func opens(_ url: String) -> Bool {
            if verdictsOnly {
                _ = matcher.verdicts(for: url, into: &verdicts)
                return verdicts.contains(.match)
            }
            return matcher.evaluate(url).appID != nil
        }
        var matched = 0
        for url in urls.prefix(1_000) where opens(url) { matched += 1 }  // warm-up
        matched = 0
        let start = Stats.now()
        for _ in 0..<rounds {
            for url in urls where opens(url) { matched += 1 }
        }
        let seconds = Stats.now() - start
        return (Double(urls.count * rounds) / seconds, matched / rounds)
    }
}
