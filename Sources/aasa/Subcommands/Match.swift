import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Match: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say which app (if any) opens each URL as a universal link, as iOS decides it.",
            discussion: """
                Each app is evaluated on its own: the first entry naming it decides, its rules in \
                order, the first matching rule wins, exclude blocks. See docs/matching.md. A signed file's \
                embedded JSON is used without verifying it.

                Exit status: 0 every URL opens an app, 1 some URL opens none, 2 unreadable or unusable \
                file, 64 usage error.
                """
        )

        @Argument(help: ArgumentHelp("The AASA file (plain or signed; '-' for standard input).", valueName: "file"))
        var file: String

        @Argument(help: ArgumentHelp("URLs (https://host/path?query#fragment, or a bare /path).", valueName: "url"))
        var urls: [String] = []

        @Option(name: .customLong("urls-file"), help: ArgumentHelp("Read URLs from this file, one a line ('-' for standard input; '#' comments).", valueName: "file"))
        var urlsFile: String?

        @Flag(help: "Say, per app, which entry and rule decided, or for a miss the closest rule and what failed.")
        var explain = false

        @Option(help: "Output format: text or json (one object for one URL, an array otherwise).")
        var format: OutputFormat = .text

        /// URLs longer than this are reported, not matched.
        static let maximumURLLength = 8 * 1024

        func validate() throws {
            if urls.isEmpty && urlsFile == nil { throw ValidationError("give URLs to match, or --urls-file FILE ('-' for standard input)") }
            if file == "-" && urlsFile == "-" { throw ValidationError("the AASA file and --urls-file cannot both be standard input") }
        }

        func run() throws {
            try reportingFailures(path: file) {
                let report = Linter.lint(try InputFile.read(file))
                guard let document = report.document else {
                    let reason = report.diagnostics.first { $0.severity == .error }?.message ?? "not an AASA document"
                    throw CLIFailure(file, "cannot match: \(reason)")
                }
                if report.kind.isSigned {
                    Diagnostics.emit(file, .note, "signed file: matching its embedded JSON, which was not verified (use aasa verify)")
                }
                let matcher = URLMatcher(document: document)
                guard !matcher.appIDs.isEmpty else {
                    throw CLIFailure(file, "nothing to match: the file names no applinks app")
                }
                // Open the URL list before writing anything, so a failure leaves no partial output.
                let reader = try urlsFile.map { try LineReader(path: $0, maximumLineLength: Self.maximumURLLength) }
                let single = urls.count == 1 && urlsFile == nil
                var allMatched = true
                var first = true
                if format == .json && !single { FileHandle.standardOutput.write(Data("[\n".utf8)) }
                func emit(_ result: URLMatchResult) throws {
                    if result.appID == nil { allMatched = false }
                    switch format {
                    case .text: printOut(text(result))
                    case .json:
                        var encoded = try JSONOutput.encode(result)
                        if !single {
                            encoded.removeLast()  // the newline; the array adds its own separators
                            if !first { FileHandle.standardOutput.write(Data(",\n".utf8)) }
                        }
                        FileHandle.standardOutput.write(encoded)
                    }
                    first = false
                }
                for url in urls { try emit(evaluate(url, with: matcher)) }
                if let reader {
                    while let (line, truncated) = reader.next() {
                        let url = line.trimmingCharacters(in: .whitespaces)
                        if url.isEmpty || url.hasPrefix("#") { continue }
                        if truncated {
                            try emit(URLMatchResult(url: String(url.prefix(80)) + "…", appID: nil, excluded: false, apps: [], error: "URL longer than \(Self.maximumURLLength) characters"))
                            continue
                        }
                        try emit(evaluate(url, with: matcher))
                    }
                }
                if format == .json && !single { FileHandle.standardOutput.write(Data((first ? "]\n" : "\n]\n").utf8)) }
                if !allMatched { throw ExitStatus.checkFailed }
            }
        }

        private func evaluate(_ url: String, with matcher: URLMatcher) -> URLMatchResult {
            guard url.utf8.count <= Self.maximumURLLength else {
                return URLMatchResult(url: String(url.prefix(80)) + "…", appID: nil, excluded: false, apps: [], error: "URL longer than \(Self.maximumURLLength) characters")
            }
            return matcher.evaluate(url, explain: explain)
        }

        private func text(_ result: URLMatchResult) -> String {
            if let error = result.error { return "\(result.url): error: \(error)" }
            var head = "\(result.url): "
            if let app = result.appID {
                head += app
            } else {
                head += result.excluded ? "no app (excluded)" : "no app"
            }
            guard explain || result.apps.count > 1 else { return head }
            var lines = [head]
            for app in result.apps {
                var line = "  \(app.appID): \(app.verdict.rawValue)"
                if let explanation = app.explanation {
                    line += ": \(explanation.summary)"
                }
                lines.append(line)
            }
            return lines.joined(separator: "\n")
        }
    }
}
