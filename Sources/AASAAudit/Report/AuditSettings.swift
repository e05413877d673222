import AASA
import Foundation

/// The settings of the run that audited a domain, as each audit record carries them
/// (`settings` in docs/schemas/audit.schema.json): what decides a verdict or what was fetched,
/// so that a report merged from shards can say how each part was audited. Only facts that are
/// safe to hand on: whether a proxy was used, never its address or credentials; how many extra
/// trust anchors, never their paths.
public struct AuditSettings: Codable, Sendable, Hashable {
    /// The time certificates were checked at (`--at`); nil: the time of each domain's audit.
    public var checkTime: Date?
    /// Legacy signed files were checked as of their own time (`--historical`).
    public var historical: Bool
    /// Apple's CDN copy was fetched and compared (`--cdn`).
    public var cdn: Bool
    /// The system's root certificates were trusted.
    public var systemRoots: Bool
    /// Trust anchor files, directories and certificates given besides them (`--ca-file`,
    /// `--ca-dir`).
    public var extraAnchors: Int
    /// Requests went through an HTTP proxy.
    public var proxy: Bool
    /// The longest one request could take, in seconds.
    public var timeoutSeconds: Double
    /// How many times a request that could not connect was tried again.
    public var retries: Int
    /// Bytes read at most from one body.
    public var maximumBodyBytes: Int
    /// Requests started per second at most (nil: no limit).
    public var rate: Double?
    /// Domains in flight at one address at most (nil: no cap).
    public var maximumPerAddress: Int?
    /// Rules whose findings were left out of the reports (`--disable`, the configuration).
    public var disabledRules: [String]
    /// Rules reported at another severity than their own (`--severity`, the configuration).
    public var ruleSeverities: [String: Severity]

    /// The settings as given; ``AuditConfiguration/settings()`` makes them of a configuration.
    public init(
        checkTime: Date?, historical: Bool, cdn: Bool, systemRoots: Bool, extraAnchors: Int, proxy: Bool,
        timeoutSeconds: Double, retries: Int, maximumBodyBytes: Int, rate: Double?, maximumPerAddress: Int?,
        disabledRules: [String] = [], ruleSeverities: [String: Severity] = [:]
    ) {
        (self.checkTime, self.historical, self.cdn, self.systemRoots, self.extraAnchors, self.proxy) =
            (checkTime, historical, cdn, systemRoots, extraAnchors, proxy)
        (self.timeoutSeconds, self.retries, self.maximumBodyBytes, self.rate, self.maximumPerAddress) =
            (timeoutSeconds, retries, maximumBodyBytes, rate, maximumPerAddress)
        (self.disabledRules, self.ruleSeverities) = (disabledRules, ruleSeverities)
    }

    /// Records `selection`: its disabled rules and changed severities.
    public mutating func record(_ selection: RuleSelection) {
        disabledRules = selection.disabled.map(\.rawValue).sorted()
        ruleSeverities = Dictionary(uniqueKeysWithValues: selection.severities.map { ($0.key.rawValue, $0.value) })
    }

    enum CodingKeys: String, CodingKey {
        case checkTime, historical, cdn, systemRoots, extraAnchors, proxy, timeoutSeconds, retries, maximumBodyBytes,
            rate, maximumPerAddress, disabledRules, ruleSeverities
    }

    /// What a default ``AuditConfiguration`` records: the value of a key a record leaves out.
    private static let defaults = AuditConfiguration().settings()

