/// A count with its noun, as the summaries say it: "1 file", "3 files".
enum Counted {
    static func files(_ count: Int) -> String { "\(count) \(count == 1 ? "file" : "files")" }
}
