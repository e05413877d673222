import AASA
import AASATestSupport
import Foundation
import Testing

/// ``VerificationOptions/issuerSource`` (`--fetch-issuers`'s hook, issue #25), with a source
/// that answers from memory: what it gives completes a chain as an untrusted intermediate and
/// never as an anchor, and it is asked only for a certificate whose issuer is missing.
@Suite("Verifier with an issuer source")
struct IssuerSourceTests {
    static let content = Data(#"{"applinks":{"apps":[],"details":[]}}"#.utf8)

    /// Answers every question with `answer`, and records whose issuer it was asked for.
    final class RecordingSource: IssuerSource, @unchecked Sendable {
        let answer: [X509Certificate]
        private let lock = NSLock()
        private var questions: [String] = []

        init(_ answer: [X509Certificate]) { self.answer = answer }

        var asked: [String] { lock.withLock { questions } }

        func issuers(of certificate: X509Certificate) -> [X509Certificate] {
            lock.withLock { questions.append(certificate.info.subject) }
            return answer
        }
    }

    /// Signed by leaf-rsa with its certificate only (no intermediate).
    func withoutIntermediate() throws -> Data {
        try PKI.identity("leaf-rsa", withChain: false).sign(Self.content, options: SigningOptions(binary: true))
    }

    func options(_ source: RecordingSource?) -> VerificationOptions {
        var options = VerificationOptions(time: Times.y2025)
        options.issuerSource = source
        return options
    }

    @Test("the intermediate from the source completes the chain: valid; asked once, for the signer")
    func completesTheChain() throws {
        let source = RecordingSource(try PKI.certificates("intermediate-ca.pem"))
        let result = try PKI.verifier(options(source)).verify(withoutIntermediate())
        result.expect("valid")
        #expect(result.chain.map(\.serialNumber) == ["3001", "2000", "1000"])
        #expect(source.asked == ["CN=example.com"])
    }

    @Test("a source with nothing: untrusted, as without one; asked once")
    func emptySource() throws {
        let source = RecordingSource([])
        let data = try withoutIntermediate()
        let result = try PKI.verifier(options(source)).verify(data)
        result.expect("untrusted", reasonContains: "unable to get local issuer certificate")
        #expect(source.asked == ["CN=example.com"])
        try PKI.verifier(options(nil)).verify(data).expect("untrusted")
    }

    @Test("what the source gives is never an anchor: a root it hands over leaves the chain untrusted")
    func neverAnAnchor() throws {
        let source = RecordingSource(try PKI.certificates("intermediate-ca.pem") + PKI.certificates("root-ca.pem"))
        let elsewhere = try TrustStore(
            TrustConfiguration(useSystemRoots: false, anchorFiles: [Paths.cert("untrusted-root-ca.pem")]))
        let result = Verifier(trust: elsewhere, options: options(source)).verify(try withoutIntermediate())
        result.expect("untrusted", reasonContains: "self-signed certificate in certificate chain")
        #expect(source.asked == ["CN=example.com"])
    }

    @Test("a file whose chain is complete never asks")
    func completeChainNeverAsks() throws {
        let source = RecordingSource(try PKI.certificates("intermediate-ca.pem"))
        let data = try PKI.identity("leaf-rsa").sign(Self.content, options: SigningOptions(binary: true))
        try PKI.verifier(options(source)).verify(data).expect("valid")
        #expect(source.asked.isEmpty)
    }

    @Test("caIssuersURIs: the Handbid signer names its issuer's URL; a certificate without the extension, none")
    func caIssuersURIs() throws {
        let data = try Data(
            contentsOf: RealWorldCorpus.signedFolder.appendingPathComponent(
                "Handbid_Handbid-WordPress_aasa-smime-format.p7m"))
        let message = try #require(FileKindDetector.detect(data).message)
        let signer = try #require(message.certificates.first { $0.info.subject.hasSuffix("CN=*.hand.bid") })
        #expect(signer.caIssuersURIs == ["http://gv.symcb.com/gv.crt"])
        #expect(try PKI.certificate("root-ca.pem").caIssuersURIs == [])
    }
}
