import AASA
import AASAReports
import ArgumentParser
import Foundation

extension AASACommand {
    struct Match: AASASubcommand {
        static let name = "match"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract: "Say which app (if any) opens each URL as a universal link, as iOS decides it.",
            usage: "aasa match [<options>] <file> [<url> ...]",
            discussion: """
                Each app is evaluated on its own: the first entry naming it decides, its rules in \
                order, the first matching rule wins, exclude blocks. See \(InstalledDocs.page("matching.md")). A signed file's \
                embedded JSON is used without verifying it.

                Exit status: 0 every URL opens an app, 1 some URL opens none (every URL, for a file \
                without applinks apps: a note says so), 2 unreadable or unusable file, 64 usage error.

                EXAMPLES (at the root of a clone of the repository):
                  aasa match examples/apple-app-site-association.json \\
                    https://example.com/help/faq --explain
                """
        )

        @Argument(help: ArgumentHelp("The AASA file (plain or signed; '-' for standard input).", valueName: "file"))
        var file: String

        @Argument(help: ArgumentHelp("URLs (https://host/path?query#fragment, or a bare /path).", valueName: "url"))
        var urls: [String] = []

        @Option(
            name: .customLong("urls-file"),
            help: ArgumentHelp(
                "Read URLs from this file, one a line ('-' for standard input; '#' comments).", valueName: "file"))
        var urlsFile: String?

        @Flag(help: "Say, per app, which entry and rule decided, or for a miss the closest rule and what failed.")
        var explain = false

        @Option(help: "Output format (json: one object for one URL, an array otherwise).")
        var format: TextOrJSONFormat = .text

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        @OptionGroup(title: "Limits")
        var urlLength: URLLengthOption

        func validate() throws {
            if urls.isEmpty && urlsFile == nil {
                throw ValidationError("give URLs to match, or --urls-file FILE ('-' for standard input)")
            }
            if file == "-" && urlsFile == "-" {
                throw ValidationError("the AASA file and --urls-file cannot both be standard input")
            }
        }

        func run() throws {
            try reportingFailures(path: file) {
                let limits = self.limits.values(maximumURLLength: urlLength.maxURLLength)
                let aasaFile = AASAFile.read(try limits.read(file), limits: limits.library)
                let document: AASADocument
                do {
                    document = try aasaFile.document()
                } catch {
                    throw CLIFailure(file, "cannot match: \(error)")
                }
                if aasaFile.kind.isSigned {
                    Diagnostics.emit(
                        file, .note, "signed file: matching its embedded JSON, which was not verified (use aasa verify)"
                    )
                }
                let matcher = URLMatcher(document: document)
                // Open the URL list before writing anything, so a failure leaves no partial output.
                let maximumURLLength = limits.library.maximumURLLength
                let tooLong = "URL longer than \(maximumURLLength) characters (--max-url-length)"
                let reader = try urlsFile.map { try LineReader.opening($0, maximumLineLength: maximumURLLength) }
                if matcher.appIDs.isEmpty {
                    // A valid answer, not an unusable file: no app opens any URL (exit 1).
                    Diagnostics.emit(
                        file, .note, "\(Self.noAppReason(document)): no app opens any URL through this file")
                }
                let single = urls.count == 1 && urlsFile == nil
                let (format, explain) = (format, explain)  // read once: property wrappers cost a call each
                let lines = TextLines(appIDs: matcher.appIDs)
                var allMatched = true
                var first = true
                // One write per 64 KB, not per URL: an access log has millions of lines.
                let out = BufferedOutput()
                if format == .json && !single { out.append("[\n") }
                func emit(_ result: URLMatchResult) throws {
                    if result.appID == nil { allMatched = false }
                    switch format {
                    case .text:
                        Self.writeText(
                            url: result.url, error: result.error, verdicts: result.apps.map(\.verdict),
                            explanations: explain ? result.apps.map(\.explanation) : nil, lines: lines, to: out)
                    case .json:
                        var encoded = try JSONOutput.encode(result, stamped: .match)
                        if !single {
                            encoded.removeLast()  // the newline; the array adds its own separators
                            if !first { out.append(",\n") }
                        }
                        out.append(encoded)
                    }
                    first = false
                }
                // Plain text needs only the verdicts: no result value, no app-ID strings per URL.
                let verdictsOnly = format == .text && !explain
                var verdicts: [AppVerdict.Verdict] = []
                verdicts.reserveCapacity(matcher.appIDs.count)
                func match(_ url: String) throws {
                    guard url.utf8.count <= maximumURLLength else {
                        return try emit(URLMatchResult(url: String(url.prefix(80)) + "…", error: tooLong))
                    }
                    guard verdictsOnly else { return try emit(matcher.evaluate(url, explain: explain)) }
                    let error = matcher.verdicts(for: url, into: &verdicts)
                    if !verdicts.contains(.match) { allMatched = false }
                    Self.writeText(url: url, error: error, verdicts: verdicts, explanations: nil, lines: lines, to: out)
                }
                for url in urls { try match(url) }
                if let reader {
                    while let (line, truncated) = reader.next() {
                        let url = Self.trimmingWhitespace(line)
                        if url.isEmpty || url.hasPrefix("#") { continue }
                        if truncated {
                            try emit(URLMatchResult(url: String(url.prefix(80)) + "…", error: tooLong))
                            continue
                        }
                        try match(url)
                    }
                }
                if format == .json && !single { out.append(first ? "]\n" : "\n]\n") }
                try out.flush()
                if let reader, let urlsFile, let error = reader.readError {
                    throw CLIFailure(urlsFile, "cannot read URL list: \(error)")
                }
                if !allMatched { throw ExitStatus.checkFailed }
            }
        }

