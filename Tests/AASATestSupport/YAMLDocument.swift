import Foundation

/// A YAML document as JSON objects, read by Debian's python3-yaml (`yaml.safe_load`), which
/// scripts/test.sh installs: the recipes' YAML (action.yml, a Kubernetes manifest, a GitLab job)
/// is checked as the tool that runs it would read it, not by hand.
public enum YAMLDocument {
    public struct NotYAML: Error, CustomStringConvertible {
        public let description: String
    }

    /// The document `text` holds, as `JSONSerialization` gives it.
    /// - Throws: ``NotYAML`` with python's answer when it does not parse.
    public static func parse(_ text: String) throws -> Any {
        let parsed = ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))"],
            stdin: Data(text.utf8))
        guard parsed.status == 0 else { throw NotYAML(description: "not YAML (python3-yaml): \(parsed)") }
        return try parsed.json()
    }

    /// The document in the file at `url`.
    public static func parse(contentsOf url: URL) throws -> Any {
        try parse(String(contentsOf: url, encoding: .utf8))
    }
}
