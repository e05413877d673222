import AASA
import ArgumentParser

/// `--historical` (alias `--as-of-signing`): verify a legacy signed file as it was when served,
/// against Mozilla's root store of the time (docs/verify-a-signed-file.md). Shared by every
/// command that verifies (through ``TrustOptions``).
struct HistoricalOptions: ParsableArguments {
    @Flag(
        name: [.customLong("historical"), .customLong("as-of-signing")],
        help: ArgumentHelp(
            "Legacy files: when the chain fails today only for its roots or dates, check it as it was when signed, against Mozilla's root store of the time (the verdict is valid-then, never valid; with --at, the store of that date).",
        ))
    var enabled = false

    /// The compiled-in store, when asked for.
    func store() throws -> HistoricalTrustStore? {
        guard enabled else { return nil }
        do {
            return try HistoricalTrustStore.mozilla
        } catch let error as AASAError {
            throw CLIFailure("--historical", error)
        }
    }
}
