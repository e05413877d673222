/// A URL pattern compiled once for matching against the UTF-8 bytes of a URL component.
///
/// Two engines, both linear-ish (no exponential backtracking):
/// - **glob**, for patterns made of literal bytes, `?`, `*` and the one-character built-ins:
///   the classic wildcard algorithm that only ever backtracks to the most recent `*`,
///   O(pattern × input) at worst;
/// - **NFA**, for patterns with a list variable (a custom variable, `$(region)`, `$(lang)`):
///   the pattern becomes a Thompson automaton over bytes, the variable's values a trie, and
///   the input is run through it once with a set of states (O(states × input) at worst).
///
/// Both work on UTF-8 bytes but are exact on Unicode scalars: `?` consumes one whole scalar
/// (a lead byte and its continuation bytes) and nothing can start on a continuation byte, so
/// `?` is "one Unicode scalar", not one byte and not one grapheme cluster.
struct CompiledPattern: Sendable {
    /// The pattern as written in the file.
    var source: String
    var main: Program
    /// For path patterns ending in `/*`: the pattern without it, so `/docs/*` also matches `/docs`.
    var parent: Program?

    /// Why the pattern matches nothing (undefined variable, unterminated `$(`), if it does.
    var problem: String? {
        if case .never(let reason) = main { return reason }
        return nil
    }

    /// Whether the whole of `input` matches.
    @inline(__always)
    func matches(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        if main.matches(input) { return true }
        if let parent { return parent.matches(input) }
        return false
    }

    /// Whether the empty string matches.
    func matchesEmpty() -> Bool {
        let empty: [UInt8] = []
        return empty.withUnsafeBufferPointer { matches($0) }
    }
}

/// What kind of component a pattern is for: path patterns get the path normalisations.
enum PatternKind: Sendable {
    /// A components `/` pattern: leading `/` optional, trailing `/` ignored, `/*` matches the
    /// parent, substitution variables.
    case path
    /// A legacy `paths` element (without `NOT `): the path normalisations, `*` and `?` only.
    case legacyPath
    /// A query, query item or fragment pattern: used as written, with substitution variables.
    case other
}

/// A compiled matcher program.
enum Program: Sendable {
    case never(String)
    case glob(GlobProgram)
    case nfa(NFAProgram)

    @inline(__always)
    func matches(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .never: return false
        case .glob(let glob): return glob.matches(input)
        case .nfa(let nfa): return nfa.matches(input)
        }
    }
}

// MARK: - Units

/// One step of a pattern: a literal byte (0...255), `?`, `*`, or a one-character class.
enum Unit {
    static let anyScalar: UInt16 = 256
    static let star: UInt16 = 257
    /// `classBase + CharacterClass.rawValue`.
    static let classBase: UInt16 = 258

    @inline(__always) static func isByte(_ unit: UInt16) -> Bool { unit < 256 }
}

/// The one-character built-in variables, as 128-bit ASCII sets.
enum CharacterClass: UInt16, CaseIterable, Sendable {
    case alpha, upper, lower, alnum, digit, xdigit

    init?(_ variable: BuiltinVariable, caseSensitive: Bool) {
        switch variable {
        case .alpha: self = .alpha
        // Case-insensitively the URL is lower-cased, so $(upper) and $(lower) mean "a letter".
        case .upper: self = caseSensitive ? .upper : .alpha
        case .lower: self = caseSensitive ? .lower : .alpha
        case .alnum: self = .alnum
        case .digit: self = .digit
        case .xdigit: self = .xdigit
        case .region, .lang: return nil
        }
    }

    var variable: BuiltinVariable {
        switch self {
        case .alpha: return .alpha
        case .upper: return .upper
        case .lower: return .lower
        case .alnum: return .alnum
        case .digit: return .digit
        case .xdigit: return .xdigit
        }
    }

