import AASAAudit
import ArgumentParser

/// `aasa audit --rate N` and `--max-per-address N` (issue #17): how hard a scan may press on
/// the servers it audits, whatever `--concurrency` allows.
struct PolitenessOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Start at most N requests a second over the whole run (each connection attempt and its request; evenly spaced). Default: no limit.",
            valueName: "n"))
    var rate: Double?

    @Option(
        name: .customLong("max-per-address"),
        help: ArgumentHelp(
            "Audit at most N domains at once at one IP address (domains behind one CDN or host share it; the others wait their turn). Default: no cap.",
            valueName: "n"))
    var maximumPerAddress: Int?

    func validate() throws {
        if let rate, !AuditConfiguration.rateRange.contains(rate) {
            throw ValidationError("--rate must be from 0.001 to 1000000 requests a second")
        }
        if let maximumPerAddress, !(1...1_000).contains(maximumPerAddress) {
            throw ValidationError("--max-per-address must be from 1 to 1000")
        }
    }
}
