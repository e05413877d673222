// aasa-bench --scaling: how `aasa sign`, `verify` and `lint` scale with --jobs on this machine
// (issue #29), beside what the machine itself scales to (`openssl speed -multi N`), and one
// process with --jobs N against N processes with --jobs 1 over 1/N of the files each: when the
// N processes are much faster, the limit is shared state inside one process. The same figures
// as the many-core scripts issue #29 was measured with (scale.sh, split.sh) print, on any machine.
import Foundation

extension Benchmark {
    /// 1, 2, 4, … up to the cores present, and the core count itself.
    var scalingJobCounts: [Int] {
        var counts: [Int] = []
        var jobs = 1
        while jobs < cores {
            counts.append(jobs)
            jobs *= 2
        }
        counts.append(cores)
        return counts
    }

    /// One row of the curve: the machine's RSA-2048 rates at `jobs` processes and aasa's files
    /// per second at `--jobs jobs`, each the best of the rounds.
    struct ScalingRow {
        var jobs: Int
        var opensslSign: Double
        var opensslVerify: Double
        var sign: Double
        var verify: Double
        var lint: Double
    }

    mutating func scaling(files: Int, rounds: Int) throws {
        let plain = scratch.appendingPathComponent("scaling-plain")
        try Inputs.writeDocuments(count: files, to: plain)
        let signed = path("scaling-signed")
        let signer = ["--key", cert("leaf-rsa.key"), "--cert", cert("leaf-rsa.pem"), "--chain", cert("chain.pem")]
        let trust = ["--ca-file", cert("ca-bundle.pem"), "--no-system-roots"]
        let aasa = self.aasa
        let sign = { (input: String, output: String, jobs: Int) -> [String] in
            [aasa, "sign", input, "--out-dir", output, "--jobs", String(jobs)] + signer
        }
        let verify = { (input: String, jobs: Int) -> [String] in
            [aasa, "verify", input, "--jobs", String(jobs)] + trust
        }
        let lint = { (input: String, jobs: Int) -> [String] in [aasa, "lint", input, "--jobs", String(jobs)] }
        // The signed files verify's rounds read.
        _ = try Spawn.require(sign(plain.path, signed, cores))

        var rows: [ScalingRow] = []
        for jobs in scalingJobCounts {
            let (signRate, verifyRate) = try Hardware.rsaRates(seconds: options.quick ? 1 : 2, processes: jobs)
            var row = ScalingRow(
                jobs: jobs, opensslSign: signRate, opensslVerify: verifyRate, sign: 0, verify: 0, lint: 0)
            let out = path("scaling-out")
            row.sign = try best(rounds, files: files) {
                try? FileManager.default.removeItem(atPath: out)
                return [sign(plain.path, out, jobs)]
            }
            row.verify = try best(rounds, files: files) { [verify(signed, jobs)] }
            row.lint = try best(rounds, files: files, accepted: [0, 1]) { [lint(plain.path, jobs)] }
            say(
                String(
                    format:
                        "--jobs %d: sign %.0f files/s (openssl speed -multi %d: %.0f sign/s), verify %.0f, lint %.0f",
                    jobs, row.sign, jobs, row.opensslSign, row.verify, row.lint))
            rows.append(row)
        }

        // N processes of --jobs 1 over 1/N of the files each, against one process --jobs N.
        var split: [String: Double] = [:]
        if cores > 1 {
            let parts = try splitInto(cores, plain.path, name: "split-plain")
            let signedParts = try splitInto(cores, signed, name: "split-signed")
            split["sign"] = try best(rounds, files: files) {
                parts.enumerated().map { index, part in
                    let out = path("split-out-\(index)")
                    try? FileManager.default.removeItem(atPath: out)
                    return sign(part, out, 1)
                }
            }
            split["verify"] = try best(rounds, files: files) { signedParts.map { verify($0, 1) } }
            split["lint"] = try best(rounds, files: files, accepted: [0, 1]) { parts.map { lint($0, 1) } }
        }
        record(rows, split: split, files: files, signer: signer, trust: trust)
    }

    /// Files per second of the best of `rounds` runs of the commands `commands()` gives (run
    /// at once, each its own process; the round ends when the last ends).
    private func best(
        _ rounds: Int, files: Int, accepted: Set<Int32> = [0], _ commands: () throws -> [[String]]
    ) throws -> Double {
        var fastest = Double.infinity
        for _ in 0..<rounds {
            let batch = try commands()
            let started = try batch.enumerated().map { index, command in
                try Spawn.start(command, stderr: path("scaling-\(index).stderr"))
            }
            let begun = started.map(\.at).min() ?? Stats.now()
            var failed: (index: Int, status: Int32)?
            for (index, process) in started.enumerated() {
                let run = try Spawn.finish(process)
                if !accepted.contains(run.status) { failed = (index, run.status) }
            }
            let seconds = Stats.now() - begun
            if let failed {
                throw Spawn.Failure(
                    description: "\(displayed(batch[failed.index])) exited \(failed.status): "
                        + ((try? String(contentsOfFile: path("scaling-\(failed.index).stderr"), encoding: .utf8))
                            ?? ""))
            }
            fastest = min(fastest, seconds)
        }
        return Double(files) / fastest
    }

