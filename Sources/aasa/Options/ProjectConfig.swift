import AASA
import Foundation

/// A project's configuration file: `.aasa.json` in the working directory, or `--config FILE`
/// (docs/configuration.md, docs/schemas/config.schema.json). It chooses rules, their
/// severities, `--fail-on` and the lint baseline; options on the command line override it.
///
/// The file is input like any other: it is parsed strictly, every key is checked, and an
/// error names the file and the key (escaped for the terminal by ``Diagnostics``).
struct ProjectConfig {
    /// The file looked for in the working directory.
    static let defaultName = ".aasa.json"

    /// What the file says about one rule.
    enum RuleSetting: Equatable {
        case off
        /// On, at the rule's own severity.
        case on
        case severity(Severity)
    }

    /// The file as named (for messages).
    var path: String
    /// The rules' settings, in the file's order.
    var rules: [(rule: RuleID, setting: RuleSetting)] = []
    var failOn: Severity?
    /// The baseline file, relative to the configuration file's directory when not absolute.
    var baseline: String?

    /// The keys of the file, for messages and suggestions.
    static let keys = ["$schema", "rules", "failOn", "baseline"]
    /// The values of a rule's setting.
    static let settings = ["off", "on"] + Severity.allCases.map(\.rawValue)

    /// The configuration of this run: `--config FILE`, else `.aasa.json` in the working
    /// directory when it exists (unless `ignoreWorkingDirectory`), else none.
    /// - Throws: ``CLIFailure`` (status 2) naming the file and the key.
    static func load(explicit: String?, ignoreWorkingDirectory: Bool) throws -> ProjectConfig? {
        let path: String
        if let explicit {
            path = explicit
        } else {
            guard !ignoreWorkingDirectory, FileManager.default.fileExists(atPath: defaultName) else { return nil }
            path = defaultName
        }
        let data = try InputFile.read(path, what: "configuration", limit: 1 << 20)
        do {
            return try parse(data, path: path)
        } catch let error as Problem {
            throw CLIFailure(path, error.message)
        }
    }

    /// Why a configuration cannot be used: `KEY: what is wrong`.
    struct Problem: Error, Equatable {
        var message: String
        init(_ at: JSONPath, _ what: String) { message = "\(at): \(what)" }
    }

    /// Parses a configuration (strict JSON, every key checked against `known` rule IDs).
    static func parse(_ data: Data, path: String, known: [RuleID] = RuleList.knownRuleIDs) throws -> ProjectConfig {
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
        var config = ProjectConfig(path: path)
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

    private static func rules(_ node: JSONNode, at path: JSONPath, known: [RuleID]) throws -> [(RuleID, RuleSetting)] {
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
    static func hint(_ word: String, among names: [String]) -> String {
        Suggestion.closest(to: word, among: names).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// `file` as seen from the working directory: relative to the configuration's directory.
    private static func resolved(_ file: String, relativeTo config: String) -> String {
        guard !file.hasPrefix("/"), let slash = config.lastIndex(of: "/") else { return file }
        return String(config[...slash]) + file
    }
}
