import ArgumentParser

/// Which ``BatchFormat``s a command offers.
protocol BatchFormatOffer {
    static var formats: [BatchFormat] { get }
}

/// detect: the per-file formats.
enum PerFileFormats: BatchFormatOffer {
    static var formats: [BatchFormat] { BatchFormat.perFile }
}

/// verify: the per-file formats, SARIF, JUnit and Markdown.
enum VerifyFormats: BatchFormatOffer {
    static var formats: [BatchFormat] { BatchFormat.perFile + [.sarif, .junit, .gitlab, .markdown] }
}

/// check: text, json, SARIF, GitLab and Markdown (one file, so jsonl would be json on one line).
enum CheckFormats: BatchFormatOffer {
    static var formats: [BatchFormat] { [.text, .json, .sarif, .gitlab, .markdown] }
}

/// audit: the per-file formats (one record per domain), SARIF, JUnit and Markdown.
enum AuditFormats: BatchFormatOffer {
    static var formats: [BatchFormat] { BatchFormat.perFile + [.sarif, .junit, .markdown] }
}

/// lint: the per-file formats and every report format.
enum LintFormats: BatchFormatOffer {
    static var formats: [BatchFormat] { BatchFormat.perFile + [.sarif, .junit, .gitlab, .markdown] }
}

/// A batch command's `--format`: a ``BatchFormat`` among those `Offer` offers, which is all
/// that argument-parser accepts, lists in help and completes.
struct BatchFormatOption<Offer: BatchFormatOffer>: ExpressibleByArgument, Sendable, CustomStringConvertible {
    let value: BatchFormat

    init(_ value: BatchFormat) {
        precondition(Offer.formats.contains(value), "\(value) is not offered")
        self.value = value
    }

    init?(argument: String) {
        guard let value = BatchFormat(rawValue: argument), Offer.formats.contains(value) else { return nil }
        self.value = value
    }

    static var allValueStrings: [String] { Offer.formats.map(\.rawValue) }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
    var defaultValueDescription: String { value.rawValue }
    var description: String { value.rawValue }

    /// "text, json or jsonl", for help texts.
    static var listed: String {
        let names = allValueStrings
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

/// `--format` for diff, inspect and match: text for people, json for machines.
enum TextOrJSONFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}

/// `--format` for inspect: text, json, or pem (the embedded certificates).
enum InspectFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json, pem
}

/// `--format` for audit summarize: the summary as text, json or markdown, or csv (a row per domain).
enum FleetFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json, markdown, csv, html
}
