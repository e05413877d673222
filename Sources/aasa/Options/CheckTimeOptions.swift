import AASA
import ArgumentParser
import Foundation

/// When certificates are checked: now, at `--at TIME`, or as of a legacy file's signing
/// (`--historical`, alias `--as-of-signing`: against Mozilla's root store of the time,
/// docs/verify-a-signed-file.md; with `--at`, the store of that date). The one `--at` of every
/// command that checks certificates (verify, extract, check, convert through ``TrustOptions``;
/// inspect; audit).
struct CheckTimeOptions: ParsableArguments {
    @Option(
        name: .customLong("at"),
        help: ArgumentHelp(
            "Check certificates at this time instead of now: ISO 8601 (2025-01-01T00:00:00Z) or Unix seconds.",
            valueName: "time"))
    var atTime: String?

    @Flag(
        name: [.customLong("historical"), .customLong("as-of-signing")],
        help: ArgumentHelp(
            "Legacy files: when the chain fails today only for its roots or dates, check it as it was when signed, against Mozilla's root store of the time (the verdict is valid-then, never valid; with --at, the store of that date).",
        ))
    var historical = false

    func validate() throws {
        try TimeArgument.validate(atTime)
    }

    /// The time `--at` gives, or nil for now.
    var time: Date? { atTime.flatMap(TimeArgument.parse) }

    /// The compiled-in store, when `--historical` asks for it.
    func store() throws -> HistoricalTrustStore? {
        guard historical else { return nil }
        do {
            return try HistoricalTrustStore.mozilla
        } catch let error as AASAError {
            throw CLIFailure("--historical", error)
        }
    }

    /// These options as command-line words (quoted), for a next step that checks as this run did.
    var commandLineWords: [String] {
        var words: [String] = []
        if let atTime { words += ["--at", ShellWord.quoted(atTime)] }
        if historical { words.append("--historical") }
        return words
    }
}
