import Foundation

/// Tells what a file is from its bytes alone: signed DER, PEM, S/MIME, plain JSON, or unknown.
///
/// The file's name and the content type it was served with are ignored on purpose: real
/// deployments serve plain JSON as `application/pkcs7-mime` and name JSON files `.p7m`.
public enum FileKindDetector {
    /// Detects the kind of `data`. PKCS#7 candidates are parsed by OpenSSL to confirm them;
    /// JSON candidates are parsed as JSON.
    /// - Parameter limits: the JSON depth and the certificate count allowed; a file past them
    ///   is `unknown`, with the reason.
    public static func detect(_ data: Data, limits: InputLimits = .default) -> Detection {
        detect(data, cache: nil, limits: limits)
    }

    /// ``detect(_:limits:)``, parsing certificates through `cache`.
    static func detect(_ data: Data, cache: CertificateCache?, limits: InputLimits = .default) -> Detection {
        var json: JSONNode?
        return detect(data, cache: cache, limits: limits, json: &json)
    }

    /// ``detect(_:limits:)``, also giving the parsed document of a `json` file (what
    /// `limits.jsonParser.parse` gives for its bytes after any byte-order mark), so that a
    /// caller does not parse it again.
    static func detect(_ data: Data, cache: CertificateCache?, limits: InputLimits = .default, json: inout JSONNode?)
        -> Detection
    {
        let bytes = [UInt8](data.prefix(3))
        let hasBOM = bytes == [0xEF, 0xBB, 0xBF]
        guard !data.isEmpty else { return Detection(kind: .unknown, detail: "empty file", hasBOM: false) }

        if let encoding = pkcs7Encoding(of: data) {
            do {
                let message = try SignedData(
                    data: data, encoding: encoding, maximumCertificates: limits.maximumCertificates, cache: cache)
                guard message.isSignedData else {
                    return Detection(
                        kind: .pkcs7Other, detail: "PKCS#7 \(message.contentInfoType), not SignedData", hasBOM: false,
                        message: message)
                }
                let kind: FileKind = encoding == .der ? .pkcs7DER : encoding == .pem ? .pkcs7PEM : .pkcs7SMIME
                var notes: [String] = []
                if !message.hasContent {
                    notes.append("detached signature: no embedded content")
                } else if message.encapsulatedContentType != "pkcs7-data" {
                    notes.append("the signed content is \(message.encapsulatedContentDescription), not data")
                }
                if message.signerInfos.isEmpty { notes.append("no signer (certificates only)") }
                return Detection(
                    kind: kind, detail: notes.isEmpty ? nil : notes.joined(separator: "; "), hasBOM: false,
                    message: message)
            } catch let error as AASAError where error.code == .unsupportedCMS {
                var detection = Detection(kind: .unknown, detail: error.message, hasBOM: false)
                detection.unsupportedCMS = error.message
                return detection
            } catch let error as AASAError {
                return Detection(
                    kind: .unknown, detail: "damaged PKCS#7 \(encoding.rawValue.uppercased()): \(error.message)",
                    hasBOM: false, damaged: encoding)
            } catch {
                return Detection(kind: .unknown, detail: "\(error)", hasBOM: false, damaged: encoding)
            }
        }
        return detectText(data, hasBOM: hasBOM, parser: limits.jsonParser, json: &json)
    }

    /// The PKCS#7 encoding the bytes announce, from their first bytes only (no full parse).
    public static func pkcs7Encoding(of data: Data) -> PKCS7Encoding? {
        if looksLikePKCS7DER(data) { return .der }
        let head = data.prefix(16 * 1024)
        // Bytes, not Characters: Swift reads "\r\n" as one Character.
        let trimmed = head.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        for label in ["PKCS7", "PKCS #7 SIGNED DATA", "CMS"]
        where trimmed.starts(with: Array("-----BEGIN \(label)-----".utf8)) {
            return .pem
        }
        if let mediaType = MIMEHeaders.contentType(of: head),
            ["application/pkcs7-mime", "application/x-pkcs7-mime", "multipart/signed"].contains(mediaType)
        {
            return .smime
        }
        return nil
    }

    /// DER/BER: SEQUENCE (any length form) then the OID 1.2.840.113549.1.7.x (a PKCS#7 content
    /// type) or 1.2.840.113549.1.9.16.1.x (a CMS content type: compressed, authenticated, …), as
    /// PEM's `CMS` label accepts. A file cut short inside that header (at least the SEQUENCE
    /// header and the OID tag) still counts, so that a truncated signed file is reported as
    /// damaged PKCS#7.
    static func looksLikePKCS7DER(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count >= 4, bytes[0] == 0x30 else { return false }
        var index = 2
        switch bytes[1] {
        case 0x80, 0x00..<0x80: break  // indefinite or short form
        case 0x81...0x84: index += Int(bytes[1] & 0x7F)
        default: return false
        }
        let pkcs7Prefix: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07]
        let cmsPrefix: [UInt8] = [0x06, 0x0B, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x10, 0x01]
        guard bytes.count > index else { return false }
        return [pkcs7Prefix, cmsPrefix].contains { prefix in
            let available = bytes[index...].prefix(prefix.count)
            return Array(available) == Array(prefix.prefix(available.count))
        }
    }

    private static func detectText(_ data: Data, hasBOM: Bool, parser: JSONParser, json: inout JSONNode?) -> Detection {
        let head = [UInt8](data.prefix(4))
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE])
            || (head.count >= 2 && (head[0] == 0 || head[1] == 0))
        {
            return Detection(kind: .unknown, detail: "UTF-16 or UTF-32 text (AASA files must be UTF-8)", hasBOM: false)
        }
        let body = hasBOM ? data.dropFirst(3) : data[...]
        guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            return Detection(kind: .unknown, detail: "only white space", hasBOM: hasBOM)
        }
        guard String(validating: body, as: UTF8.self) != nil else {
            return Detection(kind: .unknown, detail: "not UTF-8 text", hasBOM: hasBOM)
        }
        do {
            json = try parser.parse(Data(body))
            return Detection(kind: .json, detail: hasBOM ? "starts with a byte-order mark" : nil, hasBOM: hasBOM)
        } catch let error as JSONSyntaxError {
            let looksLikeJSON = first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
            return Detection(
                kind: .unknown,
                detail: looksLikeJSON
                    ? "looks like JSON but does not parse: \(error)" : "neither JSON (\(error)) nor PKCS#7",
                hasBOM: hasBOM)
        } catch {
            return Detection(kind: .unknown, detail: "\(error)", hasBOM: hasBOM)
        }
    }
}

extension Detection {
    fileprivate init(
        kind: FileKind, detail: String?, hasBOM: Bool, damaged: PKCS7Encoding? = nil, message: SignedData? = nil
    ) {
        self.init(kind: kind, detail: detail, hasByteOrderMark: hasBOM, damagedPKCS7Encoding: damaged, message: message)
    }
}
