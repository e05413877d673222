import Foundation

// Shared by the rule groups: the shape of a document check, building diagnostics, finding
// nodes and key positions in the parsed JSON, and quoting values in messages.

/// A document rule: reads the model (and, where the model keeps too little, the JSON it was
/// read from) and returns its findings. Each rule group lists its checks in `checks`.
typealias DocumentCheck = @Sendable (AASADocument) -> [Diagnostic]

extension Diagnostic {
    /// A finding of `rule` at `path`, with the line and column of `position` when known.
    init(_ rule: RuleID, _ message: String, path: JSONPath, position: TextPosition?) {
        self.init(rule, message, at: DiagnosticLocation(path: path, position: position))
    }
}

extension Diagnostic {
    /// Report order: file-level findings (no line) first, then by line, column, rule ID, and
    /// finally message, so the order never depends on how the rules ran.
    static func reportOrder(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        let left = (lhs.location.line ?? 0, lhs.location.column ?? 0)
        let right = (rhs.location.line ?? 0, rhs.location.column ?? 0)
        if left != right { return left < right }
        if lhs.rule != rhs.rule { return lhs.rule.rawValue < rhs.rule.rawValue }
        if lhs.location.path != rhs.location.path {
            return lhs.location.path.description < rhs.location.path.description
        }
        return lhs.message < rhs.message
    }
}

extension JSONNode {
    /// The member `key` of an object. When the key is repeated this is the last one: the
    /// document model reads members in order, so the last value is the one it keeps.
    func lastMember(_ key: String) -> JSONMember? {
        members?.last { $0.key == key }
    }

    /// The node that `path` names below this one.
    func node(at path: JSONPath) -> JSONNode? {
        var node = self
        for component in path.components {
            switch component {
            case .key(let key):
                guard let member = node.lastMember(key) else { return nil }
                node = member.value
            case .index(let index):
                guard let elements = node.elements, elements.indices.contains(index) else { return nil }
                node = elements[index]
            }
        }
        return node
    }

    /// The position of the key that ends `path` (nil when the path ends with an index or
    /// names nothing).
    func keyPosition(of path: JSONPath) -> TextPosition? {
        guard case .key(let key)? = path.components.last else { return nil }
        return node(at: JSONPath(Array(path.components.dropLast())))?.lastMember(key)?.keyLocation
    }

    /// Whether the object at `path` has the member `key` (whatever its type).
    func hasMember(_ key: String, at path: JSONPath) -> Bool {
        node(at: path)?.lastMember(key) != nil
    }

    /// A short description of the value for messages: `number 5`, `boolean true`, `null`,
    /// `string "x"`, `array`, `object`.
    var shortDescription: String {
        switch value {
        case .number(let text): return "number \(text)"
        case .bool(let bool): return "boolean \(bool)"
        case .null: return "null"
        case .string(let string): return "string \(quotedShortened(string))"
        case .array(let elements): return elements.isEmpty ? "empty array" : "array"
        case .object(let members): return members.isEmpty ? "empty object" : "object"
        }
    }

    /// The same with an article, for "is …": `a number (1)`, `a boolean (true)`, `null`, `an array`.
    var describedWithArticle: String {
        switch value {
        case .number(let text): return "a number (\(text))"
        case .bool(let bool): return "a boolean (\(bool))"
        case .null: return "null"
        case .string(let string): return "a string (\(quotedShortened(string)))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension AASADocument {
    /// The position of the key that ends `path`, or `fallback` when there is none.
    func keyPosition(of path: JSONPath, orElse fallback: TextPosition?) -> TextPosition? {
        root.keyPosition(of: path) ?? fallback
    }

    /// The three services that are only a list of apps, with their top-level names.
    var appLists: [(name: String, list: AppList)] {
        [("webcredentials", webCredentials), ("activitycontinuation", activityContinuation), ("appclips", appClips)]
            .compactMap { name, list in list.map { (name, $0) } }
    }

    /// Every app identifier in the file: applinks entries (`appIDs`, `appID`, dictionary keys)
    /// and the `apps` lists of the other services.
    var allAppIdentifiers: [Located<String>] {
        (appLinks?.details.flatMap(\.allAppIDs) ?? []) + appLists.flatMap(\.list.apps)
    }
}

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

/// "1 time" / "2 times" and similar.
func plural(_ count: Int, _ singular: String, _ pluralForm: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : (pluralForm ?? singular + "s"))"
}

/// Where a position is, for messages ("line 4, column 9"), or "" when unknown.
func lineColumn(_ position: TextPosition?) -> String {
    guard let position else { return "" }
    return "line \(position.line), column \(position.column)"
}
