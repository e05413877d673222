import Foundation

/// Files that hold secrets (a private key, a PKCS#12 file, a passphrase file): like ssh, `aasa`
/// warns when other users can get at one.
enum SecretFile {
    /// Warns (one diagnostic) when `path`, a regular file holding `what`, is readable or
    /// writable by its group or by every user, saying exactly which.
    static func warnIfExposed(_ path: String, what: String) {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        let mode = info.st_mode & 0o777
        guard let exposure = exposure(mode: mode) else { return }
        Diagnostics.emit(
            path, .warning,
            "this \(what) is \(exposure) (mode \(String(mode, radix: 8))); restrict it with chmod 600")
    }

    /// Who besides the owner can read or write a file of `mode`, in words; nil for nobody.
    /// Mode 620 is "writable by its group", not "readable": the words follow the bits.
    static func exposure(mode: mode_t) -> String? {
        var parts: [String] = []
        if mode & 0o004 != 0 {
            parts.append("readable by every user")
        } else if mode & 0o040 != 0 {
            parts.append("readable by its group")
        }
        if mode & 0o002 != 0 {
            parts.append("writable by every user")
        } else if mode & 0o020 != 0 {
            parts.append("writable by its group")
        }
        if parts.isEmpty && mode & 0o011 != 0 { parts.append("executable by others") }
        return parts.isEmpty ? nil : parts.joined(separator: " and ")
    }
}
