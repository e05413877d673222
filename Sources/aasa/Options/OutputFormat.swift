import ArgumentParser

/// Every output format of the CLI, in one place. A command's `--format` offers a subset of
/// them (``OutputFormatSubset``): argument-parser lists and accepts only that subset's values,
/// and ``OutputFormatSubset/outputFormat`` names the value here.
///
/// A new format is a case here, in the subset of each command that offers it, and a branch in
/// that command's printer.
enum OutputFormat: String, CaseIterable, Sendable {
    /// For people.
    case text
    /// For machines: one document (an array for several inputs).
    case json
    /// One JSON object per line, as each is ready (audit).
    case jsonl
    /// SARIF 2.1.0, for GitHub code scanning (lint).
    case sarif
}

/// The `--format` values one command offers: cases named as in ``OutputFormat``.
protocol OutputFormatSubset: RawRepresentable, ExpressibleByArgument, CaseIterable, Sendable where RawValue == String {}

extension OutputFormatSubset {
    /// This value as one of ``OutputFormat``.
    var outputFormat: OutputFormat {
        guard let format = OutputFormat(rawValue: rawValue) else {
            preconditionFailure("--format \(rawValue) is not in OutputFormat")
        }
        return format
    }
}

/// `--format` for check, detect, diff, inspect, match and verify: text for people, json for machines.
enum TextOrJSONFormat: String, OutputFormatSubset {
    case text, json
}

/// `--format` for lint: text, json or sarif.
enum LintFormat: String, OutputFormatSubset {
    case text, json, sarif
}

/// `--format` for audit: text, json or jsonl.
enum AuditFormat: String, OutputFormatSubset {
    case text, json, jsonl
}
