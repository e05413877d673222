// Validation of real outputs against published schemas, with real validators: JSON Schema
// through scripts/validate-json.py (Debian's python3-jsonschema), XML Schema through
// libxml2's `xmllint --schema`. scripts/test.sh installs both.
import Foundation

/// Runs a schema validator over an output and returns what it found.
public enum SchemaValidation {
    /// The outcome: `valid`, or the validator's lines (each names the failing place), or why
    /// the validator could not run (which a test must report as a failure, not a pass).
    public struct Outcome: CustomStringConvertible, Sendable {
        public let valid: Bool
        public let messages: String
        public var description: String { valid ? "valid" : messages }
    }

    /// `document` (one JSON document, or JSON lines when `lines`) against the JSON Schema at `schema`.
    public static func json(_ document: Data, schema: URL, lines: Bool = false) -> Outcome {
        let script = Repository.root.appendingPathComponent("scripts/validate-json.py")
        let arguments = [script.path] + (lines ? ["--jsonl"] : []) + [schema.path, "-"]
        return outcome(ProcessRunner.run(python3, arguments, stdin: document))
    }

    /// Whether each of `files` is a valid JSON Schema whose `$ref`s all resolve locally (inside
    /// it, or to a schema beside it by its `$id`), through validate-json.py --check.
    public static func schemas(_ files: [URL]) -> Outcome {
        let script = Repository.root.appendingPathComponent("scripts/validate-json.py")
        return outcome(ProcessRunner.run(python3, [script.path, "--check"] + files.map(\.path)))
    }

    /// `document` (XML) against the XML Schema at `schema`.
    public static func xml(_ document: Data, schema: URL) -> Outcome {
        outcome(ProcessRunner.run(xmllint, ["--noout", "--nonet", "--schema", schema.path, "-"], stdin: document))
    }

    private static func outcome(_ result: ProcessResult) -> Outcome {
        guard result.launched else {
            return Outcome(valid: false, messages: "the validator did not start: \(result.stderr)")
        }
        return Outcome(valid: result.status == 0, messages: "exit \(result.status): \(result.stderr)")
    }

    static let python3 = Executables.onPath("python3", otherwise: "/usr/bin/python3")
    static let xmllint = Executables.onPath("xmllint", otherwise: "/usr/bin/xmllint")
}
