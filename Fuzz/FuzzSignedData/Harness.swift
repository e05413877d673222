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
    if let verifier {
        let result = verifier.verify(data)
        // The property that matters: content is only ever returned for a valid file.
        if result.content != nil && !result.isValid { fatalError("content returned for an invalid file") }
    }
    _ = try? X509Certificate.load(from: data)
    _ = try? PrivateKey(data: data)
    return 0
}
