import AASA
import Foundation

/// A project's configuration file: `.aasa.json` (docs/configuration.md,
/// docs/schemas/config.schema.json). It chooses rules, their severities, the fail level and the
/// lint baseline; a front end's own options override it (the CLI's do).
///
/// The file is input like any other: it is parsed strictly, every key is checked, and a
/// ``Problem`` names the key (`KEY: what is wrong`; the caller names the file).
///
/// ```swift
/// let configuration = try ProjectConfiguration.parse(data, path: ".aasa.json", known: RuleRegistry.all.map(\.id))
/// ```
public struct ProjectConfiguration: Sendable {
    /// The file looked for in the working directory.
    public static let defaultName = ".aasa.json"

    /// What the file says about one rule.
    public enum RuleSetting: Equatable, Sendable {
        case off
        /// On, at the rule's own severity.
        case on
        case severity(Severity)
    }

    /// The file as named (for messages).
    public var path: String
    /// The rules' settings, in the file's order.
    public var rules: [(rule: RuleID, setting: RuleSetting)] = []
    /// The lowest severity that fails the run (`failOn`).
    public var failOn: Severity?
    /// The baseline file, relative to the working directory (the file names it relative to its
    /// own directory when not absolute).
    public var baseline: String?

    /// The keys of the file, for messages and suggestions.
    public static let keys = ["$schema", "rules", "failOn", "baseline"]
    /// The values of a rule's setting.
    public static let settings = ["off", "on"] + Severity.allCases.map(\.rawValue)

    public init(path: String) { self.path = path }

    /// Why a configuration cannot be used: `KEY: what is wrong`.
    public struct Problem: Error, Equatable, Sendable {
        public var message: String
        init(_ at: JSONPath, _ what: String) { message = "\(at): \(what)" }
    }

    /// Parses a configuration (strict JSON, every key checked against `known` rule IDs).
    /// - Throws: ``Problem``.
    public static func parse(_ data: Data, path: String, known: [RuleID]) throws(Problem) -> ProjectConfiguration {
        let root: JSONNode
        do {
            root = try JSONParser(maximumDepth: 16).parse(data)
        } catch let error as JSONSyntaxError {
            throw Problem(JSONPath(), "not JSON: \(error.location): \(error.message)")
        } catch {
            throw Problem(JSONPath(), "not JSON: \(error)")
        }
        guard let members = root.members else {
            throw Problem(JSONPath(), "expected an object, found \(root.typeName)")
        }
        var config = ProjectConfiguration(path: path)
        var seen: Set<String> = []
        for member in members {
            let at = JSONPath().appending(member.key)
            guard seen.insert(member.key).inserted else { throw Problem(at, "given twice") }
            switch member.key {
            case "$schema":
                guard member.value.stringValue != nil else { throw Problem(at, "expected a string") }
            case "rules":
                config.rules = try rules(member.value, at: at, known: known)
            case "failOn":
                guard let text = member.value.stringValue, let level = Severity(rawValue: text) else {
                    throw Problem(at, "expected one of \(Severity.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                config.failOn = level
            case "baseline":
                guard let file = member.value.stringValue, !file.isEmpty else {
                    throw Problem(at, "expected the baseline file's name")
                }
                config.baseline = resolved(file, relativeTo: path)
            default:
                throw Problem(at, "unknown key" + hint(member.key, among: keys))
            }
        }
        return config
    }

    private static func rules(_ node: JSONNode, at path: JSONPath, known: [RuleID]) throws(Problem) -> [(
        RuleID, RuleSetting
    )] {
        guard let members = node.members else {
            throw Problem(path, "expected an object of rule IDs, found \(node.typeName)")
        }
        let names = known.map(\.rawValue)
        var result: [(RuleID, RuleSetting)] = []
        var seen: Set<String> = []
        for member in members {
            let at = path.appending(member.key)
            guard names.contains(member.key) else { throw Problem(at, "no such rule" + hint(member.key, among: names)) }
            guard seen.insert(member.key).inserted else { throw Problem(at, "given twice") }
            let setting: RuleSetting
            let text = member.value.stringValue
            if text == "off" {
                setting = .off
            } else if text == "on" {
                setting = .on
            } else if let level = text.flatMap(Severity.init(rawValue:)) {
                setting = .severity(level)
            } else {
                throw Problem(at, "expected one of \(settings.joined(separator: ", "))")
            }
            result.append((RuleID(rawValue: member.key), setting))
        }
        return result
    }

    /// " (did you mean 'unknown-key'?)", or nothing.
    public static func hint(_ word: String, among names: [String]) -> String {
        Suggestion.closest(to: word, among: names).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// `file` as seen from the working directory: relative to the configuration's directory.
    private static func resolved(_ file: String, relativeTo config: String) -> String {
        guard !file.hasPrefix("/"), let slash = config.lastIndex(of: "/") else { return file }
        return String(config[...slash]) + file
    }
}
