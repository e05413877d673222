import AASA
import ArgumentParser
import Foundation

extension AASACommand {
    struct Migrate: AASASubcommand {
        static let name = "migrate"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract: "Rewrite a legacy AASA file in Apple's current format, with proof that no URL changes app.",
            discussion: """
                details keyed by app ID → array; appID → appIDs (entries with identical rules merged when \
                that cannot change which entry decides); paths → components (NOT → "exclude": true, \
                case-sensitive and percent-encoded, query and fragment unconstrained); applinks.apps dropped. \
                --keep-legacy keeps apps, appID and paths beside the new keys for iOS 12 and earlier. \
                Everything else is kept.

                Before writing, the old and the new file are compared with the matcher on probe URLs derived \
                from every pattern (and on --urls-file, e.g. an access log). If any app's verdict changes \
                for any URL, or a path cannot be migrated faithfully (a "$(" in a legacy path), the \
                differences are printed and nothing is written, unless --force. See \
                \(InstalledDocs.page("convert-and-migrate.md")).

                Several files: --out-dir DIR writes each migrated file under its own name in DIR; each \
                is proved and written on its own, and a summary line counts them.

                Exit status: 0 written (or already in the current format: nothing to do), 1 the proof found \
                differences or the file cannot be migrated faithfully (nothing written), 2 unreadable or not \
                JSON, 64 usage error. With several files, the worst of them.

                EXAMPLES (at the root of a clone of the repository):
                  aasa migrate examples/apple-app-site-association.json
                  aasa migrate Tests/Fixtures/corpus/real-plain/*.json -q \\
                    --out-dir "$(mktemp -d)"
                """
        )

