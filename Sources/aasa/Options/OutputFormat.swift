import ArgumentParser

/// The output formats of the batch commands (verify, detect, lint), in one place.
///
/// A new per-file format for every batch command is a case here, listed in ``perFile``, and a
/// branch in ``RecordPrinter``; nothing else changes.
enum BatchFormat: String, CaseIterable, Sendable {
    /// For people: the command's lines for each file.
    case text
    /// For machines: one document (an array of the files' records for several files).
    case json
    /// One compact JSON record per line, per file, in input order as each is printed.
    case jsonl
    /// SARIF 2.1.0, for GitHub code scanning: one document at the end (lint, verify, check, audit).
    case sarif
    /// JUnit XML, a test case per file or domain (lint, verify, audit).
    case junit
    /// A GitLab Code Quality report (lint, check).
    case gitlab
    /// A Markdown summary, for a job summary or a pull request comment (lint, verify, check, audit).
    case markdown

    /// What every batch command offers: the formats that print one record per file.
    static let perFile: [BatchFormat] = [.text, .json, .jsonl]

    /// A report written once at the end from every input's findings (``ReportCollector``).
    var isReport: Bool { !Self.perFile.contains(self) }
}

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
    static var formats: [BatchFormat] { BatchFormat.perFile + [.sarif, .junit, .markdown] }
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
