/// The temporary file ``OutputFile`` writes beside a target before renaming it over the target:
/// `.NAME.aasa-tmp-XXXXXX`. Directory walks skip exactly this pattern (and nothing else that
/// starts with a dot: `.aasa.backup` is a file of the user's).
enum WriterTemporary {
    static let marker = ".aasa-tmp-"

    /// The longest part of the target's name kept in the temporary's name, in bytes, so that
    /// a target of NAME_MAX (255) bytes still has a temporary name that fits.
    static let maximumNamePrefix = 200

    /// The characters of the six that end a temporary's name (those of `mkstemp`).
    private static let suffixCharacters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A fresh temporary name for the target `name`: `.NAME.aasa-tmp-` and six random letters
    /// or digits, as `mkstemp` would make it. The caller creates it with `O_CREAT | O_EXCL`
    /// relative to the directory's descriptor (there is no `mkstemp` relative to one) and
    /// tries another name if it exists.
    static func name(for name: String) -> String {
        var prefix = ""
        for character in name {
            guard prefix.utf8.count + character.utf8.count <= maximumNamePrefix else { break }
            prefix.append(character)
        }
        var random = SystemRandomNumberGenerator()
        let suffix = String(
            (0..<6).map { _ in suffixCharacters[Int.random(in: 0..<suffixCharacters.count, using: &random)] })
        return ".\(prefix)\(marker)\(suffix)"
    }

    /// Whether `name` is such a temporary: a dot, the marker, and mkstemp's six characters.
    static func matches(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.utf8.count >= 1 + marker.utf8.count + 6 else { return false }
        let suffix = name.utf8.suffix(marker.utf8.count + 6)
        return suffix.starts(with: marker.utf8)
            && suffix.dropFirst(marker.utf8.count).allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            }
    }
}
