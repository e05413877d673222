/// Decides, for a URL, what each `applinks` app of an AASA file does with it, the way iOS
/// does (see docs/matching.md).
///
/// Every pattern is compiled once, at init, into flat tables without references (see
/// ``MatcherTables``), so evaluating a URL does no reference counting per rule: the URL is
/// split once, and nothing is allocated per rule unless the rule asks for case-insensitive
/// or percent-decoded matching and the URL has something to fold or decode.
///
/// ```swift
/// let matcher = URLMatcher(document: try AASADocument(json: data))
/// let result = matcher.evaluate("https://example.com/help/faq?x=1", explain: true)
/// result.appID   // the app that opens it, if any
/// ```
public struct URLMatcher: Sendable {
    /// Every applinks app, in document order of first appearance.
    public let appIDs: [String]
    /// For each app, the index of the first entry naming it (in `tables.entries` and `entryInfo`).
    let appEntries: [Int]
    let tables: MatcherTables
    /// What explanations need: JSON paths, patterns as written.
    let entryInfo: [EntryInfo]
    /// Every compiled pattern, by the index the tables use.
    let patterns: [CompiledPattern]

    /// Compiles every pattern of `document.appLinks`.
    public init(document: AASADocument) {
        var builder = TableBuilder()
        var apps: [String] = []
        var appEntries: [Int] = []
        var entryInfo: [EntryInfo] = []
        if let links = document.appLinks {
            var variables: [String: [String]] = [:]
            for variable in links.substitutionVariables { variables[variable.name] = variable.values.map(\.value) }
            var seen = Set<String>()
            for detail in links.details {
                let newApps = detail.effectiveAppIDs.map(\.value).filter { seen.insert($0).inserted }
                guard !newApps.isEmpty else { continue }  // decides for no app
                entryInfo.append(builder.add(detail, outer: links.defaults, variables: variables))
                for app in newApps {
                    apps.append(app)
                    appEntries.append(entryInfo.count - 1)
                }
            }
        }
        self.appIDs = apps
        self.appEntries = appEntries
        self.entryInfo = entryInfo
        self.patterns = builder.compiled
        self.tables = MatcherTables(builder)
    }

    /// What each app does with `url` (an absolute URL or a path starting with `/`).
    public func evaluate(_ url: String, explain: Bool = false) -> URLMatchResult {
        var text = url
        let result: URLMatchResult? = text.withUTF8 { bytes in
            switch URLLayout.scan(bytes) {
            case .failure(let error): return URLMatchResult(url: url, error: error.message)
            case .needsEncoding: return nil
            case .success(let layout): return evaluate(url, bytes: bytes, layout: layout, explain: explain)
            }
        }
        if let result { return result }
        var encoded = URLLayout.encodingInvalidCharacters(url)
        return encoded.withUTF8 { bytes in
            guard case .success(let layout) = URLLayout.scan(bytes) else {
                return URLMatchResult(url: url, error: "cannot percent-encode the URL")
            }
            return evaluate(url, bytes: bytes, layout: layout, explain: explain)
        }
    }

    /// Each app's verdict for `url`, in ``appIDs`` order, written into `verdicts` (emptied
    /// first, its capacity kept): what ``evaluate(_:explain:)`` decides, without building a
    /// ``URLMatchResult``, for streaming millions of URLs. Returns why the URL cannot be read,
    /// or nil.
    public func verdicts(for url: String, into verdicts: inout [AppVerdict.Verdict]) -> String? {
        verdicts.removeAll(keepingCapacity: true)
        var text = url
        // .some(error or nil) once decided; nil when the URL needs percent-encoding first.
        let decided: String?? = text.withUTF8 { bytes in
            switch URLLayout.scan(bytes) {
            case .failure(let error): return .some(error.message)
            case .needsEncoding: return nil
            case .success(let layout):
                decide(bytes: bytes, layout: layout, into: &verdicts)
                return .some(nil)
            }
        }
        if let decided { return decided }
        var encoded = URLLayout.encodingInvalidCharacters(url)
        return encoded.withUTF8 { bytes in
            guard case .success(let layout) = URLLayout.scan(bytes) else { return "cannot percent-encode the URL" }
            decide(bytes: bytes, layout: layout, into: &verdicts)
            return nil
        }
    }