    /// Bits 0–63 and 64–127 of each class, indexed by raw value.
    static let masks: [(low: UInt64, high: UInt64)] = allCases.map { characterClass in
        var low: UInt64 = 0, high: UInt64 = 0
        for byte in 0..<128 where characterClass.variable.contains(Character(Unicode.Scalar(UInt8(byte)))) {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
        return (low, high)
    }

    @inline(__always)
    static func contains(_ id: Int, _ byte: UInt8) -> Bool {
        if byte >= 128 { return false }
        let mask = masks[id]
        return byte < 64 ? (mask.low >> UInt64(byte)) & 1 == 1 : (mask.high >> UInt64(byte - 64)) & 1 == 1
    }
}

/// The number of bytes of the UTF-8 sequence a lead byte starts; 0 for a continuation byte.
@inline(__always)
func utf8SequenceLength(_ lead: UInt8) -> Int {
    if lead < 0x80 { return 1 }
    if lead < 0xC0 { return 0 }
    if lead < 0xE0 { return 2 }
    if lead < 0xF0 { return 3 }
    return 4
}

// MARK: - Compilation

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

// MARK: - Glob engine

/// `*`, `?`, literal bytes and one-character classes: the classic wildcard algorithm.
struct GlobProgram: Sendable {
    var units: [UInt16]
    /// The fewest bytes an input needs (every unit but `*` takes at least one).
    var minimumLength: Int

    init(units: [UInt16]) {
        self.units = units
        self.minimumLength = units.reduce(0) { $0 + ($1 == Unit.star ? 0 : 1) }
    }

    @inline(__always)
    func matches(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        if input.count < minimumLength { return false }
        return units.withUnsafeBufferPointer { GlobProgram.run($0, input) }
    }

    static func run(_ pattern: UnsafeBufferPointer<UInt16>, _ input: UnsafeBufferPointer<UInt8>) -> Bool {
        let patternCount = pattern.count, inputCount = input.count
        var p = 0, s = 0
        var starP = -1, starS = 0
        while s < inputCount {
            if p < patternCount {
                let unit = pattern[p]
                let byte = input[s]
                if unit < 256 {
                    if UInt8(truncatingIfNeeded: unit) == byte {
                        p += 1
                        s += 1
                        continue
                    }
                } else if unit == Unit.star {
                    starP = p
                    starS = s
                    p += 1
                    continue
                } else if unit == Unit.anyScalar {
                    let length = utf8SequenceLength(byte)
                    if length > 0 {
                        p += 1
                        s = min(inputCount, s + length)
                        continue
                    }
                } else if CharacterClass.contains(Int(unit - Unit.classBase), byte) {
                    p += 1
                    s += 1
                    continue
                }
            }
            // Mismatch: let the last `*` take one more byte, or fail.
            guard starP >= 0 else { return false }
            p = starP + 1
            starS += 1
            s = starS
        }
        while p < patternCount, pattern[p] == Unit.star { p += 1 }
        return p == patternCount
    }
}

// MARK: - NFA engine

/// A Thompson automaton over bytes, simulated with a set of states.
struct NFAProgram: Sendable {
    enum Op: UInt8, Sendable {
        /// Consume byte `a`, go to the next instruction.
        case byte
        /// Consume the lead byte of one scalar; the next three instructions are `cont`s, and a
        /// sequence of n bytes continues at `pc + 5 - n`.
        case anyScalar
        /// Consume one continuation byte (10xxxxxx), go to the next instruction.
        case cont
        /// Consume one byte of character class `a`.
        case characterClass
        /// Consume any byte and stay; also continue at the next instruction without consuming.
        case star
        /// Continue at `a` without consuming.
        case jump
        /// Continue at each of `targets[a..<a+b]` without consuming.
        case split
        /// Consume a byte listed in `edges[a..<a+b]` and go to its target (a trie node).
        case byteSwitch
        /// Accept when the input is finished.
        case accept
    }

    struct Instruction: Sendable {
        var op: Op
        var a: Int32
        var b: Int32
    }

    struct Edge: Sendable {
        var byte: UInt8
        var target: Int32
    }

    var instructions: [Instruction] = []
    var edges: [Edge] = []
    var targets: [Int32] = []
    /// How many `/` may be appended to the input to find a match: the URL path arrives without
    /// its trailing slashes, but a variable value may end in `/` (or be empty after a `/`).
    /// An accepting run never needs more than one per non-`*` unit.
    var trailingSlashes = 0

    init(_ pieces: [CompiledPattern.Piece], trailingSlashes: Bool) {
        if trailingSlashes {
            func fixed(_ units: [UInt16]) -> Int { units.filter { $0 != Unit.star }.count }
            self.trailingSlashes = pieces.reduce(0) { total, piece in
                switch piece {
                case .units(let units): return total + fixed(units)
                case .choice(let alternatives): return total + (alternatives.map(fixed).max() ?? 0)
                }
            }
        }
        for piece in pieces {
            switch piece {
            case .units(let units):
                for unit in units { emitUnit(unit) }
            case .choice(let alternatives):
                emitChoice(alternatives)
            }
        }
        emit(.accept)
    }

