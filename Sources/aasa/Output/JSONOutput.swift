import AASAReports
import Foundation

/// Encodes the `--format json` documents (``ReportJSON``: stable key order, ISO 8601 dates)
/// and writes them to standard output.
enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> Data { try ReportJSON.encode(value) }

    /// One compact JSON line (`--format jsonl`): sorted keys, ISO 8601 dates, a final newline.
    static func line(_ value: some Encodable) throws -> Data { try ReportJSON.line(value) }

    /// Writes the document to standard output (``StandardStreams/out(_:)``: never traps).
    static func print(_ value: some Encodable) throws {
        StandardStreams.out(try encode(value))
    }

    /// ``encode(_:)`` with `kind`'s `schemaVersion` and `aasaVersion` added (``Stamped``).
    static func encode(_ value: some Encodable, stamped kind: JSONSchemaKind) throws -> Data {
        try encode(Stamped(value, kind))
    }

    /// ``line(_:)`` with `kind`'s `schemaVersion` and `aasaVersion` added (``Stamped``).
    static func line(_ value: some Encodable, stamped kind: JSONSchemaKind) throws -> Data {
        try line(Stamped(value, kind))
    }

    /// ``print(_:)`` with `kind`'s `schemaVersion` and `aasaVersion` added (``Stamped``).
    static func print(_ value: some Encodable, stamped kind: JSONSchemaKind) throws {
        try print(Stamped(value, kind))
    }
}

/// Writes a JSON array one element at a time, byte for byte as ``JSONOutput/print(_:)`` would
/// write the whole array at once, so a batch streams its `--format json` output instead of
/// holding every file's report.
struct JSONArrayStream {
    /// Where the array sits: the whole document, or the member of an object whose other
    /// members are the stamp (``JSONStamp``).
    enum Layout {
        case document
        case member(String)
    }

    private let layout: Layout
    /// The output the array belongs to: its stamp, on an object that holds the array.
    private let kind: JSONSchemaKind
    private(set) var count = 0

    init(_ layout: Layout, of kind: JSONSchemaKind) {
        self.layout = layout
        self.kind = kind
    }

    private var depth: Int {
        switch layout {
        case .document: return 1
        case .member: return 2
        }
    }

    /// What comes before the first element.
    var opening: String {
        switch layout {
        case .document: return "[\n"
        case .member(let name):
            return "{\n" + JSONStamp.around(name, kind, indent: "  ").before + "  \"\(name)\" : [\n"
        }
    }

    /// What comes after the last element (also when there is none).
    var closing: String {
        switch layout {
        case .document: return "\n]\n"
        case .member(let name): return "\n  ]" + JSONStamp.around(name, kind, indent: "  ").after + "\n}\n"
        }
    }

    /// The separator before the next element (called once per element, in order).
    mutating func separator() -> String {
        count += 1
        return count == 1 ? "" : ",\n"
    }

    /// An element as it appears in the array: pretty-printed, each line indented for the
    /// array's depth, without a final newline. Safe to call on any thread.
    func element(_ value: some Encodable) throws -> Data {
        var encoded = try JSONOutput.encode(value)
        encoded.removeLast()  // the final newline
        let indent = Array(repeating: UInt8(ascii: " "), count: 2 * depth)
        var result = Data()
        result.reserveCapacity(encoded.count + encoded.count / 4)
        var lineStart = true
        for byte in encoded {
            if lineStart && byte != 0x0A { result.append(contentsOf: indent) }
            result.append(byte)
            lineStart = byte == 0x0A
        }
        return result
    }
}

/// Standard output collected in a buffer and written 64 KB at a time, for commands that print
/// a line per input line.
final class BufferedOutput {
    private var buffer: [UInt8] = []
    private let threshold = 64 * 1024
    /// The first write that failed: reported by the next ``flush()``.
    private var failure: CLIFailure?

    init() {
        buffer.reserveCapacity(threshold + 4096)
    }

    func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= threshold { try? flush() }
    }

    func append(_ data: Data) {
        buffer.append(contentsOf: data)
        if buffer.count >= threshold { try? flush() }
    }

    func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= threshold { try? flush() }
    }

    /// Lets `build` append to the buffer in place (no intermediate array per call).
    func append(_ build: (inout [UInt8]) -> Void) {
        build(&buffer)
        if buffer.count >= threshold { try? flush() }
    }

    /// Writes what is buffered.
    /// - Throws: ``CLIFailure`` for `<stdout>` when standard output cannot be written.
    func flush() throws {
        defer { buffer.removeAll(keepingCapacity: true) }
        if let failure { throw failure }
        guard !buffer.isEmpty else { return }
        do {
            try StandardStreams.writeOut(Data(buffer))
        } catch {
            let failure = StandardStreams.outputFailure(error)  // ends the process for EPIPE
            self.failure = failure
            throw failure
        }
    }
}
