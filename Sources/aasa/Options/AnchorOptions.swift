import AASA
import ArgumentParser
import Foundation

/// What to trust: the flags `verify`, `extract`, `check`, `convert` (through ``TrustOptions``)
/// and `audit` share, read into one ``TrustConfiguration``.
struct AnchorOptions: ParsableArguments {
    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp("Trust the certificates in this PEM/DER file (repeatable).", valueName: "pem"))
    var caFiles: [String] = []

    @Option(
        name: .customLong("ca-dir"),
        help: ArgumentHelp("Trust a directory of hashed certificates (openssl rehash; repeatable).", valueName: "dir"))
    var caDirectories: [String] = []

    @Flag(name: .customLong("no-system-roots"), help: "Do not trust the system's CA bundle; only --ca-file/--ca-dir.")
    var noSystemRoots = false

    func validate() throws {
        if noSystemRoots && caFiles.isEmpty && caDirectories.isEmpty {
            throw ValidationError("--no-system-roots leaves nothing to trust: add --ca-file or --ca-dir")
        }
    }

    /// The trust these flags name. The CA files are read here, through the CLI's bounded and
    /// hardened reader (``InputFile``), rather than by the library (which reads a path whole);
    /// the directories are the library's to check and use.
    func trustConfiguration() throws -> TrustConfiguration {
        TrustConfiguration(
            useSystemRoots: !noSystemRoots, anchorDirectories: caDirectories,
            anchors: try caFiles.flatMap { try Self.certificates(in: $0, what: "CA file") })
    }

    /// The certificates in a PEM/DER file (CA or intermediates file); errors name the file.
    static func certificates(in path: String, what: String) throws -> [X509Certificate] {
        do {
            return try X509Certificate.load(from: InputFile.read(path, what: what, limit: 16 * 1024 * 1024))
        } catch let error as AASAError {
            throw CLIFailure(path, "\(what): \(error.message)")
        }
    }
}
