import Foundation

/// Accepted findings: what `aasa lint --write-baseline` records and `--baseline` leaves out, so
/// that a run reports and fails only on new findings. A finding is known by its
/// ``FindingFingerprint`` (rule, file as given, JSON path without indices, message), which
/// stays the same when lines are added above it or array entries move. Identical findings
/// share a fingerprint and are counted: a baseline with 2 of them absorbs 2 findings, not 3.
public struct Baseline: Sendable, Hashable {
    /// The version of the file format (docs/schemas/baseline.schema.json).
    public static let schemaVersion = 1

    /// One accepted finding, and how many times it occurs.
    public struct Entry: Sendable, Hashable, Codable {
        public var fingerprint: FindingFingerprint
        public var rule: RuleID
        /// The file's path as it was given to `aasa lint`.
        public var file: String
        public var message: String
        /// How many findings share the fingerprint (at least 1).
        public var count: Int

        public init(fingerprint: FindingFingerprint, rule: RuleID, file: String, message: String, count: Int) {
            self.fingerprint = fingerprint
            self.rule = rule
            self.file = file
            self.message = message
            self.count = count
        }
    }

    /// The entries, one per fingerprint, sorted by file, rule, message and fingerprint (so that
    /// a rewritten baseline differs from the old one only where the findings did).
    public private(set) var entries: [Entry]
    /// The entries by file.
    private var byFile: [String: [Entry]]

    /// A baseline of `entries`: the ones with the same fingerprint merged (counts added, and
    /// capped at `Int.max`: no count derived from a file can trap), sorted.
    public init(entries: [Entry]) {
        var merged: [FindingFingerprint: Entry] = [:]
        for entry in entries where entry.count > 0 {
            if let existing = merged[entry.fingerprint] {
                merged[entry.fingerprint]?.count = Self.cappedSum(existing.count, entry.count)
            } else {
                merged[entry.fingerprint] = entry
            }
        }
        let sorted = merged.values.sorted { a, b in
            (a.file, a.rule.rawValue, a.message, a.fingerprint.value)
                < (b.file, b.rule.rawValue, b.message, b.fingerprint.value)
        }
        self.entries = sorted
        self.byFile = Dictionary(grouping: sorted, by: \.file)
    }

    /// The baseline of `findings` (each file's path as given, and its finding).
    public init(findings: [(path: String, diagnostic: Diagnostic)]) throws(AASAError) {
        var entries: [Entry] = []
        for (path, diagnostic) in findings {
            entries.append(
                Entry(
                    fingerprint: try FindingFingerprint(diagnostic, path: path), rule: diagnostic.rule, file: path,
                    message: diagnostic.message, count: 1))
        }
        self.init(entries: entries)
    }

    /// What the baseline makes of one file's findings.
    public struct Match: Sendable {
        /// The findings the baseline does not accept, in their order.
        public var new: [Diagnostic]
        /// How many findings it accepted.
        public var absorbed: Int
        /// The file's entries that did not occur (each with the count that is left).
        public var stale: [Entry]
    }

    /// Splits the findings of the file at `path` (as given) into accepted and new ones: each
    /// fingerprint accepts at most its count, the first findings in report order first; the
    /// file's entries left over are stale.
    public func match(_ diagnostics: [Diagnostic], path: String) throws(AASAError) -> Match {
        let entries = byFile[path] ?? []
        var left = Dictionary(entries.map { ($0.fingerprint, $0.count) }, uniquingKeysWith: Self.cappedSum)
        var result = Match(new: [], absorbed: 0, stale: [])
        for diagnostic in diagnostics {
            let fingerprint = try FindingFingerprint(diagnostic, path: path)
            if let count = left[fingerprint], count > 0 {
                left[fingerprint] = count - 1
                result.absorbed += 1
            } else {
                result.new.append(diagnostic)
            }
        }
        for var entry in entries {
            guard let count = left[entry.fingerprint], count > 0 else { continue }
            entry.count = count
            left[entry.fingerprint] = 0
            result.stale.append(entry)
        }
        return result
    }

    /// How many accepted findings belong to files a run did not lint (`linted`): the run cannot
    /// say whether they still occur (at most `Int.max`).
    public func unchecked(linted: Set<String>) -> Int {
        byFile.filter { !linted.contains($0.key) }.values.joined().reduce(0) { Self.cappedSum($0, $1.count) }
    }

