import Foundation

/// Rules about the shape of `applinks`: `apps`, `details`, and the legacy (iOS 9–12) forms
/// next to the current (iOS 13+) ones.
enum AppLinksStructureRules {
    static let checks: [DocumentCheck] = [
        emptyDetails, missingDetails, legacyAppsKey, appsNotEmpty, legacyDetailsDictionary, legacyPaths,
        pathsIgnoredWithComponents, legacyAppID, appIDAndAppIDs, notPrefixInComponents,
    ]

    /// `empty-details`: `details` is `[]` (or `{}` in the legacy form).
    @Sendable static func emptyDetails(_ document: AASADocument) -> [Diagnostic] {
        guard let links = document.appLinks else { return [] }
        let path = links.path.appending("details")
        guard let node = document.root.node(at: path), node.elements?.isEmpty ?? node.members?.isEmpty ?? false else {
            return []
        }
        return [
            Diagnostic(
                .emptyDetails,
                "applinks.details is empty: no app handles universal links for this domain. Add an entry"
                    + " ({\"appIDs\": [\"ABCDE12345.com.example.app\"], \"components\": [{\"/\": \"/*\"}]}) or remove \"applinks\".",
                path: path, position: node.location)
        ]
    }

    /// `missing-details`: `applinks` without a `details` key.
    @Sendable static func missingDetails(_ document: AASADocument) -> [Diagnostic] {
        guard let links = document.appLinks, !document.root.hasMember("details", at: links.path) else { return [] }
        return [
            Diagnostic(
                .missingDetails,
                "applinks has no \"details\": it names no app and no URL, so no universal link works for this domain."
                    + " Add \"details\": [{\"appIDs\": […], \"components\": […]}].",
                path: links.path, position: links.position)
        ]
    }

    /// `legacy-apps-key`: `applinks.apps` is present.
    @Sendable static func legacyAppsKey(_ document: AASADocument) -> [Diagnostic] {
        guard let links = document.appLinks, links.hasAppsKey else { return [] }
        let path = links.path.appending("apps")
        return [
            Diagnostic(
                .legacyAppsKey,
                "\"apps\" in applinks is only read by iOS 12 and earlier, which require it to be an empty array;"
                    + " iOS 13 and later ignore it. Remove it once you no longer support iOS 12.",
                path: path, position: document.keyPosition(of: path, orElse: links.position))
        ]
    }

    /// `apps-not-empty`: `applinks.apps` is an array with elements.
    @Sendable static func appsNotEmpty(_ document: AASADocument) -> [Diagnostic] {
        guard let links = document.appLinks else { return [] }
        let path = links.path.appending("apps")
        guard let node = document.root.node(at: path), let elements = node.elements, !elements.isEmpty else {
            return []
        }
        let shown = elements.prefix(3).map { $0.stringValue.map { quotedShortened($0) } ?? $0.typeName }.joined(
            separator: ", ")
        return [
            Diagnostic(
                .appsNotEmpty,
                "applinks.apps must be an empty array, found [\(shown)\(elements.count > 3 ? ", …" : "")]:"
                    + " iOS 12 and earlier require \"apps\": [] and may reject the applinks section otherwise. App IDs belong"
                    + " in details (\"appIDs\").",
                path: path, position: node.location)
        ]
    }

    /// `legacy-details-dictionary`: `details` is an object keyed by app ID.
    @Sendable static func legacyDetailsDictionary(_ document: AASADocument) -> [Diagnostic] {
        guard let links = document.appLinks, links.detailsForm == .dictionary else { return [] }
        let path = links.path.appending("details")
        let example = links.details.first?.appID.map { quotedShortened($0.value) } ?? "\"ABCDE12345.com.example.app\""
        return [
            Diagnostic(
                .legacyDetailsDictionary,
                "details is an object keyed by app ID, the form shown at WWDC 2015 before iOS 9 shipped; Apple has"
                    + " documented an array of entries since, and current iOS versions are not documented to read this form."
                    + " Write \"details\": [{\"appIDs\": [\(example)], \"components\": […]}].",
                path: path, position: document.keyPosition(of: path, orElse: links.position))
        ]
    }