        /// Why `document` names no applinks app, for the note that every URL opens none.
        static func noAppReason(_ document: AASADocument) -> String {
            if document.appLinks != nil {
                return "the applinks section names no app (no details entry with appID or appIDs)"
            }
            if document.root.members?.contains(where: { $0.key == "applinks" }) == true {
                return "applinks is not an object, so iOS reads no app from it"
            }
            return "the file has no applinks section"
        }

        /// `line.trimmingCharacters(in: .whitespaces)`, without Foundation when the line starts
        /// and ends with an ASCII character that is not white space (nearly every URL).
        static func trimmingWhitespace(_ line: String) -> String {
            guard let first = line.utf8.first, let last = line.utf8.last else { return line }
            func plain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && byte != 0x09 }
            return plain(first) && plain(last) ? line : line.trimmingCharacters(in: .whitespaces)
        }

        /// The bytes of the text output that are the same for every URL, made once: each app's
        /// ID, and its line under the URL for each verdict ("  APP: no_match").
        struct TextLines {
            let appIDs: [[UInt8]]
            /// `[app][verdict]`, in the order of ``verdicts``.
            let appLines: [[[UInt8]]]
            static let verdicts: [AppVerdict.Verdict] = [.match, .exclude, .noMatch]

            /// The app IDs escaped for the terminal (``TerminalText``), like every untrusted value
            /// of the text output.
            init(appIDs unescaped: [String]) {
                let appIDs = unescaped.map(TerminalText.line)
                self.appIDs = appIDs.map { Array($0.utf8) }
                appLines = appIDs.map { app in Self.verdicts.map { Array("  \(app): \($0.rawValue)\n".utf8) } }
            }

            static func index(_ verdict: AppVerdict.Verdict) -> Int {
                switch verdict {
                case .match: return 0
                case .exclude: return 1
                case .noMatch: return 2
                }
            }
        }

        /// The text lines for one URL, each ending in a newline: `URL: APP` (or `no app`), and
        /// with --explain or several apps a line per app. `verdicts` are in the order of the
        /// matcher's apps (empty with an `error`); `explanations`, with --explain, too. Written
        /// straight into the output buffer, with the per-app lines made once (``TextLines``):
        /// printing used to cost as much as matching.
        static func writeText(
            url: String, error: String?, verdicts: [AppVerdict.Verdict], explanations: [MatchExplanation?]?,
            lines: TextLines, to out: BufferedOutput
        ) {
            var url = TerminalText.line(url)  // a URL of a list may hold any byte but LF
            out.append { text in
                url.withUTF8 { text.append(contentsOf: $0) }
                if let error {
                    text += ": error: ".utf8
                    text += TerminalText.line(error).utf8
                    text.append(0x0A)
                    return
                }
                text += ": ".utf8
                if let first = verdicts.firstIndex(of: .match) {
                    text += lines.appIDs[first]
                } else {
                    text += (verdicts.contains(.exclude) ? "no app (excluded)" : "no app").utf8
                }
                text.append(0x0A)
                guard explanations != nil || verdicts.count > 1 else { return }
                for index in verdicts.indices {
                    guard let explanation = explanations?[index] else {
                        text += lines.appLines[index][TextLines.index(verdicts[index])]
                        continue
                    }
                    text += "  ".utf8
                    text += lines.appIDs[index]
                    text += ": ".utf8
                    text += verdicts[index].rawValue.utf8
                    text += ": ".utf8
                    text += TerminalText.line(explanation.summary).utf8
                    text.append(0x0A)
                }
            }
        }
    }
}
