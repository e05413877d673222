import Foundation
import Testing

/// The shared limit flags (`--max-input-size`, `--max-json-depth`, `--max-certificates`,
/// `--max-url-length`): each default refuses what it refused before, and each override changes
/// the outcome both ways, in single-file and batch runs; bad values are usage errors.
@Suite("Limit options")
struct LimitOptionsTests {
    static let app = "ABCDE12345.com.example.app"

    /// A valid AASA document whose "x" member nests `depth - 1` arrays: `depth` levels in all.
    static func nested(depth: Int) -> Data {
        let levels = depth - 1
        return Data(
            (#"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/a/*"}]}]}, "x": "#
                + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}").utf8)
    }

    /// A valid AASA document of at least `size` bytes (a long unknown member pads it).
    static func padded(size: Int) -> Data {
        Data(
            (#"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/a/*"}]}]}, "pad": ""#
                + String(repeating: "x", count: size) + "\"}").utf8)
    }

    /// Fixture.json signed with openssl by leaf-rsa, carrying the intermediate, the root and
    /// another leaf as well: 4 certificates.
    static func fourCertificates(in dir: URL) throws -> URL {
        let extra = try Fixture.write(
            contents(URL(fileURLWithPath: CLI.cert("chain.pem")))
                + contents(URL(fileURLWithPath: CLI.cert("root-ca.pem")))
                + contents(URL(fileURLWithPath: CLI.cert("leaf-ec.pem"))), to: dir, as: "three.pem")
        let input = try Fixture.write(to: dir, as: "in.json")
        try CLI.requireOpenSSL([
            "smime", "-sign", "-inkey", CLI.cert("leaf-rsa.key"), "-signer", CLI.cert("leaf-rsa.pem"), "-certfile",
            extra.path,
            "-noattr", "-nodetach", "-binary", "-outform", "DER", "-in", input.path, "-out", dir.child("four.p7m").path,
        ])
        return dir.child("four.p7m")
    }

    /// No crash report and no argument-parser fallback on standard error.
    static func expectNoCrash(_ result: CLI.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        for marker in ["crashed", "Fatal error", "Backtrace", "SIGSEGV"] {
            #expect(!result.stderr.contains(marker), "\(marker): \(result)", sourceLocation: sourceLocation)
        }
        #expect(result.status >= 0 && result.status <= 2, "\(result)", sourceLocation: sourceLocation)
    }

    // MARK: - --max-input-size

    @Test("a 300 KB file: refused with --max-input-size 256K (file and flag named, nothing written), accepted without")
    func inputSizeOverride() throws {
        try withTemporaryDirectory { dir in
            let big = try Fixture.write(Self.padded(size: 300_000), to: dir, as: "big.json")
            let refused = CLI.run(["convert", big.path, "-o", dir.child("out.json").path, "--max-input-size", "256K"])
            #expect(refused.status == 2, "\(refused)")
            expectDiagnostic(
                refused.stderrLines.first, path: big.path, severity: "error",
                contains: ["larger than the 262144 bytes limit (--max-input-size)"])
            #expect(!fileExists(dir.child("out.json")))
            #expect(leftoverTemporaries(in: dir).isEmpty)

            let accepted = CLI.run(["convert", big.path, "-o", dir.child("out.json").path])
            #expect(accepted.status == 0, "\(accepted)")
            #expect(fileExists(dir.child("out.json")))
            // Raised back over the file's size, in plain bytes or a lower-case suffix.
            for size in ["300200", "1m"] {
                let lint = CLI.run(["lint", big.path, "--max-input-size", size])
                #expect(lint.status == 1, "\(size): linted, with file-too-large: \(lint)")
                #expect(lint.stdoutText.contains("[file-too-large]"), "\(lint)")
            }
        }
    }

    @Test("sign: an input over --max-input-size is refused and nothing is written")
    func inputSizeSign() throws {
        try withTemporaryDirectory { dir in
            let input = try Fixture.write(Self.padded(size: 5_000), to: dir, as: "in.json")
            let signArgs = ["--key", CLI.cert("leaf-rsa.key"), "--cert", CLI.cert("leaf-rsa.pem")]
            let refused = CLI.run(
                ["sign", input.path, "-o", dir.child("out.p7m").path, "--max-input-size", "4K"] + signArgs)
            #expect(refused.status == 2, "\(refused)")
            expectDiagnostic(
                refused.stderrLines.last, path: input.path, severity: "error",
                contains: ["4096 bytes", "--max-input-size"])
            #expect(!fileExists(dir.child("out.p7m")))
            let signed = CLI.run(
                ["sign", input.path, "-o", dir.child("out.p7m").path, "--max-input-size", "8K"] + signArgs)
            #expect(signed.status == 0, "\(signed)")
            #expect(fileExists(dir.child("out.p7m")))
        }
    }

    @Test("the default: over 16 MiB refused before reading, naming the flag; raising it reads the file")
    func inputSizeDefault() throws {
        try withTemporaryDirectory { dir in
            // A sparse 17 MiB file: the size check is a stat, and a raised limit reads zeros.
            let huge = dir.child("huge.json")
            try Data().write(to: huge)
            #expect(truncate(huge.path, 17 * 1024 * 1024) == 0)
            let refused = CLI.run(["detect", huge.path])
            #expect(refused.status == 2, "\(refused)")
            expectDiagnostic(
                refused.stderrLines.first, path: huge.path, severity: "error",
                contains: ["input is 17825792 bytes, larger than the 16 MiB limit (--max-input-size)"])
            let raised = CLI.run(["detect", huge.path, "--max-input-size", "32M"])
            #expect(raised.status == 0, "\(raised)")
            #expect(raised.stdoutText.hasPrefix("\(huge.path): unknown"), "\(raised)")
        }
    }

    @Test("standard input over --max-input-size is refused, naming the flag")
    func inputSizeStandardInput() {
        let json = Self.padded(size: 3_000)
        let refused = CLI.run(["detect", "-", "--max-input-size", "2K"], stdin: json)
        #expect(refused.status == 2, "\(refused)")
        expectDiagnostic(
            refused.stderrLines.first, path: "<stdin>", severity: "error",
            contains: ["2048 bytes", "(--max-input-size)"])
        let accepted = CLI.run(["detect", "-", "--max-input-size", "4K"], stdin: json)
        #expect(accepted.status == 0, "\(accepted)")
        #expect(accepted.stdoutText == "<stdin>: json\n", "\(accepted)")
    }

    @Test("batch: the limit applies to each file; the others are still processed", arguments: ["1", "2"])
    func inputSizeBatch(jobs: String) throws {
        try withTemporaryDirectory { dir in
            let site = dir.child("site")
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            let big = try Fixture.write(Self.padded(size: 300_000), to: site, as: "big.json")
            try Fixture.write(Self.padded(size: 10), to: site, as: "small.json")
            let lint = CLI.run(["lint", site.path, "--max-input-size", "256K", "--jobs", jobs])
            #expect(lint.status == 2, "\(lint)")
            #expect(lint.stderr.contains("\(big.path): error: input is 300"), "\(lint)")
            #expect(lint.stderr.contains("(--max-input-size)"), "\(lint)")
            #expect(lint.stdoutText.contains("small.json"), "the small file is linted: \(lint)")

            let convert = CLI.run([
                "convert", site.path, "--out-dir", dir.child("out").path, "--max-input-size", "256K", "--jobs", jobs,
            ])
            #expect(convert.status == 2, "\(convert)")
            #expect(fileExists(dir.child("out/small.json")))
            #expect(!fileExists(dir.child("out/big.json")))

            let detect = CLI.run(["detect", site.path, "--jobs", jobs])
            #expect(detect.status == 0, "without the flag every file is read: \(detect)")
        }
    }

    // MARK: - --max-json-depth

    @Test("600-deep JSON: invalid by default, accepted with --max-json-depth 1000 (lint, detect, convert)")
    func jsonDepthOverride() throws {
        try withTemporaryDirectory { dir in
            let deep = try Fixture.write(Self.nested(depth: 600), to: dir, as: "deep.json")
            let lint = CLI.run(["lint", deep.path])
            #expect(lint.status == 1, "\(lint)")
            #expect(
                lint.stdoutText.contains("[invalid-json]") && lint.stdoutText.contains("deeper than 512"), "\(lint)")
            let raised = CLI.run(["lint", deep.path, "--max-json-depth", "1000"])
            #expect(raised.status == 0, "\(raised)")
            #expect(!raised.stdoutText.contains("[invalid-json]"), "\(raised)")

            #expect(CLI.run(["detect", deep.path]).stdoutText.hasPrefix("\(deep.path): unknown"))
            #expect(CLI.run(["detect", deep.path, "--max-json-depth", "600"]).stdoutText == "\(deep.path): json\n")

            let refused = CLI.run(["convert", deep.path, "-o", dir.child("out.json").path])
            #expect(refused.status == 2, "\(refused)")
            #expect(!fileExists(dir.child("out.json")))
            let converted = CLI.run(["convert", deep.path, "-o", dir.child("out.json").path, "--max-json-depth", "600"])
            #expect(converted.status == 0, "\(converted)")
            #expect(fileExists(dir.child("out.json")))
        }
    }

