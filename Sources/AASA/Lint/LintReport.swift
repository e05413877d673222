import Foundation

/// What ``Linter/lint(_:options:)`` found in a file.
public struct LintReport: Sendable {
    /// What the file is (plain JSON, signed PKCS#7 in some encoding, unknown).
    public var kind: FileKind
    /// The document, when the JSON parsed (nil for invalid JSON and unreadable signed files).
    public var document: AASADocument?
    /// The JSON that was linted: the file itself, or a signed file's embedded content (nil when
    /// there was none to read). Lines and columns in ``diagnostics`` refer to this text.
    public var json: Data?
    /// The findings: file-level ones (no line) first, then by line, column and rule ID.
    public var diagnostics: [Diagnostic]

    /// A report; `diagnostics` are put in report order.
    public init(kind: FileKind, document: AASADocument?, json: Data?, diagnostics: [Diagnostic]) {
        self.kind = kind
        self.document = document
        self.json = json
        self.diagnostics = diagnostics.sorted(by: Diagnostic.reportOrder)
    }

    /// The most serious severity found (nil when there is no finding).
    public var highestSeverity: Severity? { diagnostics.map(\.severity).max() }

    /// The findings of severity `atLeast` or higher, in report order.
    public func diagnostics(atLeast minimum: Severity) -> [Diagnostic] {
        diagnostics.filter { $0.severity >= minimum }
    }
}
