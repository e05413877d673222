import AASATestSupport
import Foundation
import Testing

/// `--fetch-issuers` (issue #25): a signed file that left its intermediate out verifies once the
/// intermediate is fetched from the signer certificate's caIssuers URI, served by a real HTTP
/// server on 127.0.0.1; every refusal has its line.
@Suite("--fetch-issuers: missing intermediates fetched from caIssuers URIs", .serialized)
struct FetchIssuersTests {
    /// A PKI, a server serving its intermediate, and the `aasa verify` trust flags for it.
    final class Setup {
        let pki: IssuerTestPKI
        let server: IssuerHTTPServer
        var base: String { "http://127.0.0.1:\(server.port)" }
        var trust: [String] { ["--ca-file", pki.root, "--no-system-roots"] }

        init() throws {
            pki = try IssuerTestPKI()
            do {
                server = try IssuerHTTPServer(serving: pki.directory)
            } catch {
                pki.remove()
                throw error
            }
        }

        deinit {
            server.stop()
            pki.remove()
        }

        func aasa(_ arguments: [String], timeout: TimeInterval = 60) -> ProcessResult {
            ProcessRunner.run(Executables.aasa, arguments, timeout: timeout)
        }
    }

    /// The `--fetch-issuers:` lines of a run's standard error.
    static func fetchLines(_ result: ProcessResult) -> [String] {
        result.stderrLines.filter { $0.hasPrefix("--fetch-issuers: ") }
    }

