import AASATestSupport
import Foundation
import Testing

/// The commands `aasa check` (and, for signed files, `aasa verify`) prints as next steps run as
/// printed: for every file of the
/// corpus, under the name it is served as (`apple-app-site-association`) and under another,
/// each command of the report (a backquoted `aasa …` in a next step, the `legacy file?` hint,
/// the indented command lines, the `all of them: aasa lint FILE` pointer) is run by a shell in
/// an empty directory that holds only that file, and must exit as its command documents:
/// `lint` 0 or 1 (1: it found errors, as the report said), the others 0. The one documented
/// exception is the Handbid file, which embeds no issuer: its check as of signing time fails
/// (status 1) and says which intermediate to supply, and the step that trusts that
/// intermediate (`--ca-file issuer.pem`, the file the step tells the user to get first) cannot
/// read it (status 2).
@Suite("check's next steps run as printed")
struct NextStepsRunTests {
    /// The files: every signed and plain file of the corpus, with its name for the other copy.
    static var files: [(path: String, otherName: String)] {
        RealWorldCorpus.signedNames.map { (RealWorldCorpus.signed($0), "old-copy.p7m") }
            + RealWorldCorpus.plainNames.map { (RealWorldCorpus.plain($0), "old-copy.json") }
    }

    /// The commands a text report of `check` prints, in order: each a group of shell lines
    /// run together (the indented lines of one next step, such as `inspect … > issuer-1.pem`
    /// then `verify --ca-file issuer-1.pem …`).
    static func commands(inReport text: String) -> [[String]] {
        var groups: [[String]] = []
        var indented: [String] = []
        for line in text.split(separator: "\n").map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("aasa "), line.hasPrefix("    ") {
                indented.append(trimmed)
                continue
            }
            if !indented.isEmpty {
                groups.append(indented)
                indented = []
            }
            for quoted in line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            where quoted.offset % 2 == 1 && quoted.element.hasPrefix("aasa ") {
                groups.append([String(quoted.element)])
            }
            if line.contains("legacy file? check it as it was when signed"), let range = line.range(of: ": aasa ") {
                groups.append([String(line[range.lowerBound...].dropFirst(2))])
            }
            if let range = line.range(of: "(all of them: aasa ") {
                groups.append(["aasa " + line[range.upperBound...].dropLast()])
            }
        }
        if !indented.isEmpty { groups.append(indented) }
        return groups
    }

    /// The statuses a command may end with, as its subcommand documents them.
    static func allowed(_ command: String, file: String) -> Set<Int32> {
        if command.hasPrefix("aasa lint ") { return [0, 1] }
        let missingIssuer = file.contains("Handbid") && file.hasSuffix(".p7m")
        if missingIssuer && (command.contains("--historical") || command.contains("--partial-chain")) {
            // The step that needs the issuer the user is told to get first, as issuer.pem: without
            // it, the file to trust cannot be read (2).
            return command.contains("--ca-file issuer.pem") ? [2] : [1]
        }
        return [0]
    }

    @Test("every next step of check runs as printed, for every corpus file under its served name and another")
    func everyNextStepRuns() throws {
        let files = Self.files
        try #require(
            files.count == RealWorldCorpus.expectedSignedCount + RealWorldCorpus.expectedPlainCount, "\(files.count)")
        try withTemporaryDirectory { bin in
            try FileManager.default.createSymbolicLink(at: bin.child("aasa"), withDestinationURL: CLI.executable)
            try Self.runEverySteps(files, bin: bin)
        }
    }

    /// `report`: the command whose report is read (`check`, `verify`); `checkArguments`: its
    /// options (the trust options, which the steps carry).
    static func runEverySteps(
        _ files: [(path: String, otherName: String)], bin: URL, report command: String = "check",
        checkArguments: [String] = []
    ) throws {
        var ran = 0
        for (path, otherName) in files {
            for name in ["apple-app-site-association", otherName] {
                let report = try withTemporaryDirectory { directory in
                    try FileManager.default.copyItem(at: URL(fileURLWithPath: path), to: directory.child(name))
                    return CLI.run([command, name] + checkArguments, in: directory)
                }
                #expect([0, 1].contains(report.status), "\(name) from \(path): \(report)")
                let groups = Self.commands(inReport: report.stdoutText)
                #expect(!groups.isEmpty, "\(command) printed no command for \(path)")
                for group in groups {
                    try withTemporaryDirectory { directory in
                        try FileManager.default.copyItem(at: URL(fileURLWithPath: path), to: directory.child(name))
                        for command in group {
                            let result = ProcessRunner.run(
                                URL(fileURLWithPath: "/bin/bash"), ["-c", command],
                                environment: ["PATH": bin.path + ":/usr/bin:/bin"], in: directory)
                            ran += 1
                            #expect(
                                Self.allowed(command, file: path).contains(result.status),
                                "\(path) as \(name): `\(command)` exited \(result.status): \(result)")
                        }
                        let converts = group.contains { $0.hasPrefix("aasa convert ") && $0.contains("--in-place") }
                        if converts && Self.allowed(group[0], file: path) == [0] {
                            let detect = CLI.run(["detect", name], in: directory)
                            #expect(detect.stdoutText.hasSuffix(": json\n"), "after \(group): \(detect)")
                        }
                    }
                }
            }
        }
        #expect(ran >= 2 * files.count, "\(ran) commands run")
    }

    @Test("every next step of verify runs as printed, for every signed corpus file under its served name and another")
    func everyVerifyStepRuns() throws {
        let files = Self.files.filter { $0.path.hasSuffix(".p7m") }
        try #require(files.count == RealWorldCorpus.expectedSignedCount, "\(files.count)")
        try withTemporaryDirectory { bin in
            try FileManager.default.createSymbolicLink(at: bin.child("aasa"), withDestinationURL: CLI.executable)
            try Self.runEverySteps(files, bin: bin, report: "verify")
        }
    }

    @Test("a file of a private PKI checked with --ca-file: the steps carry its trust options, and run")
    func privateTrustIsCarried() throws {
        let example = Repository.root.appendingPathComponent("examples/apple-app-site-association.p7m").path
        try withTemporaryDirectory { bin in
            try FileManager.default.createSymbolicLink(at: bin.child("aasa"), withDestinationURL: CLI.executable)
            try Self.runEverySteps([(example, "old-copy.p7m")], bin: bin, checkArguments: Fixture.testTrust)
        }
        let text = try withTemporaryDirectory { directory in
            try FileManager.default.copyItem(at: URL(fileURLWithPath: example), to: directory.child("old.p7m"))
            return CLI.run(["check", "old.p7m"] + Fixture.testTrust, in: directory).stdoutText
        }
        let trust = Fixture.testTrust.joined(separator: " ")  // plain paths: nothing to quote
        #expect(
            Self.commands(inReport: text).contains(["aasa convert old.p7m \(trust) -o apple-app-site-association"]),
            "\(text)")
    }

    @Test("a served file's step converts it in place; another name gets -o apple-app-site-association")
    func servedNameGetsInPlace() throws {
        let artsy = RealWorldCorpus.signed("artsy_artsy-eigen-web-association_aasa-20150915-a.p7m")
        for (name, expected) in [
            ("apple-app-site-association", "aasa convert apple-app-site-association --historical --in-place"),
            ("old-copy.p7m", "aasa convert old-copy.p7m --historical -o apple-app-site-association"),
        ] {
            let text = try withTemporaryDirectory { directory in
                try FileManager.default.copyItem(at: URL(fileURLWithPath: artsy), to: directory.child(name))
                return CLI.run(["check", name], in: directory).stdoutText
            }
            #expect(Self.commands(inReport: text).contains([expected]), "\(text)")
        }
        // A file that left its issuer out: the step is to supply it, not a --historical check
        // that fails the same way.
        let handbid = CLI.run(["check", RealWorldCorpus.signed("Handbid_Handbid-WordPress_aasa-smime-format.p7m")])
        #expect(
            handbid.stdoutText.contains(
                "next step:    The file embeds no certificate of its issuer, \"C=US, O=GeoTrust Inc., CN=RapidSSL SHA256 CA - G3\""
            ), "\(handbid)")
    }
}
