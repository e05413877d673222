import Foundation

/// Where a page of the documentation is on this machine, for the help texts: the release
/// installs README.md and `docs/` beside the program (`/usr/share/doc/aasa/` from the .deb,
/// `share/doc/aasa/` in the tarball, the repository's layout kept so that the pages' links
/// work; scripts/release.sh), so that a help text names a file the user has.
enum InstalledDocs {
    /// The installed pages (`BINARY/../share/doc/aasa/docs`, the binary's links resolved),
    /// nil when there is none (a build run from its build folder, a minimised image that leaves
    /// out /usr/share/doc). Looked up once, when a help text is first built.
    static let directory: String? = {
        guard let binary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let folder = URL(fileURLWithPath: binary).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/doc/aasa/docs").standardizedFileURL.path
        return FileManager.default.isReadableFile(atPath: folder + "/cli.md") ? folder : nil
    }()

    /// `page` (`audit.md`) where the user can read it: the installed file, else the page of
    /// the source repository's `docs/`.
    static func page(_ page: String) -> String {
        if let directory { return directory + "/" + page }
        return "docs/" + page + " in aasa's source"
    }
}
