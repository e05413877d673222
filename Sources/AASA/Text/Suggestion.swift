/// The name a mistyped word was probably meant to be, among the names a command knows
/// (subcommands, rule IDs, a configuration's keys): the hint of "Did you mean 'check'?".
public enum Suggestion {
    /// The closest of `names` to `word` (the first of them on a tie), when it is close enough
    /// to be a typing slip: one edit for a word of up to 5 characters, two for a longer one.
    /// Nil for a word that is one of `names`.
    public static func closest(to word: String, among names: [String]) -> String? {
        guard !names.contains(word) else { return nil }
        let typed = Array(word.lowercased())
        let allowed = typed.count > 5 ? 2 : 1
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(typed, Array(name.lowercased()))
            if distance <= allowed && distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        return best?.name
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
    /// two neighbouring characters ("chcek" is one edit from "check") each count one.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
