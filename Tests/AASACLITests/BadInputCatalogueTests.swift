import Foundation
import Testing

/// The bad-input catalogue: for every command, inputs a user (or an attacker) can hand it.
/// Each must give one clear line naming the file and the problem, the documented exit status,
/// no crash or stack trace, and no partial or overwritten output.
@Suite("Bad-input catalogue")
struct BadInputCatalogueTests {
    /// One row of the catalogue.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// Builds the inputs in the scratch directory and returns the arguments.
        var arguments: @Sendable (URL) throws -> [String]
        var status: Int32
        /// The file the message must name (relative to the scratch directory, or absolute).
        var names: String
        /// Words the message must contain (lower-cased comparison).
        var says: [String]
        /// Files (relative) that must not exist afterwards.
        var noOutput: [String] = []
        var testDescription: String { name }
    }

    static let validJSON = Data(
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a/*"}]}]}}"#.utf8)

    static func write(_ data: Data, _ name: String, in dir: URL) throws -> String {
        let url = dir.child(name)
        try data.write(to: url)
        return url.path
    }

    static func signed(in dir: URL) throws -> Data {
        try contents(try Fixture.signedFile(in: dir, name: "good.p7m"))
    }

    static func truncated(at offset: Int) -> Case {
        Case(
            name: "verify: DER truncated at \(offset)",
            arguments: { dir in
                let der = try signed(in: dir)
                return ["verify", try write(der.prefix(offset < 0 ? der.count + offset : offset), "cut.p7m", in: dir)]
                    + Fixture.testTrust
            }, status: 1, names: "cut.p7m", says: ["[malformed]"])
    }

    static let trust = Fixture.testTrust
    static let signArgs = ["--key", CLI.cert("leaf-rsa.key"), "--cert", CLI.cert("leaf-rsa.pem")]

    static let cases: [Case] = [
        // verify
        Case(
            name: "verify: empty file", arguments: { ["verify", try write(Data(), "empty", in: $0)] + trust },
            status: 1, names: "empty", says: ["[not-signed]", "empty"]),
        Case(
            name: "verify: random bytes",
            arguments: {
                [
                    "verify",
                    try write(
                        Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }), "random.bin", in: $0),
                ] + trust
            }, status: 1, names: "random.bin", says: ["[not-signed]"]),
        truncated(at: 12), truncated(at: 100), truncated(at: 1000), truncated(at: -1),
        Case(
            name: "verify: PEM with broken base64",
            arguments: {
                [
                    "verify",
                    try write(
                        Data("-----BEGIN PKCS7-----\nMIIB%%%%not base64@@@@\n-----END PKCS7-----\n".utf8), "broken.pem",
                        in: $0),
                ] + trust
            }, status: 1, names: "broken.pem", says: ["[malformed]"]),
        Case(
            name: "verify: S/MIME with a wrong boundary",
            arguments: { dir in
                let smime =
                    "MIME-Version: 1.0\nContent-Type: multipart/signed; protocol=\"application/x-pkcs7-signature\"; micalg=\"sha-256\"; boundary=\"----AAAA\"\n\n------BBBB\nContent-Type: text/plain\n\nhello\n------BBBB--\n"
                return ["verify", try write(Data(smime.utf8), "wrong-boundary.smime", in: dir)] + trust
            }, status: 1, names: "wrong-boundary.smime", says: ["[malformed]"]),
        Case(
            name: "verify: UTF-16 JSON",
            arguments: {
                [
                    "verify",
                    try write(
                        Data([0xFF, 0xFE] + Array("{}".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
                        "utf16.json", in: $0),
                ] + trust
            }, status: 1, names: "utf16.json", says: ["[not-signed]", "utf-16"]),
        Case(
            name: "verify: a directory",
            arguments: { dir in
                try FileManager.default.createDirectory(at: dir.child("folder"), withIntermediateDirectories: true)
                return ["verify", dir.child("folder").path] + trust
            }, status: 2, names: "folder", says: ["directory"]),
        Case(
            name: "verify: a missing file", arguments: { ["verify", $0.child("missing.p7m").path] + trust }, status: 2,
            names: "missing.p7m", says: ["no such file"]),
        Case(
            name: "verify: a CA file that is not certificates",
            arguments: { dir in
                [
                    "verify", try write(try signed(in: dir), "a.p7m", in: dir), "--ca-file",
                    try write(Data("not a cert".utf8), "ca.pem", in: dir),
                ]
            }, status: 2, names: "ca.pem", says: ["ca file"]),
        Case(
            name: "verify: a missing CA file",
            arguments: { dir in
                ["verify", try write(try signed(in: dir), "a.p7m", in: dir), "--ca-file", dir.child("nope.pem").path]
            }, status: 2, names: "nope.pem", says: ["no such file"]),
        // extract
        Case(
            name: "extract: empty file",
            arguments: { ["extract", try write(Data(), "empty", in: $0), "-o", $0.child("out.json").path] + trust },
            status: 2, names: "empty", says: ["nothing to extract"], noOutput: ["out.json"]),
        Case(
            name: "extract: random bytes",
            arguments: {
                [
                    "extract", try write(Data(repeating: 0xA5, count: 300), "r.bin", in: $0), "-o",
                    $0.child("out.json").path,
                ] + trust
            }, status: 2, names: "r.bin", says: ["nothing to extract"], noOutput: ["out.json"]),
        Case(
            name: "extract: truncated DER",
            arguments: { dir in
                [
                    "extract", try write(try signed(in: dir).prefix(700), "cut.p7m", in: dir), "-o",
                    dir.child("out.json").path,
                ] + trust
            }, status: 2, names: "cut.p7m", says: ["damaged"], noOutput: ["out.json"]),
        Case(
            name: "extract: output in a missing directory",
            arguments: { dir in
                [
                    "extract", try write(try signed(in: dir), "a.p7m", in: dir), "-o",
                    dir.child("no/such/dir/out.json").path,
                ] + trust
            }, status: 2, names: "no/such/dir/out.json", says: ["cannot write output"], noOutput: ["no"]),
        Case(
            name: "extract: output on a full device",
            arguments: { dir in
                ["extract", try write(try signed(in: dir), "a.p7m", in: dir), "-o", "/dev/full"] + trust
            }, status: 2, names: "/dev/full", says: ["no space left"]),
        Case(
            name: "extract: tampered content",
            arguments: { dir in
                var der = try signed(in: dir)
                let at = try #require(der.firstRange(of: Data("applinks".utf8))).lowerBound
                der[at] ^= 0x20
                return ["extract", try write(der, "t.p7m", in: dir), "-o", dir.child("out.json").path] + trust
            }, status: 1, names: "t.p7m", says: ["[tampered]"], noOutput: ["out.json"]),
        Case(
            name: "extract: a detached signature",
            arguments: { dir in
                let input = try Fixture.write(to: dir)
                try CLI.requireOpenSSL([
                    "smime", "-sign", "-inkey", CLI.cert("leaf-rsa.key"), "-signer", CLI.cert("leaf-rsa.pem"),
                    "-outform", "DER", "-in", input.path, "-out", dir.child("detached.p7s").path,
                ])
                return ["extract", dir.child("detached.p7s").path, "-o", dir.child("out.json").path] + trust
            }, status: 2, names: "detached.p7s", says: ["detached"], noOutput: ["out.json"]),
        // inspect and detect
        Case(
            name: "inspect: random bytes",
            arguments: { ["inspect", try write(Data(repeating: 0x5A, count: 64), "r.bin", in: $0)] }, status: 2,
            names: "r.bin", says: ["cannot inspect"]),
        Case(
            name: "inspect: broken PEM",
            arguments: {
                [
                    "inspect",
                    try write(Data("-----BEGIN PKCS7-----\n!!!!\n-----END PKCS7-----\n".utf8), "b.pem", in: $0),
                ]
            }, status: 2, names: "b.pem", says: ["damaged pkcs#7 pem"]),
        Case(
            name: "inspect: a directory",
            arguments: { dir in
                try FileManager.default.createDirectory(at: dir.child("d"), withIntermediateDirectories: true)
                return ["inspect", dir.child("d").path]
            }, status: 2, names: "d", says: ["directory"]),
        Case(
            name: "detect: a missing file", arguments: { ["detect", $0.child("gone").path] }, status: 2, names: "gone",
            says: ["no such file"]),
        // lint
        Case(
            name: "lint: JSON with a BOM and garbage",
            arguments: {
                [
                    "lint",
                    try write(Data([0xEF, 0xBB, 0xBF]) + Data("{\"applinks\": }garbage".utf8), "bom.json", in: $0),
                ]
            }, status: 1, names: "bom.json", says: ["[invalid-json]"]),
        Case(
            name: "lint: invalid UTF-8",
            arguments: {
                ["lint", try write(Data([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D]), "latin.json", in: $0)]
            }, status: 1, names: "latin.json", says: ["[invalid-json]", "utf-8"]),
        Case(
            name: "lint: UTF-16 JSON",
            arguments: { ["lint", try write(Data([0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D]), "utf16.json", in: $0)] },
            status: 1, names: "utf16.json", says: ["[invalid-json]"]),
        Case(
            name: "lint: 1,000,000-deep nesting",
            arguments: {
                ["lint", try write(Data(repeating: UInt8(ascii: "["), count: 1_000_000), "deep.json", in: $0)]
            }, status: 1, names: "deep.json", says: ["[invalid-json]", "deeper than"]),
        Case(
            name: "lint: empty file", arguments: { ["lint", try write(Data(), "empty.json", in: $0)] }, status: 1,
            names: "empty.json", says: ["[invalid-json]"]),
        Case(
            name: "lint: a directory",
            arguments: { dir in
                try FileManager.default.createDirectory(at: dir.child("d"), withIntermediateDirectories: true)
                return ["lint", dir.child("d").path]
            }, status: 2, names: "d", says: ["directory"]),
        Case(
            name: "lint: a 17 MiB file is refused before reading",
            arguments: { ["lint", try write(Data(repeating: 0x20, count: 17 * 1024 * 1024), "huge.json", in: $0)] },
            status: 2, names: "huge.json", says: ["larger than"]),
        // check and match
        Case(
            name: "check: random bytes",
            arguments: { ["check", try write(Data(repeating: 0x01, count: 99), "r.bin", in: $0)] }, status: 1,
            names: "r.bin", says: ["broken"]),
        Case(
            name: "check: a missing file", arguments: { ["check", $0.child("nope.json").path] }, status: 2,
            names: "nope.json", says: ["no such file"]),
        Case(
            name: "match: invalid JSON", arguments: { ["match", try write(Data("{".utf8), "bad.json", in: $0), "/a"] },
            status: 2, names: "bad.json", says: ["cannot match"]),
        // A valid file without applinks apps ("{}") is no bad input: every URL opens no app, exit 1
        // (MatchCommandTests). A top level that is not an object is no AASA document.
        Case(
            name: "match: a top level that is not an object",
            arguments: { ["match", try write(Data("[]".utf8), "array.json", in: $0), "/a"] }, status: 2,
            names: "array.json", says: ["cannot match"]),
        Case(
            name: "match: a missing URL list",
            arguments: { dir in
                ["match", try write(validJSON, "ok.json", in: dir), "--urls-file", dir.child("urls.txt").path]
            }, status: 2, names: "urls.txt", says: ["cannot read url list"]),
        // sign
        Case(
            name: "sign: key does not match certificate",
            arguments: { dir in
                [
                    "sign", try write(validJSON, "in.json", in: dir), "-o", dir.child("out.p7m").path, "--key",
                    CLI.cert("leaf-ec.key"), "--cert", CLI.cert("leaf-rsa.pem"),
                ]
            }, status: 2, names: CLI.cert("leaf-ec.key"), says: ["does not belong"], noOutput: ["out.p7m"]),
        Case(
            name: "sign: wrong passphrase",
            arguments: { dir in
                let pass = try write(Data("wrong\n".utf8), "pass.txt", in: dir)
                return [
                    "sign", try write(validJSON, "in.json", in: dir), "-o", dir.child("out.p7m").path, "--key",
                    CLI.cert("leaf-rsa.enc.key"), "--cert", CLI.cert("leaf-rsa.pem"), "--passphrase-file", pass,
                ]
            }, status: 2, names: CLI.cert("leaf-rsa.enc.key"), says: ["passphrase"], noOutput: ["out.p7m"]),
        Case(
            name: "sign: encrypted key and no passphrase source",
            arguments: { dir in
                [
                    "sign", try write(validJSON, "in.json", in: dir), "-o", dir.child("out.p7m").path, "--key",
                    CLI.cert("leaf-rsa.enc.key"), "--cert", CLI.cert("leaf-rsa.pem"),
                ]
            }, status: 2, names: CLI.cert("leaf-rsa.enc.key"), says: ["encrypted", "--passphrase-env"],
            noOutput: ["out.p7m"]),
        Case(
            name: "sign: a key file that is not a key",
            arguments: { dir in
                [
                    "sign", try write(validJSON, "in.json", in: dir), "-o", dir.child("out.p7m").path, "--key",
                    try write(Data("hello".utf8), "k.key", in: dir), "--cert", CLI.cert("leaf-rsa.pem"),
                ]
            }, status: 2, names: "k.key", says: ["not a readable private key"], noOutput: ["out.p7m"]),
        Case(
            name: "sign: a certificate file that is not a certificate",
            arguments: { dir in
                [
                    "sign", try write(validJSON, "in.json", in: dir), "-o", dir.child("out.p7m").path, "--key",
                    CLI.cert("leaf-rsa.key"), "--cert", CLI.cert("leaf-rsa.key"),
                ]
            }, status: 2, names: CLI.cert("leaf-rsa.key"), says: ["certificate"], noOutput: ["out.p7m"]),
        Case(
            name: "sign: a chain file with broken PEM",
            arguments: { dir in
                ["sign", try write(validJSON, "in.json", in: dir), "-o", dir.child("out.p7m").path] + signArgs + [
                    "--chain",
                    try write(
                        Data("-----BEGIN CERTIFICATE-----\n@@@@\n-----END CERTIFICATE-----\n".utf8), "chain.pem",
                        in: dir),
                ]
            }, status: 2, names: "chain.pem", says: ["certificate"], noOutput: ["out.p7m"]),
        Case(
            name: "sign: PKCS#12 with a wrong passphrase",
            arguments: { dir in
                [
                    "sign", try write(validJSON, "in.json", in: dir), "-o", dir.child("out.p7m").path, "--pkcs12",
                    CLI.cert("leaf-rsa.p12"), "--passphrase-env", "AASA_BAD_INPUT_PASS",
                ]
            }, status: 2, names: CLI.cert("leaf-rsa.p12"), says: ["passphrase"], noOutput: ["out.p7m"]),
        Case(
            name: "sign: a PKCS#12 file that is garbage",
            arguments: { dir in
                [
                    "sign", try write(validJSON, "in.json", in: dir), "-o", dir.child("out.p7m").path, "--pkcs12",
                    try write(Data(repeating: 0x30, count: 50), "b.p12", in: dir), "--passphrase-env",
                    "AASA_BAD_INPUT_PASS",
                ]
            }, status: 2, names: "b.p12", says: ["pkcs#12"], noOutput: ["out.p7m"]),
        Case(
            name: "sign: output in a missing directory",
            arguments: { dir in
                ["sign", try write(validJSON, "in.json", in: dir), "-o", dir.child("missing/out.p7m").path] + signArgs
            }, status: 2, names: "missing/out.p7m", says: ["cannot write output"], noOutput: ["missing"]),
        Case(
            name: "sign: output on a full device",
            arguments: { dir in ["sign", try write(validJSON, "in.json", in: dir), "-o", "/dev/full"] + signArgs },
            status: 2, names: "/dev/full", says: ["no space left"]),
        Case(
            name: "sign: input is a directory",
            arguments: { dir in
                try FileManager.default.createDirectory(at: dir.child("d"), withIntermediateDirectories: true)
                return ["sign", dir.child("d").path, "-o", dir.child("out.p7m").path] + signArgs
            }, status: 2, names: "d", says: ["directory"], noOutput: ["out.p7m"]),
        Case(
            name: "sign: passphrase variable not set",
            arguments: { dir in
                [
                    "sign", try write(validJSON, "in.json", in: dir), "-o", dir.child("out.p7m").path, "--key",
                    CLI.cert("leaf-rsa.enc.key"), "--cert", CLI.cert("leaf-rsa.pem"), "--passphrase-env",
                    "AASA_SURELY_UNSET_VARIABLE",
                ]
            }, status: 2, names: "--passphrase-env", says: ["not set"], noOutput: ["out.p7m"]),
        Case(
            name: "sign: key is a directory",
            arguments: { dir in
                try FileManager.default.createDirectory(at: dir.child("keys"), withIntermediateDirectories: true)
                return [
                    "sign", try write(validJSON, "in.json", in: dir), "-o", dir.child("out.p7m").path, "--key",
                    dir.child("keys").path, "--cert", CLI.cert("leaf-rsa.pem"),
                ]
            }, status: 2, names: "keys", says: ["directory"], noOutput: ["out.p7m"]),
    ]

    @Test("every bad input: one clear line, the documented status, nothing written", arguments: cases)
    func badInput(_ row: Case) throws {
        try withTemporaryDirectory { dir in
            let arguments = try row.arguments(dir)
            let result = CLI.run(arguments, environment: ["AASA_BAD_INPUT_PASS": "wrong"], in: dir)
            #expect(result.status == row.status, "\(row.name): \(result)")
            // The explaining line: on stderr for errors, or on stdout for lint's findings.
            let lines = result.stderrLines + result.stdoutText.split(separator: "\n").map(String.init)
            let named = row.names.hasPrefix("/") || row.names.hasPrefix("-") ? row.names : dir.child(row.names).path
            let explaining = lines.first { line in
                line.hasPrefix(named) && row.says.allSatisfy { line.lowercased().contains($0.lowercased()) }
            }
            #expect(explaining != nil, "\(row.name): no line names \(named) and says \(row.says): \(result)")
            // No crash, no stack trace, no argument-parser fallback message.
            for marker in ["Fatal error", "Stack dump", "Backtrace", "Error: ", "fatalError", "SIGSEGV"] {
                #expect(!result.stderr.contains(marker), "\(row.name): \(marker) on stderr: \(result)")
            }
            for name in row.noOutput { #expect(!fileExists(dir.child(name)), "\(row.name): \(name) was created") }
            #expect(
                leftoverTemporaries(in: dir).isEmpty,
                "\(row.name): temporary files left: \(leftoverTemporaries(in: dir))")
        }
    }

    @Test("the catalogue has at least 40 rows")
    func catalogueSize() { #expect(Self.cases.count >= 40) }

    @Test("an existing output is left untouched when the command fails", arguments: ["sign", "extract"])
    func existingOutputUntouched(command: String) throws {
        try withTemporaryDirectory { dir in
            let output = dir.child("out.bin")
            let before = Data("precious".utf8)
            try before.write(to: output)
            let arguments: [String]
            if command == "sign" {
                arguments = [
                    "sign", try Self.write(Self.validJSON, "in.json", in: dir), "-o", output.path, "--key",
                    CLI.cert("leaf-ec.key"), "--cert", CLI.cert("leaf-rsa.pem"),
                ]
            } else {
                // untrusted with system roots
                arguments = ["extract", try Self.write(try Self.signed(in: dir), "a.p7m", in: dir), "-o", output.path]
            }
            let result = CLI.run(arguments, in: dir)
            #expect(result.status != 0, "\(result)")
            #expect(try contents(output) == before)
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    /// Root reads every file, and CI runs as root: there the run drops to nobody (65534) with
    /// `setpriv`, so that the case runs in CI too (issue #24; it was skipped there).
    @Test("an unreadable file is named with the reason")
    func unreadableFile() throws {
        try withTemporaryDirectory { dir in
            let file = dir.child("secret.json")
            try Self.validJSON.write(to: file)
            chmod(dir.path, 0o755)  // nobody may look in the directory, not read the file
            chmod(file.path, 0)
            defer { chmod(file.path, 0o600) }
            let result: ProcessResult
            if getuid() == 0 {
                let setpriv = "/usr/bin/setpriv"
                try #require(
                    FileManager.default.isExecutableFile(atPath: setpriv),
                    "as root this case needs setpriv (util-linux)")
                result = ProcessRunner.run(
                    URL(fileURLWithPath: setpriv),
                    [
                        "--reuid=65534", "--regid=65534", "--clear-groups", CLI.executable.path, "lint", "--no-config",
                        file.path,
                    ],
                    in: dir)
            } else {
                result = CLI.run(["lint", "--no-config", file.path], in: dir)
            }
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderr.contains("\(file.path): error: cannot read input: Permission denied"), "\(result)")
        }
    }
}
