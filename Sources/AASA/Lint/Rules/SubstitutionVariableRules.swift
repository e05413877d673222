import Foundation

/// Rules about `applinks.substitutionVariables` and the `$(name)` references in components
/// patterns (iOS 14+; Apple's reference lists iOS 13.5).
enum SubstitutionVariableRules {
    static let checks: [DocumentCheck] = [
        invalidVariableName, nestedVariable, undefinedVariable, emptyVariable, variableShadowsBuiltin,
        unterminatedVariable, emptyVariableValue,
    ]

    static var builtinNames: [String] { BuiltinVariable.allCases.map(\.rawValue) }

    static func variables(_ document: AASADocument) -> [SubstitutionVariable] {
        document.appLinks?.substitutionVariables ?? []
    }

    /// Every components pattern that may use variables: `/`, `#`, a `?` string, `?` item values.
    static func patterns(_ document: AASADocument) -> [Located<String>] {
        AppLinksStructureRules.details(document).flatMap { detail in
            (detail.components ?? []).flatMap { rule -> [Located<String>] in
                var result: [Located<String>] = []
                if let pattern = rule.pathPattern { result.append(pattern) }
                switch rule.query {
                case .string(let pattern)?: result.append(pattern)
                case .items(let items)?: result += items.compactMap(\.value)
                case nil: break
                }
                if let fragment = rule.fragment { result.append(fragment) }
                return result
            }
        }
    }

    /// `invalid-variable-name`: a name with `$`, `(` or `)`.
    @Sendable static func invalidVariableName(_ document: AASADocument) -> [Diagnostic] {
        variables(document).compactMap { variable in
            let bad = variable.name.filter { "$()".contains($0) }
            guard let first = bad.first else { return nil }
            return Diagnostic(
                .invalidVariableName,
                "Variable name \(quotedShortened(variable.name)) contains \(quotedShortened(String(first))): names may contain any character"
                    + " except $, ( and ), so no pattern can refer to this variable. Rename it.",
                path: variable.path, position: variable.position)
        }
    }

    /// `nested-variable`: a value containing `$(`.
    @Sendable static func nestedVariable(_ document: AASADocument) -> [Diagnostic] {
        variables(document).flatMap { variable in
            variable.values.filter { $0.value.utf8.contains(UInt8(ascii: "$")) && $0.value.contains("$(") }.map {
                value in
                Diagnostic(
                    .nestedVariable,
                    "Value \(quotedShortened(value.value)) of variable \(quotedShortened(variable.name)) contains \"$(\": a variable's values may use"
                        + " the * and ? wildcards but not other variables. List the expanded values instead.",
                    path: value.path, position: value.position)
            }
        }
    }

    /// `undefined-variable`: `$(name)` in a pattern, neither defined nor built in.
    @Sendable static func undefinedVariable(_ document: AASADocument) -> [Diagnostic] {
        let defined = variables(document).map(\.name)
        let known = Set(defined + builtinNames)
        return patterns(document).flatMap { pattern -> [Diagnostic] in
            var reported: Set<String> = []
            return PatternSyntax.variableNames(in: pattern.value).compactMap { name -> Diagnostic? in
                guard !known.contains(name), reported.insert(name).inserted else { return nil }
                let hint = didYouMean(name, known: defined + builtinNames)
                return Diagnostic(
                    .undefinedVariable,
                    "Pattern \(quotedShortened(pattern.value)) uses $(\(name))\(hint), which is neither defined in"
                        + " applinks.substitutionVariables nor built in (\(builtinNames.joined(separator: ", "))): the pattern"
                        + " cannot match as intended. Define it or fix the name (names are case-sensitive).",
                    path: pattern.path, position: pattern.position)
            }
        }
    }

    /// `empty-variable`: `"name": []`.
    @Sendable static func emptyVariable(_ document: AASADocument) -> [Diagnostic] {
        variables(document).compactMap { variable in
            guard document.root.node(at: variable.path)?.elements?.isEmpty == true else { return nil }
            return Diagnostic(
                .emptyVariable,
                "Variable \(quotedShortened(variable.name)) has no values, so a pattern that uses $(\(variable.name)) matches no URL."
                    + " Add values or remove the variable.",
                path: variable.path, position: variable.position)
        }
    }

    /// `variable-shadows-builtin`: a custom variable named like a built-in one.
    @Sendable static func variableShadowsBuiltin(_ document: AASADocument) -> [Diagnostic] {
        variables(document).compactMap { variable in
            guard let builtin = BuiltinVariable(rawValue: variable.name) else { return nil }
            let meaning: String
            switch builtin {
            case .alpha: meaning = "one ASCII letter"
            case .upper: meaning = "one upper-case ASCII letter"
            case .lower: meaning = "one lower-case ASCII letter"
            case .alnum: meaning = "one ASCII letter or digit"
            case .digit: meaning = "one digit"
            case .xdigit: meaning = "one hexadecimal digit"
            case .region: meaning = "one region code"
            case .lang: meaning = "one language code"
            }
            return Diagnostic(
                .variableShadowsBuiltin,
                "Custom variable \(quotedShortened(variable.name)) has the name of a built-in variable (the built-in $(\(variable.name)) matches \(meaning));"
                    + " which of the two iOS uses is not documented. Rename the custom variable.",
                path: variable.path, position: variable.position)
        }
    }

    /// `unterminated-variable`: `$(` without `)` in a pattern or a variable's value.
    @Sendable static func unterminatedVariable(_ document: AASADocument) -> [Diagnostic] {
        let values = variables(document).flatMap(\.values)
        return (patterns(document) + values).compactMap { pattern in
            do {
                try PatternSyntax.check(pattern.value)
                return nil
            } catch {
                let offset = (error as? PatternSyntaxError)?.offset ?? 0
                return Diagnostic(
                    .unterminatedVariable,
                    "\(quotedShortened(pattern.value)): the \"$(\" at character \(offset + 1) has no closing \")\", so it is not a"
                        + " variable reference and the pattern cannot match as intended. Close it: $(name).",
                    path: pattern.path, position: pattern.position)
            }
        }
    }

    /// `empty-variable-value`: `""` among a variable's values.
    @Sendable static func emptyVariableValue(_ document: AASADocument) -> [Diagnostic] {
        variables(document).flatMap { variable in
            variable.values.filter { $0.value.isEmpty }.map { value in
                Diagnostic(
                    .emptyVariableValue,
                    "\"\" among the values of \(quotedShortened(variable.name)): $(\(variable.name)) can then stand for the empty string, so"
                        + " a pattern like \"/$(\(variable.name))/*\" also matches \"//…\". Remove the empty value.",
                    path: value.path, position: value.position)
            }
        }
    }
}
