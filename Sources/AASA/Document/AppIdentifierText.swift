import Foundation

/// Text tests on app identifiers shared by the lint rules and ``DocumentEffect``.
enum AppIdentifierText {
    /// Empty or white space only: such an identifier matches no app (`empty-appid`).
    static func isBlank(_ text: String) -> Bool {
        // An ASCII first character other than a space or tab is not white space: not blank.
        if let first = text.utf8.first, first < 0x80, first != 0x20, first != 0x09 { return false }
        return text.trimmingCharacters(in: .whitespaces).isEmpty
    }
}