    @Test("without --fetch-issuers: untrusted, a hint naming --intermediates and --fetch-issuers, no request")
    func withoutTheFlag() throws {
        let setup = try Setup()
        let file = try setup.pki.signedFile(aia: "\(setup.base)/int.der", name: "plain")
        let result = setup.aasa(["verify", file] + setup.trust)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutText.hasPrefix("\(file): untrusted\n"), "\(result)")
        let error = result.stderrLines.last ?? ""
        #expect(error.contains("[untrusted] unable to get local issuer certificate"), "\(result)")
        #expect(error.contains("--intermediates FILE") && error.contains("--fetch-issuers"), "\(result)")
        #expect(result.stdoutText.contains("--intermediates FILE"), "the next step too: \(result)")
        #expect(Self.fetchLines(result).isEmpty, "\(result)")
        #expect(setup.server.requests().isEmpty, "nothing is fetched unless asked")
    }

    @Test(
        "with --fetch-issuers: the intermediate fetched once (DER, PEM, PKCS#7 certs-only), the file valid",
        arguments: [("int.der", "DER"), ("int.pem", "PEM"), ("int.p7c", "PKCS#7")])
    func fetchesTheIntermediate(path: String, format: String) throws {
        let setup = try Setup()
        let uri = "\(setup.base)/\(path)"
        let file = try setup.pki.signedFile(aia: uri, name: "signed")
        let result = setup.aasa(["verify", file, "--fetch-issuers"] + setup.trust)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.hasPrefix("\(file): valid\n"), "\(result)")
        #expect(result.stdoutText.contains("Issuer Test Intermediate"), "the chain names it: \(result)")
        let lines = Self.fetchLines(result)
        #expect(lines.count == 1, "\(result)")
        let bytes = try FileManager.default.attributesOfItem(atPath: setup.pki.path("www/\(path)"))[.size] as? Int
        #expect(
            lines.first
                == "--fetch-issuers: note: fetched \(uri): \(bytes ?? -1) bytes, 1 certificate (\(format)), used only as untrusted intermediates",
            "\(result)")
        #expect(setup.server.requests() == ["/\(path)"])
    }

    @Test("a batch of files with one issuer: one request, one line, every file valid")
    func batchFetchesOnce() throws {
        let setup = try Setup()
        let first = try setup.pki.signedFile(aia: "\(setup.base)/int.der", name: "first")
        let others = try (1...5).map { try setup.pki.sign(name: "other\($0)", certificate: "first") }
        let result = setup.aasa(["verify", first] + others + ["--fetch-issuers", "--jobs", "4"] + setup.trust)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.components(separatedBy: ": valid\n").count - 1 == 6, "\(result)")
        #expect(Self.fetchLines(result).count == 1, "\(result)")
        #expect(setup.server.requests() == ["/int.der"], "the cache serves the rest of the batch")
    }

    @Test("extract and convert fetch too", arguments: ["extract", "convert"])
    func otherCommands(command: String) throws {
        let setup = try Setup()
        let file = try setup.pki.signedFile(aia: "\(setup.base)/int.der", name: "other")
        let without = setup.aasa([command, file] + setup.trust)
        #expect(without.status == 1, "\(without)")
        #expect(without.stderr.contains("--fetch-issuers"), "the hint: \(without)")
        let result = setup.aasa([command, file, "--fetch-issuers"] + setup.trust)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.contains("com.example.other"), "\(result)")
        #expect(Self.fetchLines(result).count == 1, "\(result)")
    }

    @Test("check fetches too: certificate-untrusted without it, not with it")
    func check() throws {
        let setup = try Setup()
        let file = try setup.pki.signedFile(aia: "\(setup.base)/int.der", name: "checked")
        let without = setup.aasa(["check", file] + setup.trust)
        #expect(without.stdoutText.contains("certificate-untrusted"), "\(without)")
        #expect(setup.server.requests().isEmpty)
        let result = setup.aasa(["check", file, "--fetch-issuers"] + setup.trust)
        #expect(!result.stdoutText.contains("certificate-untrusted"), "\(result)")
        #expect(Self.fetchLines(result).count == 1, "\(result)")
        #expect(setup.server.requests() == ["/int.der"])
    }

    @Test(
        "--historical without the issuer: the CLI words the remedy with --intermediates, and says when the fetch got none"
    )
    func historicalRemedyNamesTheFlags() throws {
        let setup = try Setup()
        let file = try setup.pki.signedFile(aia: "\(setup.base)/missing.der", name: "historical")
        // Without --fetch-issuers: the remedy names both ways to supply the issuer.
        let plain = setup.aasa(["verify", file, "--historical"] + setup.trust)
        #expect(plain.status == 1, "\(plain)")
        let line = plain.stderrLines.last ?? ""
        #expect(line.contains("the chain cannot be built (historical mode)"), "\(plain)")
        #expect(line.hasSuffix("; supply the issuer with --intermediates FILE (or --fetch-issuers)"), "\(plain)")
        #expect(setup.server.requests().isEmpty, "\(plain)")
        // With it, and a 404: the remedy says the fetch got none, after the fetch's own line.
        let fetched = setup.aasa(["verify", file, "--historical", "--fetch-issuers"] + setup.trust)
        #expect(fetched.status == 1, "\(fetched)")
        #expect(Self.fetchLines(fetched).count == 1, "\(fetched)")
        #expect(
            fetched.stderrLines.last?.hasSuffix(
                "; supply the issuer with --intermediates FILE (--fetch-issuers got none: see its lines above)")
                == true,
            "\(fetched)")
    }

    @Test(
        "refused: a body over 64 KiB (Content-Length or not), a 404, no certificate, a redirect to file:",
        arguments: [
            ("/big.der", "refused: the body is over the 65536-byte limit (Content-Length 70000)"),
            ("/unsized-big.der", "refused: the body is over the 65536-byte limit ("),
            ("/missing.der", "HTTP 404"),
            ("/junk.der", "refused: the body is not a certificate: not DER, PEM or PKCS#7 certs-only (23 bytes read)"),
            (
                "/redirect-file",
                "a redirect to \"file:///etc/passwd\" is not followed: the scheme \"file\" is never fetched (only http and https)"
            ),
        ])
    func refusals(path: String, reason: String) throws {
        let setup = try Setup()
        let uri = "\(setup.base)\(path)"
        let file = try setup.pki.signedFile(aia: uri, name: "refused")
        let result = setup.aasa(["verify", file, "--fetch-issuers"] + setup.trust)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutText.hasPrefix("\(file): untrusted\n"), "\(result)")
        let lines = Self.fetchLines(result)
        #expect(lines.count == 1, "\(result)")
        #expect(lines.first?.hasPrefix("--fetch-issuers: warning: fetching \(uri): ") == true, "\(result)")
        #expect(lines.first?.contains(reason) == true, "\(result)")
        #expect(setup.server.requests() == [path], "\(result)")
    }

    @Test("a URI of another scheme is never fetched")
    func otherScheme() throws {
        let setup = try Setup()
        let file = try setup.pki.signedFile(aia: "ldap://127.0.0.1:\(setup.server.port)/cn=int", name: "ldap")
        let result = setup.aasa(["verify", file, "--fetch-issuers"] + setup.trust)
        #expect(result.status == 1, "\(result)")
        #expect(
            Self.fetchLines(result) == [
                "--fetch-issuers: warning: fetching ldap://127.0.0.1:\(setup.server.port)/cn=int: not fetched: the scheme \"ldap\" is never fetched (only http and https)"
            ], "\(result)")
        #expect(setup.server.requests().isEmpty)
    }

    @Test("a URI with a terminal escape is refused unfetched, and its line shows the escape escaped")
    func hostileURI() throws {
        let setup = try Setup()
        let uri = "\(setup.base)/\u{1B}[31mint.der"
        let file = try setup.pki.signedFile(aia: uri, name: "hostile")
        let result = setup.aasa(["verify", file, "--fetch-issuers"] + setup.trust)
        #expect(result.status == 1, "\(result)")
        #expect(!result.stderr.contains("\u{1B}"), "no raw escape reaches the terminal: \(result)")
        #expect(
            Self.fetchLines(result) == [
                "--fetch-issuers: warning: fetching \(setup.base)/\\u{1B}[31mint.der: not fetched: not printable ASCII without spaces"
            ], "\(result)")
        #expect(setup.server.requests().isEmpty)
    }

    @Test("a server that stalls: the fetch ends at --fetch-timeout")
    func stallTimesOut() throws {
        let setup = try Setup()
        let file = try setup.pki.signedFile(aia: "\(setup.base)/stall", name: "stall")
        let started = Date()
        let result = setup.aasa(["verify", file, "--fetch-issuers", "--fetch-timeout", "1"] + setup.trust)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 1, "\(result)")
        #expect(elapsed < 6, "took \(elapsed) s")
        #expect(
            Self.fetchLines(result) == [
                "--fetch-issuers: warning: fetching \(setup.base)/stall: timed out: no complete answer within 1 s"
            ], "\(result)")
        #expect(setup.server.requests() == ["/stall"])
    }
}
