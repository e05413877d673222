import Foundation

/// Where a page of the documentation is on this machine, for the help texts: the release
/// installs README.md and `docs/` beside the program (`/usr/share/doc/aasa/` from the .deb,
/// `share/doc/aasa/` in the tarball, the repository's layout kept so that the pages' links
/// work; scripts/release.sh), so that a help text names a file the user has.
enum InstalledDocs {
    /// The installed pages (`BINARY/../share/doc/aasa/docs`, the binary's links resolved),
    /// nil when there is none (a build run from its build folder, a minimised image that leaves
    /// out /usr/share/doc). Looked up once, when a help text is first built.
    ///
    /// Plain POSIX calls and string work, not `URL` and `FileManager`: every command builds its
    /// help texts' configuration on start, and `URL`'s path handling cost 5.6 % of a
    /// single-file `aasa verify` in the static binary (docs/performance.md).
    static let directory: String? = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let binary = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let folder = prefix(ofPath: binary, droppingComponents: 2) else { return nil }
        let docs = folder + "/share/doc/aasa/docs"
        return access(docs + "/cli.md", R_OK) == 0 ? docs : nil
    }()

    /// `path` (absolute, as the kernel gives /proc/self/exe: no `.`, `..` or doubled `/` in it)
    /// without its last `count` components: "/usr" for "/usr/bin/aasa" and 2. Index work on the
    /// one string: joining components would ask the runtime for `Substring`'s witnesses.
    static func prefix(ofPath path: String, droppingComponents count: Int) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var end = path.endIndex
        for _ in 0..<count {
            guard let slash = path[..<end].lastIndex(of: "/") else { return nil }
            end = slash
        }
        return String(path[..<end])
    }

    /// `page` (`audit.md`) where the user can read it: the installed file, else the page of
    /// the source repository's `docs/`.
    static func page(_ page: String) -> String {
        if let directory { return directory + "/" + page }
        return "docs/" + page + " in aasa's source"
    }
}
