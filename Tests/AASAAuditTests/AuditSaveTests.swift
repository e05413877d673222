import AASATestSupport
import Foundation
import Testing

/// `aasa audit --save DIR` (issue #27): what each domain served is kept under DIR/<domain>/,
/// byte for byte, and the text report's next steps name the saved file and run as printed.
@Suite(.enabled(if: NginxServer.isAvailable, NginxServer.skipReason))
struct AuditSaveTests {
    /// A fresh working directory, removed afterwards.
    func inWorkDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    func audit(_ server: NginxServer, _ args: [String], in directory: URL) -> ProcessResult {
        ProcessRunner.run(Executables.aasa, ["audit"] + args + server.auditOptions, in: directory)
    }

    /// The base64 of each PEM block of `text`, for comparing certificates whatever the layout.
    static func pemBlocks(_ text: String) -> [String] {
        text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { block in
            block.components(separatedBy: "-----END CERTIFICATE-----").first?.filter { !$0.isWhitespace }
        }
    }

    /// The backquoted `aasa …` commands of a text report.
    static func commands(_ text: String) -> [String] {
        text.split(separator: "\n").flatMap { line in
            line.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { part in
                part.offset % 2 == 1 && part.element.hasPrefix("aasa ") ? String(part.element) : nil
            }
        }
    }

