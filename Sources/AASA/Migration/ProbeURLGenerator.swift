/// Derives, from every URL pattern of one or more AASA documents, a set of probe URLs that
/// exercise each pattern: the pattern instantiated, and near misses around it.
///
/// Used to compare what two files do (``EquivalenceCheck``, ``SemanticDiff``): two files that
/// give every app the same verdict on every probe agree on every pattern's own URLs and on the
/// URLs one edit away from them, which is where a rewrite goes wrong (a lost `NOT`, a case or
/// percent-encoding setting, a trailing slash, a query that became constrained).
///
/// For each path pattern (components `/` and legacy `paths`, `NOT ` removed):
/// - instantiations: `*` as `""`, `"x"` and `"abc/def"`; `?` as `"a"`; a custom variable as
///   each of its first three values; `$(alpha)`… as one member character; `$(region)` as `US`,
///   `$(lang)` as `en`; an undefined variable (and `$(` in a legacy path) as literal text;
/// - near misses of each: one character less, one more (at the end and after the first `/`),
///   other case (all upper, all lower, the first letter toggled), with and without a trailing
///   slash, a letter percent-encoded and an escape decoded;
/// - each of those without and with `?q=1`, `#frag` and both.
///
/// For each rule with a `?` or `#` pattern, its path's instantiations combined with: the query
/// pattern instantiated and one edit away, no query; each `?` dictionary item present, absent,
/// empty, without `=`, with its name in other case, with another value, with an extra item;
/// the fragment instantiated, one edit away, absent.
public struct ProbeURLGenerator: Sendable {
    /// The most probes generated; the rest are dropped (``ProbeSet/truncated``).
    public var maximumCount: Int
    /// The most URL-pattern comparisons a proof makes with these probes, and again with URLs of
    /// its own (an access log): every URL is matched against every rule, so a proof costs
    /// URLs × patterns. A larger file gets fewer probes (never fewer than 100), and the time of
    /// `migrate` and `diff` stays bounded whatever the file's size (issue #15: about 7 ms per
    /// legacy path, 20 minutes for a 16 MiB file). 200 million is about 2 s on this project's
    /// benchmark machine.
    public var comparisonBudget: Int

    public init(maximumCount: Int = 100_000, comparisonBudget: Int = 200_000_000) {
        self.maximumCount = maximumCount
        self.comparisonBudget = comparisonBudget
    }

    /// How many URLs a proof over `patterns` patterns may compare within ``comparisonBudget``.
    public func urlBudget(forPatterns patterns: Int) -> Int {
        max(100, comparisonBudget / max(1, patterns))
    }

    /// The probe URLs (bare paths with query and fragment, such as `/help/x?q=1`) for every
    /// pattern of `documents`, without repeats, in a stable order: at most ``maximumCount``, and
    /// at most ``urlBudget(forPatterns:)``.
    public func probes(for documents: [AASADocument]) -> ProbeSet {
        let patternCount = Self.patternCount(of: documents)
        var set = OrderedStrings(limit: min(maximumCount, urlBudget(forPatterns: patternCount)))
        for generic in ["/", "/x", "/?q=1", "/#frag"] { set.insert(generic) }
        // Generation stops at the first probe the set has no room for: the rest of a large
        // file's patterns would only be instantiated to be dropped.
        documents: for document in documents {
            guard let links = document.appLinks else { continue }
            let variables = links.substitutionValues
            for detail in links.details {
                addProbes(for: detail, variables: variables, to: &set)
                if set.truncated { break documents }
            }
        }
        return ProbeSet(urls: set.items, patternCount: patternCount, truncated: set.truncated)
    }

    /// The generic probes and each path pattern of `detail` instantiated (no near misses, no
    /// query or fragment): the cheap first try of ``DocumentEffect``, where an entry's own
    /// patterns usually open its apps.
    func instances(for detail: AppLinksDetail, variables: [String: [String]]) -> [String] {
        var set = OrderedStrings(limit: .max)
        for generic in ["/", "/x", "/?q=1", "/#frag"] { set.insert(generic) }
        for element in detail.paths ?? [] {
            let source = element.value.hasPrefix("NOT ") ? String(element.value.dropFirst(4)) : element.value
            for base in pathInstances(CompiledPattern.wildcardTokens(source), variables: [:]) { set.insert(base) }
        }
        for rule in detail.components ?? [] {
            guard let path = rule.pathPattern else { continue }
            for base in pathInstances(tokens(path.value), variables: variables) { set.insert(base) }
        }
        return set.items
    }