    private func decide(bytes: UnsafeBufferPointer<UInt8>, layout: URLLayout, into verdicts: inout [AppVerdict.Verdict]) {
        var view = URLView(bytes: bytes, layout: layout)
        defer { view.deallocate() }
        var lastEntry = -1
        var verdict = AppVerdict.Verdict.noMatch
        for index in appIDs.indices {
            let entry = appEntries[index]
            if entry != lastEntry {
                // Apps come in entry order, so each deciding entry is evaluated once.
                lastEntry = entry
                verdict = tables.decide(entry, &view).verdict
            }
            verdicts.append(verdict)
        }
    }

    private func evaluate(
        _ url: String, bytes: UnsafeBufferPointer<UInt8>, layout: URLLayout, explain: Bool
    ) -> URLMatchResult {
        var view = URLView(bytes: bytes, layout: layout)
        defer { view.deallocate() }
        var verdicts: [AppVerdict] = []
        verdicts.reserveCapacity(appIDs.count)
        var firstMatch: String?
        var anyExcluded = false
        var lastEntry = -1
        var outcome = Outcome(verdict: .noMatch, rule: nil)
        var explanation: MatchExplanation?
        for index in appIDs.indices {
            let entry = appEntries[index]
            if entry != lastEntry {
                // Apps come in entry order, so each deciding entry is evaluated once.
                lastEntry = entry
                outcome = tables.decide(entry, &view)
                if explain { explanation = self.explanation(entry, outcome, &view) }
            }
            let app = appIDs[index]
            verdicts.append(AppVerdict(appID: app, verdict: outcome.verdict, explanation: explanation))
            switch outcome.verdict {
            case .match: if firstMatch == nil { firstMatch = app }
            case .exclude: anyExcluded = true
            case .noMatch: break
            }
        }
        return URLMatchResult(
            url: url, appID: firstMatch, excluded: firstMatch == nil && anyExcluded, apps: verdicts, error: nil)
    }
}

/// An entry's decision: the verdict and the index (in the entry) of the deciding rule or path.
struct Outcome {
    var verdict: AppVerdict.Verdict
    var rule: Int?
}

/// How a rule reads the URL: bit 0 percent-decodes, bit 1 lower-cases.
enum MatchMode {
    static let raw = 0
    static let decode = 1
    static let lowercase = 2

    static func of(_ settings: MatchingDefaults) -> Int {
        ((settings.percentEncoded ?? true) ? 0 : decode) | ((settings.caseSensitive ?? true) ? 0 : lowercase)
    }
}

// MARK: - Flat tables

/// A compiled program, by reference into the tables.
struct ProgramRef {
    enum Kind: UInt8 {
        case absent, never, glob, nfa
    }

    var kind: Kind
    /// glob: the units' range in `units`; nfa: the index in `nfas`.
    var start: Int32
    var count: Int32
    /// glob: the fewest input bytes that can match.
    var minimumLength: Int32
    /// glob: up to 8 leading literal bytes (little-endian) and their mask, to reject most
    /// inputs with one comparison.
    var prefix: UInt64 = 0
    var prefixMask: UInt64 = 0
    var prefixLength: Int32 = 0

    static let absent = ProgramRef(kind: .absent, start: 0, count: 0, minimumLength: 0)
}

/// A pattern: its program, and for a path pattern ending in `/*` the parent's.
struct PatternRef {
    var main: ProgramRef
    var parent: ProgramRef
}

struct RuleRecord {
    enum QueryKind: UInt8 { case any, whole, items }

    var mode: UInt8
    var exclude: Bool
    var queryKind: QueryKind
    /// Pattern indices; -1 when the component is not specified.
    var path: Int32
    var query: Int32
    var fragment: Int32
    /// The `?` dictionary's items in `items`.
    var itemsStart: Int32
    var itemsCount: Int32
}

struct ItemRecord {
    /// The name's bytes in `keys` (lower-cased for a case-insensitive rule).
    var keyStart: Int32
    var keyCount: Int32
    var pattern: Int32
    /// Whether a missing item passes (its pattern matches "").
    var matchesEmpty: Bool
}

struct PathRecord {
    var isNot: Bool
    var pattern: Int32
}

struct EntryRecord {
    enum Kind: UInt8 { case none, components, paths }

