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
        lint(AASAFile.read(data, limits: options.limits), size: data.count, options: options)
    }

    /// Lints a file already read (``AASAFile/read(_:limits:)``) whose bytes were `size` long.
    public static func lint(_ file: AASAFile, size: Int, options: LintOptions = LintOptions()) -> LintReport {
        var diagnostics: [Diagnostic] = []
        if let tooLarge = FileRules.fileTooLarge(size: size, limit: options.maximumFileSize) {
            diagnostics.append(tooLarge)
        }
        if let signed = FileRules.signedFile(kind: file.kind) { diagnostics.append(signed) }
        if let mark = FileRules.byteOrderMark(file.content ?? Data(), inSignedContent: file.kind.isSigned) {
            diagnostics.append(mark)
        }
        func report(document: AASADocument? = nil) -> LintReport {
            LintReport(kind: file.kind, document: document, json: file.content, diagnostics: diagnostics)
        }
        switch file.problem {
        case nil:
            break
        case .signedDataUnreadable:
            diagnostics.append(FileRules.unreadableSignedFile("the SignedData could not be read"))
            return report()
        case .detachedSignature:
            diagnostics.append(FileRules.unreadableSignedFile("it is a detached signature, with no JSON embedded"))
            return report()
        case .notSignedData(let reason), .damagedPKCS7(_, let reason), .unusableContent(let reason):
            diagnostics.append(FileRules.unreadableSignedFile(reason))
            return report()
        case .invalidJSON(let syntaxError, let isSigned):
            let body = file.body ?? Data()
            if isSigned && !FileRules.looksLikeJSON(body) {
                let what =
                    body.isEmpty ? "the embedded content is empty" : "the embedded content is not JSON (\(syntaxError))"
                diagnostics.append(FileRules.unreadableSignedFile(what))
            } else {
                diagnostics.append(
                    FileRules.invalidJSON(
                        syntaxError, body: body, detectionDetail: file.detection.detail, inSignedContent: isSigned))
            }
            return report()
        case .notAnObject:
            break  // a JSON value that is not an object: the document rules say so
        }
        guard let root = file.root else { return report() }
        let document = AASADocument(root: root)
        diagnostics += lint(document: document)
        return report(document: document)
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
