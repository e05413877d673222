// The real-world corpus: AASA files copied byte for byte from public repositories, kept in
// Tests/Fixtures/corpus with each file's source, date and licence (its README.md).
import Foundation

/// The real-world corpus in Tests/Fixtures/corpus.
///
/// The file lists are read from disk and checked against the counts the corpus README states,
/// so a test that loops over the corpus can never pass over an empty or partial list.
public enum RealWorldCorpus {
    /// Tests/Fixtures/corpus.
    public static let folder = Repository.fixtures.appendingPathComponent("corpus", isDirectory: true)
    /// The signed files (DER and S/MIME).
    public static let signedFolder = folder.appendingPathComponent("real-signed", isDirectory: true)
    /// The plain JSON files.
    public static let plainFolder = folder.appendingPathComponent("real-plain", isDirectory: true)

    /// How many signed files the corpus holds (README.md).
    public static let expectedSignedCount = 3
    /// How many plain files the corpus holds (README.md).
    public static let expectedPlainCount = 20

    /// The names of the signed files, sorted; a missing or partial corpus stops the test run.
    public static let signedNames: [String] = names(in: signedFolder, expected: expectedSignedCount)
    /// The names of the plain files, sorted; a missing or partial corpus stops the test run.
    public static let plainNames: [String] = names(in: plainFolder, expected: expectedPlainCount)

    /// The path of a signed file of the corpus.
    public static func signed(_ name: String) -> String { signedFolder.appendingPathComponent(name).path }
    /// The path of a plain file of the corpus.
    public static func plain(_ name: String) -> String { plainFolder.appendingPathComponent(name).path }

    /// The bytes of a corpus file given by its path relative to the corpus folder
    /// (`real-plain/NAME`); a missing file is an error, never empty data.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(relativePath))
    }

    /// The sorted names of the files in a folder (no hidden files, no README), which must
    /// number exactly `expected`: the corpus is part of the repository, so anything else is a
    /// broken checkout, reported with what was found rather than silently tested on less.
    static func names(in folder: URL, expected: Int) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted()
        } catch {
            fatalError("the corpus folder \(folder.path) cannot be read: \(error)")
        }
        precondition(
            names.count == expected,
            "the corpus folder \(folder.path) holds \(names.count) files, README.md says \(expected)")
        return names
    }
}
