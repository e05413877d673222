import Foundation

/// Turns a legacy AASA file, signed or plain, into the plain JSON file Apple's current guidance
/// asks for: a signed file's content (verified, unless no verifier is given), its CRLF line
/// ends back to LF, no byte-order mark, duplicate keys resolved as Apple's parser does, written
/// pretty, compact, or byte for byte as it was (``Options/preserveFormat``).
///
/// ```swift
/// let converter = Converter(options: .init(verifier: verifier))
/// if case .converted(let conversion) = try converter.convert(data, named: true) {
///     try conversion.json.write(to: output)
/// }
/// ```
public struct Converter: Sendable {
    public struct Options: Sendable {
        /// Verifies signed files; nil converts them unverified (``Conversion/verified`` false).
        public var verifier: Verifier?
        /// Writes the JSON bytes as they were (CRLF turned into LF for signed content).
        public var preserveFormat: Bool
        /// Writes compact JSON instead of pretty JSON.
        public var compact: Bool
        /// The JSON depth and certificate count allowed (the verifier's, when there is one).
        public var limits: InputLimits

        public init(
            verifier: Verifier?, preserveFormat: Bool = false, compact: Bool = false, limits: InputLimits? = nil
        ) {
            self.verifier = verifier
            self.preserveFormat = preserveFormat
            self.compact = compact
            self.limits = limits ?? verifier?.options.limits ?? .default
        }
    }

    /// Something the conversion noticed, for the user.
    public struct Note: Sendable, Equatable {
        public enum Level: Sendable, Equatable { case note, warning }
        public var level: Level
        public var message: String
    }

    /// A converted file.
    public struct Conversion: Sendable {
        /// The plain JSON to write.
        public var json: Data
        /// What the input was: `pkcs7-der, verified`, `pkcs7-pem, unverified`, `json`.
        public var source: String
        /// False for a signed file converted without verifying it.
        public var verified: Bool
        /// What the conversion noticed, in order.
        public var notes: [Note]
    }

    public enum Outcome: Sendable {
        case converted(Conversion)
        /// Not an AASA file, in a batch that walks a directory: the reason.
        case skipped(String)
    }

    /// Why a file was not converted.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The file could be read, but its signature or chain is not valid (versus unreadable).
        public var isVerificationFailure: Bool
        /// The verdict's stable code, for a file that did not verify.
        public var code: String?
        public var message: String
        /// What the user can do about a file that did not verify, for the caller to say in its
        /// own terms after ``message`` (``VerificationRemedy``).
        public var remedy: VerificationRemedy?
        public var description: String { message }
    }

    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// Converts `data`.
    /// - Parameter named: whether the user named the file (a directory walk skips what is not an
    ///   AASA file; a file named is converted or refused).
    /// - Throws: ``Failure``.
    public func convert(_ data: Data, named: Bool) throws(Failure) -> Outcome {
        var notes: [Note] = []
        let file = AASAFile.read(data, limits: options.limits, certificates: options.verifier?.chainCache?.certificates)
        let detection = file.detection
        func failure(_ message: String) -> Failure {
            Failure(isVerificationFailure: false, code: nil, message: message)
        }

        var content: Data
        let source: String
        var verified = true
        if detection.kind.isSigned {
            if let verifier = options.verifier {
                let result = verifier.verify(detection)
                switch result.contentDecision {
                case .content(let checked, let note):
                    content = checked
                    if let note {
                        notes.append(Note(level: .note, message: note))
                        source = "\(detection.kind.rawValue), valid when signed (historical mode)"
                    } else {
                        source = "\(detection.kind.rawValue), verified"
                    }
                case .nothingToTake(let reason, _):
                    throw Failure(
                        isVerificationFailure: false, code: result.verdict.code, message: "not converted: \(reason)")
                case .refused(let reason):
                    throw Failure(
                        isVerificationFailure: true, code: result.verdict.code,
                        message: "not converted: \(reason); nothing written", remedy: result.remedy)
                }
            } else {
                guard let message = file.message, !message.signerInfos.isEmpty, message.hasContent else {
                    throw failure("nothing to convert: a signed file with no embedded content or no signer")
                }
                guard let embedded = file.content else {
                    throw failure("not converted: \(file.problem?.message ?? "")")
                }
                content = embedded
                verified = false
                notes.append(
                    Note(
                        level: .warning,
                        message: "unverified: the signature and the signer were not checked"))
                source = "\(detection.kind.rawValue), unverified"
            }
            // OpenSSL's MIME canonicalisation made every line end CRLF; the JSON had LF.
            content = LineEndingStyle.crlfToLF(content)
        } else if detection.kind == .json {
            content = data
            source = "json"
        } else if let damaged = detection.damagedPKCS7Encoding {
            throw failure("not converted: damaged PKCS#7 \(damaged.rawValue.uppercased()): \(detection.detail ?? "")")
        } else if !named && AASAFile.isNotAASA(data, detection: detection) {
            return .skipped("neither JSON nor a signed file (\(detection.detail ?? detection.kind.rawValue))")
        } else if AASAFile.looksLikeJSON(data) {
            throw failure("not converted: \(detection.detail ?? "not valid JSON")")
        } else {
            throw failure(
                "not converted: neither JSON nor a signed file (\(detection.detail ?? detection.kind.rawValue))")
        }

        // The JSON must parse, strictly (the embedded content was parsed by the reader).
        guard let root = file.root else {
            let reason = file.problem.map { if case .invalidJSON(let error, _) = $0 { "\(error)" } else { $0.message } }
            throw failure(
                "not converted: the \(detection.kind.isSigned ? "embedded content" : "file") is not valid JSON: \(reason ?? "")"
            )
        }
        if !named && !detection.kind.isSigned
            && !(root.members ?? []).contains(where: { AASADocument.serviceKeys.contains($0.key) })
        {
            return .skipped(
                "JSON without applinks, webcredentials, activitycontinuation or appclips (not an AASA file)")
        }
        if root.members == nil {
            notes.append(
                Note(
                    level: .warning,
                    message: "the top level is \(root.typeName), not an object: this is not an AASA document"))
        }

        let json: Data
        let (clean, duplicates) = root.deduplicatingKeys()
        if options.preserveFormat {
            json = content
            for duplicate in duplicates {
                notes.append(
                    Note(
                        level: .warning,
                        message:
                            "duplicate key: \(duplicate.path) appears \(duplicate.positions.count) times; kept as written"
                            + " (the format preserved), Apple's parser uses the last one"))
            }
        } else {
            for duplicate in duplicates {
                notes.append(
                    Note(
                        level: .warning,
                        message: "duplicate key: \(duplicate); that is the value Apple's parser uses"))
            }
            if file.hasByteOrderMark { notes.append(Note(level: .note, message: "byte-order mark removed")) }
            json = JSONWriter(style: options.compact ? .compact : .pretty).data(clean)
            // Self-check: the output reads back as the same JSON.
            guard let reread = try? options.limits.jsonParser.parse(json), reread.isStructurallyEqual(to: clean) else {
                throw failure("internal error: the converted JSON does not read back the same; nothing written")
            }
        }
        return .converted(Conversion(json: json, source: source, verified: verified, notes: notes))
    }
}