    /// `count` directories of hard links, the files of `directory` dealt out in turn.
    private func splitInto(_ count: Int, _ directory: String, name: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let parts = (0..<count).map { path("\(name)-\($0)") }
        for part in parts { try FileManager.default.createDirectory(atPath: part, withIntermediateDirectories: true) }
        for (index, file) in names.enumerated() {
            try FileManager.default.linkItem(
                atPath: directory + "/" + file, toPath: parts[index % count] + "/" + file)
        }
        return parts
    }

    private mutating func record(
        _ rows: [ScalingRow], split: [String: Double], files: Int, signer: [String], trust: [String]
    ) {
        guard let one = rows.first else { return }
        for row in rows {
            let by = "aasa batch --jobs \(row.jobs)"
            report.measurements.append(
                Measurement(
                    work: "scaling: sign RSA-2048", by: by, count: files, value: row.sign, unit: "files/s",
                    hardwareFraction: row.sign / row.opensslSign, peakMB: nil,
                    command: "aasa sign DIR --out-dir OUT --jobs \(row.jobs) " + displayed(signer)))
            report.measurements.append(
                Measurement(
                    work: "scaling: verify", by: by, count: files, value: row.verify, unit: "files/s",
                    hardwareFraction: row.verify / row.opensslVerify, peakMB: nil,
                    command: "aasa verify DIR --jobs \(row.jobs) " + displayed(trust)))
            report.measurements.append(
                Measurement(
                    work: "scaling: lint", by: by, count: files, value: row.lint, unit: "files/s",
                    hardwareFraction: nil, peakMB: nil, command: "aasa lint DIR --jobs \(row.jobs)"))
        }
        for (work, rate) in split.sorted(by: { $0.key < $1.key }) {
            report.measurements.append(
                Measurement(
                    work: "scaling: \(work)", by: "\(cores) processes, --jobs 1, 1/\(cores) of the files each",
                    count: files, value: rate, unit: "files/s", hardwareFraction: nil, peakMB: nil,
                    command: "\(cores) × aasa \(work) PART --jobs 1, at once"))
        }
        // The curve, in the layout of the 16-core figures of issue #29.
        var lines = [
            "jobs  openssl sign/s (×1)  aasa sign files/s (×1, of openssl)  openssl verify/s (×1)  aasa verify files/s (×1)  aasa lint files/s (×1)"
        ]
        for row in rows {
            lines.append(
                String(
                    format:
                        "%4d  %9.0f (%5.2f×)  %10.0f (%5.2f×, %.2f)  %10.0f (%5.2f×)  %10.0f (%5.2f×)  %10.0f (%5.2f×)",
                    row.jobs, row.opensslSign, row.opensslSign / one.opensslSign, row.sign, row.sign / one.sign,
                    row.sign / row.opensslSign, row.opensslVerify, row.opensslVerify / one.opensslVerify, row.verify,
                    row.verify / one.verify, row.lint, row.lint / one.lint))
        }
        if let last = rows.last, last.jobs > 1 {
            for (work, rate) in split.sorted(by: { $0.key < $1.key }) {
                let inOne = work == "sign" ? last.sign : work == "verify" ? last.verify : last.lint
                lines.append(
                    String(
                        format: "%@: %d processes of --jobs 1 %.0f files/s, one process --jobs %d %.0f: %.2f×",
                        work, cores, rate, cores, inOne, rate / inOne))
            }
        }
        report.curve = lines
        say("scaling curve:\n" + lines.joined(separator: "\n"))
        if let last = rows.last, last.jobs >= 16 {
            report.targets.append(
                TargetCheck(
                    "verify at --jobs \(last.jobs) vs --jobs 1 (×)", measured: last.verify / one.verify, atLeast: 12,
                    detail: "\(files) files, best of the rounds"))
            report.targets.append(
                TargetCheck(
                    "lint at --jobs \(last.jobs) vs --jobs 1 (×)", measured: last.lint / one.lint, atLeast: 12,
                    detail: "\(files) files, best of the rounds"))
            report.targets.append(
                TargetCheck(
                    "sign at --jobs \(last.jobs) vs openssl speed -multi \(last.jobs) (×)",
                    measured: last.sign / last.opensslSign, atLeast: 0.85, detail: "\(files) files"))
        }
    }
}
