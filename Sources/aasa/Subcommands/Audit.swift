import AASA
import AASAAudit
import AASAReports
import ArgumentParser
import Foundation

extension AASACommand {
    /// `aasa audit`: a synchronous command over the asynchronous `AASAAudit` work (the root
    /// stays a `ParsableCommand`; see AASACommand). It starts audits on the auditor's event
    /// loops and waits for their results on a condition variable, printing each as it is ready.
    struct Audit: AASASubcommand {
        static let name = "audit"

        static let configuration = CommandConfiguration(
            commandName: name,
            _superCommandName: AASACommand.name,
            abstract: "Fetch live domains' AASA files over HTTPS, as Apple does, and report what is legacy or broken.",
            usage: "aasa audit [<options>] [<domain> ...]\n       aasa audit summarize [<options>] <file.jsonl> ...",
            discussion: """
                For each domain, fetches https://DOMAIN/.well-known/apple-app-site-association and the legacy \
                https://DOMAIN/apple-app-site-association without following redirects, records status, \
                Content-Type, size, timings and the TLS certificate chain (checked against the system roots and \
                --ca-file), then runs what 'aasa check' runs on the file iOS would use: detect, verify when \
                signed (and whether the signer is the domain's TLS identity), lint, deprecation report. \
                Hosting findings have their own rule IDs (aasa rules). With --cdn, also compares Apple's CDN \
                copy. Through an HTTP proxy (CONNECT) with --proxy, or https_proxy/HTTPS_PROXY and NO_PROXY as \
                curl reads them. Guide: \(InstalledDocs.page("audit.md")).

                Exit status: 0 no finding at or above --fail-on (default error), or --exit-zero; 1 findings at \
                that level; \
                2 a domain entry or a --ca-file/--domains-file/--resume file cannot be read or used, a --save file \
                cannot be written, or a domain was not \
                audited because this machine ran out of file descriptors or the proxy could not be used (the other \
                domains are still audited), or no name that this machine looked up resolved (one 'no name \
                resolved' line says so: offline, or a DNS that answers nothing); \
                64 usage error.

                EXAMPLES (these contact the domains they name):
                  aasa audit example.com www.example.com --cdn
                  aasa audit --domains-file domains.txt --format jsonl > results.jsonl
                  aasa audit --domains-file domains.txt --save served/ --format jsonl \\
                    > results.jsonl
                  aasa audit summarize results.jsonl
                """,
            subcommands: [Summarize.self]
        )

        @Argument(help: ArgumentHelp("Domains to audit: example.com or host:port.", valueName: "domain"))
        var domains: [String] = []

        @Option(
            name: .customLong("domains-file"),
            help: ArgumentHelp(
                "Read domains from FILE, one a line ('#' comments; '-' for standard input).", valueName: "file"))
        var domainsFile: String?

        @Option(
            help:
                "Output format (text: a block per domain and a summary table; json: one document; jsonl: one object per domain as it finishes; sarif (SARIF 2.1.0), junit (a test case per domain), markdown (a summary): one report at the end)."
        )
        var format = BatchFormatOption<AuditFormats>(.text)

        @OptionGroup(title: "Reports")
        var report: ReportOptions

        @OptionGroup
        var failOn: FailOnOption

        @Flag(
            name: .customLong("exit-zero"),
            help:
                "Exit 0 when findings reach --fail-on (the report still has them), for batch engines that retry a job that exits 1; status 2 stays."
        )
        var exitZero = false

        @OptionGroup(title: "Rules")
        var rules: RuleSelectionOptions

        @Option(help: ArgumentHelp("Domains audited at once.", valueName: "n"))
        var concurrency = 16

        @Option(
            help: ArgumentHelp(
                "Seconds one request may take, connecting included; also the longest wait for a free file descriptor.",
                valueName: "seconds"))
        var timeout: Double = 10

        @Option(
            help: ArgumentHelp(
                "Retries after a connection error (never after TLS errors, answers or timeouts).",
                valueName: "n"))
        var retries = 2

        @Option(
            name: .customLong("max-bytes"),
            help: ArgumentHelp(
                "Stop reading a body past this size and report file-too-large (a little over 128 KB unless set).",
                valueName: "n"))
        var maxBytes = AuditConfiguration.defaultMaximumBodySize

