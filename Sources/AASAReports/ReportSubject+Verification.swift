import AASA

extension ReportSubject {
    /// A verified file: a finding when the signature or the chain fails, and one per warning of
    /// the verification policy (the rules and messages `check` gives them); none when it is valid.
    public init(path: String, verification result: VerificationResult) {
        var findings: [Finding] = []
        if !result.isValid {
            let finding = DeprecationReport.finding(for: result.verdict)
            let severity: Severity = result.verdict.isValidThen ? .warning : .error
            findings.append(
                Finding(diagnostic: Diagnostic(finding.rule, finding.message, at: .file, severity: severity)))
        }
        for warning in result.warnings {
            findings.append(
                Finding(
                    diagnostic: Diagnostic(
                        DeprecationReport.weakSignatureRule, warning.message, at: .file, severity: .warning)))
        }
        self.init(path: path, mimeType: nil, positions: .none, findings: findings)
        verdict = result.verdict.code
    }
}
