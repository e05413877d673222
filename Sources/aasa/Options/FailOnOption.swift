import AASA
import ArgumentParser

/// `--fail-on LEVEL` of check, audit and lint: the lowest severity of a finding that makes the
/// command exit 1. One declaration, so that the three commands accept, name and explain it alike.
struct FailOnOption: ParsableArguments {
    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp(
            "Exit 1 on findings at or above this level (error unless --strict or the configuration says otherwise).",
            valueName: "level"))
    var level: Severity?

    /// The severity at or above which a finding fails: `--fail-on`, or `error` when it is not given.
    var threshold: Severity { level ?? .error }

    /// Whether a finding of `severity` fails.
    func fails(_ severity: Severity) -> Bool { severity >= threshold }
}

extension Severity: ExpressibleByArgument {}
