/// Decides, for a URL, what each `applinks` app of an AASA file does with it, the way iOS
/// does (see docs/matching.md).
///
/// Every pattern is compiled once, at init, into flat tables without references (see
/// ``MatcherTables``), so evaluating a URL does no reference counting per rule: the URL is
/// split once, and nothing is allocated per rule unless the rule asks for case-insensitive
/// or percent-decoded matching and the URL has something to fold or decode.
///
/// ```swift
/// let matcher = URLMatcher(document: try AASADocument(json: data))
/// let result = matcher.evaluate("https://example.com/help/faq?x=1", explain: true)
/// result.appID   // the app that opens it, if any
/// ```
public struct URLMatcher: Sendable {
    /// Every applinks app, in document order of first appearance.
    public let appIDs: [String]
    /// For each app, the index of the first entry naming it (in `tables.entries` and `entryInfo`).
    let appEntries: [Int]
    let tables: MatcherTables
    /// What explanations need: JSON paths, patterns as written.
    let entryInfo: [EntryInfo]
    /// Every compiled pattern, by the index the tables use.
    let patterns: [CompiledPattern]
    /// For each entry, the index of its detail in `document.appLinks.details`.
    let entryDetails: [Int]

    /// Compiles every pattern of `document.appLinks`.
    public init(document: AASADocument) {
        var builder = TableBuilder()
        var apps: [String] = []
        var appEntries: [Int] = []
        var entryInfo: [EntryInfo] = []
        var entryDetails: [Int] = []
        if let links = document.appLinks {
            let variables = links.substitutionValues
            var seen = Set<String>()
            for (detailIndex, detail) in links.details.enumerated() {
                let newApps = detail.effectiveAppIDs.map(\.value).filter { seen.insert($0).inserted }
                guard !newApps.isEmpty else { continue }  // decides for no app
                entryInfo.append(builder.add(detail, outer: links.defaults, variables: variables))
                entryDetails.append(detailIndex)
                for app in newApps {
                    apps.append(app)
                    appEntries.append(entryInfo.count - 1)
                }
            }
        }
        self.appIDs = apps
        self.appEntries = appEntries
        self.entryInfo = entryInfo
        self.entryDetails = entryDetails
        self.patterns = builder.compiled
        self.tables = MatcherTables(builder)
    }

    /// What each app does with `url` (an absolute URL or a path starting with `/`).
    public func evaluate(_ url: String, explain: Bool = false) -> URLMatchResult {
        var text = url
        let result: URLMatchResult? = text.withUTF8 { bytes in
            switch URLLayout.scan(bytes) {
            case .failure(let error): return URLMatchResult(url: url, error: error.message)
            case .needsEncoding: return nil
            case .success(let layout): return evaluate(url, bytes: bytes, layout: layout, explain: explain)
            }
        }
        if let result { return result }
        var encoded = URLLayout.encodingInvalidCharacters(url)
        return encoded.withUTF8 { bytes in
            guard case .success(let layout) = URLLayout.scan(bytes) else {
                return URLMatchResult(url: url, error: "cannot percent-encode the URL")
            }
            return evaluate(url, bytes: bytes, layout: layout, explain: explain)
        }
    }

    /// Each app's verdict for `url`, in ``appIDs`` order, written into `verdicts` (emptied
    /// first, its capacity kept): what ``evaluate(_:explain:)`` decides, without building a
    /// ``URLMatchResult``, for streaming millions of URLs. Returns why the URL cannot be read,
    /// or nil.
    public func verdicts(for url: String, into verdicts: inout [AppVerdict.Verdict]) -> String? {
        verdicts.removeAll(keepingCapacity: true)
        var text = url
        // .some(error or nil) once decided; nil when the URL needs percent-encoding first.
        let decided: String?? = text.withUTF8 { bytes in
            switch URLLayout.scan(bytes) {
            case .failure(let error): return .some(error.message)
            case .needsEncoding: return nil
            case .success(let layout):
                decide(bytes: bytes, layout: layout, into: &verdicts)
                return .some(nil)
            }
        }
        if let decided { return decided }
        var encoded = URLLayout.encodingInvalidCharacters(url)
        return encoded.withUTF8 { bytes in
            guard case .success(let layout) = URLLayout.scan(bytes) else { return "cannot percent-encode the URL" }
            decide(bytes: bytes, layout: layout, into: &verdicts)
            return nil
        }
    }

    /// The first of `urls` that opens the apps entry `entry` decides for (its verdict is a
    /// match), or nil: one entry evaluated per URL, however many the document has.
    func firstURL(openingEntry entry: Int, among urls: [String]) -> String? {
        for url in urls {
            var text = url
            let decided: Bool? = text.withUTF8 { bytes -> Bool? in
                switch URLLayout.scan(bytes) {
                case .failure: return false
                case .needsEncoding: return nil
                case .success(let layout): return entryOpens(entry, bytes: bytes, layout: layout)
                }
            }
            if decided == true { return url }
            if decided != nil { continue }
            var encoded = URLLayout.encodingInvalidCharacters(url)
            let encodedOpens = encoded.withUTF8 { bytes in
                guard case .success(let layout) = URLLayout.scan(bytes) else { return false }
                return entryOpens(entry, bytes: bytes, layout: layout)
            }
            if encodedOpens { return url }
        }
        return nil
    }

    private func entryOpens(_ entry: Int, bytes: UnsafeBufferPointer<UInt8>, layout: URLLayout) -> Bool {
        var view = URLView(bytes: bytes, layout: layout)
        defer { view.deallocate() }
        return tables.decide(entry, &view).verdict == .match
    }

    private func decide(bytes: UnsafeBufferPointer<UInt8>, layout: URLLayout, into verdicts: inout [AppVerdict.Verdict])
    {
        var view = URLView(bytes: bytes, layout: layout)
        defer { view.deallocate() }
        var lastEntry = -1
        var verdict = AppVerdict.Verdict.noMatch
        for index in appIDs.indices {
            let entry = appEntries[index]
            if entry != lastEntry {
                // Apps come in entry order, so each deciding entry is evaluated once.
                lastEntry = entry
                verdict = tables.decide(entry, &view).verdict
            }
            verdicts.append(verdict)
        }
    }

    private func evaluate(
        _ url: String, bytes: UnsafeBufferPointer<UInt8>, layout: URLLayout, explain: Bool
    ) -> URLMatchResult {
        var view = URLView(bytes: bytes, layout: layout)
        defer { view.deallocate() }
        var verdicts: [AppVerdict] = []
        verdicts.reserveCapacity(appIDs.count)
        var firstMatch: String?
        var anyExcluded = false
        var lastEntry = -1
        var outcome = Outcome(verdict: .noMatch, rule: nil)
        var explanation: MatchExplanation?
        for index in appIDs.indices {
            let entry = appEntries[index]
            if entry != lastEntry {
                // Apps come in entry order, so each deciding entry is evaluated once.
                lastEntry = entry
                outcome = tables.decide(entry, &view)
                if explain { explanation = self.explanation(entry, outcome, &view) }
            }
            let app = appIDs[index]
            verdicts.append(AppVerdict(appID: app, verdict: outcome.verdict, explanation: explanation))
            switch outcome.verdict {
            case .match: if firstMatch == nil { firstMatch = app }
            case .exclude: anyExcluded = true
            case .noMatch: break
            }
        }
        return URLMatchResult(
            url: url, appID: firstMatch, excluded: firstMatch == nil && anyExcluded, apps: verdicts, error: nil)
    }
}
