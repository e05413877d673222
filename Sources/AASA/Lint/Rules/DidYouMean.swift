// Suggestions for misspelt keys.

/// " (did you mean "x"?)" when `key` is a likely misspelling of one of `known`: the same
/// apart from case, or one or two edits away; `aliases` maps common wrong names to the right
/// one ("path" → "/"). Empty when nothing is close.
func didYouMean(_ key: String, known: [String], aliases: [String: String] = [:]) -> String {
    if let alias = aliases[key.lowercased()] { return " (did you mean \(quotedShortened(alias))?)" }
    if let same = known.first(where: { $0.lowercased() == key.lowercased() }) {
        return " (did you mean \(quotedShortened(same))? Case matters)"
    }
    let close = known.filter { $0.count > 2 && editDistance(key.lowercased(), $0.lowercased(), limit: 2) <= 2 }
    guard
        let best = close.min(by: {
            editDistance(key.lowercased(), $0.lowercased(), limit: 2)
                < editDistance(key.lowercased(), $1.lowercased(), limit: 2)
        })
    else { return "" }
    return " (did you mean \(quotedShortened(best))?)"
}

/// Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`.
func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
    let a = Array(a)
    let b = Array(b)
    if abs(a.count - b.count) > limit { return limit + 1 }
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(b.count, 1) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        if current.min()! > limit { return limit + 1 }
        previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
}
