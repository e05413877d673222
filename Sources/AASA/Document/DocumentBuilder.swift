/// Turns a ``JSONNode`` into an ``AASADocument``, collecting type mismatches and unknown keys.
struct DocumentBuilder {
    private var mismatches: [TypeMismatch] = []
    private var unknown: [UnknownKey] = []

    mutating func build(_ root: JSONNode) -> AASADocument {
        var appLinks: AppLinks?
        var lists: [String: AppList] = [:]
        var unknownTop: [UnknownKey] = []
        for member in root.members ?? [] {
            let path = JSONPath([.key(member.key)])
            switch member.key {
            case "applinks":
                if let built = buildAppLinks(member.value, path: path) { appLinks = built }
            case "webcredentials", "activitycontinuation", "appclips":
                if let list = buildAppList(member.value, path: path) { lists[member.key] = list }
            default:
                unknownTop.append(UnknownKey(path: path, position: member.keyLocation, key: member.key))
            }
        }
        return AASADocument(
            root: root, appLinks: appLinks, webCredentials: lists["webcredentials"],
            activityContinuation: lists["activitycontinuation"], appClips: lists["appclips"],
            unknownTopLevelKeys: unknownTop, unknownKeys: unknown, typeMismatches: mismatches)
    }

    // MARK: Helpers

    private mutating func mismatch(_ node: JSONNode, _ path: JSONPath, expected: String) {
        mismatches.append(TypeMismatch(path: path, position: node.location, expected: expected, found: node.typeName))
    }

    private mutating func object(_ node: JSONNode, _ path: JSONPath) -> [JSONMember]? {
        guard let members = node.members else {
            mismatch(node, path, expected: "object")
            return nil
        }
        return members
    }

    private mutating func string(_ node: JSONNode, _ path: JSONPath) -> Located<String>? {
        guard let value = node.stringValue else {
            mismatch(node, path, expected: "string")
            return nil
        }
        return Located(value, path: path, position: node.location)
    }

    private mutating func bool(_ node: JSONNode, _ path: JSONPath) -> Bool? {
        guard let value = node.boolValue else {
            mismatch(node, path, expected: "boolean")
            return nil
        }
        return value
    }

    /// An array of strings; non-string elements are mismatches and skipped.
    private mutating func strings(_ node: JSONNode, _ path: JSONPath) -> [Located<String>]? {
        guard let elements = node.elements else {
            mismatch(node, path, expected: "array of strings")
            return nil
        }
        return elements.enumerated().compactMap { index, element in string(element, path.appending(index)) }
    }

    /// `defaults` is "a subclass of components" (Apple): read as a component, every key kept.
    private mutating func defaults(_ node: JSONNode, _ path: JSONPath) -> MatchingDefaults {
        guard let rule = buildComponent(node, path: path) else { return MatchingDefaults() }
        var result = rule.settings
        result.pathPattern = rule.pathPattern
        result.query = rule.query
        result.fragment = rule.fragment
        for member in node.members ?? [] where ["/", "?", "#", "exclude"].contains(member.key) {
            let memberPath = path.appending(member.key)
            result.patternKeys.append(Located(member.key, path: memberPath, position: member.keyLocation))
            if member.key == "exclude", let value = member.value.boolValue {
                result.exclude = Located(value, path: memberPath, position: member.value.location)
            }
        }
        return result
    }

    /// Gives each component rule the pattern keys it lacks from its detail's defaults, then
    /// the domain's (``MatchingDefaults``).
    private func completingRules(_ links: AppLinks) -> AppLinks {
        var links = links
        for index in links.details.indices {
            let defaults = links.details[index].defaults.inheriting(from: links.defaults)
            guard let rules = links.details[index].components else { continue }
            links.details[index].components = rules.map { $0.completed(by: defaults) }
        }
        return links
    }

    // MARK: Services

    private mutating func buildAppList(_ node: JSONNode, path: JSONPath) -> AppList? {
        guard let members = object(node, path) else { return nil }
        var list = AppList(path: path, position: node.location)
        for member in members {
            let memberPath = path.appending(member.key)
            if member.key == "apps" {
                list.apps = strings(member.value, memberPath) ?? []
            } else {
                let key = UnknownKey(path: memberPath, position: member.keyLocation, key: member.key)
                list.unknownKeys.append(key)
                unknown.append(key)
            }
        }
        return list
    }

