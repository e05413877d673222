// Explanations: which rule decided, or why none matched and which came closest.

/// An entry as explanations show it.
struct EntryInfo: Sendable {
    var path: JSONPath
    var rules: [RuleInfo]
    var paths: [PathInfo]
}

struct RuleInfo: Sendable {
    var path: JSONPath
    /// The `?` dictionary's names, in the order of the rule's items.
    var itemNames: [String]
}

struct PathInfo: Sendable {
    var path: JSONPath
    /// As written, `NOT ` included.
    var source: String
}

extension URLMatcher {
    /// A check of one specified component of a rule.
    struct Check {
        var component: String
        var passed: Bool
        var value: String?
        var pattern: CompiledPattern
    }

    func explanation(_ entryIndex: Int, _ outcome: Outcome, _ view: inout URLView) -> MatchExplanation {
        let info = entryInfo[entryIndex]
        let record = tables.entries[entryIndex]
        let entry = info.path.description
        let naming = "\(entry) (the first entry naming this app)"
        switch record.kind {
        case .none:
            return MatchExplanation(
                entry: entry, summary: "\(naming) has neither components nor paths, so it matches no URL.")
        case .components:
            if record.count == 0 {
                return MatchExplanation(
                    entry: entry, summary: "\(naming) has an empty components array, which matches no URL.")
            }
            let rules = (0..<Int(record.count)).map { tables.rules[Int(record.start) + $0] }
            if let index = outcome.rule {
                let what = describe(rules[index], info.rules[index])
                let path = info.rules[index].path
                let summary =
                    outcome.verdict == .exclude
                    ? "Excluded by \(path) (\(what), exclude: true) in \(naming); later rules are not tried."
                    : "Matched by \(path) (\(what)) in \(naming)."
                return MatchExplanation(entry: entry, rule: path.description, summary: summary)
            }
            // The closest rule: most specified components matching, ties to the first.
            var best = 0
            var bestChecks = checks(rules[0], info.rules[0], &view)
            var bestScore = bestChecks.filter(\.passed).count
            for index in rules.indices.dropFirst() {
                let checks = checks(rules[index], info.rules[index], &view)
                let score = checks.filter(\.passed).count
                if score > bestScore {
                    best = index
                    bestChecks = checks
                    bestScore = score
                }
            }
            let path = info.rules[best].path
            guard let failed = bestChecks.first(where: { !$0.passed }) else {
                // Cannot happen: a rule whose components all match would have decided.
                return MatchExplanation(entry: entry, rule: path.description, summary: "No rule in \(naming) matches.")
            }
            var reason = URLMatcher.reason(failed)
            if Int(rules[best].mode) & MatchMode.lowercase != 0 { reason += " (compared case-insensitively)" }
            return MatchExplanation(
                entry: entry, rule: path.description,
                summary:
                    "No rule in \(naming) matches; the closest, \(path), fails on \"\(failed.component)\": \(reason).",
                failedComponent: failed.component, value: failed.value, pattern: failed.pattern.source)
        case .paths:
            if record.count == 0 {
                return MatchExplanation(
                    entry: entry, summary: "\(naming) has an empty paths array, which matches no URL.")
            }
            if let index = outcome.rule {
                let element = info.paths[index]
                let summary =
                    outcome.verdict == .exclude
                    ? "Excluded by \(element.path) (\(quotedInFull(element.source))) in \(naming); later paths are not tried."
                    : "Matched by \(element.path) (\(quotedInFull(element.source))) in \(naming)."
                return MatchExplanation(entry: entry, rule: element.path.description, summary: summary)
            }
            let records = (0..<Int(record.count)).map { tables.paths[Int(record.start) + $0] }
            let closest = records.firstIndex(where: { !$0.isNot }) ?? 0
            let value = view.layout.path.isEmpty ? "/" : view.display(view.layout.path, mode: MatchMode.raw)
            let check = Check(
                component: "/", passed: false, value: value, pattern: patterns[Int(records[closest].pattern)])
            let path = info.paths[closest].path
            return MatchExplanation(
                entry: entry, rule: path.description,
                summary:
                    "No path in \(naming) matches; the closest, \(path), fails on \"/\": \(URLMatcher.reason(check)).",
                failedComponent: "/", value: value, pattern: info.paths[closest].source)
        }
    }

    static func reason(_ check: Check) -> String {
        if let problem = check.pattern.problem { return problem }
        guard let value = check.value else {
            let what = check.component == "?" ? "query" : check.component == "#" ? "fragment" : "item"
            return
                "the URL has no such \(what), which counts as \"\" and does not match \(quotedInFull(check.pattern.source))"
        }
        return "\(quotedInFull(value)) does not match \(quotedInFull(check.pattern.source))"
    }

    /// The rule's specified components, checked in order `/`, `?` (or each item), `#`.
    func checks(_ rule: RuleRecord, _ info: RuleInfo, _ view: inout URLView) -> [Check] {
        var checks: [Check] = []
        let mode = Int(rule.mode)
        let components = view.components(mode)
        let layout = view.layout
        if rule.path >= 0 {
            let value = layout.path.isEmpty ? "/" : view.display(layout.path, mode: mode)
            checks.append(
                Check(
                    component: "/", passed: tables.matches(rule.path, components.path), value: value,
                    pattern: patterns[Int(rule.path)]))
        }
        switch rule.queryKind {
        case .any: break
        case .whole:
            checks.append(
                Check(
                    component: "?", passed: tables.matches(rule.query, components.query),
                    value: layout.query.map { view.display($0, mode: mode) }, pattern: patterns[Int(rule.query)]))
        case .items:
            for offset in 0..<Int(rule.itemsCount) {
                let item = tables.items[Int(rule.itemsStart) + offset]
                let result = tables.itemMatches(item, mode: mode, &view)
                checks.append(
                    Check(
                        component: "?" + info.itemNames[offset], passed: result.matched,
                        value: result.failedValue.map { view.display($0, mode: mode) },
                        pattern: patterns[Int(item.pattern)]))
            }
        }
        if rule.fragment >= 0 {
            checks.append(
                Check(
                    component: "#", passed: tables.matches(rule.fragment, components.fragment),
                    value: layout.fragment.map { view.display($0, mode: mode) }, pattern: patterns[Int(rule.fragment)]))
        }
        return checks
    }

    /// `"/": "/help/*", "?": {"id": "?*"}`, for summaries.
    func describe(_ rule: RuleRecord, _ info: RuleInfo) -> String {
        var parts: [String] = []
        if rule.path >= 0 { parts.append("\"/\": \(quotedInFull(patterns[Int(rule.path)].source))") }
        switch rule.queryKind {
        case .any: break
        case .whole: parts.append("\"?\": \(quotedInFull(patterns[Int(rule.query)].source))")
        case .items:
            let items = (0..<Int(rule.itemsCount)).map { offset in
                let pattern = patterns[Int(tables.items[Int(rule.itemsStart) + offset].pattern)]
                return "\(quotedInFull(info.itemNames[offset])): \(quotedInFull(pattern.source))"
            }
            parts.append("\"?\": {" + items.joined(separator: ", ") + "}")
        }
        if rule.fragment >= 0 { parts.append("\"#\": \(quotedInFull(patterns[Int(rule.fragment)].source))") }
        return parts.isEmpty ? "no components, so every URL" : parts.joined(separator: ", ")
    }
}
