import AASA
import AASATestSupport
// Shared helpers for the AASA library tests: where the fixtures are, a scratch directory per
// test, the `openssl` CLI as an oracle, and loaders for the test PKI in certs/.
//
// The PKI keys are regenerated on every run of certs/make-test-certs.sh, so nothing here (or
// in any test) hard-codes key material or fingerprints: values that depend on a key are
// compared against what the `openssl` CLI says about the same files.
import Foundation
import Testing

// MARK: - Paths

/// Locations of the fixtures (AASATestSupport's `Repository` and `RealWorldCorpus`: one rule for every
/// test target).
enum Paths {
    /// The package root (the folder holding Package.swift).
    static let repositoryRoot: URL = Repository.root

    /// certs/: the generated test PKI.
    static let certs = Repository.certs

    /// Tests/Fixtures/corpus: real AASA files copied from public repositories (its README.md).
    static let realSigned = RealWorldCorpus.signedFolder
    static let realPlain = RealWorldCorpus.plainFolder

    /// The path of a file in certs/.
    static func cert(_ name: String) -> String { Repository.cert(name) }
}

// MARK: - Errors raised by the helpers

/// A helper failure, reported by Swift Testing as the test's thrown error.
struct TestSupportError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Scratch directories

/// A fresh directory under the system temporary directory, removed by ``remove()``.
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("aasa-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The URL of `name` inside the directory (the file need not exist).
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `data` to `name` and returns its path.
    @discardableResult
    func write(_ data: Data, to name: String) throws -> String {
        let target = file(name)
        try data.write(to: target)
        return target.path
    }

    func read(_ name: String) throws -> Data { try Data(contentsOf: file(name)) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body` with a scratch directory that is removed afterwards, whatever happens.
func withScratchDirectory<Result>(_ body: (ScratchDirectory) throws -> Result) throws -> Result {
    let directory = try ScratchDirectory()
    defer { directory.remove() }
    return try body(directory)
}

// MARK: - The openssl CLI

/// What a finished command printed and returned.
struct CommandResult {
    var status: Int32
    var stdout: Data
    var stderr: Data
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    var succeeded: Bool { status == 0 }
}

enum OpenSSL {
    /// The `openssl` executable on PATH.
    static let executable: String = Executables.openssl.path

    /// Runs `openssl arguments…` in `directory` (AASATestSupport's `ProcessRunner`: stdout and
    /// stderr go to files, so a large output cannot block on a full pipe; stdin is `stdin` or
    /// /dev/null). Throws only when it cannot be launched.
    static func run(_ arguments: [String], stdin: Data? = nil, in directory: ScratchDirectory) throws -> CommandResult {
        let result = ProcessRunner.run(
            Executables.openssl, arguments, stdin: stdin, in: directory.url, timeout: nil)
        guard result.launched else { throw TestSupportError(result.stderr) }
        return CommandResult(status: result.status, stdout: result.stdout, stderr: Data(result.stderr.utf8))
    }

    /// Runs `openssl arguments…` and throws (with its stderr) unless it exits 0.
    @discardableResult
    static func succeed(_ arguments: [String], stdin: Data? = nil, in directory: ScratchDirectory) throws
        -> CommandResult
    {
        let result = try run(arguments, stdin: stdin, in: directory)
        guard result.succeeded else {
            throw TestSupportError(
                "openssl \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderrText)")
        }
        return result
    }

    /// How to call `openssl smime -sign` or `openssl cms -sign`.
    struct SignRequest {
        enum Tool: String { case smime, cms }
        var tool: Tool = .smime
        var key: String = Paths.cert("leaf-rsa.key")
        var signer: String = Paths.cert("leaf-rsa.pem")
        var certfile: String? = nil
        var passin: String? = nil
        /// `-outform`: "DER", "PEM", or nil for S/MIME.
        var outform: String? = "DER"
        var binary = false
        var noattr = true
        var nodetach = true
        var nocerts = false
        var stream = false
        var md: String? = nil
    }

    /// Signs `content` with the CLI and returns what it wrote.
    static func sign(_ content: Data, _ request: SignRequest, in directory: ScratchDirectory) throws -> Data {
        let tag = UUID().uuidString
        let input = try directory.write(content, to: "content-\(tag)")
        let output = directory.file("signed-\(tag)").path
        var arguments = [
            request.tool.rawValue, "-sign", "-inkey", request.key, "-signer", request.signer, "-in", input, "-out",
            output,
        ]
        if let certfile = request.certfile { arguments += ["-certfile", certfile] }
        if let passin = request.passin { arguments += ["-passin", passin] }
        if let outform = request.outform { arguments += ["-outform", outform] }
        if request.noattr { arguments.append("-noattr") }
        if request.nodetach { arguments.append("-nodetach") }
        if request.binary { arguments.append("-binary") }
        if request.nocerts { arguments.append("-nocerts") }
        if request.stream { arguments.append("-stream") }
        if let md = request.md { arguments += ["-md", md] }
        try succeed(arguments, in: directory)
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    /// `openssl smime -verify -inform DER -purpose any` against the test root; returns the command result and
    /// the content it wrote (empty when it failed).
    static func smimeVerify(
        _ signed: Data, inform: String = "DER", caFile: String = Paths.cert("ca-bundle.pem"),
        extraArguments: [String] = [], in directory: ScratchDirectory
    ) throws -> (result: CommandResult, content: Data) {
        let tag = UUID().uuidString
        let input = try directory.write(signed, to: "verify-in-\(tag)")
        let output = directory.file("verify-out-\(tag)")
        let result = try run(
            [
                "smime", "-verify", "-inform", inform, "-in", input, "-CAfile", caFile,
                "-purpose", "any", "-out", output.path,
            ] + extraArguments, in: directory)
        let content = (try? Data(contentsOf: output)) ?? Data()
        return (result, result.succeeded ? content : Data())
    }
}

// MARK: - The test PKI

enum PKI {
    /// The bytes of a file in certs/.
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: Paths.certs.appendingPathComponent(name))
    }

    /// The passphrase of the PKCS#12 and encrypted key: the first line of passphrase.txt.
    static func passphraseString() throws -> String {
        let text = String(decoding: try data("passphrase.txt"), as: UTF8.self)
        return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    static func passphrase() throws -> Passphrase { Passphrase(try passphraseString()) }

    /// Every certificate of a file in certs/.
    static func certificates(_ name: String) throws -> [X509Certificate] {
        try X509Certificate.load(from: data(name))
    }

    /// The single certificate of a file in certs/.
    static func certificate(_ name: String) throws -> X509Certificate {
        let all = try certificates(name)
        guard all.count == 1 else { throw TestSupportError("\(name) holds \(all.count) certificates, expected 1") }
        return all[0]
    }

    static func key(_ name: String, passphrase: Passphrase? = nil) throws -> PrivateKey {
        try PrivateKey(data: data(name), passphrase: passphrase)
    }

    /// `<leaf>.key` + `<leaf>.pem`, with chain.pem as the chain when `withChain`.
    static func identity(_ leaf: String, withChain: Bool = true) throws -> SigningIdentity {
        try SigningIdentity(
            key: key("\(leaf).key"), certificate: certificate("\(leaf).pem"),
            chain: withChain ? certificates("chain.pem") : [])
    }

    /// Trust in the test root only (no system roots).
    static func testRootTrust() throws -> TrustStore {
        try TrustStore(TrustConfiguration(useSystemRoots: false, anchorFiles: [Paths.cert("ca-bundle.pem")]))
    }

    /// A verifier trusting the test root only.
    static func verifier(_ options: VerificationOptions = VerificationOptions(time: Times.y2025)) throws -> Verifier {
        Verifier(trust: try testRootTrust(), options: options)
    }
}

// MARK: - Fixed times

enum Times {
    /// 2025-01-01T00:00:00Z: every "long validity" certificate is valid.
    static let y2025 = Date(timeIntervalSince1970: 1_735_689_600)
    /// 2015-06-01T00:00:00Z: leaf-expired is still valid.
    static let june2015 = Date(timeIntervalSince1970: 1_433_116_800)
    /// 2015-09-15T00:00:00Z: the artsy and Handbid signers were valid.
    static let september2015 = Date(timeIntervalSince1970: 1_442_275_200)
    /// 2029-12-01T00:00:00Z: 31 days before leaf-short-lived expires.
    static let december2029 = Date(timeIntervalSince1970: 1_890_777_600)
    /// 2030-01-01T00:00:00Z: leaf-short-lived's notAfter.
    static let january2030 = Date(timeIntervalSince1970: 1_893_456_000)
}

// MARK: - Inputs

/// Bytes with a name that shows in test output.
struct NamedInput: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: Data
    var testDescription: String { "\(name) (\(bytes.count) B)" }

    init(_ name: String, _ bytes: Data) {
        self.name = name
        self.bytes = bytes
    }

    init(_ name: String, _ text: String) { self.init(name, Data(text.utf8)) }
}

enum Inputs {
    /// Multi-line JSON of exactly `size` bytes (LF line ends).
    static func largeJSON(size: Int) -> Data {
        var text = "{\n"
        var index = 0
        let closingOverhead = "  \"pad\": \"\"\n}\n".utf8.count
        while true {
            let line =
                "  \"key\(String(format: "%06d", index))\": \"value number \(index) of a large AASA-like file\",\n"
            if text.utf8.count + line.utf8.count + closingOverhead > size { break }
            text += line
            index += 1
        }
        let pad = size - text.utf8.count - closingOverhead
        text += "  \"pad\": \"\(String(repeating: "x", count: max(pad, 0)))\"\n}\n"
        return Data(text.utf8)
    }

    /// Hand-made inputs that exercise OpenSSL's text (MIME) canonicalisation.
    static let synthetic: [NamedInput] = [
        NamedInput("empty", Data()),
        NamedInput("{}", "{}"),
        NamedInput("LF text", "{\n  \"applinks\": {\n    \"apps\": [],\n    \"details\": []\n  }\n}\n"),
        NamedInput("CRLF text", "{\r\n  \"applinks\": {\r\n    \"apps\": []\r\n  }\r\n}\r\n"),
        NamedInput("no final newline", "{\n  \"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\"]}\n}"),
        NamedInput("stray CR mid-line", "{\n  \"a\": \"x\ry\",\n  \"b\": 1\n}\n"),
        NamedInput("trailing CR at EOF", "{\n  \"a\": 1\n}\r"),
        NamedInput("CR CR LF", "{\r\r\n  \"a\": 1\r\r\n}\r\r\n"),
        NamedInput("blank lines", "\n\n{\n\n  \"a\": 1\n\n\n}\n\n"),
        NamedInput("trailing spaces", "{   \n  \"a\": 1  \n}  \n"),
        NamedInput("LF CR", "{\n\r  \"a\": 1\n\r}\n\r"),
        NamedInput("line of 1023 bytes", "{\"p\":\"\(String(repeating: "a", count: 1015))\"}\n"),
        NamedInput("line of 1024 bytes", "{\"p\":\"\(String(repeating: "b", count: 1016))\"}\n"),
        NamedInput("line longer than 1024 bytes", "{\n\"p\":\"\(String(repeating: "c", count: 1500))\"\n}\n"),
        NamedInput("line longer than 3000 bytes", "{\n\"p\":\"\(String(repeating: "d", count: 3200))\"\n}\n"),
        // The CR is byte 1023, the last one OpenSSL's 1024-byte line buffer holds: it is dropped.
        NamedInput("CR at the 1024-byte buffer edge", "{\"p\":\"\(String(repeating: "e", count: 1016))\r\"}\n"),
        NamedInput("CR just after the 1024-byte buffer edge", "{\"p\":\"\(String(repeating: "f", count: 1017))\r\"}\n"),
        NamedInput("UTF-8 non-ASCII", "{\n  \"name\": \"Café – 日本語 – 🚀\",\n  \"ü\": \"ß\"\n}\n"),
        NamedInput("128 KB JSON", largeJSON(size: 131_072)),
    ]

    /// Every real plain AASA file of the corpus.
    static let corpusPlain: [NamedInput] = RealWorldCorpus.plainNames.map { name in
        // A file that cannot be read stops the run: an empty input would test nothing.
        guard let data = FileManager.default.contents(atPath: RealWorldCorpus.plain(name)) else {
            fatalError("cannot read corpus file \(name)")
        }
        return NamedInput("corpus \(name)", data)
    }

    static let all: [NamedInput] = synthetic + corpusPlain
}

// MARK: - An independent model of OpenSSL's text canonicalisation

/// What `SMIME_crlf_copy` (OpenSSL 3.0, used by `smime -sign` without `-binary`) makes of
/// `input`: it reads lines with a 1024-byte buffer (so at most 1023 bytes at a time), strips
/// every trailing CR and LF of each chunk, and writes CRLF only when the chunk ended in LF.
/// So a CR just before a line end or at the end of the file disappears, and a line longer
/// than the buffer is passed through in pieces.
func opensslCanonicalText(_ input: Data) -> Data {
    let bytes = [UInt8](input)
    var out: [UInt8] = []
    var start = 0
    while start < bytes.count {
        var end = start
        while end < bytes.count && end - start < 1023 {
            end += 1
            if bytes[end - 1] == 0x0A { break }
        }
        var length = end - start
        var isEndOfLine = false
        while length > 0 {
            let byte = bytes[start + length - 1]
            if byte == 0x0A {
                isEndOfLine = true
            } else if byte != 0x0D {
                break
            }
            length -= 1
        }
        out += bytes[start..<(start + length)]
        if isEndOfLine { out += [0x0D, 0x0A] }
        start = end
    }
    return Data(out)
}

/// LF → CRLF for text whose lines end in bare LF.
func lfToCRLF(_ data: Data) -> Data {
    var out = Data()
    for byte in data {
        if byte == 0x0A { out.append(0x0D) }
        out.append(byte)
    }
    return out
}

// MARK: - Byte surgery

extension Data {
    /// A copy with the byte at `offset` (from the start) XOR-ed with `mask`.
    func flippingByte(at offset: Int, mask: UInt8 = 0x01) -> Data {
        var copy = Data(self)
        let index = copy.startIndex + offset
        copy[index] ^= mask
        return copy
    }

    /// The offset of the first occurrence of `needle`, from the start.
    func offset(of needle: Data) -> Int? {
        range(of: needle).map { $0.lowerBound - startIndex }
    }

    /// Upper-case hex pairs joined by ":".
    var colonHex: String { map { String(format: "%02X", $0) }.joined(separator: ":") }
}

// MARK: - Verdict helpers

extension VerificationResult {
    /// Records an issue unless the verdict has `code`, and checks the content is withheld
    /// unless the verdict is valid.
    func expect(
        _ code: String, reasonContains fragment: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(verdict.code == code, "verdict \(verdict) (\(verdict.reason ?? "-"))", sourceLocation: sourceLocation)
        if let fragment {
            #expect(
                verdict.reason?.contains(fragment) == true, "reason \(verdict.reason ?? "nil") lacks \(fragment)",
                sourceLocation: sourceLocation)
        }
        if code == "valid" {
            #expect(content != nil, "a valid result must carry the content", sourceLocation: sourceLocation)
            #expect(verdict.reason == nil, sourceLocation: sourceLocation)
        } else {
            #expect(content == nil, "content must be withheld when not valid", sourceLocation: sourceLocation)
            #expect(!isValid, sourceLocation: sourceLocation)
        }
    }
}
