import AASA
import AASAAudit
import Foundation

/// `aasa audit --save DIR`: keeps what each domain served under `DIR/<domain>/`, as each
/// report arrives (``FleetAudit`` hands it over before it waits for the earlier ones), and lets
/// the body go with it: memory stays that of the reports in flight.
///
/// - `apple-app-site-association`: the body of the file iOS would use, exactly as received
///   (none when no path served a complete 200 answer within the size cap);
/// - `headers.txt`: that answer's status line and header fields, one a line, as received;
/// - `tls-chain.pem`: the certificates the server sent in the TLS handshake, leaf first;
/// - `well-known.body`, `root.body`: the body each path answered, whatever it was (an error
///   page, a redirect's, a body cut at the size cap);
/// - `metadata.json`: which URL the files are of, whether it served the file, the status, the
///   files written, and each path's answer (its status line and header fields: in this file,
///   so that a domain's own bytes on disk stay two small files); written last, so a domain's
///   set is complete when it is there.
///
/// Every file is written atomically (``OutputFile``) in the domain's directory, opened below
/// `DIR` without following a symbolic link; the domain's name (validated by ``AuditDomain``)
/// is checked again to be one plain name. A failure is one error line naming the file; the
/// domain's other files are not written and the run ends with exit status 2.
final class AuditSaver {
    static let bodyName = "apple-app-site-association"
    static let headersName = "headers.txt"
    static let chainName = "tls-chain.pem"
    static let metadataName = "metadata.json"
    /// The body of each path's answer (``CapturedResponse/PathAnswer``).
    static let pathNames = ["well-known.body", "root.body"]
    /// Where the next steps' `convert`/`extract` write the domain's plain JSON: beside the
    /// saved file, so that the steps of many domains do not write one `./apple-app-site-association`.
    static let convertedName = "apple-app-site-association.json"

    /// `DIR` as the user gave it, for the paths printed.
    let directory: String
    private let root: DirectoryHandle
    /// One copy of each distinct body and chain (``SavedObjects``).
    private let objects: SavedObjects
    /// Where each domain's body went (nil: no body, or it could not be written), in arrival
    /// order per domain name (a domain listed twice is saved twice), until its report is printed.
    private var outcomes: [String: [String?]] = [:]
    /// Domains whose files could not all be written: exit status 2.
    private(set) var failures = 0
    /// Says a failure (one line on standard error, clear of the progress bar).
    private let problem: (CLIFailure) -> Void

