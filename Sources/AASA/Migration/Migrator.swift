/// Rewrites a legacy apple-app-site-association document into Apple's current format, keeping
/// what every app does with every URL on iOS 13 and later.
///
/// - `details` as an object keyed by app ID becomes an array of entries, in the same order.
/// - `appID` becomes `appIDs: [appID]`. Entries whose rules are identical are merged into one
///   `appIDs` list, but only when that cannot change which entry decides for any app (only the
///   first entry naming an app counts), and never with ``MigrationOptions/keepLegacy`` (each
///   legacy entry needs its own `appID`).
/// - `paths` (in an entry without `components`) become `components`, one rule per path, in
///   order: `"NOT /x"` becomes `{"/": "/x", "exclude": true}` and `"*"` becomes `{"/": "*"}`.
///   Legacy paths look at the path only (a rule without `?` and `#` leaves them
///   unconstrained), always case-sensitively and percent-encoded: when `applinks.defaults` or
///   the entry's `defaults` set `caseSensitive` or `percentEncoded` to false, each new rule says
///   `true` explicitly. A path holding `$(` cannot be migrated: legacy paths match it literally
///   and components read it as a substitution variable (a ``MigrationBlocker``).
/// - An entry that has `components` keeps them as they are; its `paths`, which iOS 13 and later
///   ignore, are dropped.
/// - `applinks.apps` is dropped.
/// - With ``MigrationOptions/keepLegacy``, `apps`, `appID` and `paths` stay beside the new keys,
///   for iOS 12 and earlier, which read only those.
/// - Everything else (`webcredentials`, `activitycontinuation`, `appclips`, `defaults`,
///   `substitutionVariables`, unknown keys, `components` rules as written) is kept in place.
///
/// Duplicate keys are resolved first, keeping the last occurrence, as Apple's parser does.
///
/// ```swift
/// let migration = Migrator.migrate(try JSONParser().parse(data))
/// guard migration.blockers.isEmpty else { … }          // cannot be migrated faithfully
/// let proof = Migrator.prove(migration)                   // old vs new on probe URLs
/// if proof.isEquivalent { write(JSONWriter().data(migration.root)) }
/// ```
public enum Migrator {
    /// Migrates a parsed document.
    /// - Parameters:
    ///   - root: The document as parsed (duplicate keys allowed).
    ///   - options: Whether to keep the legacy keys.
    /// - Returns: The migrated document, what changed, and what stands in the way.
    public static func migrate(_ root: JSONNode, options: MigrationOptions = MigrationOptions()) -> Migration {
        let (clean, duplicates) = root.deduplicatingKeys()
        var work = Work(options: options, original: AASADocument(root: clean))
        let migrated = work.run(clean)
        return Migration(
            original: clean, root: migrated, duplicates: duplicates, notes: work.notes, blockers: work.blockers,
            options: options)
    }

    // MARK: - The rewrite

    private struct Work {
        let options: MigrationOptions
        let original: AASADocument
        var notes: [MigrationNote] = []
        var blockers: [MigrationBlocker] = []

        mutating func note(
            _ path: JSONPath?, _ message: String, _ kind: MigrationNote.Kind = .changed, keepLegacyWould: String? = nil
        ) {
            notes.append(MigrationNote(kind: kind, path: path, message: message, keepLegacyWould: keepLegacyWould))
        }

        mutating func block(_ path: JSONPath?, _ message: String, forceable: Bool) {
            blockers.append(MigrationBlocker(path: path, message: message, forceable: forceable))
        }

        mutating func run(_ root: JSONNode) -> JSONNode {
            guard let members = root.members else {
                block(
                    nil, "the top level is \(root.typeName), not an object: this is not an AASA document",
                    forceable: false)
                return root
            }
            for mismatch in original.typeMismatches where Self.blocks(mismatch.path) {
                block(
                    mismatch.path,
                    "is \(mismatch.found) where the format needs \(mismatch.expected); fix it first (aasa lint shows every problem)",
                    forceable: false)
            }
            guard blockers.isEmpty, let links = original.appLinks else { return root }
            var result: [(String, JSONNode)] = []
            for member in members {
                if member.key == "applinks", let applinks = member.value.members {
                    result.append(("applinks", migrateAppLinks(applinks, links)))
                } else {
                    result.append((member.key, member.value))
                }
            }
            if !options.keepLegacy && LegacyReading.hasLegacyRules(original) {
                note(
                    nil,
                    "iOS 12 and earlier read only appID and paths, which the migrated file no longer has: on those versions no universal link opens an app",
                    .warning, keepLegacyWould: "keeps them while you still support iOS 12")
            }
            var node = root
            node.value = .object(
                result.map { JSONMember(key: $0.0, keyLocation: JSONNode.generatedPosition, value: $0.1) })
            return node
        }

