// Where a document lists app identifiers, for the app ID rules.

extension AASADocument {
    /// The three services that are only a list of apps, with their top-level names.
    var appLists: [(name: String, list: AppList)] {
        [("webcredentials", webCredentials), ("activitycontinuation", activityContinuation), ("appclips", appClips)]
            .compactMap { name, list in list.map { (name, $0) } }
    }

    /// Every app identifier in the file: applinks entries (`appIDs`, `appID`, dictionary keys)
    /// and the `apps` lists of the other services.
    var allAppIdentifiers: [Located<String>] {
        (appLinks?.details.flatMap(\.allAppIDs) ?? []) + appLists.flatMap(\.list.apps)
    }
}
