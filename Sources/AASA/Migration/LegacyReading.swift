/// How iOS 9–12 read a file: entries by `appID` (not `appIDs`), rules from `paths` (not
/// `components`, whose presence those versions do not know).
public enum LegacyReading {
    /// A document holding only what iOS 12 and earlier read of `document`'s `applinks`:
    /// entries with `appID` (or a dictionary key) and their `paths`.
    public static func document(_ document: AASADocument) -> AASADocument {
        var entries: [JSONNode] = []
        for detail in document.appLinks?.details ?? [] {
            guard let appID = detail.appID else { continue }
            var entry: [(String, JSONNode)] = [("appID", JSONNode.string(appID.value))]
            if let paths = detail.paths {
                entry.append(("paths", JSONNode.array(paths.map { JSONNode.string($0.value) })))
            }
            entries.append(JSONNode.object(entry))
        }
        return AASADocument(
            root: JSONNode.object([("applinks", JSONNode.object([("details", JSONNode.array(entries))]))]))
    }

    /// Whether iOS 12 and earlier find any app with paths in `document`.
    public static func hasLegacyRules(_ document: AASADocument) -> Bool {
        (document.appLinks?.details ?? []).contains { $0.appID != nil && $0.paths != nil }
    }
}