    private mutating func buildAppLinks(_ node: JSONNode, path: JSONPath) -> AppLinks? {
        guard let members = object(node, path) else { return nil }
        var links = AppLinks(path: path, position: node.location)
        for member in members {
            let memberPath = path.appending(member.key)
            switch member.key {
            case "apps":
                links.hasAppsKey = true
                if let apps = strings(member.value, memberPath) {
                    links.apps = Located(apps.map(\.value), path: memberPath, position: member.value.location)
                }
            case "defaults":
                links.defaults = defaults(member.value, memberPath)
                links.defaultsPosition = member.keyLocation
            case "details":
                if let elements = member.value.elements {
                    links.detailsForm = .array
                    links.details = elements.enumerated().compactMap { index, element in
                        buildDetail(element, path: memberPath.appending(index))
                    }
                } else if let entries = member.value.members {
                    links.detailsForm = .dictionary
                    links.details = entries.compactMap { entry in
                        let entryPath = memberPath.appending(entry.key)
                        guard var detail = buildDetail(entry.value, path: entryPath) else { return nil }
                        detail.fromDictionary = true
                        if detail.appID == nil && detail.appIDs == nil {
                            detail.appID = Located(entry.key, path: entryPath, position: entry.keyLocation)
                        }
                        return detail
                    }
                } else {
                    mismatch(member.value, memberPath, expected: "array (or the legacy object keyed by app ID)")
                }
            case "substitutionVariables":
                guard let variables = object(member.value, memberPath) else { continue }
                links.substitutionVariables = variables.map { variable in
                    let variablePath = memberPath.appending(variable.key)
                    return SubstitutionVariable(
                        name: variable.key, path: variablePath, position: variable.keyLocation,
                        values: strings(variable.value, variablePath) ?? [])
                }
            default:
                let key = UnknownKey(path: memberPath, position: member.keyLocation, key: member.key)
                links.unknownKeys.append(key)
                unknown.append(key)
            }
        }
        return completingRules(links)
    }

    private mutating func buildDetail(_ node: JSONNode, path: JSONPath) -> AppLinksDetail? {
        guard let members = object(node, path) else { return nil }
        var detail = AppLinksDetail(path: path, position: node.location)
        for member in members {
            let memberPath = path.appending(member.key)
            switch member.key {
            case "appIDs": detail.appIDs = strings(member.value, memberPath)
            case "appID": detail.appID = string(member.value, memberPath)
            case "paths": detail.paths = strings(member.value, memberPath)
            case "defaults": detail.defaults = defaults(member.value, memberPath)
            case "components":
                guard let elements = member.value.elements else {
                    mismatch(member.value, memberPath, expected: "array of objects")
                    continue
                }
                detail.components = elements.enumerated().compactMap { index, element in
                    buildComponent(element, path: memberPath.appending(index))
                }
            default:
                let key = UnknownKey(path: memberPath, position: member.keyLocation, key: member.key)
                detail.unknownKeys.append(key)
                unknown.append(key)
            }
        }
        return detail
    }

    private mutating func buildComponent(_ node: JSONNode, path: JSONPath) -> ComponentRule? {
        guard let members = object(node, path) else { return nil }
        var rule = ComponentRule(path: path, position: node.location)
        for member in members {
            let memberPath = path.appending(member.key)
            switch member.key {
            case "/": rule.pathPattern = string(member.value, memberPath)
            case "#": rule.fragment = string(member.value, memberPath)
            case "?":
                if let text = member.value.stringValue {
                    rule.query = .string(Located(text, path: memberPath, position: member.value.location))
                } else if let items = member.value.members {
                    rule.query = .items(
                        items.map { item in
                            let itemPath = memberPath.appending(item.key)
                            return (
                                item.key,
                                item.value.stringValue.map {
                                    Located($0, path: itemPath, position: item.value.location)
                                }
                            )
                        })
                } else {
                    mismatch(member.value, memberPath, expected: "string or object of strings")
                }
            case "exclude":
                rule.exclude = bool(member.value, memberPath) ?? false
                rule.givesExclude = true
            case "comment": rule.comment = string(member.value, memberPath)?.value
            case "caseSensitive": rule.settings.caseSensitive = bool(member.value, memberPath)
            case "percentEncoded": rule.settings.percentEncoded = bool(member.value, memberPath)
            default:
                let key = UnknownKey(path: memberPath, position: member.keyLocation, key: member.key)
                rule.unknownKeys.append(key)
                unknown.append(key)
            }
        }
        return rule
    }
}
