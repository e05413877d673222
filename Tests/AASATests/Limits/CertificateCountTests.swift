import AASA
// The certificate limit is applied before OpenSSL decodes a certificate (GitHub issue #24: a
// 16 MiB SignedData took 32 s and 260 MB before a count taken after parsing refused it). The
// messages here carry empty SEQUENCEs where certificates go: OpenSSL cannot decode one of them,
// so a refusal that names the count proves the count came first.
import Foundation
import Testing

@Suite("Certificates counted before decoding")
struct CertificateCountTests {
    /// DER TLV with a definite length.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let n = content.count
        if n < 0x80 { return [tag, UInt8(n)] + content }
        var length: [UInt8] = []
        var rest = n
        while rest > 0 {
            length.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [tag, 0x80 | UInt8(length.count)] + length + content
    }

    /// BER TLV with an indefinite length (constructed tags only).
    static func indefinite(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag, 0x80] + content + [0, 0] }

    static let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    static let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]

    /// A SignedData whose certificates field holds `count` empty SEQUENCEs (and crls field
    /// `crls` of them), no signer; BER with indefinite lengths when `ber`.
    static func message(certificates count: Int, crls: Int = 0, ber: Bool = false) -> Data {
        func wrap(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { ber ? indefinite(tag, content) : tlv(tag, content) }
        let empty: [UInt8] = [0x30, 0x00]
        var body: [UInt8] = tlv(0x02, [1]) + tlv(0x31, []) + wrap(0x30, dataOID)
        body += wrap(0xA0, [UInt8](repeatElement(empty, count: count).joined()))
        if crls > 0 { body += wrap(0xA1, [UInt8](repeatElement(empty, count: crls).joined())) }
        body += tlv(0x31, [])
        let inner: [UInt8] = wrap(0x30, body)
        return Data(wrap(0x30, signedDataOID + wrap(0xA0, inner)))
    }

    static func pem(_ der: Data) -> Data {
        Data(
            "-----BEGIN PKCS7-----\n\(der.base64EncodedString(options: .lineLength64Characters))\n-----END PKCS7-----\n"
                .utf8)
    }

    static func smime(_ der: Data) -> Data {
        let body = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return Data(
            """
            MIME-Version: 1.0
            Content-Disposition: attachment; filename="smime.p7m"
            Content-Type: application/pkcs7-mime; smime-type=signed-data; name="smime.p7m"
            Content-Transfer-Encoding: base64

            \(body)

            """.utf8)
    }

    static func reason(_ data: Data, _ encoding: PKCS7Encoding, limit: Int = 256) -> String {
        do {
            _ = try SignedData(data: data, encoding: encoding, maximumCertificates: limit)
            return "parsed"
        } catch let error as AASAError {
            return error.reason
        } catch {
            return "\(error)"
        }
    }

    @Test(
        "257 undecodable certificates are refused by their count, in DER, BER, PEM and S/MIME",
        arguments: ["der", "ber", "pem", "smime"])
    func countedBeforeDecoding(form: String) {
        let der = Self.message(certificates: 257, ber: form == "ber")
        let data = form == "pem" ? Self.pem(der) : form == "smime" ? Self.smime(der) : der
        let encoding: PKCS7Encoding = form == "pem" ? .pem : form == "smime" ? .smime : .der
        let reason = Self.reason(data, encoding)
        #expect(reason.contains("the message carries 257 certificates, more than the limit of 256"), "\(reason)")
    }

    @Test("at the limit the count passes and OpenSSL decodes them (and refuses what is no certificate)")
    func atTheLimit() {
        for ber in [false, true] {
            let reason = Self.reason(Self.message(certificates: 256, ber: ber), .der)
            #expect(reason != "parsed" && !reason.contains("more than the limit"), "\(reason)")
        }
        let lower = Self.reason(Self.message(certificates: 11), .der, limit: 10)
        #expect(lower.contains("11 certificates, more than the limit of 10"), "\(lower)")
    }

    @Test("CRLs are counted too")
    func crlsCounted() {
        let reason = Self.reason(Self.message(certificates: 1, crls: 300), .der)
        #expect(reason.contains("the message carries 300 CRLs, more than the limit of 256"), "\(reason)")
    }

    @Test("detection says why, in one line")
    func detectionNamesTheCount() {
        let detection = FileKindDetector.detect(Self.message(certificates: 5_000))
        #expect(detection.detail?.contains("5000 certificates, more than the limit of 256") == true, "\(detection)")
    }
}