    @Test("the boundary: N levels pass --max-json-depth N, N + 1 do not")
    func jsonDepthBoundary() throws {
        try withTemporaryDirectory { dir in
            let exact = try Fixture.write(Self.nested(depth: 40), to: dir, as: "exact.json")
            #expect(CLI.run(["lint", exact.path, "--max-json-depth", "40"]).status == 0)
            let over = CLI.run(["lint", exact.path, "--max-json-depth", "39"])
            #expect(over.status == 1, "\(over)")
            #expect(over.stdoutText.contains("deeper than 39"), "\(over)")
        }
    }

    @Test("the largest --max-json-depth is safe: a 1000-deep document through every command that walks it")
    func jsonDepthLargestIsSafe() throws {
        try withTemporaryDirectory { dir in
            let deep = try Fixture.write(Self.nested(depth: 1000), to: dir, as: "deep.json").path
            let depth = ["--max-json-depth", "1000"]
            let runs: [[String]] = [
                ["lint", deep], ["check", deep], ["match", deep, "/a/b"], ["detect", deep], ["inspect", deep],
                ["convert", deep, "-o", dir.child("out.json").path], ["diff", deep, deep],
                ["migrate", deep, "-o", dir.child("migrated.json").path],
            ]
            for arguments in runs {
                let result = CLI.run(arguments + depth)
                Self.expectNoCrash(result)
                #expect(result.status == 0, "\(arguments[0]): \(result)")
            }
        }
    }

