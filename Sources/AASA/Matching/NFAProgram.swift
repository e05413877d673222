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
                    Self.matches(
                        input, program: program, edges: edges, targets: targets, trailingSlashes: trailingSlashes)
                }
            }
        }
    }

    /// Whether the program given by its buffers accepts the whole of `input`.
    static func matches(
        _ input: UnsafeBufferPointer<UInt8>, program: UnsafeBufferPointer<Instruction>,
        edges: UnsafeBufferPointer<Edge>,
        targets: UnsafeBufferPointer<Int32>, trailingSlashes: Int
    ) -> Bool {
        let stateCount = program.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: stateCount * 4) { memory in
            var simulation = Simulation(
                program: program, edges: edges, targets: targets, memory: memory, stateCount: stateCount)
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