    var kind: Kind
    /// The rules' range in `rules`, or the paths' range in `paths`.
    var start: Int32
    var count: Int32
}

/// Collects the tables while compiling.
struct TableBuilder {
    var units: [UInt16] = []
    var keys: [UInt8] = []
    var nfas: [NFAProgram] = []
    var patterns: [PatternRef] = []
    var compiled: [CompiledPattern] = []
    var rules: [RuleRecord] = []
    var items: [ItemRecord] = []
    var paths: [PathRecord] = []
    var entries: [EntryRecord] = []

    mutating func program(_ program: Program?) -> ProgramRef {
        switch program {
        case nil: return .absent
        case .never?: return ProgramRef(kind: .never, start: 0, count: 0, minimumLength: 0)
        case .glob(let glob)?:
            let start = units.count
            units.append(contentsOf: glob.units)
            var ref = ProgramRef(
                kind: .glob, start: Int32(start), count: Int32(glob.units.count), minimumLength: Int32(glob.minimumLength))
            for unit in glob.units.prefix(8) {
                guard Unit.isByte(unit) else { break }
                ref.prefix |= UInt64(unit) << UInt64(8 * ref.prefixLength)
                ref.prefixLength += 1
            }
            ref.prefixMask = ref.prefixLength == 8 ? ~0 : (1 << UInt64(8 * ref.prefixLength)) - 1
            return ref
        case .nfa(let nfa)?:
            nfas.append(nfa)
            return ProgramRef(kind: .nfa, start: Int32(nfas.count - 1), count: 0, minimumLength: 0)
        }
    }

    mutating func add(_ pattern: CompiledPattern) -> Int32 {
        patterns.append(PatternRef(main: program(pattern.main), parent: program(pattern.parent)))
        compiled.append(pattern)
        return Int32(patterns.count - 1)
    }

    mutating func add(_ detail: AppLinksDetail, outer: MatchingDefaults, variables: [String: [String]]) -> EntryInfo {
        let defaults = detail.defaults.inheriting(from: outer)
        if let components = detail.components {
            let start = rules.count
            let ruleInfo = components.map { add($0, defaults: defaults, variables: variables) }
            entries.append(EntryRecord(kind: .components, start: Int32(start), count: Int32(components.count)))
            return EntryInfo(path: detail.path, rules: ruleInfo, paths: [])
        }
        if let elements = detail.paths {
            let start = paths.count
            var pathInfo: [PathInfo] = []
            for element in elements {
                let isNot = element.value.hasPrefix("NOT ")
                let pattern = CompiledPattern.compile(
                    isNot ? String(element.value.dropFirst(4)) : element.value, kind: .legacyPath, caseSensitive: true,
                    variables: [:])
                paths.append(PathRecord(isNot: isNot, pattern: add(pattern)))
                pathInfo.append(PathInfo(path: element.path, source: element.value))
            }
            entries.append(EntryRecord(kind: .paths, start: Int32(start), count: Int32(elements.count)))
            return EntryInfo(path: detail.path, rules: [], paths: pathInfo)
        }
        entries.append(EntryRecord(kind: .none, start: 0, count: 0))
        return EntryInfo(path: detail.path, rules: [], paths: [])
    }

    private mutating func add(_ rule: ComponentRule, defaults: MatchingDefaults, variables: [String: [String]]) -> RuleInfo {
        let settings = rule.settings.inheriting(from: defaults)
        let caseSensitive = settings.caseSensitive ?? true
        func compile(_ pattern: String, _ kind: PatternKind) -> Int32 {
            add(CompiledPattern.compile(pattern, kind: kind, caseSensitive: caseSensitive, variables: variables))
        }
        var record = RuleRecord(
            mode: UInt8(MatchMode.of(settings)), exclude: rule.exclude, queryKind: .any,
            path: rule.pathPattern.map { compile($0.value, .path) } ?? -1, query: -1,
            fragment: rule.fragment.map { compile($0.value, .other) } ?? -1, itemsStart: Int32(items.count), itemsCount: 0)
        var itemNames: [String] = []
        switch rule.query {
        case nil: break
        case .string(let pattern)?:
            record.queryKind = .whole
            record.query = compile(pattern.value, .other)
        case .items(let pairs)?:
            // A value that is not a string: iOS ignores the whole dictionary.
            guard pairs.allSatisfy({ $0.value != nil }) else { break }
            record.queryKind = .items
            // A name given twice (duplicate JSON keys): the last one counts, as in NSDictionary.
            var kept: [(name: String, value: String)] = []
            for pair in pairs {
                kept.removeAll { $0.name == pair.name }
                kept.append((pair.name, pair.value!.value))
            }
            for (name, value) in kept {
                let key = Array((caseSensitive ? name : name.lowercased()).utf8)
                let pattern = compile(value, .other)
                items.append(
                    ItemRecord(
                        keyStart: Int32(keys.count), keyCount: Int32(key.count), pattern: pattern,
                        matchesEmpty: compiled[Int(pattern)].matchesEmpty()))
                keys.append(contentsOf: key)
                itemNames.append(name)
            }
            record.itemsCount = Int32(kept.count)
        }
        rules.append(record)
        return RuleInfo(path: rule.path, itemNames: itemNames)
    }
}

