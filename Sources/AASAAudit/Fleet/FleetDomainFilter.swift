import Foundation

/// Which domains of a fleet summary to list (`aasa audit summarize --list KEY=VALUE`): every
/// condition must hold. The conditions, as written: `verdict=NAME` (an ``AuditVerdict``),
/// `rule=ID` (a finding of that rule, any severity), `signer=expired`, `signer=valid` (the
/// signer of its signed file, at the summary's time) or `signer=none` (no signed file).
public struct FleetDomainFilter: Sendable, Equatable {
    public enum Condition: Sendable, Equatable {
        case verdict(AuditVerdict)
        case rule(String)
        case signer(SignerState)
    }

    public enum SignerState: String, Sendable, CaseIterable {
        case expired, valid
        /// No signed file (or its signer was not read).
        case unsigned = "none"
    }

    /// Why a condition cannot be read.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public let conditions: [Condition]

    public init(conditions: [Condition]) {
        self.conditions = conditions
    }

    /// The conditions `written` (each `KEY=VALUE`).
    /// - Throws: ``Problem`` naming the first that is not one of the forms above.
    public init(parsing written: [String]) throws {
        conditions = try written.map(Self.condition)
    }

    static func condition(_ text: String) throws -> Condition {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else {
            throw Problem(
                description: "'\(text)' is not KEY=VALUE (verdict=NAME, rule=ID or signer=expired|valid|none)")
        }
        switch parts[0] {
        case "verdict":
            guard let verdict = AuditVerdict(rawValue: parts[1]) else {
                throw Problem(
                    description: "'\(parts[1])' is not a verdict: "
                        + AuditVerdict.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return .verdict(verdict)
        case "rule":
            return .rule(parts[1])
        case "signer":
            guard let state = SignerState(rawValue: parts[1]) else {
                throw Problem(description: "'\(parts[1])' is not a signer state: expired, valid or none")
            }
            return .signer(state)
        default:
            throw Problem(description: "'\(parts[0])' is not a key: verdict, rule or signer")
        }
    }

    /// Whether `row` meets every condition.
    public func matches(_ row: FleetDomainRow) -> Bool {
        conditions.allSatisfy { condition in
            switch condition {
            case .verdict(let verdict): return row.verdict == verdict
            case .rule(let rule): return row.rules.contains(rule)
            case .signer(.unsigned): return row.signer == nil
            case .signer(.expired): return row.signer != nil && row.signerExpired
            case .signer(.valid): return row.signer != nil && !row.signerExpired
            }
        }
    }
}
