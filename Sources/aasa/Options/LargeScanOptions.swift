import AASAAudit
import ArgumentParser

/// `aasa audit --shard K/N` and `--resume FILE` (issue #17): a scan split into N independent
/// jobs, each of which can be killed and started again without auditing a domain twice.
struct LargeScanOptions: ParsableArguments {
    @Option(
        name: .customLong("shard"),
        help: ArgumentHelp(
            "Audit only shard K of N (1 ≤ K ≤ N, counted from 1): the domains whose normalised name's SHA-256 falls in it. The N shards together are the whole input, without overlap.",
            valueName: "k/n"),
        transform: { try LargeScanOptions.shard($0, counting: .fromOne) })
    var shardCountedFromOne: AuditShard?

    @Option(
        name: .customLong("shard-index"),
        help: ArgumentHelp(
            "The same shards counted from 0 (0 ≤ I < N; index I is --shard I+1/N), for a Kubernetes Indexed Job's $(JOB_COMPLETION_INDEX).",
            valueName: "i/n"),
        transform: { try LargeScanOptions.shard($0, counting: .fromZero) })
    var shardCountedFromZero: AuditShard?

    /// The shard this run audits, from `--shard` or `--shard-index`.
    var shard: AuditShard? { shardCountedFromOne ?? shardCountedFromZero }

    private static func shard(_ text: String, counting: AuditShard.Counting) throws -> AuditShard {
        do {
            return try AuditShard.parse(text, counting: counting)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    @Option(
        help: ArgumentHelp(
            "Append each domain's JSON line to FILE (created if missing), skipping the domains FILE already reports; implies --format jsonl, with nothing on standard output.",
            valueName: "file"))
    var resume: String?

    /// Usage errors: `--shard` with `--shard-index`, `--resume -`, and `--resume` with a format
    /// other than jsonl.
    func validate(format: BatchFormat) throws {
        if shardCountedFromOne != nil && shardCountedFromZero != nil {
            throw ValidationError("--shard and --shard-index name the same shard two ways: give one")
        }
        guard let resume else { return }
        if resume == "-" || resume.isEmpty {
            throw ValidationError("--resume needs a file: it reads the file and appends to it")
        }
        guard format == .text || format == .jsonl else {
            throw ValidationError(
                "--resume writes JSON lines to its file: --format \(format.rawValue) cannot go with it")
        }
    }

    /// Opens the `--resume` file, when there is one.
    /// - Throws: ``CLIFailure`` (exit 2), FILE unchanged: see ``ResumeLog/init(path:)``.
    func openLog() throws -> ResumeLog? {
        try resume.map { try ResumeLog(path: $0) }
    }

    /// The domains this run audits, given the opened `--resume` file.
    func selection(_ log: ResumeLog?) -> DomainSelection {
        DomainSelection(shard: shard, reported: log?.reported)
    }

    /// What a run with `--resume` says on standard error when it ends, counting the domains
    /// it skipped and appended.
    static func summary(_ log: ResumeLog, selection: DomainSelection, appended: Int) -> String {
        var parts = [
            "\(selection.alreadyReported) domain\(selection.alreadyReported == 1 ? " was" : "s were") already reported there",
            "\(appended) appended",
        ]
        if selection.otherShards > 0 { parts.append("\(selection.otherShards) left to other shards") }
        if log.droppedBytes > 0 { parts.append("a last line cut short (\(log.droppedBytes) bytes) was dropped") }
        return parts.joined(separator: "; ")
    }
}
