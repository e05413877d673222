// Suggestions for misspelt keys.

/// " (did you mean "x"?)" when `key` is a likely misspelling of one of `known`: the same
/// apart from case, or one or two edits away (``Suggestion/editDistance(_:_:)``); `aliases`
/// maps common wrong names to the right one ("path" → "/"). Empty when nothing is close.
func didYouMean(_ key: String, known: [String], aliases: [String: String] = [:]) -> String {
    let lower = key.lowercased()
    if let alias = aliases[lower] { return " (did you mean \(quotedShortened(alias))?)" }
    if let same = known.first(where: { $0.lowercased() == lower }) {
        return " (did you mean \(quotedShortened(same))? Case matters)"
    }
    // Lengths more than two apart are more than two edits apart: a long hostile key costs no
    // distance computation.
    let typed = Array(lower)
    let close = known.compactMap { name -> (name: String, distance: Int)? in
        guard name.count > 2, abs(name.count - typed.count) <= 2 else { return nil }
        let distance = Suggestion.editDistance(typed, Array(name.lowercased()))
        return distance <= 2 ? (name, distance) : nil
    }
    guard let best = close.min(by: { $0.distance < $1.distance }) else { return "" }
    return " (did you mean \(quotedShortened(best.name))?)"
}
