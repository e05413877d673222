import AASA
import Foundation

/// SARIF 2.1.0 output for `aasa lint --format sarif`, the format GitHub code scanning reads.
/// Only the parts of the schema that carry information here are written.
struct SARIFLog: Encodable {
    let version = "2.1.0"
    let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    let runs: [Run]

    enum CodingKeys: String, CodingKey {
        case version
        case schema = "$schema"
        case runs
    }

    struct Run: Encodable {
        let tool: Tool
        let results: [Result]
        let artifacts: [Artifact]
    }

    struct Tool: Encodable {
        let driver: Driver
    }

    struct Driver: Encodable {
        let name = "aasa"
        let version: String
        let rules: [Rule]
    }

    struct Rule: Encodable {
        let id: String
        let shortDescription: Text
        let help: Text
        let defaultConfiguration: Configuration
        let properties: Properties
    }

    struct Configuration: Encodable {
        let level: String
    }

    struct Properties: Encodable {
        /// aasa's own severity (SARIF has no "deprecation" level).
        let severity: String
    }

    struct Text: Encodable {
        let text: String
    }

    struct Artifact: Encodable {
        let location: ArtifactLocation
        let mimeType: String?
    }

    struct ArtifactLocation: Encodable {
        let uri: String
    }

    struct Result: Encodable {
        let ruleId: String
        let ruleIndex: Int?
        let level: String
        let message: Text
        let locations: [Location]
        let properties: Properties
    }

    struct Location: Encodable {
        let physicalLocation: PhysicalLocation
        let logicalLocations: [LogicalLocation]
    }

    struct PhysicalLocation: Encodable {
        let artifactLocation: ArtifactLocation
        let region: Region?
    }

    struct Region: Encodable {
        let startLine: Int
        let startColumn: Int
    }

    struct LogicalLocation: Encodable {
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

    /// A SARIF artifact URI for a path: relative paths percent-encoded (RFC 3986), absolute
    /// paths as file:// URIs, standard input as "stdin".
    static func uri(_ path: String) -> String {
        if path == "-" { return "stdin" }
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).absoluteString }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    /// One run over the linted files. Positions are given only for plain JSON files: a signed
    /// file's positions are inside its embedded content, not in the file's bytes.
    init(files: [(path: String, report: LintReport)], version: String) {
        let catalogue = RuleCatalogue.all
        let index = Dictionary(uniqueKeysWithValues: catalogue.enumerated().map { ($1.id, $0) })
        let rules = catalogue.map { entry in
            Rule(
                id: entry.id.rawValue, shortDescription: Text(text: entry.summary),
                help: Text(text: "See docs/rules.md#\(entry.id.rawValue)"),
                defaultConfiguration: Configuration(level: Self.level(entry.severity)),
                properties: Properties(severity: entry.severity.rawValue))
        }
        var results: [Result] = []
        for (path, report) in files {
            let uri = Self.uri(path)
            let positionsApply = !report.kind.isSigned
            for diagnostic in report.diagnostics {
                var region: Region?
                if positionsApply, let line = diagnostic.location.line {
                    region = Region(startLine: line, startColumn: diagnostic.location.column ?? 1)
                }
                results.append(
                    Result(
                        ruleId: diagnostic.rule.rawValue, ruleIndex: index[diagnostic.rule],
                        level: Self.level(diagnostic.severity), message: Text(text: diagnostic.message),
                        locations: [
                            Location(
                                physicalLocation: PhysicalLocation(
                                    artifactLocation: ArtifactLocation(uri: uri), region: region),
                                logicalLocations: [
                                    LogicalLocation(fullyQualifiedName: diagnostic.location.path.description)
                                ])
                        ], properties: Properties(severity: diagnostic.severity.rawValue)))
            }
        }
        let artifacts = files.map { file in
            Artifact(
                location: ArtifactLocation(uri: Self.uri(file.path)),
                mimeType: file.report.kind.isSigned ? "application/pkcs7-mime" : "application/json")
        }
        runs = [Run(tool: Tool(driver: Driver(version: version, rules: rules)), results: results, artifacts: artifacts)]
    }
}
