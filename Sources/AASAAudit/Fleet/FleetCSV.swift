import AASA
import CSV
import Foundation

/// `aasa audit summarize --format csv`: a row per domain (``FleetDomainRow``), RFC 4180 (CSV.swift
/// writes the quoting and the CRLF line ends), after a header row; every row ends with CRLF.
///
/// Every cell comes from the audited domains' answers, so each is made safe for the
/// spreadsheet the file ends in: control and bidirectional characters are written as visible
/// escapes (``TerminalText``: a tab is `\u{9}`), as in every other output of aasa; then a cell
/// that starts with `=`, `+`, `-` or `@` is prefixed with `'`, as OWASP's "CSV injection"
/// advice says (its tab and carriage return are escaped already), so that no spreadsheet runs
/// it as a formula.
public enum FleetCSV {
    public static let header = [
        "domain", "verdict", "errors", "warnings", "deprecations", "rules", "signer_subject", "signer_issuer",
        "signer_not_after", "signer_expired", "signer_sha256",
    ]

    /// The CSV document of `rows`.
    /// - Throws: CSV.swift's error when the memory stream cannot be written.
    public static func data(_ rows: [FleetDomainRow]) throws -> Data {
        let stream = OutputStream(toMemory: ())
        let writer = try CSVWriter(stream: stream, newline: .crlf)
        try writer.write(row: header)
        for row in rows {
            try writer.write(row: cells(row).map(cell))
        }
        writer.stream.close()
        // CSV.swift ends a row when the next begins: the last one gets its CRLF here.
        return (stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()) + Data("\r\n".utf8)
    }

    /// A row's values, before they are made safe.
    static func cells(_ row: FleetDomainRow) -> [String] {
        [
            row.domain, row.verdict.rawValue, String(row.errors), String(row.warnings), String(row.deprecations),
            row.rules.joined(separator: " "), row.signer?.subject ?? "", row.signer?.issuer ?? "",
            row.signer.map { InternetDateTime.string(from: $0.notAfter) } ?? "",
            row.signer == nil ? "" : (row.signerExpired ? "yes" : "no"), row.signer?.sha256Fingerprint ?? "",
        ]
    }

    /// `value` as a cell a spreadsheet shows as text: escapes visible, a formula's first
    /// character neutralised.
    public static func cell(_ value: String) -> String {
        let escaped = TerminalText.line(value)
        guard let first = escaped.unicodeScalars.first, "=+-@".unicodeScalars.contains(first) else {
            return escaped
        }
        return "'" + escaped
    }
}
