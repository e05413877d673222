import AASATestSupport
import Foundation
import Testing

/// docs/audit.md's scale-out recipes, read from the page and run as printed against the test
/// nginx (issue #28): the GNU parallel block with Debian's `parallel`, and the Kubernetes
/// Indexed Job's `args` for each completion index as the kubelet would expand them. Both must
/// audit every domain of the list exactly once, and a second run must add nothing.
///
/// The page's commands name real domains' way of being reached; here every `aasa audit` is sent
/// to 127.0.0.1 and trusts the test root (``NginxServer/auditOptions``): for the parallel block
/// through an `aasa` on PATH that adds those options and runs the built binary, for the manifest
/// by adding them to each pod's arguments. Nothing else of the recipes changes.
@Suite(.serialized, .enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct ScaleOutRecipeTests {
    static let guide = Repository.root.appendingPathComponent("docs/audit.md")
    static let domainCount = 24

    /// The test's list: names below example.com (the test nginx answers them all) on its port.
    static func domains(_ server: NginxServer) -> [String] {
        (1...domainCount).map { "d\($0).example.com:\(server.port)" }
    }

    /// The domains the JSON lines of the `shard-*.jsonl` files in `directory` report, file by file.
    static func reported(in directory: URL, prefix: String) throws -> [String: [String]] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".jsonl") }
        var result: [String: [String]] = [:]
        for name in names {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            result[name] = try data.split(separator: 0x0A).map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
                return try #require(object["domain"] as? String, "\(name): \(object)")
            }
        }
        return result
    }

    static func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aasa-scale-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    @Test("GNU parallel: the page's block audits every domain once over 8 shards; run again, it adds nothing")
    func gnuParallel() throws {
        let page = try String(contentsOf: Self.guide, encoding: .utf8)
        let block = try #require(
            MarkdownFence.block(in: page, language: "sh", after: "GNU `parallel` on one host, 8 shards"),
            "docs/audit.md has no GNU parallel block")
        #expect(block.contains("parallel -j 8"), "\(block)")
        let parallel = URL(fileURLWithPath: "/usr/bin/parallel")
        try #require(
            FileManager.default.isExecutableFile(atPath: parallel.path),
            "GNU parallel is not installed: scripts/test.sh installs it (ensure-deps.sh parallel)")
        try withNginx { server in
            try Self.withDirectory { directory in
                try Data(Self.domains(server).joined(separator: "\n").utf8).write(
                    to: directory.appendingPathComponent("domains.txt"))
                // `aasa` on PATH: the built binary, its audits sent to the test nginx.
                let bin = directory.appendingPathComponent("bin")
                try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
                let local = server.auditOptions.map { "'\($0)'" }.joined(separator: " ")
                let wrapper = """
                    #!/bin/sh
                    if [ "$1" = audit ] && [ "$2" != summarize ]; then exec '\(TestPaths.aasa.path)' "$@" \(local); fi
                    exec '\(TestPaths.aasa.path)' "$@"

                    """
                try Data(wrapper.utf8).write(to: bin.appendingPathComponent("aasa"))
                try FileManager.default.setAttributes(
                    [.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("aasa").path)
                let script = directory.appendingPathComponent("block.sh")
                try Data(block.utf8).write(to: script)
                var environment = ProcessInfo.processInfo.environment
                environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
                environment["HOME"] = directory.path  // parallel keeps its state under ~/.parallel

                let first = ProcessRunner.run(
                    URL(fileURLWithPath: "/bin/bash"), [script.path], environment: environment, in: directory,
                    timeout: 300)
                // The block ends with `aasa audit summarize`: its status is the block's.
                #expect(first.status == 0, "\(first)")
                #expect(first.stdoutText.contains("\(Self.domainCount) domains"), "\(first)")
                let out = directory.appendingPathComponent("out")
                let files = try Self.reported(in: out, prefix: "shard-")
                #expect(files.count == 8, "\(files.keys.sorted())")
                let all = files.values.flatMap { $0 }
                #expect(all.count == Self.domainCount, "each domain once: \(all.sorted())")
                #expect(Set(all) == Set(Self.domains(server)))

                let again = ProcessRunner.run(
                    URL(fileURLWithPath: "/bin/bash"), [script.path], environment: environment, in: directory,
                    timeout: 300)
                #expect(again.status == 0, "\(again)")
                #expect(try Self.reported(in: out, prefix: "shard-").values.flatMap { $0 }.count == Self.domainCount)
            }
        }
    }

    @Test("Kubernetes Indexed Job: the manifest parses, runs the release's image, and its args audit every domain once")
    func kubernetesIndexedJob() throws {
        let page = try String(contentsOf: Self.guide, encoding: .utf8)
        let manifest = try #require(
            MarkdownFence.block(in: page, language: "yaml", after: "A Kubernetes Indexed Job over a list"),
            "docs/audit.md has no Kubernetes manifest")
        let job = try #require(try YAMLDocument.parse(manifest) as? [String: Any])
        #expect(job["kind"] as? String == "Job" && job["apiVersion"] as? String == "batch/v1", "\(job)")
        let spec = try #require(job["spec"] as? [String: Any])
        #expect(spec["completionMode"] as? String == "Indexed", "\(spec)")
        let completions = try #require(spec["completions"] as? Int, "\(spec)")
        let template = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        let containers = try #require(template["containers"] as? [[String: Any]])
        #expect(containers.count == 1)
        let container = try #require(containers.first)
        // No shell in the release's image: the command is the image's entry point, aasa.
        #expect(container["command"] == nil, "the image has no shell; the manifest gives args only: \(container)")
        let version = try #require(
            TestProcess.aasa(["--version"]).stdoutText.split(separator: "\n").first?.split(separator: " ").last)
        #expect(container["image"] as? String == "localhost/aasa:\(version)", "\(container)")
        let args = try #require(container["args"] as? [String], "\(container)")
        #expect(args.contains("--shard-index=$(JOB_COMPLETION_INDEX)/\(completions)"), "\(args)")
        // The index comes from the pod's annotation, as an environment variable that `args` expands.
        let environment = try #require(container["env"] as? [[String: Any]], "\(container)")
        let variable = try #require(environment.first { $0["name"] as? String == "JOB_COMPLETION_INDEX" })
        let field = ((variable["valueFrom"] as? [String: Any])?["fieldRef"] as? [String: Any])?["fieldPath"] as? String
        #expect(field == "metadata.annotations['batch.kubernetes.io/job-completion-index']", "\(variable)")
        let mount = try #require(
            (container["volumeMounts"] as? [[String: Any]])?.first?["mountPath"] as? String, "\(container)")

        try withNginx { server in
            try Self.withDirectory { volume in
                try Data(Self.domains(server).joined(separator: "\n").utf8).write(
                    to: volume.appendingPathComponent("domains.txt"))
                for index in 0..<completions {
                    // What the kubelet runs: $(JOB_COMPLETION_INDEX) expanded, the volume mounted.
                    let pod = args.map {
                        $0.replacingOccurrences(of: "$(JOB_COMPLETION_INDEX)", with: "\(index)")
                            .replacingOccurrences(of: mount + "/", with: volume.path + "/")
                    }
                    let run = TestProcess.aasa(pod + server.auditOptions)
                    // Every domain is broken (the test nginx has no file for them): findings, and
                    // still exit 0 (--exit-zero), so the pod is not restarted.
                    #expect(run.status == 0, "index \(index): \(run)")
                }
                let files = try Self.reported(in: volume, prefix: "shard-")
                #expect(files.count == completions, "\(files.keys.sorted())")
                let all = files.values.flatMap { $0 }
                #expect(all.count == Self.domainCount, "each domain once: \(all.sorted())")
                #expect(Set(all) == Set(Self.domains(server)))
                // Index I is shard I + 1 of --shard: the same domains.
                let first = TestProcess.aasa(
                    ["audit"] + Self.domains(server) + ["--shard", "1/\(completions)", "--format", "jsonl"]
                        + server.auditOptions)
                let shardOne = try first.jsonLines().compactMap { $0["domain"] as? String }
                #expect(Set(shardOne) == Set(files["shard-0.jsonl"] ?? []), "\(first)")
            }
        }
    }
}
