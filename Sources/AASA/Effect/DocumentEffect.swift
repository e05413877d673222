/// What a document does, service by service: which apps it names that iOS can act on, and for
/// universal links, which apps some URL actually opens, with such a URL as the witness.
///
/// The one place that answers "what does this file do?" for `check`'s headline, `audit` and
/// `diff`. A universal-links app counts as linked only when one of the probe URLs of the
/// document (``ProbeURLGenerator``: every pattern instantiated) opens it; the probes cover
/// every pattern, so an app that none opens has no rule that matches any URL (every rule
/// excluded, shadowed, or none at all), or an identifier iOS cannot use.
public struct DocumentEffect: Sendable, Codable, Hashable {
    /// An `applinks` app and a URL that opens it.
    public struct LinkedApp: Sendable, Codable, Hashable {
        public var appID: String
        /// A URL path this app opens (a probe URL), or nil when none does.
        public var exampleURL: String?
    }

    /// Every `applinks` app with a usable identifier, in document order.
    public var universalLinks: [LinkedApp]
    /// `webcredentials`, `activitycontinuation` and `appclips` apps with usable identifiers.
    public var webCredentials: [String]
    public var activityContinuation: [String]
    public var appClips: [String]
    /// App identifiers left out because iOS cannot use them (empty, or without a bundle part).
    public var unusableAppIDs: [String]

    /// - Parameter generator: makes each entry's probe URLs; its ``ProbeURLGenerator/comparisonBudget``
    ///   bounds the URL-pattern comparisons over the whole document.
    public init(document: AASADocument, generator: ProbeURLGenerator = ProbeURLGenerator(maximumCount: 20_000)) {
        // Every pass is linear in the document: identifiers deduplicated with sets, and each
        // entry tried on its own patterns' probes only (a file of N apps cost N² before: 196 s
        // for 2.4 MB, GitHub issue #24).
        var unusable = OrderedStrings(limit: .max)
        func usable(_ apps: [String]) -> [String] {
            var kept = OrderedStrings(limit: .max)
            for app in apps {
                if Self.isUsable(app) { kept.insert(app) } else { unusable.insert(app) }
            }
            return kept.items
        }
        let matcher = URLMatcher(document: document)
        let linkable = usable(matcher.appIDs)
        let linkableSet = Set(linkable)
        var examples: [String: String] = [:]
        if let links = document.appLinks, !linkable.isEmpty {
            let variables = links.substitutionValues
            let patterns = max(1, ProbeURLGenerator.patternCount(of: [document]))
            // Each entry gets its share of the comparison budget (entry probes × all patterns
            // stays within it), and at least the generic probes and its first patterns' own.
            let probesPerPattern = max(1, generator.comparisonBudget / patterns / patterns)
            var entryExamples: [Int: String?] = [:]  // the apps of one entry share its verdicts
            for (index, app) in matcher.appIDs.enumerated() where linkableSet.contains(app) {
                let entry = matcher.appEntries[index]
                if let known = entryExamples[entry] {
                    examples[app] = known
                    continue
                }
                let detail = links.details[matcher.entryDetails[entry]]
                var example = matcher.firstURL(
                    openingEntry: entry, among: generator.instances(for: detail, variables: variables))
                if example == nil {  // then the near misses, queries and fragments too
                    let own = ProbeURLGenerator.patternCount(of: detail)
                    let limit = min(generator.maximumCount, max(16, probesPerPattern * max(1, own)))
                    let probes = generator.probes(for: detail, variables: variables, limit: limit)
                    example = matcher.firstURL(openingEntry: entry, among: probes)
                }
                entryExamples[entry] = .some(example)
                examples[app] = example
            }
        }
        universalLinks = linkable.map { LinkedApp(appID: $0, exampleURL: examples[$0]) }
        webCredentials = usable(document.webCredentials?.apps.map(\.value) ?? [])
        activityContinuation = usable(document.activityContinuation?.apps.map(\.value) ?? [])
        appClips = usable(document.appClips?.apps.map(\.value) ?? [])
        unusableAppIDs = unusable.items
    }

    /// Whether iOS can match an identifier to an app: not blank (`empty-appid`), and with the
    /// "." of `<App ID prefix>.<bundle ID>` (`appid-without-bundle`): the lint rules' terms.
    public static func isUsable(_ appID: String) -> Bool {
        !AppIdentifierText.isBlank(appID) && appID.contains(".")
    }

    /// The `applinks` apps some URL opens.
    public var linkedApps: [LinkedApp] { universalLinks.filter { $0.exampleURL != nil } }

    /// Whether any app gets anything from the file.
    public var doesAnything: Bool {
        !linkedApps.isEmpty || !webCredentials.isEmpty || !activityContinuation.isEmpty || !appClips.isEmpty
    }

    /// What the file does in one phrase: "universal links for 2 apps; App Clips for 1 app", or
    /// "nothing: no app gets universal links, shared web credentials, Handoff or an App Clip".
    public var summary: String {
        func apps(_ count: Int) -> String { count == 1 ? "1 app" : "\(count) apps" }
        var parts: [String] = []
        let linked = linkedApps.count
        if linked > 0 {
            parts.append("universal links for \(apps(linked))")
        }
        if !webCredentials.isEmpty { parts.append("shared web credentials for \(apps(webCredentials.count))") }
        if !activityContinuation.isEmpty { parts.append("Handoff for \(apps(activityContinuation.count))") }
        if !appClips.isEmpty { parts.append("App Clips for \(apps(appClips.count))") }
        if parts.isEmpty {
            return "nothing: no app gets universal links, shared web credentials, Handoff or an App Clip from it"
        }
        if linked == 0 && universalLinks.isEmpty == false {
            parts.append("no URL opens any of its \(apps(universalLinks.count)) in applinks")
        }
        return parts.joined(separator: "; ")
    }
}
