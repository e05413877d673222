import AASA
import Foundation

/// The summary table, kept in an unlinked temporary file until the end so that it costs no
/// memory per domain; column widths are tracked as rows arrive.
final class SummaryTable {
    private let columns: [String]
    private var widths: [Int]
    private var handle: FileHandle?
    private var rows = 0
    /// Rows that could not be kept, and why (no temporary file, or a write to it failed).
    private var lostRows = 0
    private var problem: String?
    /// Whether the table has every row appended so far (after ``render(_:)``: printed them all).
    private(set) var isComplete = true

    init(columns: [String]) {
        self.columns = columns
        widths = columns.map(\.count)
        let directory = NSTemporaryDirectory()
        var template = Array("\(directory)/aasa-audit-summary.XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd >= 0 {
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        } else {
            problem = "cannot create a temporary file in \(directory) (TMPDIR): \(String(cString: strerror(errno)))"
        }
    }

    func append(_ row: [String]) {
        // Escaped (TerminalText): no tab or line end of a cell can break the table's rows.
        let cells = row.map(TerminalText.line)
        guard let handle else {
            lostRows += 1
            return
        }
        do {
            try handle.write(contentsOf: Data((cells.joined(separator: "\t") + "\n").utf8))
        } catch {
            // A full TMPDIR: the rows written so far stay; this one and the later ones are lost.
            problem = "cannot write to its temporary file (TMPDIR): \(StandardStreams.describe(error))"
            self.handle = nil
            lostRows += 1
            return
        }
        for (index, cell) in cells.enumerated() where index < widths.count {
            widths[index] = max(widths[index], cell.count)
        }
        rows += 1
    }

    /// Writes the table, a chunk of lines at a time; says on standard error how many rows were
    /// lost, and why, when some were (and then ``isComplete`` is false).
    func render(_ write: (String) -> Void) {
        if let problem, lostRows > 0 {
            isComplete = false
            Diagnostics.emit(
                "audit", .error,
                "the summary table leaves out \(lostRows) domain\(lostRows == 1 ? "" : "s"): \(problem); their blocks above are complete"
            )
        }
        write(format(columns) + "\n")
        guard rows > 0, let handle else { return }
        var shown = 0
        defer {
            if shown < rows {
                isComplete = false
                Diagnostics.emit(
                    "audit", .error,
                    "the summary table leaves out \(rows - shown) domain\(rows - shown == 1 ? "" : "s"): cannot read its temporary file (TMPDIR) back; their blocks above are complete"
                )
            }
        }
        guard (try? handle.seek(toOffset: 0)) != nil else { return }
        // Rows are escaped cells (one line each); a read error ends the table, said above.
        let reader = LineReader(descriptor: handle.fileDescriptor, maximumLineLength: 1 << 20)
        var out = ""
        while let (line, _) = reader.next() {
            out += format(line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)) + "\n"
            shown += 1
            if out.utf8.count >= 64 * 1024 {
                write(out)
                out = ""
            }
        }
        write(out)
    }

    private func format(_ cells: [String]) -> String {
        var line = ""
        for (index, cell) in cells.enumerated() {
            let width = index < widths.count ? widths[index] : cell.count
            let numeric = index >= 5
            let padding = String(repeating: " ", count: max(0, width - cell.count))
            line += (index == 0 ? "" : "  ") + (numeric ? padding + cell : cell + padding)
        }
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }
}