        @Option(
            help: ArgumentHelp(
                "Connect to ADDRESS for HOST on PORT, keeping HOST for TLS and the Host header, as curl's --resolve (repeatable; HOST may be *.example.com or *, PORT may be *).",
                valueName: "host:port:address"))
        var resolve: [String] = []

        @OptionGroup(title: "Proxy")
        var proxy: ProxyOptions

        @Flag(help: "Also fetch Apple's CDN copy and compare it with the origin's.")
        var cdn = false

        @Option(
            name: .customLong("cdn-base-url"),
            help: ArgumentHelp(
                "The CDN's base URL; the domain is appended.",
                valueName: "url"))
        var cdnBaseURL = AuditConfiguration.appleCDNBaseURL

        @OptionGroup(title: "Trust (for TLS and for signers)")
        var anchors: AnchorOptions

        @Flag(
            inversion: .prefixedNo,
            help:
                "Show a progress bar on standard error (default: on a terminal that can redraw a line, after half a second)."
        )
        var progress: Bool?

        /// `--max-input-size` here is another name for `--max-bytes`, the body cap; the URL
        /// length does not apply (no URL is matched).
        @OptionGroup(title: "Legacy signed files")
        var checkTime: CheckTimeOptions

        @OptionGroup(title: "Display")
        var display: DisplayOptions

        @OptionGroup(title: "Limits")
        var limits: LimitOptions

        @OptionGroup(title: "Large scans")
        var largeScan: LargeScanOptions

        @OptionGroup(title: "Politeness")
        var politeness: PolitenessOptions

        @Option(
            help: ArgumentHelp(
                "Keep what each domain served under DIR/DOMAIN/: the file as received, its status line and headers, the TLS chain (PEM); the text report's next steps then name the saved file.",
                valueName: "dir"))
        var save: String?

        /// The body cap: `--max-input-size` or `--max-bytes`.
        private var bodyCap: Int { limits.givenInputSize ?? maxBytes }

        func validate() throws {
            if domains.isEmpty && domainsFile == nil {
                throw ValidationError(
                    "no domain to audit: give domains as arguments (aasa audit example.com) or a list with --domains-file FILE ('-' for standard input)"
                )
            }
            for domain in domains {
                do {
                    _ = try AuditDomain.parse(domain)
                } catch {
                    throw ValidationError("not a domain: \(error)")
                }
            }
            guard (1...1_000).contains(concurrency) else {
                throw ValidationError("--concurrency must be from 1 to 1000")
            }
            guard timeout > 0, timeout <= 600 else {
                throw ValidationError("--timeout must be more than 0 and at most 600 seconds")
            }
            guard (0...10).contains(retries) else { throw ValidationError("--retries must be from 0 to 10") }
            if limits.maxInputSizeText != nil && maxBytes != AuditConfiguration.defaultMaximumBodySize {
                throw ValidationError("--max-input-size and --max-bytes both set the body cap: give one")
            }
            guard bodyCap >= 1, bodyCap <= 64 * 1024 * 1024 else {
                throw ValidationError("--max-bytes (or --max-input-size) must be from 1 to 67108864 (64M)")
            }
            for rule in resolve {
                do {
                    _ = try ResolveRule.parse(rule)
                } catch {
                    throw ValidationError("--resolve \(error)")
                }
            }
            if cdnBaseURL != AuditConfiguration.appleCDNBaseURL && !cdn {
                throw ValidationError("--cdn-base-url is used only with --cdn: add --cdn")
            }
            try largeScan.validate(format: format.value)
            _ = try proxy.configuration()
        }

        /// The trust options of this run as command-line words (quoted), for the next steps
        /// that verify or convert a saved file as this audit did.
        private var trustWords: [String] {
            var words: [String] = []
            for file in anchors.caFiles { words += ["--ca-file", ShellWord.quoted(file)] }
            for directory in anchors.caDirectories { words += ["--ca-dir", ShellWord.quoted(directory)] }
            if anchors.noSystemRoots { words.append("--no-system-roots") }
            words += checkTime.commandLineWords
            return words
        }

