import Foundation

/// What every `--format sarif` log of aasa must be, checked in one place for the CLI and the
/// audit tests: valid against the official SARIF 2.1.0 schema (Tests/Fixtures/schemas), one
/// run whose columns are UTF-16 code units, and, for every result, a region with a start
/// line, an `aasaFinding/v1` fingerprint, and a `ruleIndex` naming a rule of the run whose
/// id is the result's `ruleId`, with a full description, help naming `aasa rules ID` (the rule's
/// documentation offline) and Markdown help, and, when the log has a `helpUri` (only with
/// `--rules-url`), an absolute one with the rule as its fragment.
public enum SARIFCheck {
    /// The vendored schema.
    public static let schema = Repository.root.appendingPathComponent("Tests/Fixtures/schemas/sarif-schema-2.1.0.json")

    /// The log's one run, and every way the log falls short (empty when it is as it must be).
    public static func check(_ log: Data) -> (run: [String: Any]?, problems: [String]) {
        var problems: [String] = []
        let validation = SchemaValidation.json(log, schema: schema)
        if !validation.valid { problems.append("not valid against the SARIF 2.1.0 schema: \(validation)") }
        guard let object = try? JSONSerialization.jsonObject(with: log) as? [String: Any],
            let runs = object["runs"] as? [[String: Any]], runs.count == 1
        else {
            return (nil, problems + ["not a SARIF log with one run"])
        }
        let run = runs[0]
        if run["columnKind"] as? String != "utf16CodeUnits" { problems.append("columnKind is not utf16CodeUnits") }
        let base = (run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any]
        if let uri = base?["uri"] as? String, !(uri.hasPrefix("file:///") && uri.hasSuffix("/")) {
            problems.append("%SRCROOT% is not a file URI ending in '/': \(uri)")
        } else if base == nil {
            problems.append("no %SRCROOT% in originalUriBaseIds")
        }
        let driver = (run["tool"] as? [String: Any])?["driver"] as? [String: Any]
        let rules = driver?["rules"] as? [[String: Any]] ?? []
        for result in run["results"] as? [[String: Any]] ?? [] {
            let ruleID = result["ruleId"] as? String ?? "?"
            let location = (result["locations"] as? [[String: Any]])?.first
            let region = (location?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
            if (region?["startLine"] as? Int ?? 0) < 1 { problems.append("\(ruleID): no region.startLine") }
            let fingerprint = (result["partialFingerprints"] as? [String: String])?["aasaFinding/v1"]
            if fingerprint?.hasPrefix("v1:") != true { problems.append("\(ruleID): no aasaFinding/v1 fingerprint") }
            guard let index = result["ruleIndex"] as? Int, rules.indices.contains(index) else {
                problems.append("\(ruleID): ruleIndex does not point into the rules")
                continue
            }
            let rule = rules[index]
            if rule["id"] as? String != ruleID { problems.append("\(ruleID): ruleIndex \(index) names another rule") }
            let helpURI = (rule["helpUri"] as? String).flatMap(URL.init(string:))
            if !((rule["help"] as? [String: Any])?["text"] as? String ?? "").contains("`aasa rules \(ruleID)`") {
                problems.append("\(ruleID): help.text does not name aasa rules \(ruleID)")
            }
            if rule["helpUri"] != nil, helpURI?.scheme == nil || helpURI?.host == nil || helpURI?.fragment != ruleID {
                problems.append(
                    "\(ruleID): helpUri is not absolute with the rule as fragment: \(rule["helpUri"] ?? "none")")
            }
            if ((rule["fullDescription"] as? [String: Any])?["text"] as? String ?? "").isEmpty {
                problems.append("\(ruleID): no fullDescription")
            }
            if ((rule["help"] as? [String: Any])?["markdown"] as? String ?? "").isEmpty {
                problems.append("\(ruleID): no help.markdown")
            }
        }
        return (run, problems)
    }
}
