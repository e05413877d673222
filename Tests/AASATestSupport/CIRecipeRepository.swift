import Foundation

/// The repository that docs/ci.md's recipes assume, laid out for a test to run them in:
/// site/.well-known/apple-app-site-association, legacy/apple-app-site-association.p7m and
/// ci/signing-root.pem (the bundled example, plain and signed, and its root).
public enum CIRecipeRepository {
    /// docs/ci.md.
    public static let page = Repository.root.appendingPathComponent("docs/ci.md")

    /// Lays the repository out in `repository`, an existing directory.
    public static func layOut(_ repository: URL) throws {
        let manager = FileManager.default
        for directory in ["site/.well-known", "legacy", "ci"] {
            try manager.createDirectory(
                at: repository.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        try manager.copyItem(
            at: Repository.examples.appendingPathComponent("apple-app-site-association.json"),
            to: repository.appendingPathComponent("site/.well-known/apple-app-site-association"))
        try manager.copyItem(
            at: Repository.examples.appendingPathComponent("apple-app-site-association.p7m"),
            to: repository.appendingPathComponent("legacy/apple-app-site-association.p7m"))
        try manager.copyItem(
            at: Repository.certs.appendingPathComponent("root-ca.pem"),
            to: repository.appendingPathComponent("ci/signing-root.pem"))
    }
}
