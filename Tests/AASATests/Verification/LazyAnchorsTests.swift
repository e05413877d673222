import Foundation
import Testing

@testable import AASA

/// Anchors given as DER bytes and decoded only when a chain asks for their subject
/// (`TrustStore(lazilyAnchoring:)`, lazyanchors.c): what a historical store's roots go through.
@Suite("Trust anchors decoded when a chain asks for them")
struct LazyAnchorsTests {
    func der(_ name: String) throws -> Data { try PKI.certificate(name).derRepresentation }

    func verdict(_ anchors: Data) throws -> String {
        let trust = try TrustStore(lazilyAnchoring: anchors)
        let signed = try PKI.identity("leaf-rsa").sign(Data(#"{"applinks":{"apps":[],"details":[]}}"#.utf8))
        return Verifier(trust: trust, options: VerificationOptions(time: Times.y2025)).verify(signed).verdict.code
    }

    @Test("the root among other anchors is found by its subject: valid; without it, untrusted")
    func findsTheRootAmongOthers() throws {
        let root = try der("root-ca.pem")
        let other = try der("untrusted-root-ca.pem")
        let selfSigned = try der("self-signed.pem")
        #expect(try verdict(other + root + selfSigned) == "valid")
        #expect(try verdict(other + selfSigned) == "untrusted")
        #expect(try verdict(Data()) == "untrusted")
    }

    @Test("anchors of the same subject: every one is tried, so the one whose key signed the chain is found")
    func sameSubjectDifferentKeys() throws {
        // A root with the test root's subject and another key, first in the bytes: a lookup that
        // stopped at the first subject match would leave the chain untrusted.
        let directory = try ScratchDirectory()
        try OpenSSL.succeed(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                "twin.key", "-subj", "/O=aasa test PKI/CN=AASA Test Root CA", "-days", "30", "-outform", "DER",
                "-out", "twin.der",
            ], in: directory)
        let twin = try directory.read("twin.der")
        #expect(try X509Certificate.load(from: twin)[0].info.subject == PKI.certificate("root-ca.pem").info.subject)
        #expect(try verdict(twin + der("root-ca.pem")) == "valid")
        #expect(try verdict(twin) == "untrusted")
    }

    @Test("bytes that are not a certificate are refused, naming which anchor")
    func unreadableAnchor() throws {
        let root = try der("root-ca.pem")
        for (bytes, which) in [
            (root + Data([0x30, 0x03, 0x02, 0x01, 0x00]), "anchor 2 "),  // a SEQUENCE, not a certificate
            (root + Data([0x30, 0x82, 0x10]), "anchor 2 "),  // a header cut short
            (Data([0x04, 0x00]) + root, "anchor 1 "),  // not a SEQUENCE
            (root.dropLast(1), "anchor 1 "),  // the certificate cut short
        ] {
            let error = #expect(throws: AASAError.self) { try TrustStore(lazilyAnchoring: Data(bytes)) }
            #expect(error?.code == .unreadableCertificate)
            #expect(error?.message.contains(which) == true, "\(String(describing: error))")
        }
    }

    @Test("a historical store makes its trust store once per date: the same object for a batch's files")
    func historicalStoreReusedPerDate() throws {
        let store = try HistoricalTrustStore.mozilla
        let september2015 = try store.trustStore(trustedAt: Times.september2015)
        #expect(try store.trustStore(trustedAt: Times.september2015) === september2015)
        let everyRoot = try store.trustStore(trustedAt: nil)
        #expect(everyRoot !== september2015)
        #expect(try store.trustStore(trustedAt: nil) === everyRoot)
    }
}
