import AASA

extension TrustOptions {
    /// These options as command-line words, in a fixed order and quoted for a shell, so that a
    /// next step the report prints verifies the file the way this run did (`--ca-file` of a
    /// private PKI, `--at`, …). Empty when every option has its default.
    var commandLineWords: [String] {
        var words: [String] = []
        func add(_ flag: String, _ values: [String]) {
            for value in values { words += [flag, ShellWord.quoted(value)] }
        }
        add("--ca-file", anchors.caFiles)
        add("--ca-dir", anchors.caDirectories)
        if anchors.noSystemRoots { words.append("--no-system-roots") }
        add("--intermediates", intermediateFiles)
        if purpose != .sslServer { add("--purpose", [purpose.rawValue]) }
        words += checkTime.commandLineWords
        add("--domain", domain.map { [$0] } ?? [])
        add("--min-days-valid", minDaysValid.map { ["\($0)"] } ?? [])
        if partialChain { words.append("--partial-chain") }
        if allowWeakCrypto { words.append("--allow-weak-crypto") }
        if fetchIssuers { words.append("--fetch-issuers") }
        add("--fetch-timeout", fetchTimeout.map { ["\($0)"] } ?? [])
        return words
    }
}
