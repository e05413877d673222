import Foundation

extension Data {
    /// The UTF-8 bytes of `text`, copied in one step.
    ///
    /// Why not `Data(text.utf8)`: that initialiser, generic over any sequence of bytes, asks
    /// at run time whether the sequence is contiguous (dynamic casts), and each first such
    /// question of a process scans all of the binary's protocol conformances. On the path of
    /// a single-file command's output that was 1.7 % of `aasa verify FILE`
    /// (docs/performance.md, "Start-up").
    init(utf8 text: String) {
        var text = text
        self = text.withUTF8 { Data(buffer: $0) }
    }
}
