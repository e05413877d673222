import Foundation

/// A piece of a URL pattern, as Apple's format defines it:
/// `*` is zero or more characters (crossing `/`), `?` exactly one, `$(name)` a substitution
/// variable, anything else literal text.
public enum PatternToken: Hashable, Sendable {
    case literal(String)
    /// `?`: exactly one character.
    case anyCharacter
    /// `*`: zero or more characters.
    case anyString
    /// `$(name)`: one of the variable's values (or one character, for the character built-ins).
    case variable(String)
}

/// A `$(` with no closing `)` (the `unterminated-variable` rule).
public struct PatternSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    /// Offset of the `$(` in the pattern, in characters.
    public var offset: Int

    public var description: String { message }
}

/// Splits patterns into ``PatternToken``s.
public enum PatternSyntax {
    /// The tokens of `pattern`; adjacent literal characters are joined.
    /// - Throws: ``PatternSyntaxError`` for `$(` without `)`.
    public static func tokens(_ pattern: String) throws -> [PatternToken] {
        try tokens(pattern, checkOnly: false)
    }

    /// Throws as ``tokens(_:)`` would, without building the tokens when there is no `$`.
    static func check(_ pattern: String) throws {
        guard pattern.utf8.contains(UInt8(ascii: "$")) else { return }  // only "$(" can fail
        _ = try tokens(pattern, checkOnly: true)
    }

    private static func tokens(_ pattern: String, checkOnly: Bool) throws -> [PatternToken] {
        var tokens: [PatternToken] = []
        var literal = ""
        func flush() {
            if !literal.isEmpty {
                tokens.append(.literal(literal))
                literal = ""
            }
        }
        let characters = Array(pattern)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "*":
                flush()
                if tokens.last != .anyString { tokens.append(.anyString) }  // "**" is "*"
                index += 1
            case "?":
                flush()
                tokens.append(.anyCharacter)
                index += 1
            case "$" where index + 1 < characters.count && characters[index + 1] == "(":
                guard let close = characters[(index + 2)...].firstIndex(of: ")") else {
                    throw PatternSyntaxError(message: "'$(' at offset \(index) has no closing ')'", offset: index)
                }
                flush()
                tokens.append(.variable(String(characters[(index + 2)..<close])))
                index = close + 1
            default:
                literal.append(character)
                index += 1
            }
        }
        flush()
        return tokens
    }

    /// The variable names `pattern` refers to, in order (also when it is otherwise malformed:
    /// references before an unterminated `$(` are still returned).
    public static func variableNames(in pattern: String) -> [String] {
        guard pattern.utf8.contains(UInt8(ascii: "$")) else { return [] }  // most patterns: no reference at all
        var names: [String] = []
        var rest = Substring(pattern)
        while let open = rest.range(of: "$(") {
            guard let close = rest[open.upperBound...].firstIndex(of: ")") else { break }
            names.append(String(rest[open.upperBound..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
