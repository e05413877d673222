import AASA
import ArgumentParser
import Foundation

/// The resource limits of every command that reads files (docs/security.md, "Limits"): the
/// largest input, the deepest JSON, the most certificates in a message. The longest URL is
/// ``URLLengthOption``'s, on the commands that read URLs.
struct LimitOptions: ParsableArguments {
    @Option(
        name: .customLong("max-input-size"),
        help: ArgumentHelp(
            "Refuse input files larger than this, before reading them: bytes, or with K, M or G, e.g. 256K (default 16M).",
            valueName: "bytes"))
    var maxInputSizeText: String?

    @Option(
        name: .customLong("max-json-depth"),
        help: ArgumentHelp("The deepest nesting of JSON arrays and objects accepted (at most 1000).", valueName: "n"))
    var maxJSONDepth = InputLimits.default.maximumJSONDepth

    @Option(
        name: .customLong("max-certificates"),
        help: ArgumentHelp("The most certificates a signed file may carry.", valueName: "n"))
    var maxCertificates = InputLimits.default.maximumCertificates

    static let largestInputSize = 1024 * 1024 * 1024
    /// The parser is iterative, but the passes over a parsed document (lint rules, the
    /// duplicate-key check, the writer) recurse: about 3 KB of stack a level in a debug build,
    /// so an 8 MiB stack overflows near 2,500 levels. The cap keeps a wide margin.
    static let largestDepth = 1_000
    static let largestCertificates = 100_000

    func validate() throws {
        if let text = maxInputSizeText {
            guard let size = Self.byteCount(text) else {
                throw ValidationError(
                    "--max-input-size '\(text)' is not a size: give bytes, or a number with K, M or G (256K, 16M)")
            }
            guard size >= 1, size <= Self.largestInputSize else {
                throw ValidationError("--max-input-size must be from 1 byte to 1G (\(Self.largestInputSize) bytes)")
            }
        }
        guard (1...Self.largestDepth).contains(maxJSONDepth) else {
            throw ValidationError("--max-json-depth must be from 1 to \(Self.largestDepth)")
        }
        guard (1...Self.largestCertificates).contains(maxCertificates) else {
            throw ValidationError("--max-certificates must be from 1 to \(Self.largestCertificates)")
        }
    }

    /// `--max-input-size` in bytes when given (validated), nil otherwise.
    var givenInputSize: Int? { maxInputSizeText.flatMap(Self.byteCount) }

    /// The limits as one plain value, read once (property wrappers cost a call each), for the
    /// worker threads of a batch.
    var values: Values { values(maximumURLLength: InputLimits.default.maximumURLLength) }

    /// ``values`` with the longest URL of ``URLLengthOption``.
    func values(maximumURLLength: Int) -> Values {
        Values(
            inputSize: givenInputSize ?? InputFile.defaultLimit,
            library: InputLimits(
                maximumJSONDepth: maxJSONDepth, maximumCertificates: maxCertificates,
                maximumURLLength: maximumURLLength))
    }

    /// The limits a command applies.
    struct Values: Sendable {
        /// The largest input file read, in bytes.
        var inputSize: Int
        /// The JSON depth, certificate count and URL length.
        var library: InputLimits

        /// Reads an input file (not a key, certificate or passphrase file: those have their own
        /// fixed limits), refusing more than ``inputSize`` bytes.
        func read(_ path: String) throws -> Data {
            try InputFile.read(path, limit: inputSize, limitFlag: "--max-input-size")
        }

        /// Reads a batch's file (``BatchInput/read(limit:limitFlag:)``), with the same limit.
        func read(_ item: BatchInput) throws -> Data {
            try item.read(limit: inputSize, limitFlag: "--max-input-size")
        }

        /// Reads `name` in `directory`, a file a walk found (``InputFile/read(_:in:path:limit:limitFlag:)``),
        /// with the same limit.
        func read(_ name: String, in directory: DirectoryHandle, path: String) throws -> (data: Data, info: stat) {
            try InputFile.read(name, in: directory, path: path, limit: inputSize, limitFlag: "--max-input-size")
        }
    }

    /// "4096", "256K", "16M" or "1G" (binary multiples, either case) in bytes; nil for anything else.
    static func byteCount(_ text: String) -> Int? {
        let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var multiplier = 1
        if let last = text.last?.uppercased().first, let value = multipliers[last] {
            multiplier = value
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else {
            return nil
        }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : bytes
    }
}