    /// The probe URLs of one entry's own patterns, after the generic ones (`/`, `/x`, `/?q=1`,
    /// `/#frag`), at most `limit`: what ``DocumentEffect`` tries on that entry, so that its work
    /// grows with the entry's size rather than the whole file's.
    func probes(for detail: AppLinksDetail, variables: [String: [String]], limit: Int) -> [String] {
        var set = OrderedStrings(limit: max(4, limit))
        for generic in ["/", "/x", "/?q=1", "/#frag"] { set.insert(generic) }
        addProbes(for: detail, variables: variables, to: &set)
        return set.items
    }

    /// Adds the probes of every pattern of `detail` to `set`, stopping once it is full.
    private func addProbes(for detail: AppLinksDetail, variables: [String: [String]], to set: inout OrderedStrings) {
        for element in detail.paths ?? [] {
            if set.truncated { return }
            let source = element.value.hasPrefix("NOT ") ? String(element.value.dropFirst(4)) : element.value
            let bases = pathInstances(CompiledPattern.wildcardTokens(source), variables: [:])
            addPathProbes(bases, to: &set)
        }
        for rule in detail.components ?? [] {
            if set.truncated { return }
            var bases = ["/", "/x"]
            if let path = rule.pathPattern {
                bases = pathInstances(tokens(path.value), variables: variables)
                addPathProbes(bases, to: &set)
            }
            var queries: [String] = []
            switch rule.query {
            case nil: break
            case .string(let pattern)?:
                queries = stringQueryVariants(pattern.value, variables: variables)
            case .items(let pairs)?:
                queries = itemQueryVariants(pairs.map { ($0.name, $0.value?.value ?? "") }, variables: variables)
            }
            var fragments: [String] = []
            if let fragment = rule.fragment {
                fragments = fragmentVariants(fragment.value, variables: variables)
            }
            guard !queries.isEmpty || !fragments.isEmpty else { continue }
            if queries.isEmpty { queries = [""] }
            if fragments.isEmpty { fragments = [""] }
            var added = 0
            combining: for base in bases {
                for query in queries {
                    for fragment in fragments {
                        set.insert(base + query + fragment)
                        added += 1
                        if added >= Self.maximumPerRule { break combining }
                    }
                }
            }
        }
    }

    /// The patterns of `documents`: each legacy path, and each component's path, query (or
    /// query item) and fragment.
    public static func patternCount(of documents: [AASADocument]) -> Int {
        var count = 0
        for document in documents {
            for detail in document.appLinks?.details ?? [] { count += patternCount(of: detail) }
        }
        return count
    }

    /// The patterns of one entry: each legacy path, and each component's path, query (or query
    /// item) and fragment.
    static func patternCount(of detail: AppLinksDetail) -> Int {
        var count = detail.paths?.count ?? 0
        for rule in detail.components ?? [] {
            if rule.pathPattern != nil { count += 1 }
            switch rule.query {
            case nil: break
            case .string?: count += 1
            case .items(let pairs)?: count += pairs.count
            }
            if rule.fragment != nil { count += 1 }
        }
        return count
    }

    /// Combinations of one rule's path, query and fragment variants kept at most.
    static let maximumPerRule = 600

    // MARK: Instantiation

    private func tokens(_ pattern: String) -> [PatternToken] {
        (try? PatternSyntax.tokens(pattern)) ?? CompiledPattern.wildcardTokens(pattern)
    }