/// The compiled document as flat, reference-free tables, allocated once and never changed.
final class MatcherTables: @unchecked Sendable {
    let units: UnsafeMutableBufferPointer<UInt16>
    let keys: UnsafeMutableBufferPointer<UInt8>
    let patterns: UnsafeMutableBufferPointer<PatternRef>
    let rules: UnsafeMutableBufferPointer<RuleRecord>
    let items: UnsafeMutableBufferPointer<ItemRecord>
    let paths: UnsafeMutableBufferPointer<PathRecord>
    let entries: UnsafeMutableBufferPointer<EntryRecord>
    /// Flat copies, like the other tables: a match reads the program in place instead of
    /// copying it (and retaining its three arrays) on every call.
    let nfas: UnsafeMutableBufferPointer<NFAProgram.Flat>

    init(_ builder: TableBuilder) {
        units = .copying(builder.units)
        keys = .copying(builder.keys)
        patterns = .copying(builder.patterns)
        rules = .copying(builder.rules)
        items = .copying(builder.items)
        paths = .copying(builder.paths)
        entries = .copying(builder.entries)
        nfas = .copying(builder.nfas.map(NFAProgram.Flat.init))
    }

    deinit {
        units.deallocate()
        keys.deallocate()
        patterns.deallocate()
        rules.deallocate()
        items.deallocate()
        paths.deallocate()
        entries.deallocate()
        for nfa in nfas { nfa.deallocate() }
        nfas.deallocate()
    }

    @inline(__always)
    func run(_ program: ProgramRef, _ input: UnsafeBufferPointer<UInt8>) -> Bool {
        switch program.kind {
        case .glob:
            if input.count < Int(program.minimumLength) { return false }
            if program.prefixLength > 0 {
                // minimumLength >= prefixLength, so the bytes are there.
                var word: UInt64 = 0
                if input.count >= 8 {
                    word = UInt64(littleEndian: UnsafeRawPointer(input.baseAddress!).loadUnaligned(as: UInt64.self))
                } else {
                    for index in 0..<Int(program.prefixLength) { word |= UInt64(input[index]) << UInt64(8 * index) }
                }
                if word & program.prefixMask != program.prefix { return false }
            }
            let start = Int(program.start)
            return GlobProgram.run(
                UnsafeBufferPointer(rebasing: units[start..<start + Int(program.count)]), input)
        case .nfa:
            return nfas[Int(program.start)].matches(input)
        case .absent, .never:
            return false
        }
    }

    /// Whether pattern `index` matches the whole of `input`.
    @inline(__always)
    func matches(_ index: Int32, _ input: UnsafeBufferPointer<UInt8>) -> Bool {
        let pattern = patterns[Int(index)]
        return run(pattern.main, input) || run(pattern.parent, input)
    }

    func decide(_ entryIndex: Int, _ view: inout URLView) -> Outcome {
        let entry = entries[entryIndex]
        let start = Int(entry.start)
        switch entry.kind {
        case .none:
            break
        case .components:
            for index in 0..<Int(entry.count) where ruleMatches(rules[start + index], &view) {
                return Outcome(verdict: rules[start + index].exclude ? .exclude : .match, rule: index)
            }
        case .paths:
            let path = view.components(MatchMode.raw).path
            for index in 0..<Int(entry.count) where matches(paths[start + index].pattern, path) {
                return Outcome(verdict: paths[start + index].isNot ? .exclude : .match, rule: index)
            }
        }
        return Outcome(verdict: .noMatch, rule: nil)
    }

