// aasa-bench: how fast `aasa` works through many files, beside the `openssl smime` shell loop
// users have today, a naive in-process loop over our own C module, and what the machine can do
// (`openssl speed`). Not a test: run it with `swift run -c release aasa-bench [--quick]`
// (docs/performance.md explains every figure).
import AASA
import Foundation

struct Benchmark {
    let options: Options
    let repository: URL
    let aasa: String
    let scratch: URL
    let cores: Int
    let pki: InProcess.PKI
    var report: Report
    /// The mean size of the generated 2 KB documents.
    var documentBytes = 2_048.0

    var certs: URL { repository.appendingPathComponent("certs") }
    func cert(_ name: String) -> String { certs.appendingPathComponent(name).path }
    func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// The `--jobs` values measured: 1 and every core.
    var jobCounts: [Int] { cores > 1 ? [1, cores] : [1] }

    // MARK: - The run

    mutating func run() throws {
        let large = options.quick ? 10_000 : 10_000
        let small = 1_000
        let repetitions = options.quick ? 1 : 3
        let loopCount = options.quick ? 200 : 1_000
        let naiveCount = options.quick ? 300 : 1_000

        // Inputs.
        say("generating inputs in \(scratch.path)")
        for count in [small, large] {
            try Inputs.writeDocuments(count: count, to: scratch.appendingPathComponent("json-\(count)"))
        }
        let sizes = try (1...50).map {
            try Data(contentsOf: scratch.appendingPathComponent("json-\(small)/\(Inputs.name($0))")).count
        }
        documentBytes = Double(sizes.reduce(0, +)) / Double(sizes.count)
        try Inputs.large().write(to: scratch.appendingPathComponent("large.json"))
        try Inputs.thirtyRules.write(to: scratch.appendingPathComponent("rules30.json"))
        let urlCount = options.quick ? 200_000 : 1_000_000
        try Inputs.urls(count: urlCount).write(to: scratch.appendingPathComponent("urls.txt"))

        let hardware = report.hardware
        let signLimit = hardware.rsaSignLimit(bytes: documentBytes)
        let ecLimit = hardware.p256SignLimit(bytes: documentBytes)
        let verifyLimit = hardware.rsaVerifyLimit(bytes: documentBytes)
        let rsaSigner = ["--key", cert("leaf-rsa.key"), "--cert", cert("leaf-rsa.pem"), "--chain", cert("chain.pem")]
        let ecSigner = ["--key", cert("leaf-ec.key"), "--cert", cert("leaf-ec.pem"), "--chain", cert("chain.pem")]
        let trust = ["--ca-file", cert("ca-bundle.pem"), "--no-system-roots"]

        // Batch sign (the RSA output is the input of verify and extract).
        for count in [small, large] {
            for jobs in jobCounts {
                let out = path("signed-rsa-\(count)")
                _ = try batch(
                    "sign RSA-2048", arguments: ["sign", path("json-\(count)"), "--out-dir", out] + rsaSigner,
                    files: count,
                    jobs: jobs, outDirectory: out, limitPerCore: signLimit, repetitions: repetitions)
            }
            let out = path("signed-ec-\(count)")
            _ = try batch(
                "sign ECDSA P-256", arguments: ["sign", path("json-\(count)"), "--out-dir", out] + ecSigner,
                files: count,
                jobs: cores, outDirectory: out, limitPerCore: ecLimit, repetitions: repetitions)
        }

        // The sign targets compare with openssl speed, whose rate on this shared machine moves
        // by half from one second to the next: rounds of openssl speed (1 core), aasa sign
        // --jobs 1, aasa sign --jobs N, openssl speed -multi N, openssl speed again; the
        // ratios are taken within each round, and their medians reported.
        var singleRatios: [Double] = [], multiRatios: [Double] = [], scalings: [Double] = [],
            machineScalings: [Double] = []
        // Every rate seen, for the best-of-rounds ratios: on a machine whose speed drops by half
        // for seconds at a time, the fastest run of each side is the least disturbed one.
        var bestSpeed = 0.0, bestMulti = 0.0, bestOne = 0.0, bestMany = 0.0
        let roundFiles = options.quick ? small : 2_000
        // A directory (hard links to the first documents), not a list of paths: what was measured
        // before names on the command line were cheap (docs/performance.md, "Many file names").
        let roundInput = path("json-rounds")
        try FileManager.default.createDirectory(atPath: roundInput, withIntermediateDirectories: true)
        for index in 1...roundFiles {
            link(path("json-\(large)/\(Inputs.name(index))"), "\(roundInput)/\(Inputs.name(index))")
        }
        for round in 1...(options.quick ? 2 : 7) {
            let before = try Hardware.rsaSignRate(seconds: 1)
            let out = path("signed-rounds")
            func timedSign(_ jobs: Int) throws -> Double {
                try? FileManager.default.removeItem(atPath: out)
                let run = try Spawn.run(
                    [aasa, "sign", roundInput, "--out-dir", out, "--jobs", String(jobs)] + rsaSigner)
                guard run.status == 0 else { throw Spawn.Failure(description: "aasa sign exited \(run.status)") }
                return Double(roundFiles) / run.seconds
            }
            let one = try timedSign(1)
            let many = cores > 1 ? try timedSign(cores) : one
            let multi = cores > 1 ? try Hardware.rsaSignRate(seconds: 1, processes: cores) : before
            let after = try Hardware.rsaSignRate(seconds: 1)
            let speed = (before + after) / 2
            bestSpeed = max(bestSpeed, before, after)
            bestMulti = max(bestMulti, multi)
            bestOne = max(bestOne, one)
            bestMany = max(bestMany, many)
            singleRatios.append(one / speed)
            multiRatios.append(many / multi)
            scalings.append(many / one)
            machineScalings.append(multi / speed)
            say(
                String(
                    format:
                        "sign round %d: openssl speed %.0f/s (%.0f then %.0f), -multi %d %.0f/s; aasa --jobs 1 %.0f/s, --jobs %d %.0f/s",
                    round, speed, before, after, cores, multi, one, cores, many))
            report.measurements.append(
                Measurement(
                    work: "sign RSA-2048, round \(round)", by: "aasa --jobs 1 / openssl speed", count: roundFiles,
                    value: one / speed,
                    unit: "×", hardwareFraction: nil, peakMB: nil,
                    command: String(
                        format: "%.0f files/s against %.0f sign/s (before %.0f, after %.0f)", one, speed, before, after)
                ))
            if cores > 1 {
                report.measurements.append(
                    Measurement(
                        work: "sign RSA-2048, round \(round)",
                        by: "aasa --jobs \(cores) / openssl speed -multi \(cores)", count: roundFiles,
                        value: many / multi, unit: "×", hardwareFraction: nil, peakMB: nil,
                        command: String(
                            format: "%.0f files/s against %.0f sign/s; aasa scaled %.2f×, openssl %.2f×", many, multi,
                            many / one, multi / speed)))
            }
        }

        // Batch verify, extract, lint.
        var verifyRate: [Int: Double] = [:]
        var peaks: [(String, Double)] = []
        for count in [small, large] {
            for jobs in jobCounts {
                let m = try batch(
                    "verify", arguments: ["verify", path("signed-rsa-\(count)")] + trust, files: count, jobs: jobs,
                    limitPerCore: verifyLimit, repetitions: repetitions)
                if count == small && jobs == cores { verifyRate[small] = m.value }
                if count == large && jobs == cores { peaks.append(("verify", m.peakMB ?? .nan)) }
            }
            let out = path("extracted-\(count)")
            let e = try batch(
                "extract", arguments: ["extract", path("signed-rsa-\(count)"), "--out-dir", out] + trust, files: count,
                jobs: cores, outDirectory: out, limitPerCore: verifyLimit, repetitions: repetitions)
            let l = try batch(
                "lint", arguments: ["lint", path("json-\(count)")], files: count, jobs: cores, limitPerCore: nil,
                repetitions: repetitions)
            if count == large {
                peaks.append(("extract", e.peakMB ?? .nan))
                peaks.append(("lint", l.peakMB ?? .nan))
            }
        }
        if let sign = report.measurements.first(where: {
            $0.work == "sign RSA-2048" && $0.count == large && $0.by.hasSuffix("\(cores)")
        }) {
            peaks.append(("sign", sign.peakMB ?? .nan))
        }

        // match --urls-file, through the binary, and the matcher alone.
        var matchTimes: [Double] = []
        var matchPeak = 0
        let matchCommand = [aasa, "match", path("rules30.json"), "--urls-file", path("urls.txt")]
        for _ in 0..<repetitions {
            let run = try Spawn.runMeasuringPeak(matchCommand)
            guard run.status == 0 || run.status == 1 else {
                throw Spawn.Failure(description: "match exited \(run.status)")
            }
            matchTimes.append(run.seconds)
            matchPeak = max(matchPeak, run.peakBytes)
        }
        let matchRate = Double(urlCount) / Stats.median(matchTimes)
        report.measurements.append(
            Measurement(
                work: "match --urls-file (30 rules)", by: "aasa match, whole process", count: urlCount,
                value: matchRate,
                unit: "URLs/s", hardwareFraction: nil, peakMB: Double(matchPeak) / 1_048_576,
                command: displayed(matchCommand) + " > /dev/null"))
        say("match: \(Int(matchRate)) URL decisions/s (whole process, text output)")
        let urls = try String(contentsOfFile: path("urls.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
        let inProcessMatch = try InProcess.matchRate(
            rules: Inputs.thirtyRules, urls: urls, rounds: options.quick ? 1 : 3)
        report.measurements.append(
            Measurement(
                work: "match (30 rules)", by: "URLMatcher in-process, 1 thread", count: urls.count,
                value: inProcessMatch.perSecond,
                unit: "URLs/s", hardwareFraction: nil, peakMB: nil, command: "URLMatcher.evaluate(_:) in aasa-bench"))
        say(
            "match in-process: \(Int(inProcessMatch.perSecond)) URL decisions/s (\(inProcessMatch.matched) of \(urls.count) open an app)"
        )
        let inProcessVerdicts = try InProcess.matchRate(
            rules: Inputs.thirtyRules, urls: urls, rounds: options.quick ? 1 : 3, verdictsOnly: true)
        report.measurements.append(
            Measurement(
                work: "match (30 rules)", by: "URLMatcher verdicts only, in-process, 1 thread", count: urls.count,
                value: inProcessVerdicts.perSecond, unit: "URLs/s", hardwareFraction: nil, peakMB: nil,
                command: "URLMatcher.verdicts(for:into:) in aasa-bench"))
        say(
            "match in-process, verdicts only: \(Int(inProcessVerdicts.perSecond)) URL decisions/s (\(inProcessVerdicts.matched) open an app)"
        )

        // The openssl smime shell loops.
        let signed = path("signed-rsa-\(small)")
        let ca = cert("ca-bundle.pem")
        _ = try opensslLoop(
            "sign RSA-2048",
            body:
                "openssl smime -sign -inkey '\(cert("leaf-rsa.key"))' -signer '\(cert("leaf-rsa.pem"))' -certfile '\(cert("chain.pem"))' -noattr -nodetach -outform DER -in \"$f\" -out '\(path("openssl-out"))'/\"$f\"",
            directory: path("json-\(small)"), count: loopCount, limitPerCore: signLimit)
        let verifyLoop = try opensslLoop(
            "verify",
            body:
                "openssl smime -verify -inform DER -in \"$f\" -CAfile '\(ca)' -purpose sslserver -out /dev/null 2>/dev/null",
            directory: signed, count: loopCount, limitPerCore: verifyLimit)
        _ = try opensslLoop(
            "extract",
            body:
                "openssl smime -verify -inform DER -in \"$f\" -CAfile '\(ca)' -purpose sslserver -out '\(path("openssl-out"))'/\"$f\" 2>/dev/null",
            directory: signed, count: loopCount, limitPerCore: verifyLimit)

        // The naive in-process loops (one thread, everything loaded for each file, no cache).
        let signedFiles = (1...naiveCount).map { "\(signed)/\(Inputs.name($0))" }
        let jsonFiles = (1...naiveCount).map { path("json-\(small)/\(Inputs.name($0))") }
        let naiveVerify = inProcess(
            "verify", by: "naive in-process loop", count: naiveCount,
            seconds: try InProcess.naiveVerify(signedFiles, pki: pki),
            limitPerCore: verifyLimit, command: "per file: TrustStore(ca file) + Verifier(), no cache, 1 thread")
        _ = inProcess(
            "verify", by: "in-process, one verifier, no cache", count: naiveCount,
            seconds: try InProcess.sharedVerify(signedFiles, pki: pki, cache: nil), limitPerCore: verifyLimit,
            command: "one TrustStore + Verifier, no chain cache, 1 thread")
        let cache = ChainCache()
        _ = inProcess(
            "verify", by: "in-process, one verifier + chain cache", count: naiveCount,
            seconds: try InProcess.sharedVerify(signedFiles, pki: pki, cache: cache), limitPerCore: verifyLimit,
            command: "one TrustStore + Verifier + ChainCache, 1 thread (hits \(cache.hits), misses \(cache.misses))")
        _ = inProcess(
            "extract", by: "naive in-process loop", count: naiveCount,
            seconds: try InProcess.naiveExtract(
                signedFiles, pki: pki, into: scratch.appendingPathComponent("naive-extract")),
            limitPerCore: verifyLimit, command: "per file: TrustStore(ca file) + Verifier(), verify, write, 1 thread")
        _ = inProcess(
            "sign RSA-2048", by: "naive in-process loop", count: naiveCount,
            seconds: try InProcess.naiveSign(jsonFiles, pki: pki, into: scratch.appendingPathComponent("naive-sign")),
            limitPerCore: signLimit, command: "per file: load key, certificate, chain; sign; write, 1 thread")
        _ = inProcess(
            "lint", by: "in-process loop, 1 thread", count: naiveCount, seconds: try InProcess.lint(jsonFiles),
            limitPerCore: nil,
            command: "Linter.lint(_:) per file, 1 thread")

        // Lint of the 128 KB file, in process and as a whole process.
        let largeData = try Data(contentsOf: scratch.appendingPathComponent("large.json"))
        let lintLarge = InProcess.lintOnce(largeData, iterations: options.quick ? 20 : 100)
        report.measurements.append(
            Measurement(
                work: "lint \(largeData.count / 1024) KB file", by: "Linter in-process (median)", count: 1,
                value: lintLarge.seconds * 1000,
                unit: "ms", hardwareFraction: nil, peakMB: nil,
                command: "Linter.lint(_:) in aasa-bench, \(lintLarge.findings) findings"))
        say(
            "lint of the \(largeData.count)-byte file in process: \(String(format: "%.2f", lintLarge.seconds * 1000)) ms"
        )

        // Single files, whole processes (StartUp.swift).
        try singleFiles(
            one: "\(signed)/\(Inputs.name(1))", largeJSON: path("large.json"), rounds: options.quick ? 15 : 60)

        // The targets.
        let verifyBatch = verifyRate[small] ?? .nan
        report.targets.append(
            TargetCheck(
                "batch verify vs openssl smime -verify loop (×)", measured: verifyBatch / verifyLoop.value, atLeast: 40,
                detail: "aasa verify, \(small) files, --jobs \(cores), against the loop over \(loopCount) files"))
        report.targets.append(
            TargetCheck(
                "batch verify vs naive in-process loop (×)", measured: verifyBatch / naiveVerify.value, atLeast: 3,
                detail:
                    "aasa verify, \(small) files, --jobs \(cores), against a fresh Verifier per file, no cache, 1 thread"
            ))
        func list(_ values: [Double]) -> String { values.map { String(format: "%.2f", $0) }.joined(separator: ", ") }
        report.targets.append(
            TargetCheck(
                "batch sign RSA-2048, --jobs 1, vs openssl speed sign/s (×)", measured: bestOne / bestSpeed,
                atLeast: 0.9,
                detail: String(
                    format:
                        "best of the rounds: aasa sign (%d files, --jobs 1) %.0f files/s, openssl speed rsa2048 %.0f sign/s; ",
                    roundFiles, bestOne, bestSpeed)
                    + String(format: "median of the per-round ratios %.2f (", Stats.median(singleRatios))
                    + list(singleRatios) + ")"))
        if cores > 1 {
            report.targets.append(
                TargetCheck(
                    "batch sign RSA-2048 at --jobs \(cores) vs openssl speed -multi \(cores) (×)",
                    measured: bestMany / bestMulti,
                    atLeast: 0.9,
                    detail: String(
                        format:
                            "best of the rounds: %.0f files/s against %.0f sign/s; median of the per-round ratios %.2f (",
                        bestMany, bestMulti, Stats.median(multiRatios))
                        + list(multiRatios) + ")"))
            report.targets.append(
                TargetCheck(
                    "batch sign RSA-2048, --jobs \(cores) vs --jobs 1 (×)", measured: bestMany / bestOne, atLeast: 1.7,
                    detail: String(
                        format:
                            "best of the rounds; openssl speed -multi %d against 1 process, best of the rounds: %.2f×; median of the per-round scalings %.2f (",
                        cores, bestMulti / bestSpeed, Stats.median(scalings))
                        + list(scalings) + "); openssl's own per-round scalings: " + list(machineScalings)))
        }
        report.targets.append(
            TargetCheck(
                "match URL decisions per second per core (whole process)", measured: matchRate, atLeast: 1_000_000,
                detail: "aasa match --urls-file, \(urlCount) URLs, 30 rules, text output to /dev/null"))
        report.targets.append(
            TargetCheck(
                "match URL decisions per second per core (matcher in-process, full results)",
                measured: inProcessMatch.perSecond, atLeast: 1_000_000,
                detail: "URLMatcher.evaluate, 1 thread"))
        report.targets.append(
            TargetCheck(
                "match URL decisions per second per core (matcher in-process, verdicts only)",
                measured: inProcessVerdicts.perSecond,
                atLeast: 1_000_000, detail: "URLMatcher.verdicts(for:into:), 1 thread: what aasa match prints as text"))
        report.targets.append(
            TargetCheck(
                "lint of the 128 KB file in process (ms)", measured: lintLarge.seconds * 1000, atMost: 10,
                detail: "median of Linter.lint(_:)"))
        let worstPeak = peaks.max { $0.1 < $1.1 } ?? ("verify", .nan)
        report.targets.append(
            TargetCheck(
                "peak memory of a \(large)-file batch (MB)", measured: worstPeak.1, atMost: 64,
                detail: "largest of " + peaks.map { "\($0.0) \(String(format: "%.1f", $0.1))" }.joined(separator: ", "))
        )
    }
}

// MARK: - Main

let options = Options(Array(CommandLine.arguments.dropFirst()))
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let binDirectory = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
    .deletingLastPathComponent()

do {
    // The test PKI's keys: aasa sign rightly warns about keys others can read (git checks out 0644).
    for name in (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("certs").path))
        ?? []
    where name.hasSuffix(".key") {
        chmod(repository.appendingPathComponent("certs/\(name)").path, 0o600)
    }
    if options.aasa == nil && options.build {
        say("building the aasa release binary (swift build -c release --product aasa)")
        try Spawn.require(["swift", "build", "-c", "release", "--product", "aasa", "--package-path", repository.path])
    }
    let aasa = options.aasa ?? binDirectory.appendingPathComponent("aasa").path
    guard FileManager.default.isExecutableFile(atPath: aasa) else {
        throw Spawn.Failure(
            description:
                "no aasa binary at \(aasa): build it with swift build -c release --product aasa, or give --aasa PATH")
    }
    var isDirectory: ObjCBool = false
    let scratchParent =
        options.scratch.map { URL(fileURLWithPath: $0) }
        ?? (FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory) && isDirectory.boolValue
            && access("/dev/shm", W_OK) == 0
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory)
    let scratch = scratchParent.appendingPathComponent("aasa-bench-\(getpid())")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { if !options.keep { try? FileManager.default.removeItem(at: scratch) } }

