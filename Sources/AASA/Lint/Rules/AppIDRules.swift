import Foundation

/// Rules about app identifiers (`<App ID prefix>.<bundle ID>`) in every service.
enum AppIDRules {
    static let checks: [DocumentCheck] = [
        missingAppID, emptyAppID, appIDWithoutBundle, appIDPrefixFormat, duplicateAppID,
    ]

    static let example = "\"ABCDE12345.com.example.app\""

    /// `missing-appid`: an applinks entry that names no app: neither `appID` nor `appIDs`
    /// (nor a dictionary key), or an empty `appIDs` with no `appID`. A key of the wrong type
    /// is `wrong-type` only.
    @Sendable static func missingAppID(_ document: AASADocument) -> [Diagnostic] {
        (document.appLinks?.details ?? []).compactMap { detail in
            let hasAppIDKey = document.root.hasMember("appID", at: detail.path)
            let hasAppIDsKey = document.root.hasMember("appIDs", at: detail.path)
            let message: String
            if detail.appID == nil && detail.appIDs == nil && !hasAppIDKey && !hasAppIDsKey {
                message =
                    "This entry has neither \"appIDs\" nor \"appID\", so its rules apply to no app."
                    + " Add \"appIDs\": [\(example)] (and \"appID\" too for iOS 12 and earlier)."
            } else if detail.appID == nil && !hasAppIDKey, let appIDs = detail.appIDs, appIDs.isEmpty,
                document.root.node(at: detail.path.appending("appIDs"))?.elements?.isEmpty == true
            {
                message =
                    "This entry's \"appIDs\" is an empty array, so its rules apply to no app. List the app identifiers,"
                    + " as in \"appIDs\": [\(example)]."
            } else {
                return nil
            }
            return Diagnostic(.missingAppID, message, path: detail.path, position: detail.position)
        }
    }

    /// `empty-appid`: `""` as an app identifier, in any service.
    @Sendable static func emptyAppID(_ document: AASADocument) -> [Diagnostic] {
        document.allAppIdentifiers.filter { isBlank($0.value) }.map { appID in
            Diagnostic(
                .emptyAppID,
                "An empty app identifier (\(quotedShortened(appID.value))) matches no app. Write the app's"
                    + " <App ID prefix>.<bundle ID>, as in \(example), or remove it.",
                path: appID.path, position: appID.position)
        }
    }

    /// `appid-without-bundle`: a non-empty identifier without ".".
    @Sendable static func appIDWithoutBundle(_ document: AASADocument) -> [Diagnostic] {
        document.allAppIdentifiers.filter { !isBlank($0.value) && !$0.value.contains(".") }.map { appID in
            Diagnostic(
                .appIDWithoutBundle,
                "App identifier \(quotedShortened(appID.value)) has no \".\": the format is <App ID prefix>.<bundle ID>, as in"
                    + " \(example), and iOS compares it with the app's full application identifier, so this matches no app.",
                path: appID.path, position: appID.position)
        }
    }

    /// `appid-prefix-format`: the part before the first "." is not 10 ASCII letters or digits.
    @Sendable static func appIDPrefixFormat(_ document: AASADocument) -> [Diagnostic] {
        document.allAppIdentifiers.compactMap { appID in
            guard !isBlank(appID.value), let dot = appID.value.firstIndex(of: ".") else { return nil }
            let prefix = appID.value[..<dot]
            guard !isValidPrefix(prefix) else { return nil }
            var problem = "\(quotedShortened(String(prefix))) is \(plural(prefix.count, "character"))"
            if prefix.contains(where: { $0.isWhitespace }) {
                problem = "\(quotedShortened(String(prefix))) contains white space"
            } else if prefix.count == 10, let bad = prefix.first(where: { !isASCIIAlphanumeric($0) }) {
                problem = "\(quotedShortened(String(prefix))) contains \(quotedShortened(String(bad)))"
            }
            return Diagnostic(
                .appIDPrefixFormat,
                "App identifier \(quotedShortened(appID.value)) should start with the 10-character App ID prefix (usually the"
                    + " Team ID), as in \(example), but \(problem). iOS matches the identifier against the app's signed"
                    + " application identifier, so a wrong prefix means no app is associated.",
                path: appID.path, position: appID.position)
        }
    }

    /// `duplicate-appid`: the same identifier twice within applinks (across entries, or inside
    /// one `appIDs`), or twice in one service's `apps`.
    @Sendable static func duplicateAppID(_ document: AASADocument) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        // applinks: the identifiers each entry applies to on iOS 13+ (appIDs, else appID), so an
        // entry that repeats its appID in appIDs for older systems is not a duplicate.
        let appLinksIDs = (document.appLinks?.details ?? []).flatMap(\.effectiveAppIDs)
        diagnostics += repeats(in: appLinksIDs) { appID, first in
            "App identifier \(quotedShortened(appID.value)) already appears in applinks (at \(first.path), \(lineColumn(first.position))):"
                + " which entry's rules apply to the app then depends on entry order. Keep one entry per app and"
                + " merge their rules."
        }
        for (name, list) in document.appLists {
            diagnostics += repeats(in: list.apps) { appID, first in
                "App identifier \(quotedShortened(appID.value)) is listed twice in \(name).apps (first at \(first.path),"
                    + " \(lineColumn(first.position))); remove the repeat."
            }
        }
        return diagnostics
    }

    /// A diagnostic for each identifier that equals an earlier one (empty ones excepted).
    private static func repeats(
        in identifiers: [Located<String>], message: (Located<String>, Located<String>) -> String
    ) -> [Diagnostic] {
        var first: [String: Located<String>] = [:]
        var diagnostics: [Diagnostic] = []
        for appID in identifiers where !isBlank(appID.value) {
            if let earlier = first[appID.value] {
                diagnostics.append(
                    Diagnostic(.duplicateAppID, message(appID, earlier), path: appID.path, position: appID.position))
            } else {
                first[appID.value] = appID
            }
        }
        return diagnostics
    }

    static func isBlank(_ text: String) -> Bool { AppIdentifierText.isBlank(text) }

    static func isASCIIAlphanumeric(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (0x30...0x39).contains(ascii) || (0x41...0x5A).contains(ascii) || (0x61...0x7A).contains(ascii)
    }

    static func isValidPrefix(_ prefix: Substring) -> Bool {
        prefix.count == 10 && prefix.allSatisfy(isASCIIAlphanumeric)
    }
}
