import Foundation

/// A fenced block of a Markdown page, found by the text that comes before it: the recipe tests
/// read the page's own block and run it, so that a change to the page is a change to the test.
public enum MarkdownFence {
    /// The text of the first ```LANGUAGE block after the first occurrence of `marker`, or nil
    /// when the page has no such marker or no such block after it.
    public static func block(in markdown: String, language: String, after marker: String) -> String? {
        guard let start = markdown.range(of: marker) else { return nil }
        guard let open = markdown.range(of: "```\(language)\n", range: start.upperBound..<markdown.endIndex),
            let close = markdown.range(of: "\n```", range: open.upperBound..<markdown.endIndex)
        else { return nil }
        return String(markdown[open.upperBound..<close.lowerBound]) + "\n"
    }
}
