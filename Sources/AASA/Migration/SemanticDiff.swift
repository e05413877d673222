/// What changed in meaning between two AASA documents: per service, the apps gained and lost;
/// per `applinks` app, the rules of its deciding entry added, removed, changed or reordered;
/// the substitution variables whose values changed; and the probe URLs whose verdict changes.
///
/// Rules are compared by what they mean, not by how they are written: the `/`, `?` and `#`
/// patterns, `exclude`, and the `caseSensitive` and `percentEncoded` settings in effect (after
/// `defaults`). A legacy path is the rule it stands for (`"NOT /x"` is `{"/": "/x", "exclude":
/// true}`, case-sensitive, percent-encoded), so a faithful migration shows no rule change. A
/// `comment` is not part of a rule's meaning. "Changed" means a different rule at the same
/// position; "reordered" means the same rule at another position relative to the others.
///
/// ```swift
/// let diff = SemanticDiff.compare(old: before, new: after)
/// diff.isSame      // true: same apps, same rules, no probe URL changes verdict
/// ```
public struct SemanticDiff: Sendable, Codable {
    /// Apps gained and lost by one service.
    public struct ServiceChange: Sendable, Codable, Hashable {
        /// `applinks`, `webcredentials`, `activitycontinuation` or `appclips`.
        public var service: String
        public var gained: [String]
        public var lost: [String]
    }

    /// The rule changes for one app named in both documents.
    public struct AppChanges: Sendable, Codable, Hashable {
        public var appID: String
        /// The deciding entry (the first naming the app) in each document.
        public var entryBefore: String
        public var entryAfter: String
        /// Rules only in the new document, at their new index.
        public var added: [PlacedRule]
        /// Rules only in the old document, at their old index.
        public var removed: [PlacedRule]
        /// A different rule at the same index.
        public var changed: [ChangedRule]
        /// The same rule at another place relative to the others.
        public var reordered: [MovedRule]

        /// Whether a change can give some URL another verdict (a reorder of rules with the same
        /// verdict cannot: the first of them to match gives that verdict either way).
        public var changesMeaning: Bool {
            !added.isEmpty || !removed.isEmpty || !changed.isEmpty || reordered.contains(where: \.changesVerdicts)
        }
    }

    public struct PlacedRule: Sendable, Codable, Hashable {
        public var index: Int
        public var rule: RuleSummary
    }

    public struct ChangedRule: Sendable, Codable, Hashable {
        public var index: Int
        public var before: RuleSummary
        public var after: RuleSummary
    }

    public struct MovedRule: Sendable, Codable, Hashable {
        public var rule: RuleSummary
        public var before: Int
        public var after: Int
        /// Whether it swapped places with a rule of the other verdict (exclude vs match).
        public var changesVerdicts: Bool
    }

    /// A substitution variable whose values (as a set) changed.
    public struct VariableChange: Sendable, Codable, Hashable {
        public var name: String
        /// nil: not defined in that document.
        public var before: [String]?
        public var after: [String]?
        /// Whether a pattern of either document refers to it.
        public var used: Bool