    @discardableResult
    private mutating func emit(_ op: Op, _ a: Int32 = 0, _ b: Int32 = 0) -> Int {
        instructions.append(Instruction(op: op, a: a, b: b))
        return instructions.count - 1
    }

    /// Emits one non-byte or byte unit whose continuation is the next instruction emitted.
    private mutating func emitUnit(_ unit: UInt16) {
        if unit < 256 {
            emit(.byte, Int32(unit))
        } else if unit == Unit.anyScalar {
            emit(.anyScalar)
            emit(.cont)
            emit(.cont)
            emit(.cont)
        } else if unit == Unit.star {
            emit(.star)
        } else {
            emit(.characterClass, Int32(unit - Unit.classBase))
        }
    }

    private final class TrieNode {
        var terminal = false
        var children: [(unit: UInt16, node: TrieNode)] = []

        func child(_ unit: UInt16) -> TrieNode {
            if let existing = children.first(where: { $0.unit == unit }) { return existing.node }
            let node = TrieNode()
            children.append((unit, node))
            return node
        }
    }

    private enum PatchSite {
        case edge(Int)
        case jump(Int)
    }

    /// Emits the alternatives as a trie; every way out jumps past the trie.
    private mutating func emitChoice(_ alternatives: [[UInt16]]) {
        let root = TrieNode()
        for alternative in alternatives {
            var node = root
            for unit in alternative { node = node.child(unit) }
            node.terminal = true
        }
        var exits: [Int] = []
        // The choice is entered here: a jump to wherever the root's code starts.
        let entry = emit(.jump, -1)
        // (node, where its start must be written).
        var work: [(TrieNode, PatchSite)] = [(root, .jump(entry))]
        while let (node, site) = work.popLast() {
            var branches: [Int32] = []
            if node.terminal {
                let jump = emit(.jump, -1)
                exits.append(jump)
                branches.append(Int32(jump))
            }
            let byteChildren = node.children.filter { $0.unit < 256 }.sorted { $0.unit < $1.unit }
            if !byteChildren.isEmpty {
                let switchAt = emit(.byteSwitch, Int32(edges.count), Int32(byteChildren.count))
                for child in byteChildren {
                    work.append((child.node, .edge(edges.count)))
                    edges.append(Edge(byte: UInt8(child.unit), target: -1))
                }
                branches.append(Int32(switchAt))
            }
            for child in node.children where child.unit >= 256 {
                let start = instructions.count
                emitUnit(child.unit)
                let jump = emit(.jump, -1)
                work.append((child.node, .jump(jump)))
                branches.append(Int32(start))
            }
            let start: Int
            switch branches.count {
            case 0: start = emit(.byteSwitch, 0, 0)  // no values: a dead end
            case 1: start = Int(branches[0])
            default:
                start = emit(.split, Int32(targets.count), Int32(branches.count))
                targets.append(contentsOf: branches)
            }
            switch site {
            case .edge(let index): edges[index].target = Int32(start)
            case .jump(let index): instructions[index].a = Int32(start)
            }
        }
        let end = Int32(instructions.count)
        for exit in exits { instructions[exit].a = end }
    }


    /// Whether the whole of `input` is accepted.
    func matches(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        instructions.withUnsafeBufferPointer { program in
            edges.withUnsafeBufferPointer { edges in
                targets.withUnsafeBufferPointer { targets in
                    Self.matches(input, program: program, edges: edges, targets: targets, trailingSlashes: trailingSlashes)
                }
            }
        }
    }

    /// Whether the program given by its buffers accepts the whole of `input`.
    static func matches(
        _ input: UnsafeBufferPointer<UInt8>, program: UnsafeBufferPointer<Instruction>, edges: UnsafeBufferPointer<Edge>,
        targets: UnsafeBufferPointer<Int32>, trailingSlashes: Int
    ) -> Bool {
        let stateCount = program.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: stateCount * 4) { memory in
            var simulation = Simulation(program: program, edges: edges, targets: targets, memory: memory, stateCount: stateCount)
            return simulation.run(input, trailingSlashes: trailingSlashes)
        }
    }

    /// The program copied into buffers that `deallocate()` frees: read in place, with no
    /// reference counting per match (the matcher's flat tables hold these).
    struct Flat {
        let program: UnsafeMutableBufferPointer<Instruction>
        let edges: UnsafeMutableBufferPointer<Edge>
        let targets: UnsafeMutableBufferPointer<Int32>
        let trailingSlashes: Int

