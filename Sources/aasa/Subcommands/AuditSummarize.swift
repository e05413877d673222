import AASA
import AASAAudit
import AASAReports
import ArgumentParser
import Foundation

extension AASACommand.Audit {
    /// `aasa audit summarize FILE.jsonl…`: one summary of many `aasa audit --format jsonl`
    /// result files (shards of a fleet, or the runs of a resumed audit), read line by line.
    struct Summarize: AASASubcommand {
        static let name = "summarize"

        static let configuration = CommandConfiguration(
            commandName: name,
            // Its usage lines say "aasa audit summarize" when it is parsed on its own
            // (AASACommand.nestedSubcommand).
            _superCommandName: "\(AASACommand.name) audit",
            abstract:
                "Summarize 'aasa audit --format jsonl' result files: domains by verdict, findings by rule, signers by expiry.",
            usage: "aasa audit summarize [<options>] <file.jsonl> ...",
            discussion: """
                Reads each FILE line by line ('-' for standard input) and counts each domain once: when \
                several records name the same domain (overlapping shards, a resumed run), the last one read \
                wins, in the order of the arguments. A line that is not an audit record (cut short, another \
                schemaVersion, anything else) is reported as FILE:LINE: warning: and skipped; blank lines are \
                ignored. A domain literally named 'summarize' is audited with 'aasa audit -- summarize'. \
                Guide: \(InstalledDocs.page("audit.md")), "Fleet summary".

                A FILE that is the one JSON document of 'aasa audit --format json' is refused with one line \
                (summarize reads --format jsonl), and so is a run in which no FILE held any audit record.

                Exit status: 0 the summary is complete; 2 a FILE cannot be read, or not to its end, or is a \
                --format json document, or no record was read at all (the summary of the rest is still \
                printed); 64 usage error.

                EXAMPLES (in a directory holding the result files of 'aasa audit --format jsonl'):
                  aasa audit summarize results.jsonl
                  aasa audit summarize shard-*.jsonl --format json
                """,
            // As the root has it: parsed on its own, it still answers --version and lists it in its help.
            version: AASAVersion.current
        )

        @Argument(
            help: ArgumentHelp(
                "Result files of 'aasa audit --format jsonl' ('-' for standard input).", valueName: "file"))
        var files: [String] = []

        @Option(
            help:
                "Output format: text, json (one document), markdown (for a CI job summary), csv (a row per domain, for a spreadsheet) or html (one self-contained page: charts, rules, a table of every domain with its detail)."
        )
        var format = FleetFormat.text

        @Option(
            name: .customLong("at"),
            help: ArgumentHelp(
                "Judge signers' expiry at this time: ISO 8601 or Unix seconds (default now).", valueName: "time"))
        var atTime: String?

        @Option(
            name: .customLong("list"),
            help: ArgumentHelp(
                "List the domains that meet this condition instead of the summary (repeatable: all must hold): verdict=NAME, rule=ID, signer=expired, signer=valid or signer=none. One name a line; with --format csv their rows, with json an array of names.",
                valueName: "key=value"))
        var list: [String] = []

        @Option(
            name: .customLong("saved"),
            help: ArgumentHelp(
                "With --format html: link each domain's detail to what 'aasa audit --save DIR' kept of it (DIR as given, from where the page is opened).",
                valueName: "dir"))
        var savedDirectory: String?

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        /// Lines longer than this are skipped with a warning (a domain record is far smaller).
        static let maximumLineLength = 4 * 1024 * 1024

        func validate() throws {
            if files.isEmpty {
                throw ValidationError(
                    "no result file: give the files of 'aasa audit --format jsonl' ('-' for standard input)")
            }
            try TimeArgument.validate(atTime)
            _ = try filter()
            if savedDirectory != nil && (format != .html || !list.isEmpty) {
                throw ValidationError("--saved links the HTML report's domains to their saved files: use --format html")
            }
            if !list.isEmpty && (format == .markdown || format == .html) {
                throw ValidationError("--list gives domain names: use --format text, json or csv")
            }
        }

        func run() throws {
            let time = atTime.flatMap(TimeArgument.parse) ?? Date()
            var summary = FleetSummary()
            let decoder = AuditLine.decoder()
            // Each domain's entry of the HTML page (its last record's), for that format only.
            var entries: PageEntries? = format == .html && list.isEmpty ? PageEntries(saved: savedDirectory) : nil
            let read = files.map { Self.read($0, into: &summary, entries: &entries, decoder: decoder) }
            let report = summary.report(at: time, files: read)
            if list.isEmpty {
                switch format {
                case .json: try JSONOutput.print(report, stamped: .fleet)
                case .markdown: StandardStreams.out(Data(FleetReportRendering.markdown(report).utf8))
                case .csv: StandardStreams.out(try FleetCSV.data(summary.domainRows(at: time)))
                case .text: StandardStreams.out(Data(FleetReportRendering.text(report).utf8))
                case .html:
                    let sorted = (entries?.byDomain ?? [:]).values.sorted { $0.domain < $1.domain }
                    try FleetPage.write(report: report, entries: sorted, context: FleetPage.Context()) {
                        StandardStreams.out($0)
                    }
                }
            } else {
                let rows = summary.domainRows(at: time).filter(try filter().matches)
                try Self.printList(rows, format: format)
                Diagnostics.emit(
                    "summarize", .note,
                    "\(rows.count) of \(report.domains) domain\(report.domains == 1 ? "" : "s") meet "
                        + list.joined(separator: " and "))
            }
            if read.allSatisfy({ $0.records == 0 }) && report.unreadable < read.count {
                // A gate on the summary must not pass on nothing (issue #27).
                Diagnostics.emit(
                    "summarize", .error,
                    "no audit record in \(Counted.files(read.count)): give the output of 'aasa audit --format jsonl'")
                throw ExitStatus.badInput
            }
            if report.unreadable > 0 { throw ExitStatus.badInput }
        }