        private enum CodingKeys: String, CodingKey { case name, before, after, used }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(before, forKey: .before)
            try container.encode(after, forKey: .after)
            try container.encode(used, forKey: .used)
        }
    }

    /// The probe URLs compared, and those whose verdict changed for some app.
    public struct ProbeSummary: Sendable, Codable, Hashable {
        /// URLs compared: generated probes plus the caller's.
        public var compared: Int
        /// Probes generated from the patterns of both documents.
        public var generated: Int
        /// URLs given by the caller (`--urls-file`).
        public var fromFile: Int
        /// Whether the generated set was cut at the generator's maximum or its comparison budget.
        public var truncated: Bool
        /// Whether the caller's URLs were cut at the comparison budget (the rest not compared).
        public var fromFileTruncated = false
        /// URLs whose verdict changed for some app.
        public var changedCount: Int
        /// The first of them (at most the `keeping` limit).
        public var changes: [VerdictChange]
    }

    public var services: [ServiceChange]
    public var apps: [AppChanges]
    public var variables: [VariableChange]
    public var probes: ProbeSummary

    /// Whether the two documents mean the same: no service gains or loses an app, no app's rules
    /// change in a way that can change a verdict, no substitution variable in use changes, and
    /// no probe URL changes verdict.
    public var isSame: Bool {
        services.isEmpty && !apps.contains(where: \.changesMeaning) && !variables.contains(where: \.used)
            && probes.changedCount == 0
    }

    /// Compares two documents.
    /// - Parameters:
    ///   - extraURLs: URLs to compare besides the generated probes (an access log).
    ///   - keeping: How many verdict changes to keep (all are counted).
    public static func compare(
        old: AASADocument, new: AASADocument, extraURLs: some Sequence<String> = [String](),
        generator: ProbeURLGenerator = ProbeURLGenerator(), keeping limit: Int = 1000
    ) -> SemanticDiff {
        let oldMatcher = URLMatcher(document: old)
        let newMatcher = URLMatcher(document: new)

        // Services.
        var services: [ServiceChange] = []
        func compareApps(_ service: String, _ before: [String], _ after: [String]) {
            let beforeSet = Set(before), afterSet = Set(after)
            let gained = unique(after.filter { !beforeSet.contains($0) })
            let lost = unique(before.filter { !afterSet.contains($0) })
            if !gained.isEmpty || !lost.isEmpty {
                services.append(ServiceChange(service: service, gained: gained, lost: lost))
            }
        }
        compareApps("applinks", oldMatcher.appIDs, newMatcher.appIDs)
        compareApps(
            "webcredentials", old.webCredentials?.apps.map(\.value) ?? [], new.webCredentials?.apps.map(\.value) ?? [])
        compareApps(
            "activitycontinuation", old.activityContinuation?.apps.map(\.value) ?? [],
            new.activityContinuation?.apps.map(\.value) ?? [])
        compareApps("appclips", old.appClips?.apps.map(\.value) ?? [], new.appClips?.apps.map(\.value) ?? [])

        // Rules, per app named in both.
        let newApps = Set(newMatcher.appIDs)
        let oldEntries = decidingEntries(old), newEntries = decidingEntries(new)
        var apps: [AppChanges] = []
        for app in oldMatcher.appIDs where newApps.contains(app) {
            guard let before = decidingRules(app, old, entries: oldEntries),
                let after = decidingRules(app, new, entries: newEntries)
            else { continue }
            var changes = compareRules(before.rules, after.rules)
            changes.appID = app
            changes.entryBefore = before.entry.description
            changes.entryAfter = after.entry.description
            if !changes.added.isEmpty || !changes.removed.isEmpty || !changes.changed.isEmpty
                || !changes.reordered.isEmpty
            {
                apps.append(changes)
            }
        }

        // Substitution variables.
        let oldVariables = variableValues(old), newVariables = variableValues(new)
        let oldValues = Dictionary(oldVariables, uniquingKeysWith: { $1 })
        let newValues = Dictionary(newVariables, uniquingKeysWith: { $1 })
        let used = usedVariables(old).union(usedVariables(new))
        var variables: [VariableChange] = []
        for name in unique(oldVariables.map(\.name) + newVariables.map(\.name)) {
            let before = oldValues[name]
            let after = newValues[name]
            if before.map(Set.init) != after.map(Set.init) {
                variables.append(VariableChange(name: name, before: before, after: after, used: used.contains(name)))
            }
        }

        // Probe URLs.
        let probes = generator.probes(for: [old, new])
        let check = EquivalenceCheck(old: oldMatcher, new: newMatcher)
        var report = check.compare(probes.urls, keeping: limit)
        var fromFile = 0, fromFileTruncated = false
        let budget = generator.urlBudget(forPatterns: probes.patternCount)
        for url in extraURLs {
            guard fromFile < budget else {
                fromFileTruncated = true
                break
            }
            fromFile += 1
            report.add(url, check.compare(url), limit: limit)
        }
        return SemanticDiff(
            services: services, apps: apps, variables: variables,
            probes: ProbeSummary(
                compared: report.compared, generated: probes.urls.count, fromFile: fromFile,
                truncated: probes.truncated, fromFileTruncated: fromFileTruncated,
                changedCount: report.changedCount, changes: report.changes))
    }

    // MARK: Rules

    /// For each app, the index of the first entry naming it: the one that decides for it.
    static func decidingEntries(_ document: AASADocument) -> [String: Int] {
        var entries: [String: Int] = [:]
        for (index, detail) in (document.appLinks?.details ?? []).enumerated() {
            for app in detail.effectiveAppIDs where entries[app.value] == nil { entries[app.value] = index }
        }
        return entries
    }

    /// The rules of the first entry naming `app` (`entries`: ``decidingEntries(_:)`` of
    /// `document`), as the matcher reads them.
    static func decidingRules(_ app: String, _ document: AASADocument, entries: [String: Int]) -> (
        entry: JSONPath, rules: [RuleSummary]
    )? {
        guard let links = document.appLinks, let index = entries[app] else { return nil }
        let detail = links.details[index]
        let defaults = detail.defaults.inheriting(from: links.defaults)
        if let components = detail.components {
            return (detail.path, components.map { RuleSummary(component: $0, defaults: defaults) })
        }
        return (detail.path, (detail.paths ?? []).map { RuleSummary(legacyPath: $0) })
    }

    static func compareRules(_ old: [RuleSummary], _ new: [RuleSummary]) -> AppChanges {
        // Pair equal rules, first with first.
        var queues: [RuleSummary.Key: [Int]] = [:]
        for (index, rule) in old.enumerated() { queues[rule.key, default: []].append(index) }
        var pairs: [(old: Int, new: Int)] = []
        var unmatchedNew: [Int] = []
        for (index, rule) in new.enumerated() {
            if var queue = queues[rule.key], !queue.isEmpty {
                pairs.append((queue.removeFirst(), index))
                queues[rule.key] = queue
            } else {
                unmatchedNew.append(index)
            }
        }
        let pairedOld = Set(pairs.map(\.old))
        var unmatchedOld = old.indices.filter { !pairedOld.contains($0) }
        // A different rule at the same index: changed.
        var changed: [ChangedRule] = []
        for index in unmatchedOld where unmatchedNew.contains(index) {
            changed.append(ChangedRule(index: index, before: old[index], after: new[index]))
        }
        let changedIndices = Set(changed.map(\.index))
        unmatchedOld.removeAll { changedIndices.contains($0) }
        unmatchedNew.removeAll { changedIndices.contains($0) }
        // Reordered: paired rules outside the longest run kept in the same relative order.
        pairs.sort { $0.old < $1.old }
        let kept = longestIncreasing(pairs.map(\.new))
        var reordered: [MovedRule] = []
        for (position, pair) in pairs.enumerated() where !kept.contains(position) {
            let flipsVerdict = pairs.contains { other in
                (other.old < pair.old) != (other.new < pair.new) && old[other.old].exclude != old[pair.old].exclude
            }
            reordered.append(
                MovedRule(rule: new[pair.new], before: pair.old, after: pair.new, changesVerdicts: flipsVerdict))
        }
        return AppChanges(
            appID: "", entryBefore: "", entryAfter: "",
            added: unmatchedNew.map { PlacedRule(index: $0, rule: new[$0]) },
            removed: unmatchedOld.map { PlacedRule(index: $0, rule: old[$0]) }, changed: changed, reordered: reordered)
    }

    /// Positions (in `values`) of one longest strictly increasing subsequence.
    static func longestIncreasing(_ values: [Int]) -> Set<Int> {
        guard !values.isEmpty else { return [] }
        var tails: [Int] = []  // positions
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var result = Set<Int>()
        var position = tails.last!
        while position >= 0 {
            result.insert(position)
            position = previous[position]
        }
        return result
    }

    // MARK: Variables

    static func variableValues(_ document: AASADocument) -> [(name: String, values: [String])] {
        // A repeated name (duplicate JSON keys): the last one counts, in the place of the last.
        let variables = document.appLinks?.substitutionVariables ?? []
        var last: [String: Int] = [:]
        for (index, variable) in variables.enumerated() { last[variable.name] = index }
        return variables.enumerated().compactMap { index, variable in
            last[variable.name] == index ? (variable.name, variable.values.map(\.value)) : nil
        }
    }

    static func usedVariables(_ document: AASADocument) -> Set<String> {
        var names = Set<String>()
        for detail in document.appLinks?.details ?? [] {
            for rule in detail.components ?? [] {
                var patterns = [rule.pathPattern?.value, rule.fragment?.value]
                switch rule.query {
                case .string(let pattern)?: patterns.append(pattern.value)
                case .items(let items)?: patterns += items.map { $0.value?.value }
                case nil: break
                }
                for case let pattern? in patterns { names.formUnion(PatternSyntax.variableNames(in: pattern)) }
            }
        }
        return names
    }
}

private func unique(_ values: [String]) -> [String] {
    var seen = Set<String>()
    return values.filter { seen.insert($0).inserted }
}
