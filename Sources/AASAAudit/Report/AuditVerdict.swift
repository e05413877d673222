import AASA

/// A domain's verdict in an audit: `aasa check`'s verdict of its findings, or `not-audited`
/// when this machine could not fetch it (it ran out of file descriptors, or its proxy could not
/// be used), which says nothing about the domain.
public enum AuditVerdict: String, Sendable, Codable, Hashable, CaseIterable {
    /// Current format, no errors.
    case current
    /// Works, but has legacy parts to retire.
    case legacy
    /// No legacy parts, but warnings.
    case needsAttention = "needs-attention"
    /// Has errors: iOS gets no file, or rejects or ignores it or part of it.
    case broken
    /// Not audited: a local failure (no file descriptor free on the machine that runs the
    /// audit, see ``HostingRules/localDescriptorLimit``, or a proxy that could not be used,
    /// ``HostingRules/localProxyFailure``). Audit the domain again.
    case notAudited = "not-audited"

    /// The verdict `aasa check` gives the same findings.
    public init(_ verdict: DeprecationReport.Verdict) {
        switch verdict {
        case .current: self = .current
        case .legacy: self = .legacy
        case .needsAttention: self = .needsAttention
        case .broken: self = .broken
        }
    }
}
