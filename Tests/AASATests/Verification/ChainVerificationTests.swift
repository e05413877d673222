import AASA
import Foundation
import Testing

/// `Verifier.verifyChain(_:)`: a certificate chain checked on its own, as a TLS client checks a
/// server's (what `aasa audit` does with the chain nginx sends).
struct ChainVerificationTests {
    func check(_ leaf: String, host: String? = nil, withChain: Bool = true) throws -> ChainVerificationResult {
        let certificates = try PKI.certificates("\(leaf).pem") + (withChain ? PKI.certificates("chain.pem") : [])
        let verifier = try PKI.verifier(VerificationOptions(purpose: .sslServer, time: Times.y2025, hostname: host))
        return verifier.verifyChain(certificates)
    }

    @Test func acceptsALeafWithItsIntermediateForItsHost() throws {
        let result = try check("leaf-wildcard", host: "www.example.com")
        #expect(result.isValid)
        #expect(
            result.chain.map(\.subject) == [
                "CN=*.example.com", "O=aasa test PKI, CN=AASA Test Intermediate CA",
                "O=aasa test PKI, CN=AASA Test Root CA",
            ])
    }

    @Test func rejectsAChainWithoutItsIntermediate() throws {
        let result = try check("leaf-rsa", withChain: false)
        #expect(result.verdict.code == "untrusted")
    }

    @Test func rejectsAnUntrustedRoot() throws {
        #expect(try check("leaf-untrusted", withChain: false).verdict.code == "untrusted")
    }

    @Test func rejectsAnExpiredLeaf() throws {
        #expect(try check("leaf-expired").verdict.code == "expired")
    }

    @Test func rejectsAnotherHost() throws {
        let result = try check("leaf-other-domain", host: "example.com")
        #expect(result.verdict.code == "host-mismatch")
        #expect(!result.chain.isEmpty)
    }

    @Test func rejectsTheWrongPurpose() throws {
        #expect(try check("leaf-client-auth").verdict.code == "wrong-purpose")
    }

    @Test func nothingToCheckIsMalformed() throws {
        let verifier = try PKI.verifier()
        #expect(verifier.verifyChain([]).verdict.code == "malformed")
    }
}
