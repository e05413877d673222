import Foundation

/// Checks an apple-app-site-association file against Apple's format and the pitfalls that
/// stop universal links from working. Every finding names a rule of ``RuleCatalogue``
/// (documented in docs/rules.md).
///
/// ```swift
/// let report = Linter.lint(try Data(contentsOf: url))
/// for diagnostic in report.diagnostics(atLeast: .warning) { print(diagnostic.message) }
/// ```
public enum Linter {
    /// Every document rule, by group, in the order they run (the report is sorted afterwards).
    static let documentChecks: [DocumentCheck] =
        DocumentRules.checks + AppLinksStructureRules.checks + AppIDRules.checks + ComponentRules.checks
        + SubstitutionVariableRules.checks

    /// Lints a file: detects what it is, unwraps a signed file's content, parses the JSON, and
    /// runs every rule.
    ///
    /// For a signed file the report has `signed-file`, and the other findings' lines and
    /// columns refer to the embedded JSON (``LintReport/json``), not to the file's bytes.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - options: The size limit, and the input limits for detection and parsing.
    /// - Returns: The report; never fails (unreadable input is a finding).
    public static func lint(_ data: Data, options: LintOptions = LintOptions()) -> LintReport {
        var parsed: JSONNode?  // a plain JSON file is parsed once, by detection
        let detection = FileKindDetector.detect(data, cache: nil, limits: options.limits, json: &parsed)
        var diagnostics: [Diagnostic] = []
        if let tooLarge = FileRules.fileTooLarge(size: data.count, limit: options.maximumFileSize) {
            diagnostics.append(tooLarge)
        }
        func report(json: Data?, document: AASADocument? = nil) -> LintReport {
            LintReport(kind: detection.kind, document: document, json: json, diagnostics: diagnostics)
        }

        // The JSON to lint: the file, or a signed file's embedded content.
        let json: Data
        let isSigned = detection.kind.isSigned
        switch detection.kind {
        case .pkcs7DER, .pkcs7PEM, .pkcs7SMIME:
            if let signed = FileRules.signedFile(kind: detection.kind) { diagnostics.append(signed) }
            guard let message = detection.message else {
                diagnostics.append(FileRules.unreadableSignedFile("the SignedData could not be read"))
                return report(json: nil)
            }
            guard message.hasContent, let content = try? message.unverifiedContent() else {
                diagnostics.append(
                    FileRules.unreadableSignedFile("it is a detached signature, with no JSON embedded"))
                return report(json: nil)
            }
            json = content
        case .pkcs7Other:
            diagnostics.append(FileRules.unreadableSignedFile(detection.detail ?? "it is not PKCS#7 SignedData"))
            return report(json: nil)
        case .json, .unknown:
            if detection.damagedPKCS7Encoding != nil {
                diagnostics.append(
                    FileRules.unreadableSignedFile(detection.detail ?? "the PKCS#7 structure is damaged"))
                return report(json: nil)
            }
            json = data
        }

        if let mark = FileRules.byteOrderMark(json, inSignedContent: isSigned) { diagnostics.append(mark) }
        let body = json.starts(with: FileRules.byteOrderMarkBytes) ? Data(json.dropFirst(3)) : json
        let root: JSONNode
        do {
            root = try parsed ?? options.limits.jsonParser.parse(body)
        } catch {
            let syntaxError =
                error as? JSONSyntaxError
                ?? JSONSyntaxError(message: "\(error)", location: TextPosition(offset: 0, line: 1, column: 1))
            if isSigned && !FileRules.looksLikeJSON(body) {
                let what =
                    body.isEmpty ? "the embedded content is empty" : "the embedded content is not JSON (\(syntaxError))"
                diagnostics.append(FileRules.unreadableSignedFile(what))
            } else {
                diagnostics.append(
                    FileRules.invalidJSON(
                        syntaxError, body: body, detectionDetail: detection.detail, inSignedContent: isSigned))
            }
            return report(json: json)
        }
        let document = AASADocument(root: root)
        diagnostics += lint(document: document)
        return report(json: json, document: document)
    }

    /// Runs the document rules (everything but the file-level rules: size, signature,
    /// byte-order mark, JSON syntax) on a parsed document.
    /// - Returns: The findings in report order.
    public static func lint(document: AASADocument) -> [Diagnostic] {
        var diagnostics = DocumentRules.rootNotObject(document)
        if diagnostics.isEmpty {
            for check in documentChecks { diagnostics += check(document) }
        }
        return diagnostics.sorted(by: Diagnostic.reportOrder)
    }
}
