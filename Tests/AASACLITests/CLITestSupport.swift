// Re-exported so that every file of this target sees the members of AASATestSupport's types
// (`CLI.Result` is its `ProcessResult`) without an import of its own (MemberImportVisibility).
@_exported import AASATestSupport
import Foundation
import Testing

/// Runs the built `aasa` executable (and the `openssl` CLI) the way a user would, capturing
/// exit status, stdout and stderr, as argument-parser's `TestHelpers.swift` does for its examples
/// (through AASATestSupport's `ProcessRunner`: files, not pipes; stdin `/dev/null` unless given).
enum CLI {
    // MARK: - Paths

    /// The package root (AASATestSupport's `Repository`: one rule for every test target).
    static let repoRoot: URL = Repository.root

    /// The test PKI (`certs/README.md`).
    static let certs = Repository.certs

    static func cert(_ name: String) -> String { Repository.cert(name) }
    static func realSigned(_ name: String) -> String { RealWorldCorpus.signed(name) }
    static func realPlain(_ name: String) -> String { RealWorldCorpus.plain(name) }

    /// The three real signed files of the corpus.
    static let realSignedFiles = [
        "artsy_artsy-eigen-web-association_aasa-20150915-a.p7m",
        "artsy_artsy-eigen-web-association_aasa-20150915-b.p7m",
        "Handbid_Handbid-WordPress_aasa-smime-format.p7m",
    ]

    /// The `aasa` executable built with the tests. Finding it also restricts the test PKI's
    /// private keys to their owner: git checks files out 0644, and `aasa sign` rightly warns
    /// about a key readable by others (tested on purpose in SignCommandTests).
    static let executable: URL = {
        protectTestKeys()
        return Executables.aasa
    }()

    /// chmod 600 every *.key and *.p12 file, and the passphrase file, in certs/.
    static func protectTestKeys() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: certs.path)) ?? []
        for name in names
        where name.hasSuffix(".key") || name.hasSuffix(".p12") || name.hasSuffix(".key.der") || name == "passphrase.txt"
        {
            chmod(certs.appendingPathComponent(name).path, 0o600)
        }
    }

    /// The `openssl` CLI from PATH.
    static let opensslExecutable: URL = Executables.openssl

    // MARK: - Running

    /// What a run produced: status, stdout, stderr, time (AASATestSupport's `ProcessResult`).
    typealias Result = ProcessResult

    /// Runs `aasa` with `args`. `environment` is added to (overrides) the test's environment.
    static func run(
        _ args: [String], stdin: Data? = nil, environment: [String: String]? = nil, in directory: URL? = nil,
        timeout: TimeInterval = 120
    ) -> Result {
        ProcessRunner.run(executable, args, stdin: stdin, environment: environment, in: directory, timeout: timeout)
    }

    /// Runs the `openssl` CLI.
    static func openssl(_ args: [String], stdin: Data? = nil, in directory: URL? = nil) -> Result {
        ProcessRunner.run(opensslExecutable, args, stdin: stdin, in: directory)
    }

    /// Runs `openssl` and fails the test (by throwing) unless it exits 0.
    @discardableResult
    static func requireOpenSSL(_ args: [String], stdin: Data? = nil) throws -> Result {
        let result = openssl(args, stdin: stdin)
        try #require(result.status == 0, "openssl \(args.joined(separator: " ")) failed: \(result)")
        return result
    }
}

// MARK: - Temporary directories

/// Runs `body` with a fresh directory, removed afterwards (also when `body` throws).
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("aasa-cli-test-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory.resolvingSymlinksInPath())
}

extension URL {
    func child(_ name: String) -> URL { appendingPathComponent(name) }
}

extension CLI {
    /// `directory/bin`, made, with a link named `aasa` to the binary under test: the PATH entry
    /// under which a printed command (`aasa …`) runs as a user would type it.
    static func binDirectory(in directory: URL) throws -> URL {
        let bin = directory.child("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.child("aasa"), withDestinationURL: executable)
        return bin
    }
}

// MARK: - Fixtures

enum Fixture {
    /// A small legacy AASA document with LF line ends (several lines, so CRLF canonicalisation
    /// shows), used as the content to sign.
    static let json = Data(
        """
        {
          "applinks": {
            "apps": [],
            "details": [
              {
                "appID": "ABCDE12345.com.example.app",
                "paths": ["/buy/*", "NOT /buy/admin"]
              }
            ]
          }
        }

        """.utf8)

