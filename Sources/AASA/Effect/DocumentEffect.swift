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

    public init(document: AASADocument, generator: ProbeURLGenerator = ProbeURLGenerator(maximumCount: 20_000)) {
        var unusable: [String] = []
        func usable(_ apps: [String]) -> [String] {
            var kept: [String] = []
            for app in apps {
                if Self.isUsable(app) {
                    if !kept.contains(app) { kept.append(app) }
                } else if !unusable.contains(app) {
                    unusable.append(app)
                }
            }
            return kept
        }
        let matcher = URLMatcher(document: document)
        let linkable = usable(matcher.appIDs)
        var examples: [String: String] = [:]
        if !linkable.isEmpty {
            for url in generator.probes(for: [document]).urls where examples.count < linkable.count {
                for verdict in matcher.evaluate(url).apps where verdict.verdict == .match {
                    if examples[verdict.appID] == nil { examples[verdict.appID] = url }
                }
            }
        }
        universalLinks = linkable.map { LinkedApp(appID: $0, exampleURL: examples[$0]) }
        webCredentials = usable(document.webCredentials?.apps.map(\.value) ?? [])
        activityContinuation = usable(document.activityContinuation?.apps.map(\.value) ?? [])
        appClips = usable(document.appClips?.apps.map(\.value) ?? [])
        unusableAppIDs = unusable
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
