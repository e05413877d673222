// What every rule group is made of: document checks, each returning diagnostics.

/// A document rule: reads the model (and, where the model keeps too little, the JSON it was
/// read from) and returns its findings. Each rule group lists its checks in `checks`.
typealias DocumentCheck = @Sendable (AASADocument) -> [Diagnostic]

extension Diagnostic {
    /// A finding of `rule` at `path`, with the line and column of `position` when known.
    init(_ rule: RuleID, _ message: String, path: JSONPath, position: TextPosition?) {
        self.init(rule, message, at: DiagnosticLocation(path: path, position: position))
    }
}