        func run() throws {
            var auditor: Auditor?
            var source: DomainList?
            var log: ResumeLog?
            var resolved = RuleSelectionOptions.Resolved()
            try reportingFailures(path: "audit") { resolved = try rules.resolve() }
            try reportingFailures(path: largeScan.resume ?? "-") { log = try largeScan.openLog() }
            try reportingFailures(path: domainsFile ?? "-") {
                var configuration = AuditConfiguration(
                    trust: try anchors.trustConfiguration(),
                    checkTime: checkTime.time, timeout: timeout, retries: retries,
                    descriptorWait: timeout,
                    maximumBodySize: bodyCap, limits: limits.values.library,
                    resolve: try resolve.map(ResolveRule.parse), proxy: try proxy.configuration(),
                    checkCDN: cdn,
                    cdnBaseURL: cdnBaseURL, userAgent: "aasa-audit/\(AASAVersion.number)",
                    resolverThreads: min(self.concurrency, 256), rate: politeness.rate,
                    maximumPerAddress: politeness.maximumPerAddress)
                configuration.historical = try checkTime.store()
                configuration.capturesResponse = save != nil
                source = try DomainList(names: domains, file: domainsFile)
                source?.selection = largeScan.selection(log)
                do {
                    auditor = try Auditor(configuration: configuration)
                } catch let error as Auditor.SetupError {
                    switch (error.setting, error.reason) {
                    case (.cdnBaseURL, let reason?): throw CLIFailure("audit", "--cdn-base-url \(reason)")
                    default: throw CLIFailure("audit", error.description)
                    }
                }
            }
            guard let auditor, let source else { throw ExitStatus.badInput }
            defer { auditor.shutdown() }

            // A shard or a resumed scan audits an unknown part of the list: no total.
            let whole = largeScan.shard == nil && log == nil
            let showProgress = progress ?? ProgressBar.canRedraw(STDERR_FILENO)
            // Counted only for the bar (a second pass over a regular file; never a pipe).
            let total = whole && showProgress ? DomainList.count(names: domains, file: domainsFile) : nil
            let threshold = failOn.level ?? resolved.config?.failOn ?? .error
            let printer = AuditPrinter(
                format: log == nil ? format.value : .jsonl,
                reports: ReportCollector(format.value, scope: .audit, rules: report, failOn: threshold),
                failOn: threshold, selection: resolved.selection,
                progress: showProgress
                    ? ProgressBar(total: total, delay: progress == true ? 0 : ProgressBar.delay) : nil,
                output: log.map { log in log.append } ?? StandardStreams.out)
            printer.exitZero = exitZero
            if let save {
                try reportingFailures(path: save) {
                    printer.saver = try AuditSaver(directory: save) { [unowned printer] in printer.problem($0) }
                }
                printer.trustWords = trustWords
            }
            // The descriptors this run may open decide how many domains can be in flight: a
            // local limit, never a verdict on the domains (issue #15).
            let allowed = DescriptorLimit.auditConcurrency(allowedBy: DescriptorLimit.current)  // raised at start
            var concurrency = concurrency
            if concurrency > allowed {
                Diagnostics.emit(
                    "audit", .note,
                    "--concurrency \(concurrency) needs more open files than this process may have; auditing \(allowed) domains at a time (raise `ulimit -n` for more)"
                )
                concurrency = allowed
            }
            let outcome = FleetAudit(auditor: auditor, concurrency: concurrency, ordered: printer.format != .jsonl)
                .run(
                    source, invalid: printer.invalid, tick: printer.tick, arrived: { printer.saver?.save(&$0) },
                    report: printer.domain)
            printer.saver?.finish()
            printer.otherShards = source.selection.otherShards
            try printer.finish()
            // Offline, or behind a DNS that answers nothing, every domain is broken for a reason
            // of this machine: said once for the run, from counts (issue #27).
            let lookups = auditor.nameLookups
            if let message = lookups.noneResolvedMessage {
                Diagnostics.emit("audit", .error, message + " (exit status 2)")
            }
            if let log {
                log.close()
                if let error = log.writeError {
                    Diagnostics.emit(largeScan.resume ?? "-", .error, "cannot append to the --resume file: \(error)")
                    throw ExitStatus.badInput
                }
                let note = LargeScanOptions.summary(log, selection: source.selection, appended: printer.domains)
                Diagnostics.emit(largeScan.resume ?? "-", .note, note)
            }
            if outcome.invalidEntries > 0 || printer.notAuditedDomains > 0 || printer.summaryIncomplete
                || printer.unencodable > 0 || lookups.noneResolved || (printer.saver?.failures ?? 0) > 0
            {
                throw ExitStatus.badInput
            }
            if printer.failedDomains > 0 && !exitZero { throw ExitStatus.checkFailed }
        }
    }
}
