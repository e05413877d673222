// Where the repository's files are, for every test target: the one rule all tests follow.
//
// The root is the nearest directory above this source file that holds Package.swift, so the
// tests work from any clone, wherever it is. Nothing outside the repository is ever read: the
// real-world corpus is part of the repository (Tests/Fixtures/corpus, with its provenance).
import Foundation

/// The repository's locations, found from this file's path.
public enum Repository {
    /// The package root: the nearest directory above this file that holds `Package.swift`.
    public static let root: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// certs/: the generated, test-only PKI (certs/README.md).
    public static let certs = root.appendingPathComponent("certs", isDirectory: true)

    /// Tests/Fixtures: files the tests read.
    public static let fixtures = root.appendingPathComponent("Tests/Fixtures", isDirectory: true)

    /// examples/: the bundled example.
    public static let examples = root.appendingPathComponent("examples", isDirectory: true)

    /// The path of a file in certs/.
    public static func cert(_ name: String) -> String { certs.appendingPathComponent(name).path }
}
