import AASA
import Foundation

/// What a JSON text means, with what does not change its meaning taken out: whitespace, the
/// order of object members, number spelling (`1.0` = `1`). With duplicate keys the last one
/// counts, as in Foundation's parser. Used to compare two copies of a file (CDN and origin,
/// root and `.well-known`), signed or not.
indirect enum JSONMeaning: Hashable, Sendable {
    case object([String: JSONMeaning])
    case array([JSONMeaning])
    case string(String)
    case number(Double)
    case text(String)  // a number Double cannot hold exactly as written is compared as text
    case bool(Bool)
    case null

    init(_ node: JSONNode) {
        switch node.value {
        case .object(let members):
            var object: [String: JSONMeaning] = [:]
            for member in members { object[member.key] = JSONMeaning(member.value) }
            self = .object(object)
        case .array(let elements): self = .array(elements.map(JSONMeaning.init))
        case .string(let string): self = .string(string)
        case .number(let text): self = Double(text).map(JSONMeaning.number) ?? .text(text)
        case .bool(let bool): self = .bool(bool)
        case .null: self = .null
        }
    }

    /// The meaning of a file: plain JSON, or a signed file's embedded JSON (not verified).
    /// Nil when there is no JSON to read.
    static func of(_ file: Data, limits: InputLimits = .default) -> JSONMeaning? {
        AASAFile.read(file, limits: limits).root.map(JSONMeaning.init)
    }
}

/// How two copies of a file compare.
enum CopyComparison: String, Sendable {
    case identical
    case sameMeaning = "same-meaning"
    case different
    case notCompared = "not-compared"

    init(_ first: Data, _ second: Data, limits: InputLimits = .default) {
        if first == second {
            self = .identical
            return
        }
        let a = JSONMeaning.of(first, limits: limits)
        let b = JSONMeaning.of(second, limits: limits)
        if let a, let b, a == b {
            self = .sameMeaning
        } else {
            self = .different
        }
    }
}
