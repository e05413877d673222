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
                kind: .glob, start: Int32(start), count: Int32(glob.units.count),
                minimumLength: Int32(glob.minimumLength))
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

    private mutating func add(_ rule: ComponentRule, defaults: MatchingDefaults, variables: [String: [String]])
        -> RuleInfo
    {
        let settings = rule.settings.inheriting(from: defaults)
        let caseSensitive = settings.caseSensitive ?? true
        func compile(_ pattern: String, _ kind: PatternKind) -> Int32 {
            add(CompiledPattern.compile(pattern, kind: kind, caseSensitive: caseSensitive, variables: variables))
        }
        var record = RuleRecord(
            mode: UInt8(MatchMode.of(settings)), exclude: rule.exclude, queryKind: .any,
            path: rule.pathPattern.map { compile($0.value, .path) } ?? -1, query: -1,
            fragment: rule.fragment.map { compile($0.value, .other) } ?? -1, itemsStart: Int32(items.count),
            itemsCount: 0)
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
