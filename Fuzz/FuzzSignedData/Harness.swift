import AASA
import Foundation

/// A verifier that trusts only the test root (certs/ca-bundle.pem, found from this source file),
/// built once. Without it the harness still fuzzes parsing and detection.
private let verifier: Verifier? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("certs/ca-bundle.pem")
    guard let pem = FileManager.default.contents(atPath: root.path),
        let anchors = try? X509Certificate.load(from: pem),
        let store = try? TrustStore(TrustConfiguration(useSystemRoots: false, anchors: anchors))
    else { return nil }
    return Verifier(trust: store, options: VerificationOptions(time: Date(timeIntervalSince1970: 1_735_689_600)))
}()

/// The same verifier with a chain cache shared by every input: batch mode's path (certificates
/// parsed from the cache, chains remembered). It must agree with the uncached verifier.
private let cachedVerifier: Verifier? = verifier.map {
    Verifier(trust: $0.trust, options: $0.options, chainCache: ChainCache())
}

/// The same verifier with the forensic opt-out (`--allow-weak-crypto`).
private let weakVerifier: Verifier? = verifier.map {
    var options = $0.options
    options.allowWeakCrypto = true
    return Verifier(trust: $0.trust, options: options)
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let detection = FileKindDetector.detect(data)
    if let message = detection.message {
        _ = try? message.unverifiedContent()
        _ = message.certificates.map(\.info.subject)
        _ = message.signerInfos.map(\.digestAlgorithm)
    }
    for encoding in PKCS7Encoding.allCases {
        _ = try? SignedData(data: data, encoding: encoding)
    }
    // The one reader (issue #14): JSON xor a problem; a signed file's content is its message's.
    let file = AASAFile.read(data)
    if (file.root == nil) == (file.problem == nil) { fatalError("AASAFile: both or neither of JSON and problem") }
    if file.kind.isSigned, let content = file.content, content != (try? file.message?.unverifiedContent()) {
        fatalError("AASAFile: content differs from the message's")
    }
    if case .converted(let conversion) = try? Converter(options: .init(verifier: nil)).convert(data, named: true),
        (try? JSONParser().parse(conversion.json)) == nil
    {
        fatalError("Converter: the converted JSON does not parse")
    }
    if let verifier {
        let result = verifier.verify(data)
        // Verifying what the reader detected decides exactly as verifying the bytes.
        let fromFile = verifier.verify(file.detection)
        if fromFile.verdict != result.verdict || fromFile.content != result.content {
            fatalError(
                "verify(detection) and verify(data) disagree: \(fromFile.verdict.code) vs \(result.verdict.code)")
        }
        // The property that matters: content is only ever returned for a valid file.
        if result.content != nil && !result.isValid { fatalError("content returned for an invalid file") }
        // The verification policy: nothing it refuses is ever valid, and what it accepts with a
        // warning is never refused (issue #12).
        if result.isValid && result.warnings.contains(where: \.refused) {
            fatalError("a refused finding in a valid result")
        }
        if result.verdict.code == "weak-algorithm" && result.content != nil {
            fatalError("content for a weak algorithm")
        }
        // The forensic opt-out only ever turns weak-algorithm into something else.
        if let weakVerifier, result.verdict.code != "weak-algorithm" {
            let weak = weakVerifier.verify(data)
            if weak.verdict != result.verdict { fatalError("allowWeakCrypto changed a \(result.verdict.code) verdict") }
        }
        if let cachedVerifier {
            // Twice, so that the second run takes every cache hit the first one stored.
            for _ in 0..<2 {
                let cached = cachedVerifier.verify(data)
                if cached.verdict != result.verdict || cached.content != result.content
                    || cached.warnings != result.warnings
                    || cached.signers.map(\.sha256Fingerprint) != result.signers.map(\.sha256Fingerprint)
                    || cached.chain.map(\.sha256Fingerprint) != result.chain.map(\.sha256Fingerprint)
                {
                    fatalError(
                        "the chain cache changed the verdict: \(result.verdict.code) uncached, \(cached.verdict.code) cached"
                    )
                }
            }
        }
    }
    _ = try? X509Certificate.load(from: data)
    _ = try? PrivateKey(data: data)
    return 0
}