    /// Makes `DIR` when missing and opens it (following links: the user named it).
    /// - Throws: ``CLIFailure`` naming `DIR` when it cannot be made or opened.
    init(directory: String, problem: @escaping (CLIFailure) -> Void) throws {
        self.directory = directory
        self.problem = problem
        var info = stat()
        if lstat(directory, &info) != 0 {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw CLIFailure(directory, "cannot save (--save): cannot create the directory")
            }
        }
        do {
            root = try DirectoryHandle(opening: directory)
        } catch let failure as DirectoryHandle.CannotOpen {
            throw CLIFailure(directory, "cannot save (--save): \(String(cString: strerror(failure.code)))")
        }
        do {
            objects = try SavedObjects(in: root, path: Self.joined(directory, [SavedObjects.folderName]))
        } catch let failure as DirectoryHandle.CannotOpen {
            throw CLIFailure(directory, "cannot save (--save): \(failure.description)")
        }
    }

    /// The directory name for a domain as reported (`host` or `host:port`): itself when it is
    /// one plain name (ASCII letters, digits, `.`, `-`, `_`, `:`; not `.` or `..`), else nil.
    static func directoryName(_ domain: String) -> String? {
        let allowed = domain.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ":")
        }
        guard allowed, !domain.isEmpty, domain.utf8.count <= 255, domain != ".", domain != ".." else { return nil }
        return domain
    }

    /// The paths of what `--save DIR` kept of `domain`, as `DIR/DOMAIN/FILE` with `DIR` as
    /// given (`aasa audit summarize --saved DIR` links the HTML report's detail to them); nil
    /// when none is there, or the name is not one a save writes (a record is read, not trusted).
    static func savedFiles(of domain: String, in directory: String) -> [String]? {
        guard let name = directoryName(domain) else { return nil }
        let files = ([bodyName, headersName, chainName] + pathNames + [metadataName]).map {
            joined(directory, [name, $0])
        }
        .filter { FileManager.default.fileExists(atPath: $0) }
        return files.isEmpty ? nil : files
    }

    /// `DIR/name`, as printed and used in the next steps.
    func path(_ names: String...) -> String { Self.joined(directory, names) }

    /// `directory` (as given, a trailing `/` dropped) and `names`, joined with `/`.
    private static func joined(_ directory: String, _ names: [String]) -> String {
        ([directory.hasSuffix("/") ? String(directory.dropLast()) : directory] + names).joined(separator: "/")
    }

    /// Saves what `report` carries and drops it from the report.
    func save(_ report: inout DomainReport) {
        guard let captured = report.captured else { return }
        report.captured = nil
        let saved: String?
        do {
            saved = try write(captured, domain: report.domain)
        } catch {
            failures += 1
            problem(CLIFailure(path(Self.directoryName(report.domain) ?? report.domain), describing: error))
            saved = nil
        }
        outcomes[report.domain, default: []].append(saved)
    }

    /// Where `domain`'s body was saved (nil: none), once its report is printed; nil when it
    /// was not saved at all.
    func take(_ domain: String) -> String?? {
        guard var list = outcomes[domain], !list.isEmpty else { return nil }
        let first = list.removeFirst()
        outcomes[domain] = list.isEmpty ? nil : list
        return .some(first)
    }

    /// Flushes the saved files to disk (one `syncfs`, not one `fsync` a file).
    func finish() {
        OutputFile.flush([path("x")])
    }

    /// Writes the files of one domain; returns the body's path when one was written.
    private func write(_ captured: CapturedResponse, domain: String) throws -> String? {
        guard let name = Self.directoryName(domain) else {
            throw CLIFailure(domain, "cannot save (--save): not a plain directory name; nothing written")
        }
        let folder: DirectoryHandle
        do {
            folder = try root.child(name, creating: true)
        } catch let change as TreeChange {
            throw change.failure(for: path(name), "cannot save (--save), nothing written")
        } catch let failure as DirectoryHandle.CannotOpen {
            throw CLIFailure(path(name), "cannot save (--save): \(failure.description); nothing written")
        }
        var files: [(name: String, data: Data)] = []
        if let body = captured.body { files.append((Self.bodyName, body)) }
        if let status = captured.statusLine {
            files.append((Self.headersName, Self.headerText(status, captured.headers)))
        }
        if !captured.tlsChain.isEmpty {
            // A certificate that cannot be encoded again is left out, never written half.
            let pem = captured.tlsChain.compactMap { try? $0.pemRepresentation }.joined()
            files.append((Self.chainName, Data(pem.utf8)))
        }
        var paths: [[String: Any]] = []
        for answer in captured.paths {
            var written: [String] = []
            if let body = answer.body {
                files.append((answer.name + ".body", body))
                written.append(answer.name + ".body")
            }
            paths.append([
                "path": answer.name == "root" ? "root" : ".well-known", "url": answer.url,
                "statusLine": answer.statusLine ?? NSNull(),
                "headers": answer.headers.map { "\($0.name): \($0.value)" },
                "size": answer.body.map(\.count) ?? NSNull(), "truncated": answer.truncated,
                "failure": answer.failure ?? NSNull(), "files": written,
            ])
        }
        let policy = OutputFile.Policy(durable: false)
        for file in files {
            if file.name == Self.headersName {
                try OutputFile.write(
                    file.data, in: folder, name: file.name, path: path(name, file.name), policy: policy)
            } else {
                // The body and the chain: what many domains share.
                try objects.place(file.data, in: folder, name: file.name, shownAs: path(name, file.name))
            }
        }
        // Files of an earlier run that this answer has not (a body no longer served) would be
        // taken for this run's: removed, if they are regular files.
        for stale in [Self.bodyName, Self.headersName, Self.chainName] + Self.pathNames
        where !files.contains(where: { $0.name == stale }) {
            if let entry = folder.entry(stale), (entry.st_mode & S_IFMT) == S_IFREG {
                unlinkat(folder.descriptor, stale, 0)
            }
        }
        let metadata: [String: Any] = [
            "domain": domain, "url": captured.url,
            "path": captured.url.hasSuffix("/.well-known/apple-app-site-association") ? ".well-known" : "root",
            "served": captured.served, "statusLine": captured.statusLine ?? NSNull(),
            "failure": captured.failure ?? NSNull(), "files": files.map(\.name), "paths": paths,
            "savedAt": ISO8601DateFormatter().string(from: Date()), "aasaVersion": AASAVersion.number,
        ]
        let json = try JSONSerialization.data(
            withJSONObject: metadata, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        try OutputFile.write(
            json + Data("\n".utf8), in: folder, name: Self.metadataName, path: path(name, Self.metadataName),
            policy: policy)
        return captured.body == nil ? nil : path(name, Self.bodyName)
    }

    /// A `headers.txt`: the status line, then each field as received, one a line.
    private static func headerText(_ status: String, _ headers: [CapturedResponse.HeaderField]) -> Data {
        var text = status + "\n"
        for field in headers { text += "\(field.name): \(field.value)\n" }
        return Data(text.utf8)
    }

    /// A next step of the text report with `FILE` filled in: inside each backquoted `aasa …`
    /// command, `FILE` becomes `file` (shell-quoted), and, when this run verified the file's
    /// signature with them, `FILE --historical` carries its trust options (`trust`), as `aasa
    /// check` fills its steps; a `-o apple-app-site-association` becomes the domain's
    /// ``convertedName``. With no file, the step keeps `FILE` and says why.
    /// - Parameters:
    ///   - file: the saved body's path; nil when there is none.
    ///   - saving: whether `--save` was given (to say what to do about a missing file).
    static func filledIn(_ step: String, file: String?, trust: [String], saving: Bool) -> String {
        guard NextStepText.namesFile(step) else { return step }
        guard let file else {
            return step
                + (saving
                    ? " (FILE: the file the domain serves, which could not be saved: see standard error)"
                    : " (FILE: the file the domain serves; audit with --save DIR to keep it)")
        }
        let output = (file as NSString).deletingLastPathComponent + "/" + Self.convertedName
        return NextStepText.filledIn(step, file: file, trust: trust, output: output, verifier: "audit")
    }
}
