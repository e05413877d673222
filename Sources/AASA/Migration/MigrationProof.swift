extension Migrator {
    /// Compares the original and the migrated document on probe URLs derived from every pattern
    /// of both, plus `extraURLs` (an access log, for example). With
    /// ``MigrationOptions/keepLegacy`` the way iOS 12 and earlier read both files (`appID` and
    /// `paths` only; see ``LegacyReading``) is compared too, on the same URLs.
    /// - Parameters:
    ///   - keeping: How many verdict changes to keep in the reports (all are counted).
    public static func prove(
        _ migration: Migration, extraURLs: some Sequence<String> = [String](),
        generator: ProbeURLGenerator = ProbeURLGenerator(),
        keeping limit: Int = 1000
    ) -> MigrationProof {
        let old = migration.originalDocument
        let new = migration.document
        let probes = generator.probes(for: [old, new])
        let modern = EquivalenceCheck(old: old, new: new)
        let legacy =
            migration.options.keepLegacy
            ? EquivalenceCheck(old: LegacyReading.document(old), new: LegacyReading.document(new)) : nil
        var proof = MigrationProof(
            probeCount: probes.urls.count, patternCount: probes.patternCount, truncated: probes.truncated,
            modern: EquivalenceReport(), legacy: legacy.map { _ in EquivalenceReport() })
        func compare(_ url: String) {
            proof.modern.add(url, modern.compare(url), limit: limit)
            if let legacy { proof.legacy!.add(url, legacy.compare(url), limit: limit) }
        }
        for url in probes.urls { compare(url) }
        let budget = generator.urlBudget(forPatterns: probes.patternCount)
        for url in extraURLs {
            guard proof.extraCount < budget else {
                proof.extraTruncated = true
                break
            }
            proof.extraCount += 1
            compare(url)
        }
        return proof
    }
}

/// The evidence that a migration keeps every app's verdict.
public struct MigrationProof: Sendable, Hashable {
    /// Probe URLs derived from the patterns of both documents.
    public var probeCount: Int
    /// How many patterns they came from.
    public var patternCount: Int
    /// Whether the probe set was cut at the generator's maximum or its comparison budget.
    public var truncated: Bool
    /// URLs taken from the caller (`--urls-file`).
    public var extraCount = 0
    /// Whether the caller's URLs were cut at the comparison budget (the rest not compared).
    public var extraTruncated = false
    /// iOS 13 and later: the documents as the matcher reads them.
    public var modern: EquivalenceReport
    /// iOS 12 and earlier (`appID` and `paths` only), compared with ``MigrationOptions/keepLegacy``.
    public var legacy: EquivalenceReport?

    /// URLs compared (each against both readings when ``legacy`` is set).
    public var compared: Int { modern.compared }

    /// Whether no URL changed verdict for any app.
    public var isEquivalent: Bool { modern.isEquivalent && (legacy?.isEquivalent ?? true) }
}
