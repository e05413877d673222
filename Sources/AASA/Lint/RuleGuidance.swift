/// What to tell about a finding of a rule, beyond its message: what it is, who needs the
/// part it concerns, and the next step. Data of the rule catalogue (``RuleCatalogue/Entry``),
/// shared by `check` (``DeprecationReport``) and `audit`.
public struct RuleGuidance: Sendable, Hashable {
    /// One line naming the finding; nil to use the finding's own message.
    public let title: String?
    /// Which iOS versions or verifiers need (or reject) what the finding concerns.
    public let neededBy: String
    /// The concrete next step.
    public let nextStep: String

    public init(title: String?, neededBy: String, nextStep: String) {
        self.title = title
        self.neededBy = neededBy
        self.nextStep = nextStep
    }
}
