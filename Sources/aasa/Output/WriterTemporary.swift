/// The temporary file ``OutputFile`` writes beside a target before renaming it over the target:
/// `.NAME.aasa-tmp-XXXXXX`. Directory walks skip exactly this pattern (and nothing else that
/// starts with a dot: `.aasa.backup` is a file of the user's).
enum WriterTemporary {
    static let marker = ".aasa-tmp-"

    /// The longest part of the target's name kept in the temporary's name, in bytes, so that
    /// a target of NAME_MAX (255) bytes still has a temporary name that fits.
    static let maximumNamePrefix = 200

    /// The `mkstemp` template in `directory` for the target `name`.
    static func template(in directory: String, for name: String) -> String {
        var prefix = ""
        for character in name {
            guard prefix.utf8.count + character.utf8.count <= maximumNamePrefix else { break }
            prefix.append(character)
        }
        return "\(directory)/.\(prefix)\(marker)XXXXXX"
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