    /// The strings a token is tried as.
    private func choices(_ token: PatternToken, variables: [String: [String]]) -> [String] {
        switch token {
        case .literal(let text): return [text]
        case .anyString: return ["", "x", "abc/def"]
        case .anyCharacter: return ["a"]
        case .variable(let name):
            if let values = variables[name] {
                let picked = values.prefix(3).map(Self.wildcardInstance)
                return picked.isEmpty ? ["$(\(name))"] : picked
            }
            switch BuiltinVariable(rawValue: name) {
            case .alpha?, .lower?, .alnum?: return ["a"]
            case .upper?: return ["A"]
            case .digit?: return ["0"]
            case .xdigit?: return ["f"]
            case .region?: return ["US"]
            case .lang?: return ["en"]
            case nil: return ["$(\(name))"]
            }
        }
    }

    /// A variable value with its own wildcards filled in (`*` as "x", `?` as "a").
    private static func wildcardInstance(_ value: String) -> String {
        CompiledPattern.wildcardTokens(value).map { token -> String in
            switch token {
            case .literal(let text): return text
            case .anyString: return "x"
            case .anyCharacter: return "a"
            case .variable(let name): return "$(\(name))"
            }
        }.joined()
    }

    /// Instances of a token list: every choice point at its first, second and third choice
    /// together, then each of the first four points at each other choice alone.
    private func instances(_ tokens: [PatternToken], variables: [String: [String]]) -> [String] {
        let options = tokens.map { choices($0, variables: variables) }
        let points = options.indices.filter { options[$0].count > 1 }
        var results = OrderedStrings(limit: 64)
        let widest = options.map(\.count).max() ?? 1
        for choice in 0..<max(1, widest) {
            results.insert(options.map { $0[min(choice, $0.count - 1)] }.joined())
        }
        for point in points.prefix(4) {
            for alternative in 1..<options[point].count {
                var picked = options.map { $0[0] }
                picked[point] = options[point][alternative]
                results.insert(picked.joined())
            }
        }
        return results.items
    }

    private func pathInstances(_ tokens: [PatternToken], variables: [String: [String]]) -> [String] {
        instances(tokens, variables: variables).map { $0.hasPrefix("/") ? $0 : "/" + $0 }
    }

    // MARK: Near misses

    private func addPathProbes(_ bases: [String], to set: inout OrderedStrings) {
        for base in bases {
            for path in Self.nearMisses(ofPath: base) {
                for suffix in ["", "?q=1", "#frag", "?q=1#frag"] { set.insert(path + suffix) }
            }
        }
    }

    /// `path` and the paths one edit away from it.
    static func nearMisses(ofPath path: String) -> [String] {
        var results = OrderedStrings(limit: 32)
        results.insert(path)
        if path.count > 1 { results.insert(String(path.dropLast())) }
        results.insert(path + "x")
        results.insert("/x" + path.dropFirst())
        results.insert(path.uppercased())
        results.insert(path.lowercased())
        if let toggled = toggledFirstLetter(path) { results.insert(toggled) }
        if path.hasSuffix("/") {
            if path.count > 1 { results.insert(String(path.dropLast())) }
        } else {
            results.insert(path + "/")
        }
        if let encoded = encodingFirstLetter(path) { results.insert(encoded) }
        if let decoded = decodingFirstEscape(path) { results.insert(decoded) }
        return results.items
    }

    /// `text` and the texts one edit away from it (for query and fragment patterns).
    private static func nearMisses(ofText text: String) -> [String] {
        var results = OrderedStrings(limit: 16)
        results.insert(text)
        if !text.isEmpty { results.insert(String(text.dropLast())) }
        results.insert(text + "x")
        results.insert(text.uppercased())
        if let toggled = toggledFirstLetter(text) { results.insert(toggled) }
        if let encoded = encodingFirstLetter(text) { results.insert(encoded) }
        return results.items
    }

    private static func toggledFirstLetter(_ text: String) -> String? {
        guard let index = text.firstIndex(where: { $0.isASCII && $0.isLetter }) else { return nil }
        let character = text[index]
        let toggled = character.isUppercase ? character.lowercased() : character.uppercased()
        var copy = text
        copy.replaceSubrange(index...index, with: toggled)
        return copy
    }

