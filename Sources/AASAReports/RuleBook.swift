import AASA

/// The rules a report names, each with its help (``RuleHelp``), in the order a SARIF run lists
/// them: the library's rules (``RuleRegistry``, ``RuleCatalogue``) and any a caller adds (the
/// audit's hosting rules), with links under one docs/rules.md address when the user gives one.
///
/// The project has no public address of its own, so there is no default: without a base a
/// rule's help carries its whole text and names `aasa rules ID`, its documentation offline.
public struct RuleBook: Sendable {
    /// The address of a published docs/rules.md the links use (each rule's section is its ID as
    /// the fragment), or nil for no links.
    public let base: String?
    /// The rules of the command, in docs/rules.md order.
    public let rules: [RuleHelp]
    private let entries: [RuleID: RuleMetadata]
    private let nextSteps: [RuleID: String]

    /// - Parameters:
    ///   - ids: the rules the command can report, in the order a report lists them.
    ///   - base: the address of a published docs/rules.md, or nil for no links.
    ///   - extraRules: registry entries of rules outside the library (the audit's hosting rules).
    ///   - extraNextSteps: their next steps.
    public init(
        ids: [RuleID], base: String? = nil, extraRules: [RuleMetadata] = [],
        extraNextSteps: [RuleID: String] = [:]
    ) {
        let entries = Dictionary(
            (RuleRegistry.all + extraRules).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.base = base
        self.entries = entries
        self.nextSteps = extraNextSteps
        self.rules = ids.map { Self.help(for: $0, entries: entries, nextSteps: extraNextSteps, base: base) }
    }

    /// The rules `lint` reports; those of `check`, `verify` and `audit` are built from the
    /// catalogue the same way by the caller.
    public static func lint(base: String? = nil) -> RuleBook {
        RuleBook(ids: RuleCatalogue.all.map(\.id), base: base)
    }

    /// The help for `id` (generic help for a rule no registry knows).
    public func help(for id: RuleID) -> RuleHelp {
        Self.help(for: id, entries: entries, nextSteps: nextSteps, base: base)
    }

    private static func help(
        for id: RuleID, entries: [RuleID: RuleMetadata], nextSteps: [RuleID: String], base: String?
    ) -> RuleHelp {
        let guidance = RuleCatalogue.guidance(for: id)
        return RuleHelp(
            id, entry: entries[id], neededBy: guidance?.neededBy, nextStep: guidance?.nextStep ?? nextSteps[id],
            base: base)
    }

    /// The project's home page (SARIF's `informationUri`): the base without a forge's
    /// `/blob/<branch>/docs/rules.md` when it has one, else the base; nil without a base.
    public var home: String? {
        guard let base else { return nil }
        guard let blob = base.firstRange(of: "/blob/"), base.hasSuffix("/docs/rules.md") else { return base }
        return String(base[..<blob.lowerBound])
    }
}
