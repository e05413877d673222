import AASA
import Foundation

/// The SARIF 2.1.0 objects that `--format sarif` writes (lint, check, verify, audit): the parts
/// of the OASIS schema that carry information here, named as the schema names them. Built by
/// ``SARIFWriter``; docs/cli.md#sarif-output describes the document.
struct SARIFLog: Encodable {
    let version = "2.1.0"
    /// The schema's canonical address (OASIS, errata 01); Tests/Fixtures/schemas holds a copy.
    let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    let runs: [Run]

    enum CodingKeys: String, CodingKey {
        case version
        case schema = "$schema"
        case runs
    }

    struct Run: Encodable {
        let tool: Tool
        /// Whether the command could read every input; the failures are also on standard error.
        let invocations: [Invocation]
        /// `%SRCROOT%`: the directory aasa ran in, which relative artifact URIs are relative to.
        let originalUriBaseIds: [String: ArtifactLocation]
        let artifacts: [Artifact]
        let results: [Result]
        /// Columns count UTF-16 code units, as GitHub code scanning and most editors do.
        let columnKind = "utf16CodeUnits"
    }

    struct Tool: Encodable {
        let driver: Driver
    }

    struct Driver: Encodable {
        let name: String
        let version: String
        let semanticVersion: String
        /// Present only when the user gave the rules' address (`--rules-url`).
        let informationUri: String?
        let rules: [Rule]
    }

    struct Rule: Encodable {
        let id: String
        let shortDescription: Text
        let fullDescription: Text
        let help: Help
        /// Present only when the user gave the rules' address; `help` carries the whole text.
        let helpUri: String?
        let defaultConfiguration: Configuration
        let properties: RuleProperties
    }

    struct Configuration: Encodable {
        let level: String
    }

    struct RuleProperties: Encodable {
        /// aasa's own severity (SARIF has no "deprecation" level).
        let severity: String
        /// The severity and the rule's category, for filtering in a viewer.
        let tags: [String]
    }

    struct Text: Encodable {
        let text: String
    }

    struct Help: Encodable {
        let text: String
        let markdown: String
    }

    struct Invocation: Encodable {
        let executionSuccessful: Bool
        let toolExecutionNotifications: [Notification]?
    }

    /// An input that could not be read: its location and why.
    struct Notification: Encodable {
        let level = "error"
        let message: Text
        let locations: [Location]
    }

    struct Artifact: Encodable {
        let location: ArtifactLocation
        let mimeType: String?
        let roles: [String]?
    }

    struct ArtifactLocation: Encodable {
        let uri: String
        let uriBaseId: String?
        let index: Int?

        init(uri: String, uriBaseId: String? = nil, index: Int? = nil) {
            self.uri = uri
            self.uriBaseId = uriBaseId
            self.index = index
        }
    }

    struct Result: Encodable {
        let ruleId: String
        let ruleIndex: Int
        let level: String
        let message: Text
        let locations: [Location]
        /// `aasaFinding/v1`: the ``FindingFingerprint`` (what a lint baseline records too).
        let partialFingerprints: [String: String]
        let properties: ResultProperties
    }

    struct ResultProperties: Encodable {
        let severity: String
        /// For a signed file: where the finding is in the embedded JSON (the region is line 1
        /// of the file, whose bytes are not that JSON).
        let embeddedRegion: Region?
        /// For audit: the URL the finding is about.
        let url: String?
    }

    struct Location: Encodable {
        let physicalLocation: PhysicalLocation
        let logicalLocations: [LogicalLocation]?
    }

    struct PhysicalLocation: Encodable {
        let artifactLocation: ArtifactLocation
        let region: Region?
    }

    struct Region: Encodable, Equatable {
        let startLine: Int
        let startColumn: Int?
    }

    struct LogicalLocation: Encodable {
        /// The JSON path, such as `applinks.details[0].appIDs[1]`, or `$`.
        let fullyQualifiedName: String
        let kind = "member"
    }

    /// SARIF's level for an aasa severity: deprecations are warnings (with the original in properties).
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning, .deprecation: return "warning"
        case .info: return "note"
        }
    }
}