    @Test("1,000,000-deep nesting is refused at the largest --max-json-depth, without crashing")
    func jsonDepthMillion() throws {
        try withTemporaryDirectory { dir in
            let deep = try Fixture.write(Data(repeating: UInt8(ascii: "["), count: 1_000_000), to: dir, as: "deep.json")
            let lint = CLI.run(["lint", deep.path, "--max-json-depth", "1000"])
            Self.expectNoCrash(lint)
            #expect(lint.status == 1, "\(lint)")
            #expect(
                lint.stdoutText.contains("[invalid-json]") && lint.stdoutText.contains("deeper than 1000"), "\(lint)")
            let convert = CLI.run(["convert", deep.path, "-o", dir.child("out.json").path, "--max-json-depth", "1000"])
            Self.expectNoCrash(convert)
            #expect(convert.status == 2, "\(convert)")
            #expect(!fileExists(dir.child("out.json")))
        }
    }

    // MARK: - --max-certificates

    @Test("a message with 4 certificates: refused with --max-certificates 3, accepted at 4 (verify, lint, extract)")
    func certificatesOverride() throws {
        try withTemporaryDirectory { dir in
            let signed = try Self.fourCertificates(in: dir).path
            let verify = CLI.run(["verify", signed, "--max-certificates", "3"] + Fixture.testTrust)
            #expect(verify.status == 1, "\(verify)")
            expectDiagnostic(
                verify.stderrLines.last, path: signed, severity: "error", code: "malformed",
                contains: ["4 certificates, more than the limit of 3"])
            #expect(CLI.run(["verify", signed, "--max-certificates", "4"] + Fixture.testTrust).status == 0)
            #expect(CLI.run(["verify", signed] + Fixture.testTrust).status == 0, "the default allows 256")

            let lint = CLI.run(["lint", signed, "--max-certificates", "3"])
            #expect(lint.status == 1, "\(lint)")
            #expect(lint.stdoutText.contains("[unreadable-signed-file]"), "\(lint)")

            let out = dir.child("out.json")
            let refused = CLI.run(["extract", signed, "-o", out.path, "--max-certificates", "3"] + Fixture.testTrust)
            #expect(refused.status == 2, "\(refused)")
            #expect(!fileExists(out))
            let extracted = CLI.run(["extract", signed, "-o", out.path, "--max-certificates", "4"] + Fixture.testTrust)
            #expect(extracted.status == 0, "\(extracted)")
            #expect(try contents(out) == Fixture.json)
        }
    }

    @Test("batch verify applies --max-certificates to every file", arguments: ["1", "2"])
    func certificatesBatch(jobs: String) throws {
        try withTemporaryDirectory { dir in
            let site = dir.child("site")
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            let four = try Self.fourCertificates(in: dir)
            try FileManager.default.copyItem(at: four, to: site.child("a.p7m"))
            try FileManager.default.copyItem(at: four, to: site.child("b.p7m"))
            let refused = CLI.run(["verify", site.path, "--max-certificates", "3", "--jobs", jobs] + Fixture.testTrust)
            #expect(refused.status == 1, "\(refused)")
            #expect(
                refused.stdoutText
                    == "\(site.child("a.p7m").path): malformed\n\(site.child("b.p7m").path): malformed\n", "\(refused)")
            let accepted = CLI.run(
                ["verify", site.path, "--max-certificates", "4", "--jobs", jobs] + Fixture.testTrust)
            #expect(accepted.status == 0, "\(accepted)")
        }
    }

    @Test("300 certificates: over the default 256, read with --max-certificates 300")
    func certificatesDefault() throws {
        try withTemporaryDirectory { dir in
            let pem = try contents(URL(fileURLWithPath: CLI.cert("leaf-rsa.pem")))
            let many = try Fixture.write(Data((0..<300).flatMap { _ in pem }), to: dir, as: "many.pem")
            try CLI.requireOpenSSL([
                "crl2pkcs7", "-nocrl", "-certfile", many.path, "-outform", "DER", "-out", dir.child("many.p7c").path,
            ])
            let file = dir.child("many.p7c").path
            let byDefault = CLI.run(["detect", file])
            #expect(
                byDefault.stdoutText.contains(
                    "unknown (damaged PKCS#7 DER: the message carries 300 certificates, more than the limit of 256)"),
                "\(byDefault)")
            let raised = CLI.run(["detect", file, "--max-certificates", "300"])
            #expect(raised.stdoutText.hasPrefix("\(file): pkcs7-der"), "\(raised)")
        }
    }

    // MARK: - --max-url-length

    @Test("a 222-byte URL: too long for --max-url-length 100 (argument and --urls-file), matched at 300")
    func urlLengthOverride() throws {
        try withTemporaryDirectory { dir in
            let document = try Fixture.write(Self.padded(size: 0), to: dir, as: "aasa.json").path
            let url = "https://example.com/a/" + String(repeating: "b", count: 200)
            let list = try Fixture.write(Data("\(url)\n".utf8), to: dir, as: "urls.txt").path
            for source in [[url], ["--urls-file", list]] {
                let refused = CLI.run(["match", document] + source + ["--max-url-length", "100"])
                #expect(refused.status == 1, "\(refused)")
                #expect(
                    refused.stdoutText.contains(": error: URL longer than 100 characters (--max-url-length)"),
                    "\(refused)")
                let matched = CLI.run(["match", document] + source + ["--max-url-length", "300"])
                #expect(matched.status == 0, "\(matched)")
                #expect(matched.stdoutText == "\(url): \(Self.app)\n", "\(matched)")
            }
        }
    }

    @Test("a 10,000-byte URL: over the default 8192, matched with --max-url-length 20000")
    func urlLengthDefault() throws {
        try withTemporaryDirectory { dir in
            let document = try Fixture.write(Self.padded(size: 0), to: dir, as: "aasa.json").path
            let url = "https://example.com/a/" + String(repeating: "b", count: 10_000 - 22)
            let byDefault = CLI.run(["match", document, url])
            #expect(byDefault.status == 1, "\(byDefault)")
            #expect(byDefault.stdoutText.contains("URL longer than 8192 characters (--max-url-length)"), "\(byDefault)")
            let raised = CLI.run(["match", document, url, "--max-url-length", "20000"])
            #expect(raised.status == 0, "\(raised)")
        }
    }

    /// `diff` and `migrate` take a URL list as extra probes; a line over the limit used to be
    /// dropped without a word.
    @Test("diff and migrate: --urls-file lines over --max-url-length are skipped with one warning that counts them")
    func urlListLinesTooLong() throws {
        try withTemporaryDirectory { dir in
            let document = try Fixture.write(Self.padded(size: 0), to: dir, as: "aasa.json").path
            // Legacy `paths`, so that migrate has something to migrate and reads the list.
            let legacy = try Fixture.write(
                Data(
                    #"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.app","paths":["/a/*","NOT /b"]}]}}"#
                        .utf8),
                to: dir, as: "legacy.json"
            ).path
            let list = dir.child("urls.txt")
            let long = "/" + String(repeating: "x", count: 150)
            try "/a\n\(long)\n/b\n\(long)\n/c\n".write(to: list, atomically: true, encoding: .utf8)
            let commands: [[String]] = [
                ["diff", document, document, "--urls-file", list.path, "--max-url-length", "100"],
                [
                    "migrate", legacy, "--urls-file", list.path, "--max-url-length", "100", "-o",
                    dir.child("m.json").path,
                ],
            ]
            for command in commands {
                let result = CLI.run(command)
                let warnings = result.stderrLines.filter { $0.contains("[url-too-long]") }
                #expect(
                    warnings == [
                        "\(list.path): warning: [url-too-long] 2 lines longer than 100 bytes (--max-url-length) skipped, the first at line 2"
                    ], "\(command[0]): \(result)")
                let raised = CLI.run(command.map { $0 == "100" ? "200" : $0 })
                #expect(!raised.stderr.contains("url-too-long"), "\(command[0]): \(raised)")
            }
        }
    }

    // MARK: - Bad values and where the flags are

    struct BadValue: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        /// Words the usage error must contain.
        var says: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badValues: [BadValue] = [
        BadValue(arguments: ["--max-input-size", "0"], says: ["--max-input-size", "from 1 byte to 1G"]),
        BadValue(arguments: ["--max-input-size=-1"], says: ["--max-input-size", "not a size"]),
        BadValue(arguments: ["--max-input-size", "12Q"], says: ["--max-input-size '12Q' is not a size"]),
        BadValue(arguments: ["--max-input-size", "K"], says: ["--max-input-size 'K' is not a size"]),
        BadValue(arguments: ["--max-input-size", "2G"], says: ["--max-input-size", "1G"]),
        BadValue(arguments: ["--max-json-depth", "0"], says: ["--max-json-depth must be from 1 to 1000"]),
        BadValue(arguments: ["--max-json-depth=-5"], says: ["--max-json-depth must be from 1 to 1000"]),
        BadValue(arguments: ["--max-json-depth", "100000"], says: ["--max-json-depth must be from 1 to 1000"]),
        BadValue(arguments: ["--max-json-depth", "deep"], says: ["'deep'", "--max-json-depth"]),
        BadValue(arguments: ["--max-certificates", "0"], says: ["--max-certificates must be from 1 to 100000"]),
        BadValue(arguments: ["--max-certificates=-1"], says: ["--max-certificates must be from 1 to 100000"]),
    ]

    @Test("invalid --max-url-length values are usage errors on the commands that read URLs")
    func invalidURLLengths() {
        for command in [["match", "x.json"], ["diff", "a.json", "b.json"], ["migrate", "x.json"]] {
            for (arguments, says) in [
                (["--max-url-length", "0"], "--max-url-length must be from 1 to 1048576"),
                (["--max-url-length", "12Q"], "'12Q'"),
            ] {
                let result = CLI.run(command + arguments)
                #expect(result.status == 64, "\(command) \(arguments): \(result)")
                #expect(result.stderrLines.first?.contains(says) == true, "\(command) \(arguments): \(result)")
            }
        }
    }

    @Test("invalid limit values are usage errors (exit 64) that say what is wrong", arguments: badValues)
    func invalidValues(_ row: BadValue) {
        for command in [["lint", "x.json"], ["verify", "x.p7m"]] {
            let result = CLI.run(command + row.arguments)
            #expect(result.status == 64, "\(row.testDescription): \(result)")
            let first = result.stderrLines.first ?? ""
            for words in row.says { #expect(first.contains(words), "\(row.testDescription): \(first)") }
            #expect(result.stdout.isEmpty)
        }
    }

    @Test(
        "every command that reads files lists the limit flags; --max-url-length only match, diff and migrate, which read URLs",
        arguments: [
            "check", "lint", "match", "verify", "extract", "detect", "inspect", "sign", "convert", "migrate", "diff",
            "audit",
        ])
    func everyCommandHasTheFlags(command: String) {
        let help = CLI.run([command, "--help"])
        #expect(help.status == 0, "\(help)")
        for flag in ["--max-input-size <bytes>", "--max-json-depth <n>", "--max-certificates <n>"] {
            #expect(help.stdoutText.contains(flag), "\(command) --help lacks \(flag)")
        }
        let readsURLs = ["match", "diff", "migrate"].contains(command)
        #expect(help.stdoutText.contains("--max-url-length <n>") == readsURLs, "\(command)")
    }

    @Test("audit: --max-input-size is the body cap, and cannot be combined with --max-bytes")
    func auditBodyCap() {
        let both = CLI.run(["audit", "example.com", "--max-input-size", "1M", "--max-bytes", "100"])
        #expect(both.status == 64, "\(both)")
        #expect(both.stderrLines.first?.contains("--max-input-size and --max-bytes") == true, "\(both)")
        let tooLarge = CLI.run(["audit", "example.com", "--max-input-size", "100M"])
        #expect(tooLarge.status == 64, "\(tooLarge)")
        #expect(tooLarge.stderrLines.first?.contains("64M") == true, "\(tooLarge)")
    }
}
