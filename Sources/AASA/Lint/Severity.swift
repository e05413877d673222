/// How serious a finding is. Ordered: `info` < `deprecation` < `warning` < `error`.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    /// Worth knowing; nothing to fix.
    case info
    /// Legal today, but against Apple's current guidance.
    case deprecation
    /// Probably not what was meant; iOS may ignore or misread it.
    case warning
    /// iOS rejects or ignores the file or part of it.
    case error

    private var rank: Int {
        switch self {
        case .info: return 0
        case .deprecation: return 1
        case .warning: return 2
        case .error: return 3
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