        /// Whether a wrong type at `path` stops the migration: anything the rewrite reads (the
        /// shape of `details`, entries, `appID`, `appIDs`, `paths`, a `components` that is not an
        /// array). Values copied as they are (`defaults`, `substitutionVariables`, the inside of
        /// `components` rules, `apps`, other services) are carried over unchanged.
        static func blocks(_ path: JSONPath) -> Bool {
            let parts = path.components
            guard parts.first == .key("applinks") else { return false }
            if parts.count >= 2, case .key(let key) = parts[1], key != "details" { return false }
            if parts.contains(.key("defaults")) { return false }
            if let index = parts.firstIndex(of: .key("components")), index + 1 < parts.count { return false }
            return true
        }

        mutating func migrateAppLinks(_ members: [JSONMember], _ links: AppLinks) -> JSONNode {
            var result: [(String, JSONNode)] = []
            for member in members {
                switch member.key {
                case "apps":
                    if options.keepLegacy {
                        result.append((member.key, member.value))
                        if let apps = member.value.elements, !apps.isEmpty {
                            note(
                                links.path.appending("apps"),
                                "kept for iOS 12 and earlier, but it is not empty: those versions require \"apps\": []",
                                .warning)
                        }
                    } else {
                        note(
                            links.path.appending("apps"), "removed: iOS 13 and later ignore it",
                            keepLegacyWould: "keeps it")
                    }
                case "details":
                    result.append(("details", migrateDetails(member.value, links)))
                default:
                    result.append((member.key, member.value))
                }
            }
            return JSONNode.object(result)
        }

        /// One migrated entry, and what merging needs to know about it.
        struct Entry {
            var node: [(String, JSONNode)]
            var path: JSONPath
            /// The apps it names (appIDs, or appID).
            var apps: [String]
            /// Whether the entry named its app with `appID` (or a dictionary key) only.
            var fromAppID: Bool
            /// Everything but `appIDs`, as text: entries with the same key have identical rules.
            var rulesKey: String
        }

        mutating func migrateDetails(_ node: JSONNode, _ links: AppLinks) -> JSONNode {
            let raw: [(node: JSONNode, key: String?)]
            if let elements = node.elements {
                raw = elements.map { ($0, nil) }
            } else if let entries = node.members {
                raw = entries.map { ($0.value, $0.key) }
                note(
                    links.path.appending("details"),
                    "the legacy object keyed by app ID became an array of \(entries.count) \(entries.count == 1 ? "entry" : "entries"), in the same order"
                )
            } else {
                return node
            }
            // Type mismatches that would drop an entry stop the migration before this point,
            // so raw entries and parsed details correspond one to one.
            precondition(raw.count == links.details.count)
            var entries: [Entry] = []
            for (index, detail) in links.details.enumerated() {
                entries.append(migrateEntry(raw[index].node, dictionaryKey: raw[index].key, detail, links))
            }
            reportSharedApps(links)
            if !options.keepLegacy { entries = merge(entries) }
            return JSONNode.array(entries.map { JSONNode.object($0.node) })
        }

        mutating func migrateEntry(
            _ node: JSONNode, dictionaryKey: String?, _ detail: AppLinksDetail, _ links: AppLinks
        ) -> Entry {
            let path = detail.path
            let apps = detail.effectiveAppIDs.map(\.value)
            var result: [(String, JSONNode)] = []
            let members = node.members ?? []
            let fromAppID = detail.appIDs == nil && detail.appID != nil
            // A dictionary entry without its own app ID: the key names the app.
            if dictionaryKey != nil, !members.contains(where: { $0.key == "appID" || $0.key == "appIDs" }),
                let appID = detail.appID
            {
                result.append(("appIDs", JSONNode.array([JSONNode.string(appID.value)])))
                if options.keepLegacy { result.append(("appID", JSONNode.string(appID.value))) }
            }
            for member in members {
                switch member.key {
                case "appID":
                    if detail.appIDs == nil {
                        result.append(("appIDs", JSONNode.array([JSONNode.string(member.value.stringValue ?? "")])))
                        if options.keepLegacy { result.append((member.key, member.value)) }
                        note(path.appending("appID"), "became appIDs")
                    } else if options.keepLegacy {
                        result.append((member.key, member.value))
                    } else {
                        let appID = member.value.stringValue ?? ""
                        if detail.appIDs!.contains(where: { $0.value == appID }) {
                            note(
                                path.appending("appID"),
                                "removed: appIDs lists it, and iOS 13 and later read only appIDs")
                        } else {
                            note(
                                path.appending("appID"),
                                "removed: iOS 13 and later read only appIDs, which does not list \(appID); iOS 12 and earlier opened these links in \(appID)",
                                .warning)
                        }
                    }
                case "paths":
                    if detail.components != nil {
                        if options.keepLegacy {
                            result.append((member.key, member.value))
                        } else {
                            note(
                                path.appending("paths"),
                                "removed: the entry has components, so iOS 13 and later ignore paths",
                                keepLegacyWould: "keeps them for iOS 12 and earlier")
                        }
                    } else {
                        result.append(("components", components(from: detail, links)))
                        if options.keepLegacy { result.append((member.key, member.value)) }
                    }
                default:
                    result.append((member.key, member.value))
                }
            }
            let rulesKey = JSONNode.object(result.filter { $0.0 != "appIDs" }).canonicalText
            return Entry(node: result, path: path, apps: apps, fromAppID: fromAppID, rulesKey: rulesKey)
        }

