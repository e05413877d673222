/// Where a finding is: a JSON path, and the line and column when the file has them.
public struct DiagnosticLocation: Hashable, Sendable, Codable {
    /// `applinks.details[0].components[2]./`, or `$` for the whole document.
    public var path: JSONPath
    /// 1-based line in the JSON text (for a signed file, in its embedded JSON).
    public var line: Int?
    /// 1-based column (bytes).
    public var column: Int?

    public init(path: JSONPath, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    public init(path: JSONPath, position: TextPosition?) {
        self.init(path: path, line: position?.line, column: position?.column)
    }

    /// The whole file (no position).
    public static let file = DiagnosticLocation(path: JSONPath())
}

/// One finding: a rule, its severity, a message for a person, and where.
public struct Diagnostic: Hashable, Sendable, Codable {
    public var rule: RuleID
    public var severity: Severity
    public var message: String
    public var location: DiagnosticLocation

    public init(_ rule: RuleID, _ message: String, at location: DiagnosticLocation, severity: Severity? = nil) {
        self.rule = rule
        self.severity = severity ?? rule.severity
        self.message = message
        self.location = location
    }
}

extension Diagnostic {
    /// Report order: file-level findings (no line) first, then by line, column, rule ID, and
    /// finally message, so the order never depends on how the rules ran.
    static func reportOrder(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        let left = (lhs.location.line ?? 0, lhs.location.column ?? 0)
        let right = (rhs.location.line ?? 0, rhs.location.column ?? 0)
        if left != right { return left < right }
        if lhs.rule != rhs.rule { return lhs.rule.rawValue < rhs.rule.rawValue }
        if lhs.location.path != rhs.location.path {
            return lhs.location.path.description < rhs.location.path.description
        }
        return lhs.message < rhs.message
    }
}
