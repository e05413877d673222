import AASA

/// The subcommand a mistyped one was probably meant to be (`aasa chek` → `check`).
///
/// argument-parser 1.8 suggests a close option ("Unknown option '--frmat'. Did you mean
/// '--format'?") but says only "Unexpected argument 'chek'" for a subcommand; this gives the
/// same hint for subcommands, in the same words.
enum SubcommandSuggestion {
    /// The usage error for `word`, when it is a mistyped subcommand: "Unknown subcommand 'chek'.
    /// Did you mean 'check'?" (``UsageErrors`` escapes `word` for the terminal when it prints it).
    static func message(for word: String, among names: [String]) -> String? {
        guard let name = Suggestion.closest(to: word, among: names) else { return nil }
        return "Unknown subcommand '\(word)'. Did you mean '\(name)'?"
    }
}