    /// `json` with every LF turned into CRLF: what `openssl smime -sign` without `-binary` embeds.
    static var jsonCRLF: Data {
        Data(String(decoding: json, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }

    /// Writes `json` (or `data`) to `dir/name` and returns its path.
    @discardableResult
    static func write(_ data: Data = json, to directory: URL, as name: String = "aasa.json") throws -> URL {
        let url = directory.child(name)
        try data.write(to: url)
        return url
    }

    /// Signs `input` with the `openssl smime` legacy recipe (independent of the CLI under test).
    /// `leaf` names a key/cert pair in certs/ ("leaf-rsa", "leaf-expired", …).
    @discardableResult
    static func opensslSign(
        _ input: URL, leaf: String = "leaf-rsa", chain: String? = "chain.pem", binary: Bool = false,
        outform: String = "DER", to output: URL
    ) throws -> URL {
        var args = [
            "smime", "-sign", "-inkey", CLI.cert("\(leaf).key"), "-signer", CLI.cert("\(leaf).pem"),
        ]
        if let chain { args += ["-certfile", CLI.cert(chain)] }
        args += ["-noattr", "-nodetach", "-outform", outform]
        if binary { args.append("-binary") }
        args += ["-in", input.path, "-out", output.path]
        try CLI.requireOpenSSL(args)
        return output
    }

    /// A signed DER file in `directory`: `json` signed by `leaf` with the intermediate.
    static func signedFile(in directory: URL, leaf: String = "leaf-rsa", name: String = "signed.p7m") throws -> URL {
        let input = try write(to: directory, as: "\(name).source.json")
        return try opensslSign(input, leaf: leaf, to: directory.child(name))
    }

    /// Trust only the test root: `--ca-file certs/ca-bundle.pem --no-system-roots`.
    static var testTrust: [String] { ["--ca-file", CLI.cert("ca-bundle.pem"), "--no-system-roots"] }

    /// The passphrase of the encrypted key and the PKCS#12 file (first line of passphrase.txt).
    static var passphrase: String {
        let text = (try? String(contentsOfFile: CLI.cert("passphrase.txt"), encoding: .utf8)) ?? ""
        return String(text.prefix { $0 != "\n" && $0 != "\r" })
    }
}

// MARK: - Assertions

/// Checks one diagnostic line: `PATH: severity: [code] message`.
func expectDiagnostic(
    _ line: String?, path: String, severity: String, code: String? = nil, contains fragments: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let line else {
        Issue.record("expected a diagnostic line for \(path)", sourceLocation: sourceLocation)
        return
    }
    let prefix = "\(path): \(severity): " + (code.map { "[\($0)] " } ?? "")
    #expect(
        line.hasPrefix(prefix), "\(line.debugDescription) should start with \(prefix.debugDescription)",
        sourceLocation: sourceLocation)
    #expect(
        !line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces).isEmpty, "empty message: \(line)",
        sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(
            line.contains(fragment), "\(line.debugDescription) should mention \(fragment.debugDescription)",
            sourceLocation: sourceLocation)
    }
}

/// Files the atomic writer may have left behind: `.NAME.XXXXXX` temporaries (any dot file).
func leftoverTemporaries(in directory: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasPrefix(".") }
}

func fileExists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

func contents(_ url: URL) throws -> Data { try Data(contentsOf: url) }

extension Data {
    /// Where `needle` occurs, or nil.
    func firstRange(of needle: String) -> Range<Int>? {
        guard let range = self.range(of: Data(needle.utf8)) else { return nil }
        return (range.lowerBound - startIndex)..<(range.upperBound - startIndex)
    }
}

// MARK: - Hostile trees

extension CLI {
    /// Runs a bash `script` in `directory`, with the `aasa` under test as `$AASA` and
    /// `arguments` as `$1`, `$2`, …: how a test drives `aasa` alongside what another user does
    /// to the tree meanwhile. Time-limited, so that a hang fails the test instead of the suite.
    static func script(_ script: String, _ arguments: [String] = [], in directory: URL, timeout: TimeInterval = 60)
        -> Result
    {
        ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script, "bash"] + arguments,
            environment: ["AASA": executable.path], in: directory, timeout: timeout)
    }
}

/// Skips the running test, with `reason`, unless it runs as root (CI does): the test is
/// reported as skipped (cancelled), never as passed.
func requireRoot(_ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    if geteuid() != 0 { try Test.cancel("skipped: needs root: \(reason)", sourceLocation: sourceLocation) }
}

/// What `stat` says of `url`, without following a link; nil when it does not exist.
func fileStatus(_ url: URL) -> stat? {
    var info = stat()
    return lstat(url.path, &info) == 0 ? info : nil
}
