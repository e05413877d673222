import Foundation

/// A word of a command printed for the user to run: as it is when a shell reads it so, in
/// single quotes otherwise.
enum ShellWord {
    static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || "/._-+,=:@%".unicodeScalars.contains($0)
            }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
