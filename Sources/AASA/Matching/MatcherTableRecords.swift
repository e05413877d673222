// The records of the flat tables (``MatcherTables``): programs, patterns, rules, query items,
// legacy paths and entries, pointing at each other by index, never by reference.

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