        /// The `components` equivalent of a legacy entry's `paths`.
        mutating func components(from detail: AppLinksDetail, _ links: AppLinks) -> JSONNode {
            let settings = detail.defaults.inheriting(from: links.defaults)
            let explicitCase = settings.caseSensitive == false
            let explicitEncoding = settings.percentEncoded == false
            var rules: [JSONNode] = []
            var excludes = 0
            for element in detail.paths ?? [] {
                let isNot = element.value.hasPrefix("NOT ")
                let pattern = isNot ? String(element.value.dropFirst(4)) : element.value
                if pattern.contains("$(") {
                    block(
                        element.path,
                        "\(quotedInFull(element.value)) cannot be migrated faithfully: legacy paths match \"$(\" literally, but components read $(…) as a substitution variable, and no component pattern matches \"$(\" literally",
                        forceable: true)
                }
                var rule: [(String, JSONNode)] = [("/", JSONNode.string(pattern))]
                if isNot {
                    rule.append(("exclude", JSONNode.bool(true)))
                    excludes += 1
                }
                if explicitCase { rule.append(("caseSensitive", JSONNode.bool(true))) }
                if explicitEncoding { rule.append(("percentEncoded", JSONNode.bool(true))) }
                rules.append(JSONNode.object(rule))
            }
            let count = rules.count
            var message = "\(count) \(count == 1 ? "path" : "paths") became components"
            if excludes > 0 { message += " (\(excludes) NOT \(excludes == 1 ? "path" : "paths") → \"exclude\": true)" }
            message += ", in the same order; the query and fragment stay unconstrained"
            note(detail.path.appending("paths"), message)
            if explicitCase || explicitEncoding {
                let which = [
                    explicitCase ? "\"caseSensitive\": true" : nil, explicitEncoding ? "\"percentEncoded\": true" : nil,
                ]
                .compactMap { $0 }.joined(separator: " and ")
                note(
                    detail.path.appending("components"),
                    "each rule says \(which): the defaults in effect say false, but legacy paths always match case-sensitively and percent-encoded"
                )
            }
            return JSONNode.array(rules)
        }

        /// Notes apps named by more than one entry (only the first decides; kept as is).
        mutating func reportSharedApps(_ links: AppLinks) {
            var first: [String: JSONPath] = [:]
            for detail in links.details {
                for app in detail.effectiveAppIDs {
                    if let earlier = first[app.value] {
                        note(
                            detail.path,
                            "also names \(app.value), already named by \(earlier): only the first entry decides for an app, so this one is ignored for it (kept as is)",
                            .warning)
                    } else {
                        first[app.value] = detail.path
                    }
                }
            }
        }

        /// Merges entries that came from `appID` and have identical rules into the first of
        /// them, when no app's deciding entry changes.
        mutating func merge(_ entries: [Entry]) -> [Entry] {
            var firstEntry: [String: Int] = [:]
            for (index, entry) in entries.enumerated() {
                for app in entry.apps where firstEntry[app] == nil { firstEntry[app] = index }
            }
            var result: [Entry] = []
            var resultIndex: [Int] = []  // original index of each result entry
            for (index, entry) in entries.enumerated() {
                if entry.fromAppID,
                    let target = result.indices.first(where: {
                        result[$0].fromAppID && result[$0].rulesKey == entry.rulesKey
                    }),
                    entry.apps.allSatisfy({ firstEntry[$0] == index || firstEntry[$0]! <= resultIndex[target] })
                {
                    var merged = result[target]
                    let added = entry.apps.filter { !merged.apps.contains($0) }
                    merged.apps += added
                    if let position = merged.node.firstIndex(where: { $0.0 == "appIDs" }) {
                        merged.node[position].1 = JSONNode.array(merged.apps.map { JSONNode.string($0) })
                    }
                    result[target] = merged
                    note(
                        entry.path,
                        "merged into \(merged.path) (\(merged.apps.joined(separator: ", "))): identical rules, and it is the first entry for each of its apps"
                    )
                    continue
                }
                result.append(entry)
                resultIndex.append(index)
            }
            return result
        }
    }
}