    @inline(__always)
    func ruleMatches(_ rule: RuleRecord, _ view: inout URLView) -> Bool {
        let components = view.components(Int(rule.mode))
        if rule.path >= 0, !matches(rule.path, components.path) { return false }
        switch rule.queryKind {
        case .any: break
        case .whole: if !matches(rule.query, components.query) { return false }
        case .items:
            let start = Int(rule.itemsStart)
            for index in start..<start + Int(rule.itemsCount)
            where !itemMatches(items[index], mode: Int(rule.mode), &view).matched {
                return false
            }
        }
        if rule.fragment >= 0, !matches(rule.fragment, components.fragment) { return false }
        return true
    }

    /// Whether every occurrence of the item matches (a missing item counts as ""); for a
    /// failure, the raw range of the first occurrence that failed (nil when the item is absent).
    func itemMatches(_ item: ItemRecord, mode: Int, _ view: inout URLView) -> (matched: Bool, failedValue: Range<Int>?) {
        let key = UnsafeBufferPointer(rebasing: keys[Int(item.keyStart)..<Int(item.keyStart + item.keyCount)])
        var found = false
        var failed: Range<Int>?
        view.forEachQueryItem { view, name, value in
            guard view.transform(name, mode: mode).elementsEqual(key) else { return true }
            found = true
            if !matches(item.pattern, view.transform(value, mode: mode)) {
                failed = value
                return false
            }
            return true
        }
        if let failed { return (false, failed) }
        return (found || item.matchesEmpty, nil)
    }
}

// MARK: - The URL, as each mode reads it

struct ComponentSet {
    /// Trailing `/` removed.
    var path: UnsafeBufferPointer<UInt8>
    /// Empty when absent.
    var query: UnsafeBufferPointer<UInt8>
    /// Empty when absent.
    var fragment: UnsafeBufferPointer<UInt8>
}

/// One URL during one evaluation: the components per mode, made when first needed. Bytes
/// that had to be decoded or folded live until ``deallocate()``.
struct URLView {
    let bytes: UnsafeBufferPointer<UInt8>
    let layout: URLLayout
    private var sets: (ComponentSet?, ComponentSet?, ComponentSet?, ComponentSet?) = (nil, nil, nil, nil)
    private var allocations: [UnsafeMutableBufferPointer<UInt8>] = []

    init(bytes: UnsafeBufferPointer<UInt8>, layout: URLLayout) {
        self.bytes = bytes
        self.layout = layout
    }

    mutating func deallocate() {
        for allocation in allocations { allocation.deallocate() }
        allocations = []
    }

    @inline(__always)
    mutating func components(_ mode: Int) -> ComponentSet {
        switch mode {
        case 0:
            if let set = sets.0 { return set }
            let set = make(0)
            sets.0 = set
            return set
        case 1:
            if let set = sets.1 { return set }
            let set = make(1)
            sets.1 = set
            return set
        case 2:
            if let set = sets.2 { return set }
            let set = make(2)
            sets.2 = set
            return set
        default:
            if let set = sets.3 { return set }
            let set = make(3)
            sets.3 = set
            return set
        }
    }

    private mutating func make(_ mode: Int) -> ComponentSet {
        var path = transform(layout.path, mode: mode)
        while let last = path.last, last == UInt8(ascii: "/") { path = UnsafeBufferPointer(rebasing: path.dropLast()) }
        let empty = UnsafeBufferPointer(rebasing: bytes[0..<0])
        return ComponentSet(
            path: path,
            query: layout.query.map { transform($0, mode: mode) } ?? empty,
            fragment: layout.fragment.map { transform($0, mode: mode) } ?? empty)
    }

