import AASA
import AASATestSupport
import Foundation
import Testing

/// `Diagnostic.summary`: the first sentence that `lint` prints, so that a line reads at a
/// glance (issue #27); the whole message stays in `message`.
@Suite("Lint: the short message of a finding")
struct DiagnosticSummaryTests {
    static func summary(_ message: String) -> String {
        Diagnostic(.unknownKey, message, at: .file).summary
    }

    @Test("the first sentence, without its full stop; the whole text when there is one sentence")
    func firstSentence() {
        #expect(
            Self.summary("App identifier \"x\" has no \".\": the format is P.B. Fix it.")
                == "App identifier \"x\" has no \".\"")
        #expect(
            Self.summary("applinks.apps must be an empty array; iOS 12 reads it.")
                == "applinks.apps must be an empty array")
        #expect(Self.summary("One sentence only.") == "One sentence only")
        #expect(Self.summary("No full stop") == "No full stop")
    }

    @Test("a quoted value is never cut, however it is punctuated; an escaped quote does not end it")
    func quotedValues() {
        #expect(
            Self.summary("The path \"/a. b; c: d\" is odd in this entry. Fix it.")
                == "The path \"/a. b; c: d\" is odd in this entry")
        #expect(
            Self.summary("The key \"say \\\"hi. there\\\" now\" is unknown to iOS. Remove it.")
                == "The key \"say \\\"hi. there\\\" now\" is unknown to iOS")
    }

    @Test("a lead shorter than 24 characters runs on to the next boundary; e.g. ends no sentence")
    func shortLeads() {
        #expect(
            Self.summary("Not valid JSON: a member is missing. iOS rejects it.")
                == "Not valid JSON: a member is missing")
        #expect(
            Self.summary("Use a pattern, e.g. /buy/* instead of this one. More.")
                == "Use a pattern, e.g. /buy/* instead of this one")
    }

    @Test("every finding on the corpus has a short message that begins its whole message")
    func corpusSummariesAreShort() throws {
        let names = LintCorpus.allFiles
        #expect(names.count == RealWorldCorpus.expectedPlainCount + RealWorldCorpus.expectedSignedCount)
        var findings = 0
        for name in names {
            for diagnostic in try LintCorpus.lint(name).diagnostics {
                findings += 1
                #expect(diagnostic.message.hasPrefix(diagnostic.summary), "\(name): \(diagnostic.rule)")
                #expect(diagnostic.summary.count <= 120, "\(name): \(diagnostic.summary)")
            }
        }
        #expect(findings > 50)
    }
}
