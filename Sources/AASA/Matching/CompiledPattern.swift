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