    /// Reads a record's settings; a key that is missing takes the default configuration's value
    /// (a record of a later version may have fewer of them).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = Self.defaults
        checkTime = try container.decodeIfPresent(Date.self, forKey: .checkTime)
        historical = try container.decodeIfPresent(Bool.self, forKey: .historical) ?? defaults.historical
        cdn = try container.decodeIfPresent(Bool.self, forKey: .cdn) ?? defaults.cdn
        systemRoots = try container.decodeIfPresent(Bool.self, forKey: .systemRoots) ?? defaults.systemRoots
        extraAnchors = try container.decodeIfPresent(Int.self, forKey: .extraAnchors) ?? defaults.extraAnchors
        proxy = try container.decodeIfPresent(Bool.self, forKey: .proxy) ?? defaults.proxy
        timeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .timeoutSeconds) ?? defaults.timeoutSeconds
        retries = try container.decodeIfPresent(Int.self, forKey: .retries) ?? defaults.retries
        maximumBodyBytes =
            try container.decodeIfPresent(Int.self, forKey: .maximumBodyBytes) ?? defaults.maximumBodyBytes
        rate = try container.decodeIfPresent(Double.self, forKey: .rate)
        maximumPerAddress = try container.decodeIfPresent(Int.self, forKey: .maximumPerAddress)
        disabledRules = try container.decodeIfPresent([String].self, forKey: .disabledRules) ?? []
        ruleSeverities = try container.decodeIfPresent([String: Severity].self, forKey: .ruleSeverities) ?? [:]
    }

    /// Every key, with an explicit null for what is missing (as the rest of the record).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(checkTime, forKey: .checkTime)
        try container.encode(historical, forKey: .historical)
        try container.encode(cdn, forKey: .cdn)
        try container.encode(systemRoots, forKey: .systemRoots)
        try container.encode(extraAnchors, forKey: .extraAnchors)
        try container.encode(proxy, forKey: .proxy)
        try container.encode(timeoutSeconds, forKey: .timeoutSeconds)
        try container.encode(retries, forKey: .retries)
        try container.encode(maximumBodyBytes, forKey: .maximumBodyBytes)
        try container.encode(rate, forKey: .rate)
        try container.encode(maximumPerAddress, forKey: .maximumPerAddress)
        try container.encode(disabledRules, forKey: .disabledRules)
        try container.encode(ruleSeverities, forKey: .ruleSeverities)
    }

    /// The settings as the options that give them, for a person: `--at 2015-09-15T00:00:00Z`,
    /// `--historical`, `--cdn`, the trust, the proxy, the limits that differ from the defaults.
    public var summary: [String] {
        var parts: [String] = []
        if let checkTime { parts.append("--at \(InternetDateTime.string(from: checkTime))") }
        if historical { parts.append("--historical") }
        if cdn { parts.append("--cdn") }
        switch (systemRoots, extraAnchors) {
        case (true, 0): parts.append("trust: the system roots")
        case (true, let extra): parts.append("trust: the system roots and \(Self.anchors(extra))")
        case (false, let extra): parts.append("trust: \(Self.anchors(extra)) only (--no-system-roots)")
        }
        if proxy { parts.append("through a proxy") }
        parts.append("--timeout \(timeoutSeconds.secondsText) s")
        parts.append("--retries \(retries)")
        if maximumBodyBytes != AuditConfiguration.defaultMaximumBodySize {
            parts.append("body limit \(maximumBodyBytes) bytes")
        }
        if let rate { parts.append("--rate \(rate.secondsText)") }
        if let maximumPerAddress { parts.append("--max-per-address \(maximumPerAddress)") }
        if !disabledRules.isEmpty { parts.append("--disable " + disabledRules.joined(separator: ",")) }
        for (rule, severity) in ruleSeverities.sorted(by: { $0.key < $1.key }) {
            parts.append("--severity \(rule)=\(severity.rawValue)")
        }
        return parts
    }

    private static func anchors(_ count: Int) -> String {
        count == 1 ? "1 extra anchor" : "\(count) extra anchors"
    }
}

extension AuditConfiguration {
    /// What each report of this configuration records of it (``DomainReport/settings``); a
    /// rule selection applied to a report adds itself (``DomainReport/selecting(_:)``).
    public func settings() -> AuditSettings {
        AuditSettings(
            checkTime: checkTime, historical: historical != nil, cdn: checkCDN, systemRoots: trust.useSystemRoots,
            extraAnchors: trust.anchorFiles.count + trust.anchorDirectories.count + trust.anchors.count,
            proxy: proxy.proxy != nil, timeoutSeconds: timeout, retries: retries, maximumBodyBytes: maximumBodySize,
            rate: rate, maximumPerAddress: maximumPerAddress)
    }
}