        init(_ nfa: NFAProgram) {
            program = .copying(nfa.instructions)
            edges = .copying(nfa.edges)
            targets = .copying(nfa.targets)
            trailingSlashes = nfa.trailingSlashes
        }

        @inline(__always)
        func matches(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
            NFAProgram.matches(
                input, program: UnsafeBufferPointer(program), edges: UnsafeBufferPointer(edges),
                targets: UnsafeBufferPointer(targets), trailingSlashes: trailingSlashes)
        }

        func deallocate() {
            program.deallocate()
            edges.deallocate()
            targets.deallocate()
        }
    }

    private struct Simulation {
        let program: UnsafeBufferPointer<Instruction>
        let edges: UnsafeBufferPointer<Edge>
        let targets: UnsafeBufferPointer<Int32>
        /// The states reached (lists), the step each state was last added at, a work stack.
        var current: UnsafeMutablePointer<Int>
        var next: UnsafeMutablePointer<Int>
        let stamp: UnsafeMutablePointer<Int>
        let stack: UnsafeMutablePointer<Int>
        var currentCount = 0
        var nextCount = 0

        init(
            program: UnsafeBufferPointer<Instruction>, edges: UnsafeBufferPointer<Edge>,
            targets: UnsafeBufferPointer<Int32>, memory: UnsafeMutableBufferPointer<Int>, stateCount: Int
        ) {
            self.program = program
            self.edges = edges
            self.targets = targets
            let base = memory.baseAddress!
            current = base
            next = base + stateCount
            stamp = base + 2 * stateCount
            stack = base + 3 * stateCount
            stamp.initialize(repeating: -1, count: stateCount)
        }

        /// Adds `state` and everything reachable from it without consuming to `next`.
        mutating func add(_ state: Int, step: Int) {
            guard stamp[state] != step else { return }
            stamp[state] = step
            var depth = 1
            stack[0] = state
            while depth > 0 {
                depth -= 1
                let pc = stack[depth]
                let instruction = program[pc]
                switch instruction.op {
                case .jump:
                    push(Int(instruction.a), step: step, depth: &depth)
                case .split:
                    for index in Int(instruction.a)..<Int(instruction.a + instruction.b) {
                        push(Int(targets[index]), step: step, depth: &depth)
                    }
                case .star:
                    next[nextCount] = pc
                    nextCount += 1
                    push(pc + 1, step: step, depth: &depth)
                default:
                    next[nextCount] = pc
                    nextCount += 1
                }
            }
        }

        @inline(__always)
        func push(_ state: Int, step: Int, depth: inout Int) {
            guard stamp[state] != step else { return }
            stamp[state] = step
            stack[depth] = state
            depth += 1
        }

        mutating func run(_ input: UnsafeBufferPointer<UInt8>, trailingSlashes: Int) -> Bool {
            add(0, step: 0)
            swap(&current, &next)
            currentCount = nextCount
            nextCount = 0
            for (position, byte) in input.enumerated() {
                if !step(byte, step: position + 1) { return false }
            }
            if accepts() { return true }
            for extra in 0..<trailingSlashes {
                if !step(UInt8(ascii: "/"), step: input.count + 1 + extra) { return false }
                if accepts() { return true }
            }
            return false
        }

        private func accepts() -> Bool {
            for index in 0..<currentCount where program[current[index]].op == .accept { return true }
            return false
        }

        /// Feeds one byte; false when no state is left.
        private mutating func step(_ byte: UInt8, step: Int) -> Bool {
            for index in 0..<currentCount {
                let pc = current[index]
                let instruction = program[pc]
                switch instruction.op {
                case .byte:
                    if UInt8(truncatingIfNeeded: instruction.a) == byte { add(pc + 1, step: step) }
                case .anyScalar:
                    let length = utf8SequenceLength(byte)
                    if length > 0 { add(pc + 5 - length, step: step) }
                case .cont:
                    if byte & 0xC0 == 0x80 { add(pc + 1, step: step) }
                case .characterClass:
                    if CharacterClass.contains(Int(instruction.a), byte) { add(pc + 1, step: step) }
                case .star:
                    add(pc, step: step)
                case .byteSwitch:
                    let start = Int(instruction.a)
                    for edge in start..<start + Int(instruction.b) where edges[edge].byte == byte {
                        add(Int(edges[edge].target), step: step)
                        break
                    }
                case .jump, .split, .accept:
                    break
                }
            }
            if nextCount == 0 { return false }
            swap(&current, &next)
            currentCount = nextCount
            nextCount = 0
            return true
        }
    }
}
