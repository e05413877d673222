import Foundation

/// Rules about the file as bytes, before there is a document: size, signature, byte-order
/// mark, JSON syntax. ``Linter/lint(_:options:)`` calls them in that order.
enum FileRules {
    static let byteOrderMarkBytes: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `file-too-large`: more than `limit` bytes, signed or not.
    static func fileTooLarge(size: Int, limit: Int) -> Diagnostic? {
        guard size > limit else { return nil }
        return Diagnostic(
            .fileTooLarge,
            "The file is \(grouped(size)) bytes, over the limit of \(grouped(limit)) bytes"
                + (limit == 131_072 ? " (128 KB)" : "")
                + ": iOS does not accept an apple-app-site-association file larger than 128 KB, so no association in it takes effect."
                + " Shorten it: merge rules with wildcards or substitution variables.",
            at: .file)
    }

    /// `signed-file`: PKCS#7 SignedData in any encoding.
    static func signedFile(kind: FileKind) -> Diagnostic? {
        guard kind.isSigned else { return nil }
        let form: String
        switch kind {
        case .pkcs7PEM: form = "PEM"
        case .pkcs7SMIME: form = "S/MIME"
        default: form = "DER"
        }
        return Diagnostic(
            .signedFile,
            "The file is a signed PKCS#7 message (\(form)). Only iOS 8 needed a signed file; iOS 9 and later read plain JSON"
                + " served over HTTPS. Serve the embedded JSON instead (aasa convert takes it out)."
                + " Lines and columns in the other findings refer to the embedded JSON.",
            at: .file)
    }

    /// `unreadable-signed-file`: PKCS#7 from which no JSON can be read.
    static func unreadableSignedFile(_ reason: String) -> Diagnostic {
        Diagnostic(
            .unreadableSignedFile,
            "The file is PKCS#7 but its JSON cannot be read: \(reason). No device can use it; serve the plain JSON file instead.",
            at: .file)
    }

    /// `byte-order-mark`: the JSON (the file, or a signed file's content) starts with EF BB BF.
    static func byteOrderMark(_ json: Data, inSignedContent: Bool) -> Diagnostic? {
        guard json.starts(with: byteOrderMarkBytes) else { return nil }
        let subject = inSignedContent ? "The signed file's embedded JSON" : "The file"
        return Diagnostic(
            .byteOrderMark,
            "\(subject) starts with a UTF-8 byte-order mark (bytes EF BB BF). JSON must not begin with one (RFC 8259)"
                + " and Apple does not document accepting it; save the file as UTF-8 without BOM."
                + " Linting went on after the mark; columns on line 1 do not count it.",
            at: .file)
    }

    /// `invalid-json`: the parser's error, where it happened.
    /// - Parameter body: The text that was parsed (to look at the byte where parsing stopped).
    static func invalidJSON(_ error: JSONSyntaxError, body: Data, detectionDetail: String?, inSignedContent: Bool)
        -> Diagnostic
    {
        var message = inSignedContent ? "The signed file's embedded content is not valid JSON: " : "Not valid JSON: "
        message += error.message
        if let detectionDetail, detectionDetail.hasPrefix("UTF-16") {
            message += " (the file is \(detectionDetail))"
        }
        message += ". iOS rejects a file that does not parse, so none of its associations work"
        let offset = body.startIndex + error.location.offset
        let stoppedAtSlash = body.indices.contains(offset) && body[offset] == UInt8(ascii: "/")
        if error.message.contains("comment") || error.message.contains("trailing comma") || stoppedAtSlash {
            message += "; JSON allows neither comments nor trailing commas"
        }
        message += "."
        return Diagnostic(.invalidJSON, message, path: JSONPath(), position: error.location)
    }

    /// Whether a signed file's content is meant to be JSON at all (its first non-blank byte
    /// opens an object or array), so a parse failure is `invalid-json` rather than
    /// `unreadable-signed-file`.
    static func looksLikeJSON(_ body: Data) -> Bool { AASAFile.looksLikeJSON(body) }
}
