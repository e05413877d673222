import Foundation

extension Diagnostic {
    /// The message's first sentence, without its full stop: what is wrong, in short, for a
    /// line of `lint`. The rest of ``message`` (why it matters, the fix) is in `--explain`, in
    /// the JSON output and in the rule's documentation (`aasa rules RULE`).
    public var summary: String { Self.firstSentence(of: message) }

    /// The text up to the first `.`, `;` or `:` followed by a space, outside double quotes (a
    /// quoted value such as `"a. b"` is not cut), once at least ``minimumLength`` characters
    /// have been read (so that a short lead such as `Key "x":` keeps what it introduces); the
    /// whole text, less a final full stop, when there is none.
    static func firstSentence(of text: String) -> String {
        var inQuotes = false
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = inQuotes
            } else if character == "\"" {
                inQuotes.toggle()
            } else if !inQuotes, character == "." || character == ";" || character == ":", next < text.endIndex,
                text[next] == " ", text.distance(from: text.startIndex, to: index) >= minimumLength,
                !endsWithAbbreviation(text[..<index])
            {
                return String(text[..<index])
            }
            index = next
        }
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// The shortest first sentence: shorter leads run on to the next boundary.
    static let minimumLength = 24

    /// "e.g", "i.e", "etc": a full stop that ends no sentence.
    private static func endsWithAbbreviation(_ text: Substring) -> Bool {
        ["e.g", "i.e", "etc", "vs"].contains { text.hasSuffix(" " + $0) || text.hasSuffix("(" + $0) || text == $0 }
    }
}
