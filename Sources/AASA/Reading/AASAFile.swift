import Foundation

/// An apple-app-site-association file as read from its bytes, the one way every command, the
/// audit and the linter read one: what the bytes are (``Detection``), the JSON they hold (the
/// file itself, or a signed file's embedded content, *not verified*), whether it starts with
/// a byte-order mark, and the parsed JSON, or the ``AASAReadProblem`` that stopped it.
///
/// Reading never fails: a file that holds no usable JSON has a ``problem``. Call ``json()``
/// or ``document()`` to get the JSON or throw the problem as an ``AASAReadError``.
///
/// ```swift
/// let file = AASAFile.read(try Data(contentsOf: url))
/// let document = try file.document()
/// ```
///
/// Verifying a signed file is the ``Verifier``'s work; ``message`` is the parsed message for it.
public struct AASAFile: Sendable {
    /// What the bytes are, found from the bytes alone.
    public let detection: Detection

    /// The JSON bytes as stored: the file, or a signed file's embedded content (its line ends
    /// as OpenSSL's MIME canonicalisation left them, usually CRLF). Nil when there is none.
    public let content: Data?

    /// The parsed JSON; nil when there is a ``problem``.
    public let root: JSONNode?

    /// Why there is no JSON; nil when there is.
    public let problem: AASAReadProblem?

    /// The file's kind.
    public var kind: FileKind { detection.kind }

    /// The parsed PKCS#7 message of a signed file.
    public var message: SignedData? { detection.message }

    /// Whether ``content`` starts with a UTF-8 byte-order mark (read past, never parsed).
    public var hasByteOrderMark: Bool { content?.starts(with: AASAFile.byteOrderMark) ?? false }

    /// ``content`` without its byte-order mark: the bytes that were parsed.
    public var body: Data? {
        guard let content else { return nil }
        return hasByteOrderMark ? Data(content.dropFirst(AASAFile.byteOrderMark.count)) : content
    }

    /// The UTF-8 byte-order mark, EF BB BF.
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether `data` (detected as `detection`) is no AASA file at all: neither JSON, nor bytes
    /// meant as JSON (``looksLikeJSON(_:)``), nor PKCS#7, whole or damaged. A directory walk
    /// skips such a file (a README, an image) and counts it, instead of calling it broken;
    /// a file named on the command line is always read.
    public static func isNotAASA(_ data: Data, detection: Detection) -> Bool {
        detection.kind == .unknown && detection.damagedPKCS7Encoding == nil && !looksLikeJSON(data)
    }

    /// Whether the first byte that is not white space, after any byte-order mark, opens an
    /// object or an array: bytes meant as JSON, even when they do not parse.
    static func looksLikeJSON(_ data: Data) -> Bool {
        let body = data.starts(with: byteOrderMark) ? data.dropFirst(byteOrderMark.count) : data[...]
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Reads `data` within `limits`: detects it, takes a signed file's embedded content
    /// without verifying it, reads past a byte-order mark and parses the JSON.
    /// - Parameter certificates: where a signed file's certificates are parsed through, so that a
    ///   batch parses each certificate once (give the one of the ``Verifier``'s ``ChainCache``).
    public static func read(
        _ data: Data, limits: InputLimits = .default, certificates: CertificateCache? = nil
    ) -> AASAFile {
        var parsed: JSONNode?  // a plain JSON file is parsed once, by detection
        let detection = FileKindDetector.detect(data, cache: certificates, limits: limits, json: &parsed)
        func failed(_ problem: AASAReadProblem, content: Data? = nil) -> AASAFile {
            AASAFile(detection: detection, content: content, root: nil, problem: problem)
        }
        let content: Data
        switch detection.kind {
        case .pkcs7DER, .pkcs7PEM, .pkcs7SMIME:
            guard let message = detection.message else { return failed(.signedDataUnreadable) }
            guard message.hasContent else { return failed(.detachedSignature) }
            do {
                content = try message.unverifiedContent()
            } catch {
                return failed(.unusableContent(detection.detail ?? "\(error)"))
            }
        case .pkcs7Other:
            return failed(.notSignedData(detection.detail ?? "it is not PKCS#7 SignedData"))
        case .json, .unknown:
            if let encoding = detection.damagedPKCS7Encoding {
                return failed(.damagedPKCS7(encoding, detection.detail ?? "the PKCS#7 structure is damaged"))
            }
            content = data
        }
        let hasMark = content.starts(with: byteOrderMark)
        let body = hasMark ? Data(content.dropFirst(byteOrderMark.count)) : content
        do {
            let root = try parsed ?? limits.jsonParser.parse(body)
            return AASAFile(detection: detection, content: content, root: root, problem: nil)
        } catch {
            let syntaxError =
                error as? JSONSyntaxError
                ?? JSONSyntaxError(message: "\(error)", location: TextPosition(offset: 0, line: 1, column: 1))
            return failed(.invalidJSON(syntaxError, inSignedContent: detection.kind.isSigned), content: content)
        }
    }

    /// The parsed JSON.
    /// - Throws: ``AASAReadError`` with the ``problem``.
    public func json() throws(AASAReadError) -> JSONNode {
        guard let root else { throw AASAReadError(problem ?? .signedDataUnreadable) }
        return root
    }

    /// The parsed JSON when it is an object, the only top level an AASA file can have.
    /// - Throws: ``AASAReadError`` with the ``problem``, or ``AASAReadProblem/notAnObject(_:)``.
    public func object() throws(AASAReadError) -> JSONNode {
        let root = try json()
        guard root.members != nil else { throw AASAReadError(.notAnObject(root.typeName)) }
        return root
    }

    /// The document the JSON object describes.
    /// - Throws: as ``object()``.
    public func document() throws(AASAReadError) -> AASADocument {
        AASADocument(root: try object())
    }
}
