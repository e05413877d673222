import AASA
import Foundation

/// `--format sarif`: a SARIF 2.1.0 log of one run (docs/cli.md#sarif-output), the format GitHub
/// code scanning and most viewers read.
public struct SARIFWriter: ReportWriter {
    /// The key of the fingerprint in `partialFingerprints`.
    public static let fingerprintKey = "aasaFinding/" + FindingFingerprint.version

    public init() {}

    public func write(_ report: Report) throws(AASAError) -> Data {
        var builder = SARIFRunBuilder(report.context)
        for subject in report.subjects { try builder.add(subject) }
        for input in report.unreadable { builder.unreadable(input.path, message: input.message) }
        return try ReportJSON.document(builder.log())
    }
}

/// Builds the one run of a SARIF log: the rules of the command with their help, an artifact
/// per input, a result per finding (each with a region, its fingerprint and its JSON path),
/// and a notification per input that could not be read.
struct SARIFRunBuilder {
    private let context: ReportContext
    private let rules: [RuleHelp]
    private var ruleIndex: [RuleID: Int]
    private var extraRules: [RuleHelp] = []
    private var artifacts: [SARIFLog.Artifact] = []
    private var results: [SARIFLog.Result] = []
    private var notifications: [SARIFLog.Notification] = []

    init(_ context: ReportContext) {
        self.context = context
        rules = context.rules.rules
        ruleIndex = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Adds an input and its findings.
    /// - Throws: ``AASAError`` when a fingerprint cannot be computed (the digest failed).
    mutating func add(_ subject: ReportSubject) throws(AASAError) {
        let artifactIndex = artifacts.count
        artifacts.append(
            SARIFLog.Artifact(
                location: location(subject.artifact, index: artifactIndex), mimeType: subject.mimeType,
                roles: subject.path == "-" ? ["analysisTarget", "standardStream"] : ["analysisTarget"]))
        for finding in subject.findings {
            let diagnostic = finding.diagnostic
            let (region, embedded) = Self.regions(finding, subject.positions)
            let fingerprint = try FindingFingerprint(diagnostic, path: subject.path)
            let ruleIndex = index(of: diagnostic.rule)
            results.append(
                SARIFLog.Result(
                    ruleId: diagnostic.rule.rawValue, ruleIndex: ruleIndex,
                    level: SARIFLog.level(diagnostic.severity), message: SARIFLog.Text(text: diagnostic.message),
                    locations: [
                        SARIFLog.Location(
                            physicalLocation: SARIFLog.PhysicalLocation(
                                artifactLocation: location(subject.artifact, index: artifactIndex), region: region),
                            logicalLocations: [
                                SARIFLog.LogicalLocation(fullyQualifiedName: diagnostic.location.path.description)
                            ])
                    ],
                    partialFingerprints: [SARIFWriter.fingerprintKey: fingerprint.value],
                    properties: SARIFLog.ResultProperties(
                        severity: diagnostic.severity.rawValue, embeddedRegion: embedded, url: finding.url)))
        }
    }

    /// An input that could not be read: a notification (the run is then not successful).
    mutating func unreadable(_ path: String, message: String) {
        notifications.append(
            SARIFLog.Notification(
                message: SARIFLog.Text(text: message),
                locations: [
                    SARIFLog.Location(
                        physicalLocation: SARIFLog.PhysicalLocation(
                            artifactLocation: location(ArtifactURI(path: path), index: nil), region: nil),
                        logicalLocations: nil)
                ]))
    }

    /// The log.
    func log() -> SARIFLog {
        let descriptors = (rules + extraRules).map { help in
            SARIFLog.Rule(
                id: help.id.rawValue, shortDescription: SARIFLog.Text(text: help.summary),
                fullDescription: SARIFLog.Text(text: help.fullDescription),
                help: SARIFLog.Help(text: help.text, markdown: help.markdown), helpUri: help.url,
                defaultConfiguration: SARIFLog.Configuration(level: SARIFLog.level(help.severity)),
                properties: SARIFLog.RuleProperties(
                    severity: help.severity.rawValue, tags: [help.severity.rawValue, help.category]))
        }
        let driver = SARIFLog.Driver(
            name: context.toolName, version: context.toolVersion, semanticVersion: context.toolVersion,
            informationUri: context.rules.home, rules: descriptors)
        let run = SARIFLog.Run(
            tool: SARIFLog.Tool(driver: driver),
            invocations: [
                SARIFLog.Invocation(
                    executionSuccessful: notifications.isEmpty,
                    toolExecutionNotifications: notifications.isEmpty ? nil : notifications)
            ],
            originalUriBaseIds: [
                ArtifactURI.sourceRoot: SARIFLog.ArtifactLocation(
                    uri: ArtifactURI.directory(context.workingDirectory))
            ],
            artifacts: artifacts, results: results)
        return SARIFLog(runs: [run])
    }

    private func location(_ artifact: ArtifactURI, index: Int?) -> SARIFLog.ArtifactLocation {
        SARIFLog.ArtifactLocation(uri: artifact.uri, uriBaseId: artifact.baseID, index: index)
    }

    /// The index of `rule` in the run's rules; a rule outside the command's set (which no
    /// command reports today) is added with generic help rather than left without one.
    private mutating func index(of rule: RuleID) -> Int {
        if let index = ruleIndex[rule] { return index }
        let index = rules.count + extraRules.count
        extraRules.append(context.rules.help(for: rule))
        ruleIndex[rule] = index
        return index
    }

    /// The region in the artifact (line 1 when the finding has no line there, so that every
    /// result can be placed), and for a signed file the region in its embedded JSON.
    static func regions(
        _ finding: ReportSubject.Finding, _ positions: ReportSubject.Positions
    ) -> (SARIFLog.Region, SARIFLog.Region?) {
        let location = finding.diagnostic.location
        let fileStart = SARIFLog.Region(startLine: 1, startColumn: nil)
        let precise = location.line.map { SARIFLog.Region(startLine: $0, startColumn: finding.utf16Column) }
        switch positions {
        case .file: return (precise ?? fileStart, nil)
        case .embedded: return (fileStart, precise)
        case .linesOnly: return (SARIFLog.Region(startLine: location.line ?? 1, startColumn: nil), nil)
        case .none: return (fileStart, nil)
        }
    }
}