    /// `legacy-paths`: an entry with `paths` and no `components`.
    @Sendable static func legacyPaths(_ document: AASADocument) -> [Diagnostic] {
        details(document).compactMap { detail in
            guard let paths = detail.paths, detail.components == nil else { return nil }
            let path = detail.path.appending("paths")
            return Diagnostic(
                .legacyPaths,
                "This entry uses \"paths\" (\(plural(paths.count, "pattern"))), the iOS 9–12 form. iOS 13 and later still read"
                    + " it, but \"components\" is the current form and adds query and fragment matching and \"exclude\""
                    + " (instead of \"NOT \"). Add components (keep paths only for iOS 12 and earlier).",
                path: path, position: document.keyPosition(of: path, orElse: detail.position))
        }
    }

    /// `paths-ignored-with-components`: an entry with both.
    @Sendable static func pathsIgnoredWithComponents(_ document: AASADocument) -> [Diagnostic] {
        details(document).compactMap { detail in
            guard detail.paths != nil, detail.components != nil else { return nil }
            let path = detail.path.appending("paths")
            return Diagnostic(
                .pathsIgnoredWithComponents,
                "This entry has both \"paths\" and \"components\": iOS 13 and later use only components and ignore paths,"
                    + " iOS 12 and earlier use only paths. Keep the two in step, or remove paths if you do not support iOS 12.",
                path: path, position: document.keyPosition(of: path, orElse: detail.position))
        }
    }

    /// `legacy-appid`: an entry with `appID` and no `appIDs` (not the dictionary form, whose
    /// keys are app IDs: `legacy-details-dictionary` covers those).
    @Sendable static func legacyAppID(_ document: AASADocument) -> [Diagnostic] {
        details(document).compactMap { detail in
            guard let appID = detail.appID, detail.appIDs == nil, !detail.fromDictionary else { return nil }
            return Diagnostic(
                .legacyAppID,
                "This entry uses \"appID\": \(quotedShortened(appID.value)), the iOS 9–12 form. iOS 13 and later read"
                    + " \"appIDs\": [\(quotedShortened(appID.value))], which can list several apps. Add appIDs (keep appID only for"
                    + " iOS 12 and earlier).",
                path: appID.path, position: document.keyPosition(of: appID.path, orElse: appID.position))
        }
    }

    /// `appid-and-appids`: an entry with both.
    @Sendable static func appIDAndAppIDs(_ document: AASADocument) -> [Diagnostic] {
        details(document).compactMap { detail in
            // (A dictionary-form entry's key stands in for appID only when the entry has neither.)
            guard let appID = detail.appID, let appIDs = detail.appIDs else { return nil }
            let listed = appIDs.contains { $0.value == appID.value }
            return Diagnostic(
                .appIDAndAppIDs,
                "This entry has both \"appID\" (\(quotedShortened(appID.value))) and \"appIDs\": iOS 13 and later read only appIDs,"
                    + " iOS 12 and earlier only appID"
                    + (listed
                        ? "." : ", and appIDs does not list \(quotedShortened(appID.value)), so the two disagree.")
                    + " Keep both only to support iOS 12, and keep them in step.",
                path: appID.path, position: document.keyPosition(of: appID.path, orElse: appID.position))
        }
    }

    /// `not-prefix-in-components`: a components `/` pattern starting with "NOT ".
    @Sendable static func notPrefixInComponents(_ document: AASADocument) -> [Diagnostic] {
        details(document).flatMap { detail in
            (detail.components ?? []).compactMap { rule -> Diagnostic? in
                guard let pattern = rule.pathPattern, pattern.value.hasPrefix("NOT ") else { return nil }
                let rest = String(pattern.value.dropFirst(4))
                return Diagnostic(
                    .notPrefixInComponents,
                    "\(quotedShortened(pattern.value)): \"NOT \" only means \"exclude\" in legacy paths; in a components \"/\" pattern it is"
                        + " literal text, so this rule matches only paths that start with \"NOT \" (never a real URL path)."
                        + " Write {\"/\": \(quotedShortened(rest)), \"exclude\": true}.",
                    path: pattern.path, position: pattern.position)
            }
        }
    }

    static func details(_ document: AASADocument) -> [AppLinksDetail] { document.appLinks?.details ?? [] }
}
