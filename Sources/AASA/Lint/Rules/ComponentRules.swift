import Foundation

/// Rules about an entry's URL rules: `components` (iOS 13+) and legacy `paths`, and
/// `defaults`.
enum ComponentRules {
    static let checks: [DocumentCheck] = [
        noRules, catchAllRule, unreachableRule, unknownComponentKey, queryValueNotString, patternInDefaults,
    ]

    static let componentKeys = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]

    /// `no-rules`: an entry with neither `components` nor `paths` (a key of the wrong type is
    /// `wrong-type` only).
    @Sendable static func noRules(_ document: AASADocument) -> [Diagnostic] {
        AppLinksStructureRules.details(document).compactMap { detail in
            guard detail.components == nil, detail.paths == nil,
                !document.root.hasMember("components", at: detail.path),
                !document.root.hasMember("paths", at: detail.path)
            else { return nil }
            let apps = detail.effectiveAppIDs.map { quotedShortened($0.value) }.joined(separator: ", ")
            return Diagnostic(
                .noRules,
                "This entry\(apps.isEmpty ? "" : " (\(apps))") has neither \"components\" nor \"paths\", so no URL opens the app."
                    + " Add \"components\": [{\"/\": \"/*\"}] to handle every path, or narrower rules.",
                path: detail.path, position: detail.position)
        }
    }

    /// Whether `rule` matches every URL: no `/` or one made only of `*`; no `?`, a `?` string
    /// made only of `*`, or an empty `?` object; no `#` or one made only of `*`. A key of the
    /// wrong type makes the rule unpredictable, not a catch-all.
    static func isCatchAll(_ rule: ComponentRule, in document: AASADocument) -> Bool {
        func onlyStars(_ text: String) -> Bool { !text.isEmpty && text.allSatisfy { $0 == "*" } }
        // A "/" pattern (nearly every rule has one) decides first, without looking the keys up.
        if let pattern = rule.pathPattern, !onlyStars(pattern.value) { return false }
        for key in ["/", "?", "#"] where document.root.hasMember(key, at: rule.path) {
            switch key {
            case "/": guard let pattern = rule.pathPattern, onlyStars(pattern.value) else { return false }
            case "#": guard let pattern = rule.fragment, onlyStars(pattern.value) else { return false }
            default:
                switch rule.query {
                case .string(let pattern)?: guard onlyStars(pattern.value) else { return false }
                case .items(let items)?: guard items.isEmpty else { return false }
                case nil: return false
                }
            }
        }
        return true
    }

    /// The first catch-all rule of each entry's components.
    static func firstCatchAll(_ detail: AppLinksDetail, in document: AASADocument) -> Int? {
        (detail.components ?? []).firstIndex { isCatchAll($0, in: document) }
    }

    /// Whether a legacy path is a catch-all ("*", "**", …).
    static func isCatchAllPath(_ path: String) -> Bool { !path.isEmpty && path.allSatisfy { $0 == "*" } }

    /// `catch-all-rule`: a components rule that matches every URL (legacy `"*"` paths are the
    /// idiomatic "everything" and are exempt).
    @Sendable static func catchAllRule(_ document: AASADocument) -> [Diagnostic] {
        AppLinksStructureRules.details(document).flatMap { detail -> [Diagnostic] in
            let rules = detail.components ?? []
            return rules.enumerated().compactMap { index, rule -> Diagnostic? in
                guard isCatchAll(rule, in: document) else { return nil }
                let shape = describeShape(rule, in: document)
                var message = "This rule (\(shape)) matches every URL of the domain. "
                if rule.exclude {
                    message += "As an exclude it keeps every URL that no earlier rule matched out of the app"
                    message +=
                        index == rules.count - 1
                        ? (index == 0
                            ? ", so this entry opens no URL at all."
                            : "; at the end of the list that changes nothing (URLs that match no rule stay in the browser anyway).")
                        : ", and the rules after it are never used."
                } else {
                    message += "Every URL that no earlier rule excludes opens the app instead of the web page"
                    message += index == rules.count - 1 ? "." : ", and the rules after it are never used."
                    message += " If that is intended, add excludes before it for pages that must stay on the web."
                }
                return Diagnostic(.catchAllRule, message, path: rule.path, position: rule.position)
            }
        }
    }

    /// `unreachable-rule`: a components rule after a catch-all in the same entry, or a legacy
    /// path after a `"*"` path (iOS stops at the first path or rule that matches).
    @Sendable static func unreachableRule(_ document: AASADocument) -> [Diagnostic] {
        AppLinksStructureRules.details(document).flatMap { detail -> [Diagnostic] in
            var diagnostics: [Diagnostic] = []
            if let rules = detail.components, let catchAll = firstCatchAll(detail, in: document) {
                for rule in rules.dropFirst(catchAll + 1) {
                    diagnostics.append(
                        Diagnostic(
                            .unreachableRule,
                            "This rule is never used: the earlier rule \(rules[catchAll].path) matches every URL, and iOS stops at"
                                + " the first rule that matches. Move it before that rule\(rule.exclude ? " (excludes must come first)" : "").",
                            path: rule.path, position: rule.position))
                }
            }
            if let paths = detail.paths, let catchAll = paths.firstIndex(where: { isCatchAllPath($0.value) }) {
                for path in paths.dropFirst(catchAll + 1) {
                    diagnostics.append(
                        Diagnostic(
                            .unreachableRule,
                            "Path \(quotedShortened(path.value)) is never checked: the earlier \(quotedShortened(paths[catchAll].value)) matches every"
                                + " path, and iOS stops at the first path that matches. Move it before \(quotedShortened(paths[catchAll].value))"
                                + (path.value.hasPrefix("NOT ")
                                    ? " (a \"NOT \" path must come before the paths it carves out of)." : "."),
                            path: path.path, position: path.position))
                }
            }
            return diagnostics
        }
    }

    /// `unknown-component-key`.
    @Sendable static func unknownComponentKey(_ document: AASADocument) -> [Diagnostic] {
        let aliases = [
            "path": "/", "paths": "/", "query": "?", "fragment": "#", "hash": "#", "excluded": "exclude",
            "not": "exclude",
            "comments": "comment", "casesensitive": "caseSensitive", "percentencoded": "percentEncoded",
        ]
        return AppLinksStructureRules.details(document).flatMap { detail in
            (detail.components ?? []).flatMap { rule in
                rule.unknownKeys.map { key in
                    Diagnostic(
                        .unknownComponentKey,
                        "Unknown key \(quotedShortened(key.key)) in a components rule\(didYouMean(key.key, known: componentKeys, aliases: aliases)):"
                            + " iOS does not use it, so the rule may match more than intended. Keys there: / ? # exclude comment"
                            + " caseSensitive percentEncoded.",
                        path: key.path, position: key.position)
                }
            }
        }
    }

    /// `query-value-not-string`: a `?` object value that is not a string.
    @Sendable static func queryValueNotString(_ document: AASADocument) -> [Diagnostic] {
        AppLinksStructureRules.details(document).flatMap { detail in
            (detail.components ?? []).flatMap { rule -> [Diagnostic] in
                guard case .items(let items)? = rule.query else { return [] }
                let queryPath = rule.path.appending("?")
                return items.filter { $0.value == nil }.map { item in
                    let itemPath = queryPath.appending(item.name)
                    let node = document.root.node(at: itemPath)
                    let found = node?.describedWithArticle ?? "not a string"
                    var fix = ""
                    if case .number(let text)? = node?.value { fix = " Write \(quotedShortened(text))." }
                    if case .bool(let bool)? = node?.value { fix = " Write \(quotedShortened(String(bool)))." }
                    return Diagnostic(
                        .queryValueNotString,
                        "The \"?\" item \(quotedShortened(item.name)) is \(found), not a string pattern: iOS then ignores this rule's"
                            + " whole \"?\" dictionary.\(fix)",
                        path: itemPath, position: node?.location ?? rule.position)
                }
            }
        }
    }

    /// `pattern-in-defaults`: `/`, `?`, `#` or `exclude` in `applinks.defaults` or an entry's
    /// `defaults`. Apple documents defaults as "a subclass of components": such a key is the
    /// default of every rule below it without its own, which is easy to miss when reading a rule.
    @Sendable static func patternInDefaults(_ document: AASADocument) -> [Diagnostic] {
        guard let links = document.appLinks else { return [] }
        var diagnostics: [Diagnostic] = []
        func report(_ keys: [Located<String>], scope: String, details: [AppLinksDetail]) {
            for key in keys {
                let taking = details.flatMap { detail in
                    (detail.components ?? []).filter { Self.takes($0, key, from: detail) }
                }
                let which =
                    taking.isEmpty
                    ? "no rule takes it (each has its own)"
                    : "\(taking.count) \(taking.count == 1 ? "rule takes" : "rules take") it: "
                        + taking.map(\.path.description).joined(separator: ", ")
                diagnostics.append(
                    Diagnostic(
                        .patternInDefaults,
                        "\(quotedShortened(key.value)) in defaults is the default of every rule \(scope) without its own (iOS 14+; Apple: defaults is a subclass of components); \(which).",
                        path: key.path, position: key.position))
            }
        }
        report(links.defaults.patternKeys, scope: "of the domain", details: links.details)
        for detail in links.details {
            report(detail.defaults.patternKeys, scope: "of this entry", details: [detail])
        }
        return diagnostics
    }

    /// Whether `rule` of `detail` took `key` from the defaults where `key` stands (an entry's
    /// defaults win over the domain's).
    private static func takes(_ rule: ComponentRule, _ key: Located<String>, from detail: AppLinksDetail) -> Bool {
        guard rule.inheritedKeys.contains(key.value) else { return false }
        let source: JSONPath?
        switch key.value {
        case "/": source = rule.pathPattern?.path
        case "#": source = rule.fragment?.path
        case "?":
            switch rule.query {
            case .string(let pattern)?: source = pattern.path
            case .items(let items)?: source = items.first?.value?.path
            case nil: source = nil
            }
        default:  // exclude: the entry's own default, when it has one, is the one its rules take
            return detail.defaults.exclude == nil || key.path.description.hasPrefix(detail.path.description)
        }
        return source.map { $0.description.hasPrefix(key.path.description) } ?? false
    }

    /// `{"/": "*", "exclude": true}`-style summary of a rule's pattern keys.
    static func describeShape(_ rule: ComponentRule, in document: AASADocument) -> String {
        var parts: [String] = []
        if let pattern = rule.pathPattern { parts.append("\"/\": \(quotedShortened(pattern.value))") }
        switch rule.query {
        case .string(let pattern)?: parts.append("\"?\": \(quotedShortened(pattern.value))")
        case .items?: parts.append("\"?\": {}")
        case nil: break
        }
        if let fragment = rule.fragment { parts.append("\"#\": \(quotedShortened(fragment.value))") }
        if rule.exclude { parts.append("\"exclude\": true") }
        if parts.isEmpty { return "no \"/\", \"?\" or \"#\"" }
        return "{" + parts.joined(separator: ", ") + "}"
    }
}