        /// `--list`'s conditions; a usage error names the first that is not one.
        private func filter() throws -> FleetDomainFilter {
            do {
                return try FleetDomainFilter(parsing: list)
            } catch let problem as FleetDomainFilter.Problem {
                throw ValidationError("--list \(problem.description)")
            }
        }

        /// The domains `--list` selects: a name a line (text), an array of names (json), or
        /// their rows (csv).
        static func printList(_ rows: [FleetDomainRow], format: FleetFormat) throws {
            switch format {
            case .csv:
                StandardStreams.out(try FleetCSV.data(rows))
            case .json:
                let names = try JSONSerialization.data(withJSONObject: rows.map(\.domain), options: [.prettyPrinted])
                StandardStreams.out(names + Data("\n".utf8))
            case .text, .markdown, .html:
                StandardStreams.out(Data(rows.map { TerminalText.line($0.domain) + "\n" }.joined().utf8))
            }
        }

        /// Why a file's first line shows it to be one JSON document (``AASACommand/Audit``'s
        /// `--format json` starts with a line holding only `{`; a JSON array of records only `[`)
        /// rather than JSON Lines, whose every line is a whole record; nil otherwise.
        static func documentProblem(firstLine line: String) -> String? {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed == "{" || trimmed == "[" else { return nil }
            return "this is one JSON document, as 'aasa audit --format json' writes it; summarize reads "
                + "'aasa audit --format jsonl' (one record per line): nothing of this file is counted"
        }

        /// Adds every audit record of `path` to `summary`; warns about each other line, and says
        /// on one error line why the file cannot be read (or not to its end).
        static func read(
            _ path: String, into summary: inout FleetSummary, entries: inout PageEntries?,
            decoder: JSONDecoder
        ) -> FleetReport.FileRead {
            var file = FleetReport.FileRead(path: path)
            let reader: LineReader
            do {
                reader = try LineReader.opening(path, maximumLineLength: maximumLineLength, what: "result file")
            } catch {
                let failure = CLIFailure(path, describing: error)
                Diagnostics.emit(failure.path, .error, failure.message)
                file.error = failure.message
                return file
            }
            let name = Diagnostics.displayName(path)
            while let next = reader.next() {
                let (line, truncated) = next
                file.lines += 1
                if line.allSatisfy(\.isWhitespace) && !truncated { continue }
                if file.records == 0 && file.skipped == 0, !truncated,
                    let problem = Self.documentProblem(firstLine: line)
                {
                    Diagnostics.emit(path, .error, problem)
                    file.error = problem
                    return file
                }
                let problem: String
                if truncated {
                    problem = "a line longer than \(maximumLineLength / 1024 / 1024) MiB is no audit record"
                } else {
                    switch AuditLine.parse(Data(utf8: line), decoder: decoder) {
                    case .success(let record):
                        summary.add(record.report)
                        entries?.add(record)
                        file.records += 1
                        continue
                    case .failure(let failure): problem = failure.description
                    }
                }
                file.skipped += 1
                Diagnostics.emit("\(name):\(file.lines)", .warning, problem + ": skipped")
            }
            if let readError = reader.readError {
                let message = "cannot read to the end (\(readError)): the lines before are counted"
                Diagnostics.emit(path, .error, message)
                file.error = message
            }
            return file
        }
    }
}

extension AASACommand.Audit.Summarize {
    /// The HTML page's entry of each domain, its last record's, linked to its saved files
    /// with `--saved DIR`.
    struct PageEntries {
        let saved: String?
        var byDomain: [String: FleetPage.Entry] = [:]

        init(saved: String?) { self.saved = saved }

        /// Adds the entry of `record`.
        mutating func add(_ record: AuditLine) {
            var detail = FleetDomainDetail(record)
            if let saved { detail.saved = AuditSaver.savedFiles(of: detail.domain, in: saved) }
            do {
                byDomain[detail.domain.lowercased()] = try FleetPage.Entry(detail)
            } catch {
                // JSON encoding fails only on a number it cannot hold, which a detail has none of.
                Diagnostics.emit(detail.domain, .warning, "left out of the HTML page: \(error)")
            }
        }
    }
}
