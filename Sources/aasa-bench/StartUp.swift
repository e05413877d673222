// Single files, whole processes: what a CI job that calls `aasa verify FILE` once pays, beside
// `openssl smime -verify` on the same file. Runs are interleaved so that the machine's load
// affects every command alike, and each figure is a median.
import Foundation

extension Benchmark {
    /// A trust store like the system's with the test root added: every certificate of
    /// /etc/ssl/certs plus certs/root-ca.pem, as a hash directory (`openssl rehash`) and as one
    /// bundle file. Both tools then verify the same file to a trusted root through the same
    /// system-sized store, as a user whose CA is in the system store would.
    func systemLikeStore() throws -> (directory: String, bundle: String) {
        let directory = scratch.appendingPathComponent("system-store", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var bundle = Data()
        let system = "/etc/ssl/certs"
        var copied = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: system).sorted() where name.hasSuffix(".pem") {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(system)/\(name)"))
            try data.write(to: directory.appendingPathComponent(name))
            bundle.append(data)
            copied += 1
        }
        guard copied > 0 else {
            throw Spawn.Failure(description: "no certificates in \(system) (install ca-certificates)")
        }
        let root = try Data(contentsOf: URL(fileURLWithPath: cert("root-ca.pem")))
        try root.write(to: directory.appendingPathComponent("aasa-test-root.pem"))
        bundle.append(root)
        try Spawn.require(["openssl", "rehash", directory.path])
        let bundlePath = path("system-store-bundle.pem")
        try bundle.write(to: URL(fileURLWithPath: bundlePath))
        say("system-like store: \(copied) system certificates and the test root (\(directory.path))")
        return (directory.path, bundlePath)
    }

    /// Measures single-file commands as whole processes and records the start-up targets.
    /// `one` is a signed file that chains to certs/root-ca.pem.
    mutating func singleFiles(one: String, largeJSON: String?, rounds: Int) throws {
        let ca = cert("ca-bundle.pem")
        let trust = ["--ca-file", ca, "--no-system-roots"]
        let store = try systemLikeStore()
        let systemEnvironment = ["SSL_CERT_DIR": store.directory]
        // (name, command, environment added)
        var single: [(String, [String], [String: String])] = [
            ("aasa --version (start-up floor)", [aasa, "--version"], [:]),
            ("aasa verify FILE --ca-file", [aasa, "verify", one] + trust, [:]),
            ("aasa verify FILE, system roots", [aasa, "verify", one], systemEnvironment),
            ("aasa detect FILE", [aasa, "detect", one], [:]),
            (
                "openssl smime -verify -CAfile",
                [
                    "openssl", "smime", "-verify", "-inform", "DER", "-in", one, "-CAfile", ca, "-purpose", "sslserver",
                    "-out", "/dev/null",
                ], [:]
            ),
            // openssl's -CApath alone still loads the default bundle (SSL_CERT_FILE) unless told not to.
            (
                "openssl smime -verify -CApath",
                [
                    "openssl", "smime", "-verify", "-inform", "DER", "-in", one, "-CApath", store.directory, "-purpose",
                    "sslserver", "-out", "/dev/null",
                ], [:]
            ),
            (
                "openssl smime -verify -CApath -no-CAfile -no-CAstore",
                [
                    "openssl", "smime", "-verify", "-inform", "DER", "-in", one, "-CApath", store.directory,
                    "-no-CAfile", "-no-CAstore", "-purpose", "sslserver", "-out", "/dev/null",
                ], [:]
            ),
        ]
        if let largeJSON { single.append(("aasa lint 128 KB FILE", [aasa, "lint", largeJSON], [:])) }
        let staticBinary = repository.appendingPathComponent(".build-static/release/aasa").path
        if FileManager.default.isExecutableFile(atPath: staticBinary) && staticBinary != aasa {
            single.append(("aasa --version (fully static)", [staticBinary, "--version"], [:]))
            single.append(("aasa verify FILE --ca-file (fully static)", [staticBinary, "verify", one] + trust, [:]))
            single.append(
                ("aasa verify FILE, system roots (fully static)", [staticBinary, "verify", one], systemEnvironment))
            // What loading the whole bundle costs (what X509_STORE_set_default_paths did before).
            single.append(
                (
                    "aasa verify FILE, SSL_CERT_FILE bundle (fully static)", [staticBinary, "verify", one],
                    ["SSL_CERT_FILE": store.bundle, "SSL_CERT_DIR": scratch.appendingPathComponent("no-such-dir").path]
                ))
            single.append(("aasa detect FILE (fully static)", [staticBinary, "detect", one], [:]))
        } else {
            say("no fully static binary at \(staticBinary): run scripts/build-static.sh first for its figures")
        }
        var singleTimes = [String: [Double]]()
        for _ in 0..<rounds {
            for (name, command, environment) in single {
                let run = try Spawn.run(command, environment: environment)
                guard run.status == 0 || name.hasPrefix("aasa lint") else {
                    throw Spawn.Failure(description: "\(command.joined(separator: " ")) exited \(run.status)")
                }
                singleTimes[name, default: []].append(run.seconds)
            }
        }
        var median: [String: Double] = [:]
        for (name, command, environment) in single {
            let value = Stats.median(singleTimes[name] ?? []) * 1000
            median[name] = value
            let prefix = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value) " }.joined()
            report.measurements.append(
                Measurement(
                    work: "single file, whole process", by: name, count: nil, value: value,
                    unit: "ms (median of \(rounds))",
                    hardwareFraction: nil, peakMB: nil, command: prefix + displayed(command)))
            say("\(name): \(String(format: "%.2f", value)) ms")
        }

        let opensslCAfile = median["openssl smime -verify -CAfile"] ?? .nan
        // The strictest reference: openssl reading only the hash directory, nothing at start-up.
        let opensslCApath = median["openssl smime -verify -CApath -no-CAfile -no-CAstore"] ?? .nan
        func target(_ name: String, _ key: String, against reference: Double, _ referenceName: String) {
            guard let value = median[key] else { return }
            report.targets.append(
                TargetCheck(
                    name, measured: value / reference, atMost: 1.5,
                    detail: String(
                        format: "%.2f ms against %.2f ms (%@), medians of %d interleaved whole processes", value,
                        reference, referenceName, rounds)))
        }
        target(
            "single-file aasa verify --ca-file vs openssl smime -verify -CAfile (×)", "aasa verify FILE --ca-file",
            against: opensslCAfile, "-CAfile")
        target(
            "single-file aasa verify --ca-file (fully static) vs openssl smime -verify -CApath -no-CAfile (×)",
            "aasa verify FILE --ca-file (fully static)", against: opensslCApath, "-CApath -no-CAfile -no-CAstore")
        target(
            "single-file aasa verify, system roots (fully static) vs openssl smime -verify -CApath -no-CAfile (×)",
            "aasa verify FILE, system roots (fully static)", against: opensslCApath, "-CApath -no-CAfile -no-CAstore")
    }
}
