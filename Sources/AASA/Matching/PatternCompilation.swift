// Compilation: a pattern as written, its variables resolved, into a glob or an NFA program.

extension CompiledPattern {
    /// A piece of a resolved pattern: a run of units, or a choice between alternatives.
    enum Piece {
        case units([UInt16])
        case choice([[UInt16]])
    }

    /// Compiles `source`.
    /// - Parameters:
    ///   - variables: the custom substitution variables (name → values as written).
    ///   - caseSensitive: when false, literals and values are lower-cased (the URL will be too).
    static func compile(
        _ source: String, kind: PatternKind, caseSensitive: Bool, variables: [String: [String]]
    ) -> CompiledPattern {
        var tokens: [PatternToken]
        if kind == .legacyPath {
            tokens = wildcardTokens(source)
        } else {
            do {
                tokens = try PatternSyntax.tokens(source)
            } catch {
                return CompiledPattern(
                    source: source, main: .never("the pattern has '$(' without ')' and matches nothing"), parent: nil)
            }
        }
        var parentTokens: [PatternToken]?
        if kind != .other {
            normalisePath(&tokens)
            if tokens.count >= 2, tokens[tokens.count - 1] == .anyString,
                case .literal(let text) = tokens[tokens.count - 2], text.hasSuffix("/")
            {
                var parent = Array(tokens.dropLast())
                stripTrailingSlashes(&parent)
                parentTokens = parent
            }
        }
        let isPath = kind != .other
        let main = program(tokens, caseSensitive: caseSensitive, variables: variables, isPath: isPath)
        var parent: Program?
        if case .never = main {
            parent = nil
        } else if let parentTokens {
            parent = program(parentTokens, caseSensitive: caseSensitive, variables: variables, isPath: isPath)
        }
        return CompiledPattern(source: source, main: main, parent: parent)
    }

    /// A leading `/` is added unless the pattern starts with `/` or `*`; trailing `/` removed.
    static func normalisePath(_ tokens: inout [PatternToken]) {
        switch tokens.first {
        case .literal(let text) where text.hasPrefix("/"): break
        case .anyString: break
        case .literal(let text): tokens[0] = .literal("/" + text)
        default: tokens.insert(.literal("/"), at: 0)
        }
        stripTrailingSlashes(&tokens)
    }

    static func stripTrailingSlashes(_ tokens: inout [PatternToken]) {
        while case .literal(var text) = tokens.last, text.hasSuffix("/") {
            while text.hasSuffix("/") { text.removeLast() }
            tokens.removeLast()
            if !text.isEmpty { tokens.append(.literal(text)) }
        }
    }

    /// Tokens where only `*` and `?` are special (legacy paths, variable values).
    static func wildcardTokens(_ text: String) -> [PatternToken] {
        var tokens: [PatternToken] = []
        var literal = ""
        for character in text {
            switch character {
            case "*":
                if !literal.isEmpty { tokens.append(.literal(literal)); literal = "" }
                if tokens.last != .anyString { tokens.append(.anyString) }
            case "?":
                if !literal.isEmpty { tokens.append(.literal(literal)); literal = "" }
                tokens.append(.anyCharacter)
            default: literal.append(character)
            }
        }
        if !literal.isEmpty { tokens.append(.literal(literal)) }
        return tokens
    }

    /// Units of tokens that hold no variables.
    static func units(_ tokens: [PatternToken], caseSensitive: Bool) -> [UInt16] {
        var units: [UInt16] = []
        for token in tokens {
            switch token {
            case .literal(let text):
                let literal = caseSensitive ? text : text.lowercased()
                units.append(contentsOf: literal.utf8.map(UInt16.init))
            case .anyCharacter: units.append(Unit.anyScalar)
            case .anyString: if units.last != Unit.star { units.append(Unit.star) }
            case .variable(let name):
                // Only reached for values, where "$(" has no meaning: literal text.
                let literal = caseSensitive ? "$(\(name))" : "$(\(name))".lowercased()
                units.append(contentsOf: literal.utf8.map(UInt16.init))
            }
        }
        return units
    }

    /// - Parameter isPath: whether a match may need trailing `/` the URL path lost (a variable
    ///   value that is empty or ends in `/`).
    static func program(
        _ tokens: [PatternToken], caseSensitive: Bool, variables: [String: [String]], isPath: Bool
    ) -> Program {
        var pieces: [Piece] = []
        var run: [UInt16] = []
        for token in tokens {
            guard case .variable(let name) = token else {
                run.append(contentsOf: units([token], caseSensitive: caseSensitive))
                continue
            }
            // A custom variable shadows a built-in one of the same name.
            if let values = variables[name] {
                if !run.isEmpty { pieces.append(.units(run)); run = [] }
                pieces.append(
                    .choice(values.map { units(wildcardTokens($0), caseSensitive: caseSensitive) }))
            } else if let builtin = BuiltinVariable(rawValue: name) {
                if let characterClass = CharacterClass(builtin, caseSensitive: caseSensitive) {
                    run.append(Unit.classBase + characterClass.rawValue)
                } else {
                    if !run.isEmpty { pieces.append(.units(run)); run = [] }
                    pieces.append(
                        .choice(builtin.codes.map { units([.literal($0)], caseSensitive: caseSensitive) }))
                }
            } else {
                return .never("the pattern uses the undefined variable $(\(name)) and matches nothing")
            }
        }
        if !run.isEmpty { pieces.append(.units(run)) }
        if pieces.isEmpty { return .glob(GlobProgram(units: [])) }
        if pieces.count == 1, case .units(let units) = pieces[0] { return .glob(GlobProgram(units: units)) }
        return .nfa(NFAProgram(pieces, trailingSlashes: isPath))
    }
}
