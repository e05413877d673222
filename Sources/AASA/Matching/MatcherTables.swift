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
    func itemMatches(_ item: ItemRecord, mode: Int, _ view: inout URLView) -> (matched: Bool, failedValue: Range<Int>?)
    {
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

/// An entry's decision: the verdict and the index (in the entry) of the deciding rule or path.
struct Outcome {
    var verdict: AppVerdict.Verdict
    var rule: Int?
}