        @Argument(
            help: ArgumentHelp(
                "The legacy AASA files, plain JSON ('-' for standard input; several need --out-dir).", valueName: "in"))
        var files: [String] = []

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp("Where to write the migrated JSON ('-' for standard output).", valueName: "out"))
        var output: String?

        @Option(
            name: .customLong("out-dir"),
            help: ArgumentHelp(
                "Write each migrated file under its own name in this directory (made if missing).", valueName: "dir"))
        var outDirectory: String?

        @Flag(
            name: .customLong("keep-legacy"),
            help: "Keep apps, appID and paths beside the modern keys (for iOS 12 and earlier).")
        var keepLegacy = false

        @Option(
            name: .customLong("urls-file"),
            help: ArgumentHelp(
                "Also compare these URLs: one a line, or an access log ('-' for standard input).", valueName: "file"))
        var urlsFile: String?

        @Flag(help: "Write even when the proof finds differences or a path cannot be migrated faithfully.")
        var force = false

        @Flag(name: .customLong("dry-run"), help: "Migrate and run the proof, but write nothing.")
        var dryRun = false

        @Flag(help: "Write the JSON without white space.")
        var compact = false

        @OptionGroup
        var clobber: ClobberOptions

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        @OptionGroup(title: "Limits")
        var urlLength: URLLengthOption

        /// Verdict changes printed at most (all are counted).
        static let printedDifferences = 20

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give the legacy AASA file to migrate") }
            if files.contains("-") && urlsFile == "-" {
                throw ValidationError("the AASA file and --urls-file cannot both be standard input")
            }
            if output != nil && outDirectory != nil { throw ValidationError("give -o or --out-dir, not both") }
            if files.count > 1 && outDirectory == nil {
                throw ValidationError("several files need --out-dir DIR (each is written there under its own name)")
            }
            if outDirectory != nil && files.contains("-") {
                throw ValidationError("standard input ('-') has no name: give -o for it, not --out-dir")
            }
            if let outDirectory {
                var seen: [String: String] = [:]
                for file in files {
                    let name = (file as NSString).lastPathComponent
                    if let other = seen[name], other != file {
                        throw ValidationError(
                            "'\(other)' and '\(file)' would both be written to \(Self.destination(of: file, in: outDirectory)): migrate them in two runs"
                        )
                    }
                    seen[name] = file
                }
            }
        }

        /// Where `file` is written under `--out-dir`: its name, in the directory.
        static func destination(of file: String, in directory: String) -> String {
            (directory as NSString).appendingPathComponent((file as NSString).lastPathComponent)
        }

        /// What became of one file of several.
        enum Outcome: String {
            case migrated, current, dryRun, notMigrated, unreadable
            /// Refused as a usage error (`-o` the input itself).
            case refused
        }

        func run() throws {
            guard let outDirectory else {
                let outcome = migrate(files[0], to: output ?? "-", under: nil)
                try ExitStatus.throwing(Self.status(of: outcome))
                return
            }
            var counts: [Outcome: Int] = [:]
            for file in files {
                let outcome = migrate(file, to: Self.destination(of: file, in: outDirectory), under: outDirectory)
                counts[outcome, default: 0] += 1
            }
            let worst = ExitStatus.worst(of: counts.keys.map(Self.status(of:)))
            var parts = ["\(counts[.migrated] ?? 0) of \(Counted.files(files.count)) migrated"]
            if let current = counts[.current] { parts.append("\(current) already current") }
            if let checked = counts[.dryRun] { parts.append("\(checked) proved, not written (--dry-run)") }
            if let failed = counts[.notMigrated] { parts.append("\(failed) not migrated (nothing written)") }
            if let unreadable = counts[.unreadable] { parts.append("\(unreadable) unreadable") }
            if let refused = counts[.refused] { parts.append("\(refused) refused (the output is the input)") }
            BatchTally.printSummary("migrate", parts)
            try ExitStatus.throwing(worst)
        }

        static func status(of outcome: Outcome) -> ExitCode {
            switch outcome {
            case .migrated, .current, .dryRun: ExitStatus.success
            case .notMigrated: ExitStatus.checkFailed
            case .unreadable: ExitStatus.badInput
            case .refused: ExitStatus.usage
            }
        }

        /// Migrates `file` to `output` (a path under `directory` for `--out-dir`), reporting
        /// every failure as one line; returns what became of it.
        private func migrate(_ file: String, to output: String, under directory: String?) -> Outcome {
            do {
                switch try reportingFailure(path: file, { try migrateOrThrow(file, to: output, under: directory) }) {
                case .success(let outcome): return outcome
                case .failure(ExitStatus.checkFailed): return .notMigrated
                case .failure(ExitStatus.usage): return .refused
                case .failure: return .unreadable
                }
            } catch {
                Diagnostics.emit(file, .error, "\(error)")
                return .unreadable
            }
        }

        private func migrateOrThrow(_ file: String, to output: String, under directory: String?) throws -> Outcome {
            do {
                try OutputFile.ensureDistinct(output: output, from: [file, urlsFile])
                let limits = self.limits.values(maximumURLLength: urlLength.maxURLLength)
                let root = try readPlainJSON(file, command: "migrate", limits: limits)
                let migration = Migrator.migrate(root, options: MigrationOptions(keepLegacy: keepLegacy))
                for duplicate in migration.duplicates {
                    Diagnostics.emit(
                        file, .warning,
                        "duplicate key: \(duplicate); that is the value Apple's parser uses, and the migration too")
                }
                let fatal = migration.blockers.filter { !$0.forceable }
                if !fatal.isEmpty {
                    for blocker in fatal { Diagnostics.emit(file, .error, "cannot migrate: \(blocker)") }
                    throw CLIFailure(file, "not migrated; nothing written", status: ExitStatus.checkFailed)
                }
                guard migration.changed else {
                    Diagnostics.emit(
                        file, .note,
                        "already in the current format\(keepLegacy ? " (legacy keys kept)" : ""): nothing to migrate, nothing written"
                    )
                    return .current
                }
                for note in migration.notes {
                    Diagnostics.emit(
                        file, note.kind == .warning ? .warning : .note,
                        note.description(namingKeepLegacy: "--keep-legacy"))
                }
                let blocked = !migration.blockers.isEmpty
                for blocker in migration.blockers {
                    Diagnostics.emit(file, force ? .warning : .error, blocker.description)
                }

                // The proof runs on exactly the bytes that would be written.
                let data = JSONWriter(style: compact ? .compact : .pretty).data(migration.root)
                var written = migration
                written.root = try limits.library.jsonParser.parse(data)
                let extra =
                    try urlsFile.map { try URLList.open($0, maximumURLLength: limits.library.maximumURLLength) }
                    ?? AnySequence([])
                let proof = Migrator.prove(written, extraURLs: extra, keeping: Self.printedDifferences)
                report(proof, file: file)

                let problems = blocked || !proof.isEquivalent
                if problems && !force {
                    throw CLIFailure(
                        file,
                        "not migrated: \(blocked ? "some paths cannot be migrated faithfully" : "the meaning would change"); nothing written (--force writes anyway)",
                        status: ExitStatus.checkFailed)
                }
                if dryRun {
                    Diagnostics.emit(file, .note, "dry run: nothing written")
                    if problems { throw ExitStatus.checkFailed }
                    return .dryRun
                }
                if problems {
                    Diagnostics.emit(
                        file, .warning, "written despite the differences above (--force): check them before deploying")
                }
                if let directory {
                    try OutputFile.write(
                        data, under: directory, relative: (file as NSString).lastPathComponent, path: output,
                        policy: OutputFile.Policy(durable: true, noClobber: clobber.noClobber))
                } else {
                    try OutputFile.write(data, to: output, noClobber: clobber.noClobber)
                }
                return .migrated
            }
        }

        private func report(_ proof: MigrationProof, file: String) {
            var sources =
                "\(proof.probeCount) probes from \(proof.patternCount) \(proof.patternCount == 1 ? "pattern" : "patterns")"
            if proof.truncated {
                sources += " (the probe set was capped: at most 100,000 probes and 200 million URL-pattern comparisons)"
            }
            if let urlsFile {
                sources += ", \(proof.extraCount) from \(Diagnostics.displayName(urlsFile))"
                if proof.extraTruncated { sources += " (the rest of the list not compared: the proof's budget)" }
            }
            let readings = proof.legacy == nil ? "" : ", as iOS 13+ and as iOS 12 and earlier read them"
            if proof.isEquivalent {
                Diagnostics.emit(
                    file, .note,
                    "proof: \(proof.compared) URLs compared (\(sources))\(readings): no app's verdict changed")
                return
            }
            let severity: Diagnostics.Severity = force ? .warning : .error
            for (label, result) in [("", proof.modern), ("iOS 12 and earlier: ", proof.legacy)] {
                guard let result, !result.isEquivalent else { continue }
                Diagnostics.emit(
                    file, severity,
                    "proof: \(label)\(result.changedCount) of \(result.compared) URLs compared (\(sources)) change verdict:"
                )
                for change in result.changes { Diagnostics.emit(file, severity, "proof: \(label)\(change.summary)") }
                if result.changedCount > result.changes.count {
                    Diagnostics.emit(
                        file, severity, "proof: \(label)… and \(result.changedCount - result.changes.count) more")
                }
            }
        }
    }
}

/// Reads a plain JSON AASA file (a UTF-8 byte-order mark is skipped) within `limits`. A signed
/// file is refused with a pointer to `aasa convert`, which verifies it first.
func readPlainJSON(_ path: String, command: String, limits: LimitOptions.Values) throws -> JSONNode {
    let file = AASAFile.read(try limits.read(path), limits: limits.library)
    if file.kind.isSigned {
        throw CLIFailure(
            path,
            "a signed file: convert it to plain JSON first (aasa convert, which verifies it), then \(command) that")
    }
    do {
        return try file.object()
    } catch {
        throw CLIFailure(path, "\(error)")
    }
}
