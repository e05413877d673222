import AASA
import AASAReports
import Foundation
import Testing

/// `.aasa.json` in the library (issue #26): parsed strictly without the CLI, each problem naming
/// its key, the baseline resolved against the file's directory.
struct ProjectConfigurationTests {
    static let known = RuleRegistry.all.map(\.id)

    private func parse(_ text: String, path: String = "project/.aasa.json") throws(ProjectConfiguration.Problem)
        -> ProjectConfiguration
    {
        try ProjectConfiguration.parse(Data(text.utf8), path: path, known: Self.known)
    }

    private func problem(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("rules, failOn and a baseline relative to the file's directory")
    func parsesAWholeFile() throws {
        let rule = try #require(Self.known.first)
        let second = try #require(Self.known.dropFirst().first)
        let configuration = try parse(
            #"{"$schema": "x", "rules": {"\#(rule.rawValue)": "off", "\#(second.rawValue)": "warning"}, "failOn": "warning", "baseline": "base.json"}"#
        )
        #expect(configuration.rules.map(\.rule) == [rule, second])
        #expect(configuration.rules.map(\.setting) == [.off, .severity(.warning)])
        #expect(configuration.failOn == .warning)
        #expect(configuration.baseline == "project/base.json")
        #expect(try parse(#"{"baseline": "/abs/base.json"}"#).baseline == "/abs/base.json")
    }

    @Test("every problem names its key; a near miss gets a suggestion")
    func problemsNameTheKey() throws {
        #expect(problem(#"{"failon": "error"}"#) == #"failon: unknown key (did you mean 'failOn'?)"#)
        #expect(
            problem(#"{"rules": {"no-such-rule-at-all": "off"}}"#)?.hasPrefix("rules.no-such-rule-at-all: no such rule")
                == true)
        #expect(
            problem(#"{"failOn": "fatal"}"#)
                == "failOn: expected one of \(Severity.allCases.map(\.rawValue).joined(separator: ", "))")
        #expect(problem(#"{"failOn": "error", "failOn": "error"}"#) == "failOn: given twice")
        #expect(problem("[]") == "\(JSONPath()): expected an object, found array")
        #expect(problem("{")?.contains("not JSON") == true)
    }
}
