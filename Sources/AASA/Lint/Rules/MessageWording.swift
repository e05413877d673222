// Numbers, plurals and positions as lint messages write them.

/// `value` with thousands separators ("131,072"), independent of the locale.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, character) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(character)
    }
    return value < 0 ? "-" + result : result
}

/// "1 time" / "2 times" and similar.
func plural(_ count: Int, _ singular: String, _ pluralForm: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : (pluralForm ?? singular + "s"))"
}

/// Where a position is, for messages ("line 4, column 9"), or "" when unknown.
func lineColumn(_ position: TextPosition?) -> String {
    guard let position else { return "" }
    return "line \(position.line), column \(position.column)"
}
