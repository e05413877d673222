import AASAReports
import Foundation

/// The one place a batch command's per-file record becomes output, whatever the format: the
/// command gives the record (what `json` and `jsonl` encode) and its text lines; this decides
/// which to write and how. A single file in `json` is one document; in a batch, an element of
/// the array that ``BatchFrontend`` opens.
struct RecordPrinter: Sendable {
    let format: BatchFormat
    /// The output the records belong to: their stamp (``Stamped``) and schema.
    let kind: JSONSchemaKind
    /// `json` in a batch: the array the record is an element of (its indentation).
    let array: JSONArrayStream?

    /// The bytes of one file's record: `text` lines, a JSON document or array element, or a
    /// JSON line; nothing for the report formats (SARIF, …), written once at the end.
    func render(_ record: some Encodable, text: @autoclosure () -> [String]) throws -> Data {
        switch format {
        case .text: return Data(utf8: StandardStreams.escaped(text()))
        case .json: return try array?.element(Stamped(record, kind)) ?? JSONOutput.encode(record, stamped: kind)
        case .jsonl: return try JSONOutput.line(record, stamped: kind)
        case .sarif, .junit, .gitlab, .markdown: return Data()
        }
    }
}
