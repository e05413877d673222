import AASA
import ArgumentParser

/// `--max-url-length`, the limit of the commands that read URLs (`match`, `diff`, `migrate`).
struct URLLengthOption: ParsableArguments {
    @Option(
        name: .customLong("max-url-length"),
        help: ArgumentHelp("The longest URL, in bytes, that is matched; longer ones are reported.", valueName: "n"))
    var maxURLLength = InputLimits.default.maximumURLLength

    static let largestURLLength = 1024 * 1024

    func validate() throws {
        guard (1...Self.largestURLLength).contains(maxURLLength) else {
            throw ValidationError("--max-url-length must be from 1 to \(Self.largestURLLength)")
        }
    }
}