    /// The first ASCII letter written as `%XX`.
    private static func encodingFirstLetter(_ text: String) -> String? {
        guard let index = text.firstIndex(where: { $0.isASCII && $0.isLetter }), let ascii = text[index].asciiValue
        else {
            return nil
        }
        let hex = String(ascii, radix: 16, uppercase: true)
        var copy = text
        copy.replaceSubrange(index...index, with: "%" + hex)
        return copy
    }

    /// The first `%XX` escape of a printable ASCII character decoded.
    private static func decodingFirstEscape(_ text: String) -> String? {
        let characters = Array(text)
        for index in characters.indices where characters[index] == "%" && index + 2 < characters.count {
            guard let value = UInt8(String(characters[(index + 1)...(index + 2)]), radix: 16),
                value > 0x20, value < 0x7F, value != UInt8(ascii: "%")
            else { continue }
            var copy = characters
            copy.replaceSubrange(index...(index + 2), with: [Character(Unicode.Scalar(value))])
            return String(copy)
        }
        return nil
    }

    // MARK: Queries and fragments

    private func stringQueryVariants(_ pattern: String, variables: [String: [String]]) -> [String] {
        var results = OrderedStrings(limit: 64)
        for instance in instances(tokens(pattern), variables: variables) {
            for text in Self.nearMisses(ofText: instance) { results.insert("?" + text) }
        }
        results.insert("")
        results.insert("?")
        return results.items
    }

    private func itemQueryVariants(_ pairs: [(name: String, value: String)], variables: [String: [String]]) -> [String]
    {
        // A repeated name: the last one counts.
        var items: [(name: String, values: [String])] = []
        for pair in pairs {
            items.removeAll { $0.name == pair.name }
            items.append((pair.name, instances(tokens(pair.value), variables: variables)))
        }
        func query(_ parts: [String]) -> String {
            let kept = parts.filter { !$0.isEmpty }
            return kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
        }
        let base = items.map { "\($0.name)=\($0.values[0])" }
        var results = OrderedStrings(limit: 128)
        results.insert(query(base))
        let widest = items.map(\.values.count).max() ?? 1
        for choice in 1..<max(1, widest) {
            results.insert(query(items.map { "\($0.name)=\($0.values[min(choice, $0.values.count - 1)])" }))
        }
        for (index, item) in items.enumerated() {
            func replacing(_ part: String) -> String {
                var parts = base
                parts[index] = part
                return query(parts)
            }
            results.insert(replacing(""))
            results.insert(replacing("\(item.name)="))
            results.insert(replacing(item.name))
            results.insert(replacing("\(item.name.uppercased())=\(item.values[0])"))
            for value in Self.nearMisses(ofText: item.values[0]).dropFirst() {
                results.insert(replacing("\(item.name)=\(value)"))
            }
            results.insert(query(base + ["\(item.name)=other"]))
        }
        results.insert(query(base + ["zz=1"]))
        results.insert("")
        return results.items
    }

    private func fragmentVariants(_ pattern: String, variables: [String: [String]]) -> [String] {
        var results = OrderedStrings(limit: 64)
        for instance in instances(tokens(pattern), variables: variables) {
            for text in Self.nearMisses(ofText: instance) { results.insert("#" + text) }
        }
        results.insert("")
        results.insert("#")
        return results.items
    }
}

/// The probes of ``ProbeURLGenerator/probes(for:)``.
public struct ProbeSet: Sendable, Hashable {
    /// The URLs, without repeats.
    public var urls: [String]
    /// How many patterns (path, query, query item, fragment, legacy path) they were derived from.
    public var patternCount: Int
    /// Whether ``ProbeURLGenerator/maximumCount`` or the comparison budget cut the set short.
    public var truncated: Bool
}

/// Strings in insertion order, without repeats, up to a limit.
struct OrderedStrings {
    let limit: Int
    private(set) var items: [String] = []
    private var seen = Set<String>()
    private(set) var truncated = false

    init(limit: Int) {
        self.limit = limit
    }

    mutating func insert(_ item: String) {
        guard !seen.contains(item) else { return }
        guard items.count < limit else {
            truncated = true
            return
        }
        seen.insert(item)
        items.append(item)
    }
}
