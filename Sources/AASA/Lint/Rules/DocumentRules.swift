import Foundation

/// Rules about the document as a whole: its top level, keys the format does not define,
/// values of the wrong type, repeated keys.
enum DocumentRules {
    /// Run only when the top level is an object (``rootNotObject(_:)`` covers the rest).
    static let checks: [DocumentCheck] = [
        noKnownService, unknownTopLevelKey, unknownKey, wrongType, duplicateKey,
    ]

    /// `root-not-object`.
    static func rootNotObject(_ document: AASADocument) -> [Diagnostic] {
        guard !document.rootIsObject else { return [] }
        return [
            Diagnostic(
                .rootNotObject,
                "The top level is \(article(document.root.typeName)) \(document.root.typeName), not an object:"
                    + " iOS looks for the services (\"applinks\", \"webcredentials\", …) as keys of a top-level object and finds none.",
                path: JSONPath(), position: document.root.location)
        ]
    }

    /// `no-known-service`.
    @Sendable static func noKnownService(_ document: AASADocument) -> [Diagnostic] {
        let keys = (document.root.members ?? []).map(\.key)
        guard !keys.contains(where: AASADocument.serviceKeys.contains) else { return [] }
        let found =
            keys.isEmpty
            ? "The object is empty" : "It has only \(keys.map { quotedShortened($0) }.joined(separator: ", "))"
        return [
            Diagnostic(
                .noKnownService,
                "None of \"applinks\", \"webcredentials\", \"activitycontinuation\" or \"appclips\" is present, so the file"
                    + " associates no app with the domain. \(found).",
                path: JSONPath(), position: document.root.location)
        ]
    }

    /// `unknown-top-level-key`.
    @Sendable static func unknownTopLevelKey(_ document: AASADocument) -> [Diagnostic] {
        document.unknownTopLevelKeys.map { key in
            Diagnostic(
                .unknownTopLevelKey,
                "Unknown top-level key \(quotedShortened(key.key))\(didYouMean(key.key, known: AASADocument.serviceKeys)):"
                    + " iOS reads only \"applinks\", \"webcredentials\", \"activitycontinuation\" and \"appclips\" and ignores it.",
                path: key.path, position: key.position)
        }
    }

    /// Keys each place in the document defines (for suggestions).
    static let appLinksKeys = ["apps", "details", "defaults", "substitutionVariables"]
    static let detailKeys = ["appID", "appIDs", "components", "paths", "defaults"]
    static let defaultsKeys = ["caseSensitive", "percentEncoded"]
    static let appListKeys = ["apps"]

    /// `unknown-key`: below the top level, outside components (those are `unknown-component-key`).
    @Sendable static func unknownKey(_ document: AASADocument) -> [Diagnostic] {
        let componentKeys = Set(
            (document.appLinks?.details ?? []).flatMap { ($0.components ?? []).flatMap(\.unknownKeys) })
        let appLinksKeys = Set(document.appLinks?.unknownKeys ?? [])
        let detailKeys = Set((document.appLinks?.details ?? []).flatMap(\.unknownKeys))
        var listNames: [UnknownKey: String] = [:]
        for (name, list) in document.appLists {
            for key in list.unknownKeys { listNames[key] = name }
        }
        return document.unknownKeys.filter { !componentKeys.contains($0) }.map { key in
            let place: String
            let known: [String]
            if appLinksKeys.contains(key) {
                (place, known) = ("applinks", Self.appLinksKeys)
            } else if detailKeys.contains(key) {
                (place, known) = ("a details entry", Self.detailKeys)
            } else if let name = listNames[key] {
                (place, known) = (name, Self.appListKeys)
            } else {
                (place, known) = ("defaults", Self.defaultsKeys)
            }
            let aliases =
                known == Self.detailKeys
                ? ["appid": "appID", "appids": "appIDs", "component": "components", "path": "paths"] : [:]
            return Diagnostic(
                .unknownKey,
                "Unknown key \(quotedShortened(key.key)) in \(place)\(didYouMean(key.key, known: known, aliases: aliases)):"
                    + " iOS ignores it. Keys there: \(known.joined(separator: ", ")).",
                path: key.path, position: key.position)
        }
    }

    /// `wrong-type`.
    @Sendable static func wrongType(_ document: AASADocument) -> [Diagnostic] {
        document.typeMismatches.map { mismatch in
            let found = document.root.node(at: mismatch.path)?.shortDescription ?? mismatch.found
            return Diagnostic(
                .wrongType,
                "Wrong type for \(subject(of: mismatch.path)): expected \(mismatch.expected), found \(found). iOS cannot use"
                    + " this value (it skips it, or rejects the section that holds it).",
                path: mismatch.path, position: mismatch.position)
        }
    }

    /// `duplicate-key`: every repeat of a key within one object, anywhere in the document.
    @Sendable static func duplicateKey(_ document: AASADocument) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var path = JSONPath()  // one path, extended and shortened in place
        func visit(_ node: JSONNode) {
            switch node.value {
            case .object(let members):
                // Small objects (nearly all) are searched directly; large ones through a dictionary.
                var first: [String: JSONMember] = [:]
                for (position, member) in members.enumerated() {
                    let earlier: JSONMember?
                    if members.count <= 16 {
                        earlier = members[..<position].first { $0.key == member.key }
                    } else {
                        earlier = first[member.key]
                        if earlier == nil { first[member.key] = member }
                    }
                    path.components.append(.key(member.key))
                    if let earlier {
                        diagnostics.append(
                            Diagnostic(
                                .duplicateKey,
                                "Key \(quotedShortened(member.key)) appears again in the same object (first at \(lineColumn(earlier.keyLocation))):"
                                    + " only one of the values is used (this tool reads the last; which one iOS reads is not"
                                    + " documented), so the other is silently lost. Merge them into one key.",
                                path: path, position: member.keyLocation))
                    }
                    visit(member.value)
                    path.components.removeLast()
                }
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    path.components.append(.index(index))
                    visit(element)
                    path.components.removeLast()
                }
            default: break
            }
        }
        visit(document.root)
        return diagnostics
    }

    /// `"appIDs"`, `element [1] of "appIDs"`, or the path when neither fits.
    static func subject(of path: JSONPath) -> String {
        let components = path.components
        switch (components.dropLast().last, components.last) {
        case (_, .key(let key)?): return quotedShortened(key)
        case (.key(let key)?, .index(let index)?): return "element [\(index)] of \(quotedShortened(key))"
        default: return path.description
        }
    }

    private static func article(_ word: String) -> String {
        ["a", "e", "i", "o", "u"].contains(word.prefix(1)) ? "an" : "a"
    }
}
