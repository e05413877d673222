import AASATestSupport
import Foundation
import Testing

/// The release's OCI image (scripts/build-image.sh), loaded from its archive and run with podman
/// as a user runs it. scripts/test-release.sh builds the release and runs this suite with
/// `AASA_OCI_ARCHIVE` (the archive) and `AASA_OCI_VERSION`; without them it is skipped, saying so.
///
/// podman runs with its own image store (vfs) in a temporary directory, runc as the runtime (crun
/// fails on this machine's cgroup layout) and explicit ulimits (runc cannot take them from the
/// host here); `--network host`, so that the container reaches the test nginx on 127.0.0.1.
@Suite(
    .enabled(
        if: ContainerImage.archive != nil,
        "AASA_OCI_ARCHIVE is not set: scripts/test-release.sh builds the image and runs this suite with it"))
struct ContainerImageTests {
    static let archive = ContainerImage.archive
    static let version = ContainerImage.version
    static let podman = URL(fileURLWithPath: "/usr/bin/podman")

    /// podman with its run root in `store` and its images in ``imageRoot(for:)``.
    static func podman(_ arguments: [String], store: URL) -> ProcessResult {
        ProcessRunner.run(
            podman,
            [
                "--storage-driver", "vfs", "--root", imageRoot(for: store).path, "--runroot",
                store.appendingPathComponent("run").path,
            ] + arguments, timeout: 300)
    }

    /// Where podman unpacks the image for `store`: beside the build, whose file system runs
    /// programs (the tests' own binaries run from it), since a temporary directory may be
    /// mounted noexec and the container's /usr/bin/aasa would then fail to start.
    static func imageRoot(for store: URL) -> URL {
        Repository.root.appendingPathComponent(".build/\(store.lastPathComponent)-images")
    }

    /// `aasa ARGUMENTS` in a new container of the image: read-only root, the repository's
    /// examples and test PKI mounted read-only at /in, and `options` (more mounts, hosts).
    static func aasa(_ arguments: [String], options: [String] = [], store: URL) -> ProcessResult {
        podman(
            [
                "--runtime", "runc", "run", "--rm", "--read-only", "--network", "host",
                "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024",
                "-v", "\(Repository.root.appendingPathComponent("examples").path):/in/examples:ro",
                "-v", "\(Repository.certs.path):/in/certs:ro",
            ] + options + ["localhost/aasa:\(version)"] + arguments, store: store)
    }

    static let trust = ["--ca-file", "/in/certs/ca-bundle.pem", "--no-system-roots"]