    /// `a + b`, or `Int.max` where the sum would overflow: counts of findings come from a
    /// baseline file, and no sum of them may trap (issue #24).
    public static func cappedSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }
}

extension Baseline {
    /// The file as `--write-baseline` writes it: pretty JSON with sorted keys and a final newline.
    public func encoded() throws -> Data {
        struct File: Encodable {
            var schemaVersion: Int
            var findings: [Entry]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(File(schemaVersion: Self.schemaVersion, findings: entries)) + Data("\n".utf8)
    }

    /// Why a baseline file cannot be used: a message naming the place (a JSON path, or a line
    /// and column for a syntax error).
    public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Reads a baseline file (strict JSON, schemaVersion 1; any other key is an error).
    public init(json data: Data) throws(FormatError) {
        let root: JSONNode
        do {
            root = try JSONParser().parse(data)
        } catch let error as JSONSyntaxError {
            throw FormatError(message: "not JSON: \(error.location): \(error.message)")
        } catch {
            throw FormatError(message: "not JSON: \(error)")
        }
        guard let members = root.members else {
            throw FormatError(message: "$: expected an object with schemaVersion and findings, found \(root.typeName)")
        }
        var version: Int?
        var findings: [Entry]?
        for member in members {
            switch member.key {
            case "schemaVersion":
                guard case .number(let text) = member.value.value, let number = Int(text) else {
                    throw FormatError(message: "schemaVersion: expected an integer")
                }
                version = number
            case "findings":
                findings = try Self.entries(member.value)
            default:
                throw FormatError(
                    message:
                        "\(JSONPath().appending(member.key)): unknown key (a baseline has schemaVersion and findings)"
                )
            }
        }
        guard let version else { throw FormatError(message: "schemaVersion: missing") }
        guard version == Self.schemaVersion else {
            throw FormatError(
                message: "schemaVersion: \(version) is not supported (this aasa reads version \(Self.schemaVersion))")
        }
        guard let findings else { throw FormatError(message: "findings: missing") }
        var total = 0
        for entry in findings {
            let (sum, overflow) = total.addingReportingOverflow(entry.count)
            guard !overflow else {
                throw FormatError(message: "findings: the counts add up to more than \(Int.max)")
            }
            total = sum
        }
        self.init(entries: findings)
    }

    private static func entries(_ node: JSONNode) throws(FormatError) -> [Entry] {
        guard let elements = node.elements else {
            throw FormatError(message: "findings: expected an array, found \(node.typeName)")
        }
        var result: [Entry] = []
        for (index, element) in elements.enumerated() {
            let path = JSONPath().appending("findings").appending(index)
            guard let members = element.members else {
                throw FormatError(message: "\(path): expected an object, found \(element.typeName)")
            }
            var strings: [String: String] = [:]
            var count: Int?
            for member in members {
                let at = path.appending(member.key)
                switch member.key {
                case "fingerprint", "rule", "file", "message":
                    guard let value = member.value.stringValue else {
                        throw FormatError(message: "\(at): expected a string, found \(member.value.typeName)")
                    }
                    strings[member.key] = value
                case "count":
                    guard case .number(let text) = member.value.value, let number = Int(text), number >= 1 else {
                        throw FormatError(message: "\(at): expected an integer of at least 1")
                    }
                    count = number
                default:
                    throw FormatError(message: "\(at): unknown key")
                }
            }
            for key in ["fingerprint", "rule", "file", "message"] where strings[key] == nil {
                throw FormatError(message: "\(path.appending(key)): missing")
            }
            guard let fingerprint = strings["fingerprint"], Self.isFingerprint(fingerprint) else {
                throw FormatError(message: "\(path.appending("fingerprint")): expected v1: and 32 hexadecimal digits")
            }
            guard strings["rule"]?.isEmpty == false else {
                throw FormatError(message: "\(path.appending("rule")): expected a rule ID")
            }
            result.append(
                Entry(
                    fingerprint: FindingFingerprint(value: fingerprint),
                    rule: RuleID(rawValue: strings["rule"] ?? ""), file: strings["file"] ?? "",
                    message: strings["message"] ?? "", count: count ?? 1))
        }
        return result
    }

    /// `v`, a version number, `:` and 32 lowercase hexadecimal digits (docs/schemas/baseline.schema.json).
    static func isFingerprint(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count >= 2, parts[0].first == "v",
            parts[0].dropFirst().allSatisfy({ $0.isASCII && $0.isNumber })
        else { return false }
        return parts[1].count == 32 && parts[1].allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }
}