    var load = [Double](repeating: 0, count: 3)
    getloadavg(&load, 3)
    let cpu =
        ((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "")
        .split(separator: "\n").first { $0.hasPrefix("model name") }.map {
            String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces)
        } ?? "unknown"
    let cores = ProcessInfo.processInfo.activeProcessorCount
    say("\(cores) cores (\(cpu)), load average \(load.map { String(format: "%.2f", $0) }.joined(separator: " "))")
    let speedSeconds = options.quick || options.startUpOnly || options.argumentsOnly || options.scalingOnly ? 1 : 3
    say("openssl speed (\(speedSeconds) s per algorithm)…")
    let hardware = try Hardware.measure(seconds: speedSeconds)
    say(
        "openssl speed: RSA-2048 \(Int(hardware.rsa2048SignPerSecond)) sign/s, \(Int(hardware.rsa2048VerifyPerSecond)) verify/s; P-256 \(Int(hardware.p256SignPerSecond)) sign/s, \(Int(hardware.p256VerifyPerSecond)) verify/s; SHA-256 \(Int(hardware.sha256BytesPerSecond / 1e6)) MB/s"
    )
    let opensslVersion =
        (try? Spawn.output(["openssl", "version"]))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
    let machine = [
        "cores": String(cores), "cpu": cpu, "openssl": opensslVersion, "aasa": aasa, "scratch": scratchParent.path,
        "loadAverageAtStart": load.map { String(format: "%.2f", $0) }.joined(separator: " "),
    ]
    var benchmark = Benchmark(
        options: options, repository: repository, aasa: aasa, scratch: scratch, cores: cores,
        pki: InProcess.PKI(
            caFile: repository.appendingPathComponent("certs/ca-bundle.pem").path,
            rsaKey: repository.appendingPathComponent("certs/leaf-rsa.key").path,
            rsaCert: repository.appendingPathComponent("certs/leaf-rsa.pem").path,
            chain: repository.appendingPathComponent("certs/chain.pem").path),
        report: Report(
            date: InternetDateTime.string(from: Date()), quick: options.quick, machine: machine, hardware: hardware))
    let started = Stats.now()
    if options.startUpOnly {
        // The bundled example chains to certs/root-ca.pem through the embedded intermediate.
        try benchmark.singleFiles(
            one: repository.appendingPathComponent("examples/apple-app-site-association.p7m").path, largeJSON: nil,
            rounds: 60)
    } else if options.argumentsOnly {
        try benchmark.argumentHandling(names: 10_000, rounds: 20)
    } else if options.scalingOnly {
        try benchmark.scaling(
            files: options.quick && options.files == 20_000 ? 2_000 : options.files, rounds: options.quick ? 1 : 3)
    } else {
        try benchmark.run()
        try benchmark.argumentHandling(names: 10_000, rounds: options.quick ? 5 : 20)
    }
    getloadavg(&load, 3)
    benchmark.report.machine["loadAverageAtEnd"] = load.map { String(format: "%.2f", $0) }.joined(separator: " ")
    benchmark.report.machine["seconds"] = String(Int(Stats.now() - started))
    print("")
    print(benchmark.report.table())
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try encoder.encode(benchmark.report).write(to: URL(fileURLWithPath: options.output))
    say("results written to \(options.output)" + (options.keep ? "; inputs kept in \(scratch.path)" : ""))
} catch {
    say("error: \(error)")
    exit(1)
}