    @Test func savedFilesAreWhatNginxServedAndTheStepsRun() throws {
        try withNginx { server in
            try inWorkDirectory { work in
                let hosts: [NginxServer.Host] = [.plain, .signedRoot, .both, .missing, .sha1Signed]
                let result = audit(server, hosts.map(server.domain) + ["--save", "saved"], in: work)
                #expect(result.status == 1, "\(result)")
                #expect(result.stderr.isEmpty, "\(result.stderr)")
                let saved = work.appendingPathComponent("saved")
                func file(_ host: NginxServer.Host, _ name: String) -> URL {
                    saved.appendingPathComponent(server.domain(host)).appendingPathComponent(name)
                }
                let chain = Self.pemBlocks(
                    try String(
                        contentsOf: server.directory.appendingPathComponent("wildcard.chain.pem"), encoding: .utf8))
                #expect(chain.count == 2)
                for (host, served, path, type) in [
                    (NginxServer.Host.plain, "plain.json", ".well-known", "application/json"),
                    (.signedRoot, "signed-wildcard.p7m", "root", "application/pkcs7-mime"),
                    (.both, "plain.json", ".well-known", "application/json"),
                ] {
                    let body = try Data(contentsOf: file(host, "apple-app-site-association"))
                    #expect(body == (try Data(contentsOf: server.directory.appendingPathComponent(served))), "\(host)")
                    let headers = try String(contentsOf: file(host, "headers.txt"), encoding: .utf8)
                    #expect(headers.hasPrefix("HTTP/1.1 200 OK\n"), "\(headers)")
                    #expect(headers.contains("\nContent-Type: \(type)\n"), "\(headers)")
                    #expect(headers.contains("\nContent-Length: \(body.count)\n"), "\(headers)")
                    let pem = try String(contentsOf: file(host, "tls-chain.pem"), encoding: .utf8)
                    #expect(Self.pemBlocks(pem) == chain, "\(host)")
                    let metadata = try #require(
                        try JSONSerialization.jsonObject(with: Data(contentsOf: file(host, "metadata.json")))
                            as? [String: Any])
                    #expect(metadata["path"] as? String == path)
                    #expect(metadata["served"] as? Bool == true)
                    #expect(metadata["domain"] as? String == server.domain(host))
                }
                // No file served: the .well-known answer is kept, no body is passed off as the file.
                #expect(!FileManager.default.fileExists(atPath: file(.missing, "apple-app-site-association").path))
                let missing = try String(contentsOf: file(.missing, "headers.txt"), encoding: .utf8)
                #expect(missing.hasPrefix("HTTP/1.1 404 Not Found\n"), "\(missing)")

                // What each path answered, whatever it was: signed-root's .well-known is nginx's
                // 404 page, its root the signed file (the same object as the file iOS uses).
                let page = try String(contentsOf: file(.signedRoot, "well-known.body"), encoding: .utf8)
                #expect(page.contains("404 Not Found"), "\(page)")
                let signed = try Data(contentsOf: server.directory.appendingPathComponent("signed-wildcard.p7m"))
                #expect(try Data(contentsOf: file(.signedRoot, "root.body")) == signed)
                let metadata = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: file(.signedRoot, "metadata.json")))
                        as? [String: Any])
                let paths = try #require(metadata["paths"] as? [[String: Any]], "\(metadata)")
                #expect(paths.compactMap { $0["path"] as? String } == [".well-known", "root"], "\(paths)")
                #expect(
                    paths.compactMap { $0["statusLine"] as? String } == ["HTTP/1.1 404 Not Found", "HTTP/1.1 200 OK"])
                #expect(paths.last?["size"] as? Int == signed.count && paths.last?["truncated"] as? Bool == false)
                #expect(paths.last?["files"] as? [String] == ["root.body"], "\(paths)")
                // Each answer's header fields, as received.
                let rootHeaders = paths.last?["headers"] as? [String] ?? []
                #expect(rootHeaders.contains("Content-Type: application/pkcs7-mime"), "\(rootHeaders)")
                #expect(rootHeaders.contains("Content-Length: \(signed.count)"), "\(rootHeaders)")
                // Neither path served a file: both answers are still kept.
                for name in ["well-known.body", "root.body"] {
                    #expect(FileManager.default.fileExists(atPath: file(.missing, name).path), "\(name)")
                }
                // Nothing but the domains' directories and the store of their files' contents
                // (SavedObjects), and no temporary left behind.
                let entries = try FileManager.default.contentsOfDirectory(atPath: saved.path).sorted()
                #expect(entries == [".objects"] + hosts.map(server.domain).sorted())
                let objects = try FileManager.default.contentsOfDirectory(
                    atPath: saved.appendingPathComponent(".objects").path)
                #expect(objects.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) }, "\(objects)")
                for entry in entries where entry != ".objects" {
                    let names = try FileManager.default.contentsOfDirectory(
                        atPath: saved.appendingPathComponent(entry).path)
                    #expect(
                        Set(names).isSubset(of: [
                            "apple-app-site-association", "headers.txt", "tls-chain.pem", "metadata.json",
                            "well-known.body", "root.body",
                        ]), "\(names)")
                }

                // Every next step names the saved file and runs as printed.
                let commands = Self.commands(result.stdoutText)
                let quotedSaved = "saved/\(server.domain(.signedRoot))/apple-app-site-association"
                #expect(commands.contains { $0.contains(" \(quotedSaved) ") }, "\(result.stdoutText)")
                #expect(!commands.contains { $0.split(separator: " ").contains("FILE") }, "\(commands)")
                let bin = work.appendingPathComponent("bin")
                try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(
                    at: bin.appendingPathComponent("aasa"), withDestinationURL: Executables.aasa)
                #expect(commands.count >= 2, "\(result.stdoutText)")
                for command in commands {
                    let run = ProcessRunner.run(
                        URL(fileURLWithPath: "/bin/bash"), ["-c", command],
                        environment: ["PATH": bin.path + ":/usr/bin:/bin"], in: work)
                    let allowed: Set<Int32> = command.hasPrefix("aasa lint ") ? [0, 1] : [0]
                    #expect(allowed.contains(run.status), "`\(command)` exited \(run.status): \(run)")
                }
                // The JSON that the steps take out goes beside each domain's saved file: the
                // steps of two domains never write one file.
                let outputs = commands.compactMap { command -> String? in
                    let words = command.split(separator: " ").map(String.init)
                    guard let index = words.firstIndex(of: "-o"), index + 1 < words.count else { return nil }
                    return words[index + 1]
                }
                #expect(outputs.count >= 2, "\(commands)")
                #expect(Set(outputs).count == outputs.count, "\(outputs)")
                for output in outputs {
                    #expect(output.hasPrefix("saved/") && output.hasSuffix("/apple-app-site-association.json"))
                    #expect(
                        FileManager.default.fileExists(atPath: work.appendingPathComponent(output).path), "\(output)")
                }
            }
        }
    }

    /// Issue #30: what many domains serve alike is kept once. plain, keep-alive and closing
    /// serve the same file with the same chain: their bodies and chains are one object each in
    /// DIR/.objects (one inode, linked), their headers their own; `aasa verify`-able paths stay.
    @Test func identicalFilesAreKeptOnceAsLinksToOneObject() throws {
        try withNginx { server in
            try inWorkDirectory { work in
                let hosts: [NginxServer.Host] = [.plain, .keepAlive, .closing, .signedRoot]
                let result = audit(server, hosts.map(server.domain) + ["--save", "saved"], in: work)
                #expect(result.status == 0, "\(result)")
                #expect(result.stderr.isEmpty, "\(result.stderr)")
                func info(_ host: NginxServer.Host, _ name: String) throws -> stat {
                    var info = stat()
                    let path = work.appendingPathComponent("saved/\(server.domain(host))/\(name)").path
                    try #require(lstat(path, &info) == 0, "\(path)")
                    return info
                }
                let bodies = try [NginxServer.Host.plain, .keepAlive, .closing].map {
                    try info($0, "apple-app-site-association")
                }
                #expect(Set(bodies.map(\.st_ino)).count == 1, "one inode for the three bodies")
                // The object, and for each of the three domains its file and its .well-known answer's body.
                #expect(bodies[0].st_nlink == 7, "\(bodies[0].st_nlink)")
                #expect(try info(.plain, "well-known.body").st_ino == bodies[0].st_ino)
                #expect((bodies[0].st_mode & S_IFMT) == S_IFREG)
                // signed-root: the object, its file, its root answer's body.
                let signed = try info(.signedRoot, "apple-app-site-association")
                #expect(signed.st_ino != bodies[0].st_ino && signed.st_nlink == 3)
                // nginx's 404 page: the root answer of the three, the .well-known one of signed-root.
                let notFound =
                    try [NginxServer.Host.plain, .keepAlive, .closing].map { try info($0, "root.body") }
                    + [try info(.signedRoot, "well-known.body")]
                #expect(Set(notFound.map(\.st_ino)).count == 1 && notFound[0].st_nlink == 5)
                let chains = try hosts.map { try info($0, "tls-chain.pem") }
                #expect(Set(chains.map(\.st_ino)).count == 1, "every host has the wildcard chain")
                let headers = try [NginxServer.Host.plain, .keepAlive].map { try info($0, "headers.txt") }
                #expect(headers[0].st_ino != headers[1].st_ino && headers[0].st_nlink == 1)
                let objects = try FileManager.default.contentsOfDirectory(
                    atPath: work.appendingPathComponent("saved/.objects").path)
                #expect(objects.count == 4, "two files, one 404 page and one chain: \(objects)")
                let plain = try Data(contentsOf: server.directory.appendingPathComponent("plain.json"))
                let digest = ProcessRunner.run(Executables.openssl, ["dgst", "-sha256", "-r"], stdin: plain)
                let name = String(digest.stdoutText.prefix(64))
                #expect(objects.contains(name), "the object is named by its SHA-256: \(name)")

                // An object changed by hand is not linked as it is: a second run writes it again.
                let object = work.appendingPathComponent("saved/.objects/\(name)")
                try Data("tampered".utf8).write(to: object)
                let again = audit(server, [server.domain(.plain), "--save", "saved"], in: work)
                #expect(again.status == 0, "\(again)")
                let saved = work.appendingPathComponent("saved/\(server.domain(.plain))/apple-app-site-association")
                #expect(try Data(contentsOf: saved) == plain)
                #expect(try Data(contentsOf: object) == plain)
            }
        }
    }

    /// Issue #30: the HTML report links each domain's detail to its saved files
    /// (`summarize --saved DIR`), paths from where the page is opened, only to files that are there.
    @Test func theHTMLReportLinksEachDomainToItsSavedFiles() throws {
        try withNginx { server in
            try inWorkDirectory { work in
                let hosts: [NginxServer.Host] = [.plain, .missing]
                let result = audit(
                    server, hosts.map(server.domain) + ["--save", "saved", "--format", "jsonl"], in: work)
                #expect(result.status == 1, "\(result)")
                try result.stdout.write(to: work.appendingPathComponent("results.jsonl"))
                let page = ProcessRunner.run(
                    Executables.aasa, ["audit", "summarize", "results.jsonl", "--format", "html", "--saved", "saved/"],
                    in: work)
                #expect(page.status == 0, "\(page)")
                let text = page.stdoutText
                let plain = server.domain(.plain)
                for name in ["apple-app-site-association", "headers.txt", "tls-chain.pem", "metadata.json"] {
                    #expect(text.contains("\"saved/\(plain)/\(name)\""), "no link to \(name)")
                    #expect(
                        FileManager.default.fileExists(
                            atPath: work.appendingPathComponent("saved/\(plain)/\(name)").path))
                }
                // The missing domain served no file: its headers, chain and metadata only.
                let missing = server.domain(.missing)
                #expect(!text.contains("\"saved/\(missing)/apple-app-site-association\""))
                #expect(text.contains("\"saved/\(missing)/metadata.json\""))
                // --saved is for the HTML page only.
                let refused = ProcessRunner.run(
                    Executables.aasa, ["audit", "summarize", "results.jsonl", "--saved", "saved"], in: work)
                #expect(refused.status == 64, "\(refused)")
            }
        }
    }

    @Test func withoutSaveTheStepsSayHowToGetTheFile() throws {
        try withNginx { server in
            try inWorkDirectory { work in
                let result = audit(server, [server.domain(.signedRoot)], in: work)
                #expect(result.status == 0, "\(result)")
                #expect(
                    result.stdoutText.contains("(FILE: the file the domain serves; audit with --save DIR to keep it)"),
                    "\(result.stdoutText)")
                let left = try FileManager.default.contentsOfDirectory(atPath: work.path)
                #expect(left.isEmpty, "\(left)")
            }
        }
    }

    /// Hostile names and answers stay inside DIR: a name with `..` or `/` is not a domain, a
    /// server's Location or headers name no file, and a link put where a domain's directory
    /// goes is refused, not followed.
    @Test func nothingEscapesTheDirectory() throws {
        try withNginx { server in
            try inWorkDirectory { work in
                let saved = work.appendingPathComponent("saved")
                let outside = work.appendingPathComponent("outside")
                try FileManager.default.createDirectory(at: saved, withIntermediateDirectories: true)
                try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(
                    at: saved.appendingPathComponent(server.domain(.plain)), withDestinationURL: outside)
                let list = [
                    "..", "../escape.example.com", "a/../../b", server.domain(.hostile),
                    server.domain(.hostileHeader), server.domain(.plain),
                ].joined(separator: "\n")
                try Data(list.utf8).write(to: work.appendingPathComponent("domains.txt"))
                let result = audit(server, ["--domains-file", "domains.txt", "--save", "saved"], in: work)
                #expect(result.status == 2, "\(result)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
                let refused = result.stderrLines.filter { $0.contains("cannot save (--save)") }
                #expect(refused.count == 1, "\(result.stderr)")
                #expect(refused.first?.contains("symbolic link") == true, "\(result.stderr)")
                let top = try FileManager.default.contentsOfDirectory(atPath: work.path).sorted()
                #expect(top == ["domains.txt", "outside", "saved"], "\(top)")
                let entries = try FileManager.default.contentsOfDirectory(atPath: saved.path).sorted()
                #expect(
                    entries
                        == [".objects"]
                        + [server.domain(.hostileHeader), server.domain(.hostile), server.domain(.plain)].sorted(),
                    "\(entries)")
            }
        }
    }

    /// A DIR that cannot be written: one error line naming it, exit status 2.
    @Test func unwritableDirectoryIsOneErrorLine() throws {
        try withNginx { server in
            try inWorkDirectory { work in
                try Data("not a directory\n".utf8).write(to: work.appendingPathComponent("saved"))
                let result = audit(server, [server.domain(.plain), "--save", "saved"], in: work)
                #expect(result.status == 2, "\(result)")
                #expect(result.stderrLines.count == 1, "\(result.stderr)")
                #expect(result.stderrLines.first?.hasPrefix("saved: error: cannot save (--save)") == true, "\(result)")
                // A domain's directory taken by a file: that domain's line, the others saved.
                try FileManager.default.removeItem(at: work.appendingPathComponent("saved"))
                let blocked = work.appendingPathComponent("saved").appendingPathComponent(server.domain(.signedRoot))
                try FileManager.default.createDirectory(
                    at: blocked.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("x".utf8).write(to: blocked)
                let second = audit(
                    server, [server.domain(.signedRoot), server.domain(.both), "--save", "saved"], in: work)
                #expect(second.status == 2, "\(second)")
                #expect(second.stderrLines.count == 1, "\(second.stderr)")
                #expect(second.stderrLines.first?.contains(server.domain(.signedRoot)) == true, "\(second.stderr)")
                #expect(try Data(contentsOf: blocked) == Data("x".utf8))
                #expect(second.stdoutText.contains("could not be saved"), "\(second.stdoutText)")
                let both = work.appendingPathComponent("saved/\(server.domain(.both))/apple-app-site-association")
                #expect(FileManager.default.fileExists(atPath: both.path))
            }
        }
    }
}
