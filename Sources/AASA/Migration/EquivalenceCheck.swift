/// Compares what two AASA documents do with URLs: for each URL, every app's verdict
/// (``AppVerdict/Verdict``) under the old document and under the new one.
///
/// Apps are compared by identifier, not by position, so reordering entries or merging them
/// into one `appIDs` list is not a difference by itself; an app that only one document names
/// is (its verdict on the other side is `nil`).
///
/// ```swift
/// let check = EquivalenceCheck(old: legacy, new: migrated)
/// let probes = ProbeURLGenerator().probes(for: [legacy, migrated])
/// let changes = probes.urls.compactMap(check.compare)   // empty: same meaning on every probe
/// ```
public struct EquivalenceCheck: Sendable {
    public let old: URLMatcher
    public let new: URLMatcher
    /// Every app of either document: the old document's in its order, then the new ones.
    public let appIDs: [String]

    public init(old: AASADocument, new: AASADocument) {
        self.init(old: URLMatcher(document: old), new: URLMatcher(document: new))
    }

    /// For each of ``appIDs``, its index in `old.appIDs` and in `new.appIDs` (nil: not named).
    private let oldIndices: [Int?]
    private let newIndices: [Int?]

    public init(old: URLMatcher, new: URLMatcher) {
        self.old = old
        self.new = new
        var seen = Set(old.appIDs)
        appIDs = old.appIDs + new.appIDs.filter { seen.insert($0).inserted }
        let oldPositions = Dictionary(old.appIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let newPositions = Dictionary(new.appIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        oldIndices = appIDs.map { oldPositions[$0] }
        newIndices = appIDs.map { newPositions[$0] }
    }

    /// The apps whose verdict for `url` differs, or nil when every app agrees (also when the
    /// URL cannot be parsed: both documents see the same error).
    public func compare(_ url: String) -> VerdictChange? {
        // Verdicts by position, without a result or a dictionary per URL: a proof compares
        // thousands of URLs for every app of both documents.
        var before: [AppVerdict.Verdict] = [], after: [AppVerdict.Verdict] = []
        if old.verdicts(for: url, into: &before) != nil || new.verdicts(for: url, into: &after) != nil { return nil }
        var changes: [VerdictChange.AppChange] = []
        for (index, app) in appIDs.enumerated() {
            let was = oldIndices[index].map { before[$0] }, now = newIndices[index].map { after[$0] }
            if was != now { changes.append(VerdictChange.AppChange(appID: app, before: was, after: now)) }
        }
        return changes.isEmpty ? nil : VerdictChange(url: url, apps: changes)
    }

    /// Compares every URL of `urls`.
    /// - Returns: How many were compared, and the changes (at most `keeping` of them; the count
    ///   of all changes is `changedCount`).
    public func compare(_ urls: some Sequence<String>, keeping limit: Int = .max) -> EquivalenceReport {
        var report = EquivalenceReport()
        for url in urls { report.add(url, compare(url), limit: limit) }
        return report
    }
}

/// The apps whose verdict for one URL differs between two documents.
public struct VerdictChange: Sendable, Codable, Hashable {
    public struct AppChange: Sendable, Codable, Hashable {
        public var appID: String
        /// The verdict under the old document; nil when the old document does not name the app.
        public var before: AppVerdict.Verdict?
        /// The verdict under the new document; nil when the new document does not name the app.
        public var after: AppVerdict.Verdict?

        public init(appID: String, before: AppVerdict.Verdict?, after: AppVerdict.Verdict?) {
            self.appID = appID
            self.before = before
            self.after = after
        }

        private enum CodingKeys: String, CodingKey { case appID, before, after }

        /// `before` and `after` are written as explicit `null` for an app a document lacks.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(appID, forKey: .appID)
            try container.encode(before, forKey: .before)
            try container.encode(after, forKey: .after)
        }

        /// `A.app: match → exclude` (`absent` for a missing app).
        public var summary: String {
            "\(appID): \(before?.rawValue ?? "absent") → \(after?.rawValue ?? "absent")"
        }
    }

    public var url: String
    public var apps: [AppChange]

    public init(url: String, apps: [AppChange]) {
        self.url = url
        self.apps = apps
    }

    /// `/a/b: A.app: match → exclude; B.app: no_match → match`.
    public var summary: String { "\(url): " + apps.map(\.summary).joined(separator: "; ") }
}

/// The outcome of comparing many URLs.
public struct EquivalenceReport: Sendable, Hashable {
    /// URLs compared.
    public var compared = 0
    /// URLs whose verdict changed for some app.
    public var changedCount = 0
    /// The first changes (see ``EquivalenceCheck/compare(_:keeping:)``).
    public var changes: [VerdictChange] = []

    public init() {}

    /// Whether every URL got the same verdicts.
    public var isEquivalent: Bool { changedCount == 0 }

    /// Counts one compared URL and its change, if any.
    public mutating func add(_ url: String, _ change: VerdictChange?, limit: Int = .max) {
        compared += 1
        guard let change else { return }
        changedCount += 1
        if changes.count < limit { changes.append(change) }
    }
}
