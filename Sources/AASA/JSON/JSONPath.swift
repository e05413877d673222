import Foundation

/// Where a value sits in a JSON document, as keys and indices: `applinks.details[0].components[2]./`.
public struct JSONPath: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// A path of keys only, e.g. `"applinks"`.
    public init(stringLiteral value: String) {
        self.components = value.isEmpty ? [] : [.key(value)]
    }

    /// This path, one key deeper.
    public func appending(_ key: String) -> JSONPath { appending(component: .key(key)) }

    /// This path, one index deeper.
    public func appending(_ index: Int) -> JSONPath { appending(component: .index(index)) }

    /// One allocation per path (a document has one per string it holds).
    private func appending(component: Component) -> JSONPath {
        var longer: [Component] = []
        longer.reserveCapacity(components.count + 1)
        longer.append(contentsOf: components)
        longer.append(component)
        return JSONPath(longer)
    }

    /// Keys joined by ".", indices as "[n]"; the root is "$". A key that holds ".", "[", "]",
    /// a quote, white space or a control character, or is empty, is written `["key"]` (a JSON
    /// string literal, escaped as in messages, so a path is always one line) so the path reads
    /// back unambiguously (`applinks.details["ABCDE12345.com.example.app"].paths`); the pattern
    /// keys `/`, `?` and `#` stay bare (`components[2]./`).
    public var description: String {
        guard !components.isEmpty else { return "$" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key) where Self.needsQuoting(key):
                text += "[\(quotedInFull(key))]"
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    private static func needsQuoting(_ key: String) -> Bool {
        key.isEmpty || containsCharacterToEscape(key)
            || key.contains { $0 == "." || $0 == "[" || $0 == "]" || $0.isWhitespace }
    }

    /// The path that ``description`` wrote (``init(text:)``); other text is not a path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let path = JSONPath(text: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON path as aasa writes it")
        }
        self = path
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