    @Test("the image runs aasa as a user would: version, verify, lint, audit, as non-root with a read-only root")
    func imageRuns() throws {
        let archive = try #require(Self.archive)
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.podman.path),
            "podman is not installed: scripts/test-release.sh installs it (ensure-deps.sh podman runc)")
        try Self.withLoaded(archive, reference: "localhost/aasa:\(Self.version)") { store in
            try Self.checkImage(archive, store: store)
        }
    }

    /// A fresh podman store with the image of `archive` loaded (its reference checked), for
    /// `body`; removed afterwards.
    static func withLoaded(_ archive: String, reference: String, _ body: (URL) throws -> Void) throws {
        // Under /tmp, short: podman refuses a run root of more than 50 characters.
        let store = URL(fileURLWithPath: "/tmp/aasa-oci-\(UUID().uuidString.prefix(8))")
        defer {
            try? FileManager.default.removeItem(at: store)
            try? FileManager.default.removeItem(at: imageRoot(for: store))
        }
        let load = podman(["load", "--quiet", "--input", archive], store: store)
        try #require(load.status == 0, "podman load: \(load)")
        #expect(load.stdoutText.contains(reference), "\(load)")
        try body(store)
    }

    /// The plain image's checks, in `store`.
    static func checkImage(_ archive: String, store: URL) throws {

        // The configuration: the binary as the entry point, a non-root user, the labels.
        let inspect = Self.podman(
            ["image", "inspect", "--format", "{{json .Config}}", "localhost/aasa:\(Self.version)"], store: store)
        let config = try #require(try inspect.json() as? [String: Any], "\(inspect)")
        #expect(config["User"] as? String == "65532:65532", "\(config)")
        #expect(config["Entrypoint"] as? [String] == ["/usr/bin/aasa"], "\(config)")
        let labels = config["Labels"] as? [String: String] ?? [:]
        #expect(labels["org.opencontainers.image.version"] == Self.version, "\(labels)")
        #expect(labels["org.opencontainers.image.licenses"] == "Apache-2.0", "\(labels)")
        #expect(labels["org.opencontainers.image.revision"]?.count == 40, "\(labels)")

        let version = Self.aasa(["--version"], store: store)
        #expect(version.status == 0 && version.stdoutText.hasPrefix("aasa \(Self.version)\n"), "\(version)")

        // verify and lint of mounted files.
        let verify = Self.aasa(
            ["verify", "/in/examples/apple-app-site-association.p7m", "--domain", "example.com"] + Self.trust,
            store: store)
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdoutText.hasPrefix("/in/examples/apple-app-site-association.p7m: valid"), "\(verify)")
        let lint = Self.aasa(["lint", "/in/examples/apple-app-site-association.json"], store: store)
        #expect(lint.status == 0, "\(lint)")

        // Non-root: a file written to a mounted directory belongs to the image's user (65532).
        // Read-only: writing to the container's own root fails, with one line saying why.
        let out = store.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: out.path)
        let convert = Self.aasa(
            ["convert", "/in/examples/apple-app-site-association.p7m", "-o", "/out/plain.json"] + Self.trust,
            options: ["-v", "\(out.path):/out"], store: store)
        #expect(convert.status == 0, "\(convert)")
        let owner =
            try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("plain.json").path)[
                .ownerAccountID] as? Int
        #expect(owner == 65532, "the container's process runs as \(owner.map(String.init) ?? "?"), not 65532")
        let onRoot = Self.aasa(
            ["convert", "/in/examples/apple-app-site-association.p7m", "-o", "/plain.json"] + Self.trust, store: store)
        #expect(onRoot.status == 2, "\(onRoot)")
        #expect(onRoot.stderr.contains("Read-only file system"), "\(onRoot)")

        // audit of the test nginx: once with --resolve, once by name through /etc/hosts
        // (--add-host): the static binary resolves names in the image (nsswitch.conf, glibc's
        // built-in files source).
        try withNginx { server in
            let domain = server.domain(.plain)
            for (how, options, resolve) in [
                ("--resolve", [String](), ["--resolve", "*:*:127.0.0.1"]),
                ("/etc/hosts", ["--add-host", "\(NginxServer.Host.plain.rawValue):127.0.0.1"], []),
            ] {
                let audit = Self.aasa(
                    ["audit", domain, "--format", "json", "--proxy", ""] + resolve + Self.trust, options: options,
                    store: store)
                #expect(audit.status == 0, "\(how): \(audit)")
                let document = try #require(try audit.json() as? [String: Any], "\(how): \(audit)")
                let reports = document["domains"] as? [[String: Any]] ?? []
                #expect(reports.count == 1 && reports.first?["verdict"] as? String == "current", "\(how): \(audit)")
            }
        }

        // What docs/performance.md reports: the image's size and a verify's whole start-up in it.
        var times: [Double] = []
        for _ in 0..<7 {
            let start = Date()
            let run = Self.aasa(
                ["verify", "/in/examples/apple-app-site-association.p7m"] + Self.trust, store: store)
            times.append(Date().timeIntervalSince(start))
            #expect(run.status == 0, "\(run)")
        }
        let size = try FileManager.default.attributesOfItem(atPath: archive)[.size] as? Int ?? 0
        print("image size: \(size) bytes (the OCI archive, layers compressed)")
        print(
            "image start-up: podman run … verify FILE: median \(Int(times.sorted()[times.count / 2] * 1000)) ms of \(times.count) runs"
        )
    }

    @Test(
        "the shell image runs docs/ci.md's GitLab jobs as the Docker executor does: their scripts in its sh, reports valid",
        .enabled(
            if: ContainerImage.shellArchive != nil,
            "AASA_OCI_SHELL_ARCHIVE is not set: scripts/test-release.sh builds the image and runs this suite with it"))
    func gitLabJobsRunInTheShellImage() throws {
        let archive = try #require(ContainerImage.shellArchive)
        let reference = "localhost/aasa:\(Self.version)-shell"
        let page = try String(contentsOf: CIRecipeRepository.page, encoding: .utf8)
        let block = try #require(
            MarkdownFence.block(in: page, language: "yaml", after: "## GitLab CI"), "docs/ci.md has no GitLab jobs")
        let jobs = try #require(try YAMLDocument.parse(block) as? [String: [String: Any]], "\(block)")
        #expect(Set(jobs.keys) == ["aasa-lint", "aasa-verify"], "\(jobs.keys)")

        try Self.withLoaded(archive, reference: reference) { store in
            try Self.runGitLabJobs(jobs, reference: reference, store: store)
        }
    }

    /// docs/ci.md's GitLab `jobs` in the shell image `reference`, loaded in `store`.
    static func runGitLabJobs(_ jobs: [String: [String: Any]], reference: String, store: URL) throws {
        // The project directory as the runner's Docker executor leaves it: writable by the
        // image's user (the runner clones with umask 0000).
        let project = store.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try CIRecipeRepository.layOut(project)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: project.path)
        let schemas = Repository.fixtures.appendingPathComponent("schemas")
        for (name, job) in jobs.sorted(by: { $0.key < $1.key }) {
            let image = try #require(job["image"] as? [String: Any], "\(name): \(job)")
            #expect(image["name"] as? String == reference, "\(name): \(image)")
            #expect(image["entrypoint"] as? [String] == [""], "\(name): the job's shell, not aasa, must start")
            let script = try #require(job["script"] as? [String], "\(name): \(job)")
            let run = Self.podman(
                [
                    "--runtime", "runc", "run", "--rm", "--network", "none",
                    "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024",
                    "-v", "\(project.path):/builds/project", "-w", "/builds/project", "--entrypoint", "sh",
                    reference, "-e", "-c", script.joined(separator: "\n"),
                ], store: store)
            #expect(run.status == 0, "\(name): \(run)")
            let reports = (job["artifacts"] as? [String: Any])?["reports"] as? [String: String] ?? [:]
            #expect(reports.count == 1, "\(name): \(job)")
            for (kind, file) in reports {
                let data = try Data(contentsOf: project.appendingPathComponent(file))
                switch kind {
                case "codequality":
                    let issues = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
                    #expect(!issues.isEmpty && issues.allSatisfy { $0["fingerprint"] is String }, "\(issues)")
                case "junit":
                    let outcome = SchemaValidation.xml(data, schema: schemas.appendingPathComponent("JUnit.xsd"))
                    #expect(outcome.valid, "\(name): \(outcome)")
                default:
                    Issue.record("\(name): a report of kind \(kind) that this test does not check")
                }
            }
        }
    }
}

/// The image under test, from scripts/test-release.sh's environment.
enum ContainerImage {
    static let archive = ProcessInfo.processInfo.environment["AASA_OCI_ARCHIVE"].flatMap { $0.isEmpty ? nil : $0 }
    /// The image with a shell (`build-image.sh --with-shell`).
    static let shellArchive = ProcessInfo.processInfo.environment["AASA_OCI_SHELL_ARCHIVE"].flatMap {
        $0.isEmpty ? nil : $0
    }
    static let version = ProcessInfo.processInfo.environment["AASA_OCI_VERSION"] ?? ""
}