    /// The bytes of `range` as `mode` reads them (the URL's own bytes when nothing changes).
    mutating func transform(_ range: Range<Int>, mode: Int) -> UnsafeBufferPointer<UInt8> {
        let raw = UnsafeBufferPointer(rebasing: bytes[range])
        if mode == MatchMode.raw { return raw }
        let decode = mode & MatchMode.decode != 0
        let lowercase = mode & MatchMode.lowercase != 0
        var needsDecoding = false, needsFolding = false
        for byte in raw {
            if decode && byte == UInt8(ascii: "%") { needsDecoding = true }
            if lowercase && (byte >= 0x80 || (byte >= 0x41 && byte <= 0x5A)) { needsFolding = true }
        }
        if !needsDecoding && !needsFolding { return raw }
        var owned = Array(raw)
        if needsDecoding {
            let decoded = percentDecoded(owned)
            // Bytes that are not UTF-8 once decoded: matched as written.
            if String(validating: decoded, as: UTF8.self) != nil { owned = decoded }
        }
        if lowercase {
            if owned.allSatisfy({ $0 < 0x80 }) {
                for index in owned.indices where owned[index] >= 0x41 && owned[index] <= 0x5A { owned[index] |= 0x20 }
            } else {
                owned = Array(String(decoding: owned, as: UTF8.self).lowercased().utf8)
            }
        }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: owned.count)
        _ = buffer.initialize(from: owned)
        allocations.append(buffer)
        return UnsafeBufferPointer(buffer)
    }

    /// Calls `body` with the name and value ranges of each non-empty query item (an item
    /// without `=` has an empty value range); stops when `body` returns false.
    mutating func forEachQueryItem(_ body: (inout URLView, Range<Int>, Range<Int>) -> Bool) {
        guard let query = layout.query else { return }
        var start = query.lowerBound
        while start <= query.upperBound {
            var end = start
            var equals = -1
            while end < query.upperBound, bytes[end] != UInt8(ascii: "&") {
                if equals < 0 && bytes[end] == UInt8(ascii: "=") { equals = end }
                end += 1
            }
            if end > start {
                let name = start..<(equals >= 0 ? equals : end)
                let value = equals >= 0 ? (equals + 1)..<end : end..<end
                if !body(&self, name, value) { return }
            }
            start = end + 1
        }
    }

    /// `range` as a person reads it: percent-decoded when the mode decodes, never case-folded.
    mutating func display(_ range: Range<Int>, mode: Int) -> String {
        String(decoding: transform(range, mode: mode & MatchMode.decode), as: UTF8.self)
    }
}

/// `%XX` sequences replaced by their bytes (the URL scan already checked every escape).
func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
    func value(_ digit: UInt8) -> UInt8 {
        switch digit {
        case 0x30...0x39: return digit - 0x30
        case 0x41...0x46: return digit - 0x41 + 10
        case 0x61...0x66: return digit - 0x61 + 10
        default: return 0
        }
    }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
            URLLayout.isHexDigit(bytes[index + 1]), URLLayout.isHexDigit(bytes[index + 2])
        {
            result.append(value(bytes[index + 1]) << 4 | value(bytes[index + 2]))
            index += 3
        } else {
            result.append(bytes[index])
            index += 1
        }
    }
    return result
}

// MARK: - Explanations

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
            return MatchExplanation(entry: entry, summary: "\(naming) has neither components nor paths, so it matches no URL.")
        case .components:
            if record.count == 0 {
                return MatchExplanation(entry: entry, summary: "\(naming) has an empty components array, which matches no URL.")
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
                summary: "No rule in \(naming) matches; the closest, \(path), fails on \"\(failed.component)\": \(reason).",
                failedComponent: failed.component, value: failed.value, pattern: failed.pattern.source)
        case .paths:
            if record.count == 0 {
                return MatchExplanation(entry: entry, summary: "\(naming) has an empty paths array, which matches no URL.")
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
            let check = Check(component: "/", passed: false, value: value, pattern: patterns[Int(records[closest].pattern)])
            let path = info.paths[closest].path
            return MatchExplanation(
                entry: entry, rule: path.description,
                summary: "No path in \(naming) matches; the closest, \(path), fails on \"/\": \(URLMatcher.reason(check)).",
                failedComponent: "/", value: value, pattern: info.paths[closest].source)
        }
    }

    static func reason(_ check: Check) -> String {
        if let problem = check.pattern.problem { return problem }
        guard let value = check.value else {
            let what = check.component == "?" ? "query" : check.component == "#" ? "fragment" : "item"
            return "the URL has no such \(what), which counts as \"\" and does not match \(quotedInFull(check.pattern.source))"
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
                        value: result.failedValue.map { view.display($0, mode: mode) }, pattern: patterns[Int(item.pattern)]))
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
